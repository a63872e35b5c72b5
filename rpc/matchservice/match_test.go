package matchservice_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	_ "github.com/botarena/botarena/env/battlebots" // registers battlebots
	"github.com/botarena/botarena/league"
	"github.com/botarena/botarena/match"
	"github.com/botarena/botarena/observations/matchdata"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
	"github.com/botarena/botarena/rpc/internal/rpctest"
	"github.com/botarena/botarena/rpc/matchservice"
	"github.com/botarena/botarena/rpc/server"
)

// waiter is a BattleBots agent that, while gate is set, waits in Act until
// the gate closes, counting the games waiting at once.
var waiter struct {
	mu      sync.Mutex
	gate    chan struct{}
	running atomic.Int32
	most    atomic.Int32
	entered chan struct{} // gets a value each time Act starts waiting
}

type waitingAgent struct{}

func (waitingAgent) Reset(env.Env, int, uint64) {}
func (waitingAgent) Act(env.Env, int) int32 {
	waiter.mu.Lock()
	gate, entered := waiter.gate, waiter.entered
	waiter.mu.Unlock()
	if gate == nil {
		return 0
	}
	n := waiter.running.Add(1)
	for {
		m := waiter.most.Load()
		if n <= m || waiter.most.CompareAndSwap(m, n) {
			break
		}
	}
	select {
	case entered <- struct{}{}:
	default: // the test no longer counts
	}
	<-gate
	waiter.running.Add(-1)
	return 0
}

func init() {
	agents.Register("rpc-test-waits", "waits for the test's gate in Act (rpc tests)", func(*env.Spec) (env.Agent, error) {
		return waitingAgent{}, nil
	})
}

// setGate sets a new gate for waitingAgent, with room for n entries
// without blocking, and returns its opener.
func setGate(t *testing.T, n int) (open func(), entered chan struct{}) {
	t.Helper()
	gate := make(chan struct{})
	entered = make(chan struct{}, n)
	waiter.mu.Lock()
	waiter.gate, waiter.entered = gate, entered
	waiter.mu.Unlock()
	waiter.most.Store(0)
	var once sync.Once
	open = func() { once.Do(func() { close(gate) }) }
	t.Cleanup(func() {
		open()
		waiter.mu.Lock()
		waiter.gate, waiter.entered = nil, nil
		waiter.mu.Unlock()
	})
	return open, entered
}

// localResult plays req with league.LocalRunner, the reference.
func localResult(t *testing.T, req *botarenav1.PlayRequest) league.Result {
	t.Helper()
	m := league.Match{Index: req.GetIndex(), Seed: req.GetSeed(), Game: req.GetGame(), MaxRounds: int(req.GetMaxRounds()), Record: req.GetRecord()}
	if req.GetConfigJson() != "" {
		m.Config = json.RawMessage(req.GetConfigJson())
	}
	for _, s := range req.GetSeats() {
		m.Seats = append(m.Seats, league.Entrant{Name: s.GetName(), Spec: s.GetSpec()})
	}
	res, err := (&league.LocalRunner{}).Play(t.Context(), m)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// standings converts a response's result, in the league's compact form
// (what a PlayResponse carries), for comparison with [lineOf].
func standings(resp *botarenav1.PlayResponse) league.GameLine {
	return wireLine(resp.GetIndex(), resp.GetSeed(), resp.GetRounds(), resp.GetWinner(), resp.GetDraw(), resp.GetForfeit(), resp.GetStandings())
}

// lineOf returns a result in the league's compact form, for comparison
// with what the wire carries.
func lineOf(r league.Result) league.GameLine { return league.GameRecord{Result: r}.Line() }

// wireLine returns the league's compact form of a result sent as a
// PlayResponse's or LeagueGame's fields.
func wireLine(index int64, seed uint64, rounds, winner int32, draw bool, forfeit int32, st []*botarenav1.MatchStanding) league.GameLine {
	l := league.GameLine{Index: index, Seed: seed, Rounds: int(rounds), Winner: int(winner), Draw: draw, Forfeit: int(forfeit)}
	for _, s := range st {
		f := s.GetFaults()
		l.Standings = append(l.Standings, league.StandingLine{Seat: int(s.GetSeat()), Agent: s.GetAgent(), Rank: int(s.GetRank()), Score: s.GetScore(), Alive: s.GetAlive(), Death: s.GetDeath(),
			Faults: match.Faults{TimedOut: int(f.GetTimedOut()), Crashed: int(f.GetCrashed()), Invalid: int(f.GetInvalid())}, Actions: actionsOf(s)})
	}
	return l
}

// actionsOf returns a standing's actions by kind, in order.
func actionsOf(s *botarenav1.MatchStanding) match.Actions {
	var a match.Actions
	for _, c := range s.GetActions() {
		a.Kinds, a.N = append(a.Kinds, c.GetKind()), append(a.N, float64(c.GetCount()))
	}
	return a
}

// playCase is a named match of a table test.
type playCase struct {
	name string
	req  *botarenav1.PlayRequest
}

// playBatch plays the cases' matches in one PlayBatch call on c, failing t
// unless every one has an outcome.
func playBatch(t *testing.T, c botarenav1connect.MatchServiceClient, cases []playCase) *botarenav1.PlayBatchResponse {
	t.Helper()
	batch := &botarenav1.PlayBatchRequest{}
	for _, tc := range cases {
		batch.Matches = append(batch.Matches, tc.req)
	}
	got, err := c.PlayBatch(t.Context(), batch)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.GetOutcomes()) != len(cases) {
		t.Fatalf("PlayBatch: %d outcomes, want %d", len(got.GetOutcomes()), len(cases))
	}
	return got
}

// nopBatch returns a batch of n recorded BattleBots matches of two nop
// seats to 50 rounds (index and seed i): large recordings, about 3.9 kB a
// round.
func nopBatch(n int) *botarenav1.PlayBatchRequest {
	req := &botarenav1.PlayBatchRequest{}
	for i := range n {
		req.Matches = append(req.Matches, &botarenav1.PlayRequest{Game: "battlebots", Seats: rpctest.Seats("nop", "nop"), Index: int64(i), Seed: uint64(i), MaxRounds: 50, Record: true})
	}
	return req
}

func TestPlayGivesTheLocalRunnersResult(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	c := ts.MatchClient(t)
	tests := []playCase{
		{"battlebots_to_the_end", &botarenav1.PlayRequest{Game: "battlebots", Seats: rpctest.Seats("huggy", "sniper"), Seed: 7, Index: 3}},
		{"battlebots_max_rounds", &botarenav1.PlayRequest{Game: "battlebots", Seats: rpctest.Seats("random", "nop"), Seed: 8, MaxRounds: 20}},
		{"battlebots_config", &botarenav1.PlayRequest{Game: "battlebots", ConfigJson: `{"max_rounds":40}`, Seats: rpctest.Seats("sniper", "random"), Seed: 9}},
		{"bomberman_four_seats", &botarenav1.PlayRequest{Game: "bomberman", Seats: rpctest.Seats("random", "random", "random", "random"), Seed: 10, MaxRounds: 50}},
	}
	got := playBatch(t, c, tests)
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := localResult(t, tt.req)
			resp, err := c.Play(t.Context(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if r := standings(resp); !reflect.DeepEqual(r, lineOf(want)) {
				t.Errorf("Play:\n got %+v\nwant %+v", r, want)
			}
			if r := standings(got.GetOutcomes()[i].GetResult()); !reflect.DeepEqual(r, lineOf(want)) {
				t.Errorf("PlayBatch outcome %d:\n got %+v\nwant %+v", i, r, want)
			}
		})
	}
}

// diffRows describes the first difference between two games' data, or
// returns "" when they are byte for byte the same (nil and empty slices
// count as the same; rewards compare by their bits).
func diffRows(got, want *matchdata.Rows) string {
	switch {
	case got == nil || want == nil:
		if got != want {
			return fmt.Sprintf("data %v, want %v", got, want)
		}
		return ""
	case got.Game != want.Game || got.Seed != want.Seed || got.Steps != want.Steps:
		return fmt.Sprintf("game %d seed %d steps %d, want %d %d %d", got.Game, got.Seed, got.Steps, want.Game, want.Seed, want.Steps)
	case !slices.Equal(got.Agents, want.Agents):
		return fmt.Sprintf("agents %q, want %q", got.Agents, want.Agents)
	case len(got.Obs) != len(want.Obs):
		return fmt.Sprintf("%d tensors, want %d", len(got.Obs), len(want.Obs))
	case !bytes.Equal(got.Mask, want.Mask):
		return "masks differ"
	case !slices.Equal(got.Action, want.Action):
		return "actions differ"
	case !slices.EqualFunc(got.Reward, want.Reward, func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) }):
		return "rewards differ"
	case !slices.Equal(got.Terminated, want.Terminated) || !slices.Equal(got.Truncated, want.Truncated):
		return "flags differ"
	}
	for i := range got.Obs {
		if !bytes.Equal(got.Obs[i], want.Obs[i]) {
			return fmt.Sprintf("tensor %d differs", i)
		}
	}
	return ""
}

// responseRows returns the data of resp as matchdata.Rows.
func responseRows(resp *botarenav1.PlayResponse) *matchdata.Rows {
	d := resp.GetData()
	if d == nil {
		return nil
	}
	return &matchdata.Rows{
		Game: resp.GetIndex(), Seed: resp.GetSeed(), Agents: d.GetAgents(), Steps: int(d.GetSteps()),
		Obs: d.GetObs(), Mask: d.GetMask(), Action: d.GetAction(), Reward: d.GetReward(),
		Terminated: d.GetTerminated(), Truncated: d.GetTruncated(),
	}
}

func TestPlayRecordsTheLocalRunnersData(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	c := ts.MatchClient(t)
	tests := []playCase{
		{"battlebots_to_the_end", &botarenav1.PlayRequest{Game: "battlebots", Seats: rpctest.Seats("huggy", "sniper"), Seed: 7, Index: 3, Record: true}},
		{"battlebots_max_rounds", &botarenav1.PlayRequest{Game: "battlebots", Seats: rpctest.Seats("random", "nop"), Seed: 8, MaxRounds: 20, Record: true}},
		{"bomberman_four_seats", &botarenav1.PlayRequest{Game: "bomberman", Seats: rpctest.Seats("random", "random", "random", "random"), Seed: 10, MaxRounds: 50, Record: true}},
		{"not_recorded", &botarenav1.PlayRequest{Game: "battlebots", Seats: rpctest.Seats("huggy", "nop"), Seed: 11, MaxRounds: 20}},
	}
	got := playBatch(t, c, tests)
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := localResult(t, tt.req)
			if tt.req.GetRecord() && (want.Data == nil || want.Data.Steps == 0) {
				t.Fatalf("the local runner recorded %v, want some steps", want.Data)
			}
			resp, err := c.Play(t.Context(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if d := diffRows(responseRows(resp), want.Data); d != "" {
				t.Errorf("Play: %s", d)
			}
			if d := diffRows(responseRows(got.GetOutcomes()[i].GetResult()), want.Data); d != "" {
				t.Errorf("PlayBatch outcome %d: %s", i, d)
			}
		})
	}
}

func TestRecordedGamesOverTheMessageLimitAreResourceExhausted(t *testing.T) {
	t.Parallel()
	// Two nop seats play to max_rounds; a recorded BattleBots round is
	// about 3.9 kB, so a 30-round game is about 118 kB and a 60-round one
	// about 236 kB.
	ts := rpctest.New(t, server.WithMaxMessageBytes(200_000))
	c := ts.MatchClient(t)
	game := func(index int64, rounds int32, record bool) *botarenav1.PlayRequest {
		return &botarenav1.PlayRequest{Game: "battlebots", Seats: rpctest.Seats("nop", "nop"), Index: index, Seed: uint64(index), MaxRounds: rounds, Record: record}
	}
	if _, err := c.Play(t.Context(), game(1, 30, true)); err != nil {
		t.Fatalf("a 30-round recorded game: %v", err)
	}
	_, err := c.Play(t.Context(), game(2, 60, true))
	rpctest.WantCode(t, err, connect.CodeResourceExhausted, "game 2", "message limit of 0.2 MiB", "--max-rounds")

	// In a batch, the games that fit keep their results.
	resp, err := c.PlayBatch(t.Context(), &botarenav1.PlayBatchRequest{Matches: []*botarenav1.PlayRequest{
		game(3, 30, true), game(4, 30, true), game(5, 30, false),
	}})
	if err != nil {
		t.Fatal(err)
	}
	outs := resp.GetOutcomes()
	if outs[0].GetResult().GetData() == nil || outs[2].GetResult() == nil {
		t.Errorf("the games that fit got %v and %v, want results", outs[0], outs[2])
	}
	e := outs[1].GetError()
	if e.GetCode() != connect.CodeResourceExhausted.String() {
		t.Fatalf("the game over the limit got %v, want resource_exhausted", outs[1])
	}
	for _, s := range []string{"matches[1]: game 4", "message limit of 0.2 MiB", "--server-batch"} {
		if !strings.Contains(e.GetMessage(), s) {
			t.Errorf("message %q does not contain %q", e.GetMessage(), s)
		}
	}
}

func TestPlayRefusesWhatItCannotPlayWithItsCode(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	allowing := rpctest.New(t, server.WithAgentCapabilities(agents.Capabilities{Unrestricted: true}))
	game := func(specs ...string) *botarenav1.PlayRequest {
		return &botarenav1.PlayRequest{Game: "battlebots", Seats: rpctest.Seats(specs...), Seed: 1}
	}
	tests := []struct {
		name  string
		ts    *rpctest.Server
		req   *botarenav1.PlayRequest
		code  connect.Code
		wants []string
	}{
		{"game_required", ts, &botarenav1.PlayRequest{Seats: rpctest.Seats("nop", "nop")}, connect.CodeInvalidArgument, []string{"game: required", "battlebots"}},
		{"unknown_game_is_not_found", ts, &botarenav1.PlayRequest{Game: "chess", Seats: rpctest.Seats("nop", "nop")}, connect.CodeNotFound, []string{"chess"}},
		{"unknown_agent_is_not_found", ts, game("nop", "ghost"), connect.CodeNotFound, []string{"seats[1]", "ghost"}},
		{"external_bot_is_permission_denied", ts, game("nop", "cmd:python3 bot.py"), connect.CodePermissionDenied, []string{"seats[1]", "cmd:python3 bot.py", "--allow-external-bots"}},
		{"policy_file_is_permission_denied", ts, game("policy:/etc/passwd", "nop"), connect.CodePermissionDenied, []string{"seats[0]", "--allow-external-bots"}},
		{"allowed_external_bot_reaches_the_agent", allowing, game("nop", "cmd:"), connect.CodeInvalidArgument, []string{"agent cmd:"}},
		{"console_is_invalid", ts, game("console", "nop"), connect.CodeInvalidArgument, []string{"seats[0]", "console"}},
		{"seats_required", ts, game(), connect.CodeInvalidArgument, []string{"seats: required"}},
		{"seat_count_must_be_the_games", ts, game("nop", "nop", "nop"), connect.CodeInvalidArgument, []string{"2 names", "got 3"}},
		{"config_must_be_a_json_object", ts, &botarenav1.PlayRequest{Game: "battlebots", ConfigJson: "[1]", Seats: rpctest.Seats("nop", "nop")}, connect.CodeInvalidArgument, []string{"config"}},
		{"negative_max_rounds_is_invalid", ts, &botarenav1.PlayRequest{Game: "battlebots", MaxRounds: -1, Seats: rpctest.Seats("nop", "nop")}, connect.CodeInvalidArgument, []string{"max_rounds", "-1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.ts.MatchClient(t)
			_, err := c.Play(t.Context(), tt.req)
			rpctest.WantCode(t, err, tt.code, tt.wants...)
			// In a batch, the same error is that game's outcome, and the
			// other games are played.
			resp, err := c.PlayBatch(t.Context(), &botarenav1.PlayBatchRequest{Matches: []*botarenav1.PlayRequest{game("nop", "nop"), tt.req}})
			if err != nil {
				t.Fatal(err)
			}
			if resp.GetOutcomes()[0].GetResult() == nil {
				t.Errorf("the valid game of the batch got %v", resp.GetOutcomes()[0])
			}
			e := resp.GetOutcomes()[1].GetError()
			if e.GetCode() != tt.code.String() {
				t.Errorf("batch outcome code %q, want %q (%s)", e.GetCode(), tt.code, e.GetMessage())
			}
			for _, s := range append([]string{"matches[1]: "}, tt.wants...) {
				if !strings.Contains(e.GetMessage(), s) {
					t.Errorf("batch outcome message %q does not contain %q", e.GetMessage(), s)
				}
			}
		})
	}
}

// These tests use the shared waitingAgent gate, so they do not run in
// parallel with each other.

func TestPlayBatchPlaysAtMostMaxMatchesAtOnce(t *testing.T) {
	ts := rpctest.New(t, matchservice.WithMaxMatches(2))
	c := ts.MatchClient(t)
	open, entered := setGate(t, 8)
	req := &botarenav1.PlayBatchRequest{}
	for i := range 6 {
		req.Matches = append(req.Matches, &botarenav1.PlayRequest{Game: "battlebots", Seats: rpctest.Seats("rpc-test-waits", "nop"), Seed: uint64(i), MaxRounds: 1})
	}
	done := make(chan error, 1)
	go func() {
		_, err := c.PlayBatch(context.Background(), req)
		done <- err
	}()
	<-entered
	<-entered // two games wait in Act: the limit is reached
	open()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if most := waiter.most.Load(); most != 2 {
		t.Errorf("at most %d games played at once, want 2 (WithMaxMatches)", most)
	}
}

func TestPlayCancellationStopsTheGameAndFreesItsSlot(t *testing.T) {
	ts := rpctest.New(t, matchservice.WithMaxMatches(1))
	c := ts.MatchClient(t)
	open, entered := setGate(t, 4)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := c.Play(ctx, &botarenav1.PlayRequest{Game: "battlebots", Seats: rpctest.Seats("rpc-test-waits", "nop"), Seed: 1})
		done <- err
	}()
	<-entered
	cancel()
	if err := <-done; connect.CodeOf(err) != connect.CodeCanceled {
		t.Errorf("cancelled Play: %v, want Canceled", err)
	}
	open() // the game sees its cancelled context after this round
	// The only slot is free again: a game plays (it would wait forever if
	// the cancelled game still held the slot).
	if _, err := c.Play(t.Context(), &botarenav1.PlayRequest{Game: "battlebots", Seats: rpctest.Seats("nop", "nop"), Seed: 2, MaxRounds: 5}); err != nil {
		t.Fatal(err)
	}
}

func TestPlayDuringCloseIsUnavailable(t *testing.T) {
	ts := rpctest.New(t)
	c := ts.MatchClient(t)
	open, entered := setGate(t, 4)
	done := make(chan error, 1)
	go func() {
		resp, err := c.PlayBatch(t.Context(), &botarenav1.PlayBatchRequest{Matches: []*botarenav1.PlayRequest{
			{Game: "battlebots", Seats: rpctest.Seats("rpc-test-waits", "nop"), Seed: 1},
		}})
		if err == nil {
			t.Errorf("PlayBatch during Close returned %v, want Unavailable", resp)
		}
		done <- err
	}()
	<-entered
	ts.Close()
	open()
	// The game is stopped by Close: Unavailable, so that a coordinator
	// plays it on another server.
	rpctest.WantCode(t, <-done, connect.CodeUnavailable, "shutting down")
	_, err := c.Play(t.Context(), &botarenav1.PlayRequest{Game: "battlebots", Seats: rpctest.Seats("nop", "nop")})
	rpctest.WantCode(t, err, connect.CodeUnavailable, "shutting down")
}

func TestPlayBatchPlaysTheOtherGamesWhenAnAgentCannotStart(t *testing.T) {
	ts := rpctest.New(t, server.WithAgentCapabilities(agents.Capabilities{Unrestricted: true}))
	c := ts.MatchClient(t)
	req := &botarenav1.PlayBatchRequest{}
	for i := range 6 {
		req.Matches = append(req.Matches, &botarenav1.PlayRequest{Game: "battlebots", Seats: rpctest.Seats("sniper", "random"), Seed: uint64(i), Index: int64(i)})
	}
	// A policy file that does not exist is only found out when the agent
	// is made, after the batch's requests passed their checks.
	req.Matches[2].Seats[1] = &botarenav1.MatchSeat{Name: "ghost", Spec: "policy:" + filepath.Join(t.TempDir(), "missing.safetensors")}
	resp, err := c.PlayBatch(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range resp.GetOutcomes() {
		if i == 2 {
			if e := o.GetError(); e == nil || !strings.Contains(e.GetMessage(), "matches[2]: ") || !strings.Contains(e.GetMessage(), "missing.safetensors") {
				t.Errorf("outcome 2: %v, want the missing policy file's error", o)
			}
			continue
		}
		if got, want := standings(o.GetResult()), lineOf(localResult(t, req.Matches[i])); !reflect.DeepEqual(got, want) {
			t.Errorf("outcome %d: %+v, want the local runner's %+v", i, got, want)
		}
	}
}

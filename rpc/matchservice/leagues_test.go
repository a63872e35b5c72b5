package matchservice_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/league"
	"github.com/botarena/botarena/match"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
	"github.com/botarena/botarena/rpc/internal/rpctest"
	"github.com/botarena/botarena/rpc/matchservice"
	"github.com/botarena/botarena/rpc/server"
)

// textChart is the league.ChartFunc of these tests: the title as text.
func textChart(w io.Writer, title string, rows []league.Row) error {
	_, err := fmt.Fprintf(w, "chart %s, %d agents", title, len(rows))
	return err
}

// newLeagueServer serves the leagues of a new folder, which it returns,
// with opts as [rpctest.New] takes them.
func newLeagueServer(t *testing.T, opts ...any) (*rpctest.Server, botarenav1connect.MatchServiceClient, string) {
	t.Helper()
	ls, err := league.NewLeagues(t.TempDir(), league.LeaguesOptions{Chart: textChart})
	if err != nil {
		t.Fatal(err)
	}
	ts := rpctest.New(t, append([]any{matchservice.WithLeagues(ls)}, opts...)...)
	return ts, ts.MatchClient(t), ls.Root()
}

// makeLeague creates the league name of battlebots with seed and agents
// (name = spec).
func makeLeague(t *testing.T, c botarenav1connect.MatchServiceClient, name string, seed uint64, specs ...string) {
	t.Helper()
	if _, err := c.CreateLeague(t.Context(), &botarenav1.CreateLeagueRequest{League: name, Game: "battlebots", Seed: &seed}); err != nil {
		t.Fatal(err)
	}
	for _, s := range specs {
		if _, err := c.AddLeagueAgent(t.Context(), &botarenav1.AddLeagueAgentRequest{League: name, Name: s, Spec: s}); err != nil {
			t.Fatal(err)
		}
	}
}

// runLeagueRPC calls RunLeague and returns its progress messages and summary.
func runLeagueRPC(ctx context.Context, c botarenav1connect.MatchServiceClient, req *botarenav1.RunLeagueRequest) ([]*botarenav1.LeagueRunProgress, *botarenav1.LeagueRunSummary, error) {
	stream, err := c.RunLeague(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	defer stream.Close()
	return readRun(stream)
}

// readRun reads the rest of a RunLeague stream: its progress messages and
// summary, and the stream's error.
func readRun(stream *connect.ServerStreamForClient[botarenav1.RunLeagueResponse]) ([]*botarenav1.LeagueRunProgress, *botarenav1.LeagueRunSummary, error) {
	var progress []*botarenav1.LeagueRunProgress
	var sum *botarenav1.LeagueRunSummary
	for stream.Receive() {
		if p := stream.Msg().GetProgress(); p != nil {
			progress = append(progress, p)
		}
		if s := stream.Msg().GetSummary(); s != nil {
			sum = s
		}
	}
	return progress, sum, stream.Err()
}

func TestLeagueRPCsWithoutLeaguesDirAreFailedPrecondition(t *testing.T) {
	t.Parallel()
	c := rpctest.New(t).MatchClient(t)
	_, err := c.GetLeague(t.Context(), &botarenav1.GetLeagueRequest{League: "lg"})
	rpctest.WantCode(t, err, connect.CodeFailedPrecondition, "--leagues-dir")
	_, _, err = runLeagueRPC(t.Context(), c, &botarenav1.RunLeagueRequest{League: "lg", Games: 1})
	rpctest.WantCode(t, err, connect.CodeFailedPrecondition, "--leagues-dir")
}

func TestRunLeagueStreamsProgressAndGivesTheLocalRunsResults(t *testing.T) {
	t.Parallel()
	_, c, root := newLeagueServer(t)
	specs := []string{"huggy", "nop", "sniper", "random"}
	makeLeague(t, c, "team/bb", 5, specs...)
	// 70 games: a finished rating period of 64 and a provisional one.
	req := &botarenav1.RunLeagueRequest{League: "team/bb", Games: 70, MaxRounds: 60, Workers: 3, EnvsPerWorker: 4, Png: true}
	progress, sum, err := runLeagueRPC(t.Context(), c, req)
	if err != nil {
		t.Fatal(err)
	}
	if sum == nil || sum.GetPlayed() != 70 || sum.GetGames() != 70 || sum.GetRun() != 1 || sum.GetMatch() != "round-robin" || sum.GetPng() != league.ChartFile {
		t.Fatalf("summary %v", sum)
	}
	if len(progress) < 2 || progress[0].GetDone() != 0 || progress[len(progress)-1].GetDone() != 70 || progress[0].GetTotal() != 70 {
		t.Errorf("progress %v: want a first message at 0 and a last at 70 of 70", progress)
	}
	if b, err := os.ReadFile(filepath.Join(root, "team", "bb", league.ChartFile)); err != nil || !strings.Contains(string(b), "league team/bb after 70 games") {
		t.Errorf("ratings chart: %q, %v", b, err)
	}

	// The same league run locally, as `botarena league run` runs it.
	l, err := league.Create(filepath.Join(t.TempDir(), "bb"), league.Settings{Game: "battlebots", Seed: 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, s := range specs {
		if err := l.AddAgent(league.Agent{Name: s, Spec: s}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.Run(t.Context(), league.RunOptions{Games: 70, MaxRounds: 60}); err != nil {
		t.Fatal(err)
	}
	want, err := l.Games(0, -1)
	if err != nil {
		t.Fatal(err)
	}
	var got []*botarenav1.LeagueGame
	for start := int64(0); ; {
		resp, err := c.LeagueGames(t.Context(), &botarenav1.LeagueGamesRequest{League: "team/bb", Start: start, Limit: 32})
		if err != nil {
			t.Fatal(err)
		}
		if resp.GetTotal() != 70 {
			t.Fatalf("total %d, want 70", resp.GetTotal())
		}
		if len(resp.GetGames()) == 0 {
			break
		}
		got = append(got, resp.GetGames()...)
		start = got[len(got)-1].GetIndex() + 1
	}
	if len(got) != len(want) {
		t.Fatalf("%d games served, %d played locally", len(got), len(want))
	}
	for i, g := range got {
		r := wireLine(g.GetIndex(), g.GetSeed(), g.GetRounds(), g.GetWinner(), g.GetDraw(), g.GetForfeit(), g.GetStandings())
		if w := lineOf(want[i].Result); !reflect.DeepEqual(r, w) || int(g.GetRun()) != want[i].Run || len(g.GetSeats()) != 2 || g.GetSeats()[0].GetName() != want[i].Seats[0].Name {
			t.Fatalf("game %d:\n got %+v %v\nwant %+v %v", i, r, g.GetSeats(), w, want[i].Seats)
		}
	}
	table, err := c.LeagueTable(t.Context(), &botarenav1.LeagueTableRequest{League: "team/bb", Png: true})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := l.Table()
	if err != nil {
		t.Fatal(err)
	}
	if len(table.GetRows()) != len(rows) || table.GetGames() != 70 || table.GetLive() || table.GetGame() != "battlebots" {
		t.Fatalf("table %v", table)
	}
	for i, r := range table.GetRows() {
		w := rows[i]
		if r.GetAgent() != w.Agent || r.GetRank() != int32(w.Rank) || r.GetRating() != w.Rating.Rating || r.GetRd() != w.RD || r.GetElo() != w.Elo ||
			r.GetGames() != int32(w.Games) || r.GetWins() != int32(w.Wins) || r.GetWinRate() != w.WinRate {
			t.Errorf("row %d: %v, want %+v", i, r, w)
		}
		var means match.Actions
		for _, a := range r.GetMeanActions() {
			means.Kinds, means.N = append(means.Kinds, a.GetKind()), append(means.N, a.GetMean())
		}
		if w.MeanActions.IsZero() || !reflect.DeepEqual(means, w.MeanActions) {
			t.Errorf("row %d: mean actions %v, want %v (BattleBots counts its actions)", i, means, w.MeanActions)
		}
	}
	var text strings.Builder
	league.WriteTable(&text, rows)
	if table.GetText() != text.String() {
		t.Errorf("text:\n%s\nwant:\n%s", table.GetText(), text.String())
	}
	if !strings.HasPrefix(string(table.GetPng()), "chart battlebots league team/bb after 70 games") {
		t.Errorf("png %q", table.GetPng())
	}
	last, err := c.LeagueGames(t.Context(), &botarenav1.LeagueGamesRequest{League: "team/bb", Last: 3})
	if err != nil || len(last.GetGames()) != 3 || last.GetGames()[0].GetIndex() != 67 {
		t.Errorf("last 3 games: %v, %v", last, err)
	}
}

func TestLeagueRPCsRefuseWhatTheyCannotDoWithItsCode(t *testing.T) {
	t.Parallel()
	_, c, root := newLeagueServer(t)
	ctx := t.Context()
	makeLeague(t, c, "lg", 1, "nop")
	seed := uint64(1)
	create := func(name, game string) error {
		_, err := c.CreateLeague(ctx, &botarenav1.CreateLeagueRequest{League: name, Game: game, Seed: &seed})
		return err
	}
	add := func(name, spec string) error {
		_, err := c.AddLeagueAgent(ctx, &botarenav1.AddLeagueAgentRequest{League: "lg", Name: name, Spec: spec})
		return err
	}
	run := func(req *botarenav1.RunLeagueRequest) error {
		req.League = "lg"
		_, _, err := runLeagueRPC(ctx, c, req)
		return err
	}
	_, getErr := c.GetLeague(ctx, &botarenav1.GetLeagueRequest{League: "nope"})
	_, rmErr := c.RemoveLeagueAgent(ctx, &botarenav1.RemoveLeagueAgentRequest{League: "lg", Name: "ghost"})
	tests := []struct {
		name  string
		err   error
		code  connect.Code
		words []string
	}{
		{"parent", create("../x", "battlebots"), connect.CodeInvalidArgument, []string{"relative path inside the leagues folder"}},
		{"absolute", create(filepath.Join(string(filepath.Separator), "elsewhere", "x"), "battlebots"), connect.CodeInvalidArgument, []string{"relative path"}},
		{"no_game", create("x", ""), connect.CodeInvalidArgument, []string{"game: required"}},
		{"unknown_game", create("x", "chess"), connect.CodeNotFound, []string{"chess"}},
		{"taken", create("lg", "battlebots"), connect.CodeAlreadyExists, []string{"already exists"}},
		{"no_league", getErr, connect.CodeNotFound, []string{`"nope"`, "no league"}},
		{"agent_taken", add("nop", "nop"), connect.CodeAlreadyExists, []string{"already has an agent"}},
		{"agent_name", add("a b", "nop"), connect.CodeInvalidArgument, []string{"agent name"}},
		{"agent_unknown", add("x", "no-such-bot"), connect.CodeNotFound, []string{"no-such-bot"}},
		{"agent_cmd", add("x", "cmd:true"), connect.CodePermissionDenied, []string{"--allow-cmd-bots"}},
		{"agent_policy", add("x", "policy:/etc/passwd"), connect.CodePermissionDenied, []string{"--bots-dir"}},
		{"remove_unknown", rmErr, connect.CodeNotFound, []string{"ghost"}},
		{"one_agent", run(&botarenav1.RunLeagueRequest{Games: 2}), connect.CodeFailedPrecondition, []string{"at least 2 agents"}},
		{"no_games", run(&botarenav1.RunLeagueRequest{Games: 0}), connect.CodeInvalidArgument, []string{"--games"}},
		{"workers", run(&botarenav1.RunLeagueRequest{Games: 1, Workers: -1}), connect.CodeInvalidArgument, []string{"workers"}},
	}
	if err := add("sniper", "sniper"); err != nil {
		t.Fatal(err)
	}
	tests = append(tests, []struct {
		name  string
		err   error
		code  connect.Code
		words []string
	}{
		{"pfsp_no_target", run(&botarenav1.RunLeagueRequest{Games: 2, Match: "pfsp"}), connect.CodeInvalidArgument, []string{"--target"}},
		{"pfsp_unknown_target", run(&botarenav1.RunLeagueRequest{Games: 2, Match: "pfsp", Target: "ghost"}), connect.CodeNotFound, []string{"ghost"}},
		{"match", run(&botarenav1.RunLeagueRequest{Games: 2, Match: "swiss"}), connect.CodeInvalidArgument, []string{"swiss"}},
	}...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rpctest.WantCode(t, tt.err, tt.code, tt.words...)
			if tt.err != nil && strings.Contains(tt.err.Error(), root) {
				t.Errorf("%v names the leagues folder", tt.err)
			}
		})
	}
}

func TestRunLeagueRefusesAgentsTheServerDoesNotAllow(t *testing.T) {
	t.Parallel()
	_, c, root := newLeagueServer(t)
	makeLeague(t, c, "lg", 1, "nop")
	// An agent added by the command line, which may name anything.
	l, err := league.Open(filepath.Join(root, "lg"), false)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.AddAgent(league.Agent{Name: "shell", Spec: "cmd:true"}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	_, _, err = runLeagueRPC(t.Context(), c, &botarenav1.RunLeagueRequest{League: "lg", Games: 2})
	rpctest.WantCode(t, err, connect.CodePermissionDenied, "agent shell", "--allow-cmd-bots")
	info, err := c.GetLeague(t.Context(), &botarenav1.GetLeagueRequest{League: "lg"})
	if err != nil || info.GetLeague().GetGames() != 0 || info.GetLeague().GetAgents() != 2 {
		t.Errorf("after the refusal: %v, %v; want no game played", info, err)
	}
}

func TestLeaguePolicyAgentsAreResolvedInTheBotsFolders(t *testing.T) {
	t.Parallel()
	dir, _ := rpctest.BotsDir(t)
	_, c, _ := newLeagueServer(t, server.WithAgentCapabilities(agents.Capabilities{BotDirs: []string{dir}}))
	makeLeague(t, c, "lg", 1, "nop")
	_, err := c.AddLeagueAgent(t.Context(), &botarenav1.AddLeagueAgentRequest{League: "lg", Name: "x", Spec: "policy:missing.safetensors"})
	rpctest.WantCode(t, err, connect.CodeNotFound, "bots folders")
	_, err = c.AddLeagueAgent(t.Context(), &botarenav1.AddLeagueAgentRequest{League: "lg", Name: "x", Spec: "policy:outside.safetensors"})
	rpctest.WantCode(t, err, connect.CodePermissionDenied, "symbolic link")
	added, err := c.AddLeagueAgent(t.Context(), &botarenav1.AddLeagueAgentRequest{League: "lg", Name: "snap", Spec: "policy:bb.safetensors?sample"})
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(filepath.Join(dir, "bb.safetensors"))
	if want := "policy:" + real + "?sample"; added.GetAgent().GetSpec() != want {
		t.Errorf("stored spec %q, want %q (resolved in the bots folder)", added.GetAgent().GetSpec(), want)
	}
	_, sum, err := runLeagueRPC(t.Context(), c, &botarenav1.RunLeagueRequest{League: "lg", Games: 4, MaxRounds: 10})
	if err != nil || sum.GetPlayed() != 4 {
		t.Fatalf("run with a policy agent: %v, %v", sum, err)
	}
}

func TestRunLeagueTakesTheServersMatchSlots(t *testing.T) {
	_, c, _ := newLeagueServer(t, matchservice.WithMaxMatches(1))
	makeLeague(t, c, "lg", 3, "nop", "sniper")
	open, entered := setGate(t, 4)
	played := make(chan error, 1)
	go func() {
		_, err := c.Play(t.Context(), &botarenav1.PlayRequest{Game: "battlebots", Seats: rpctest.Seats("rpc-test-waits", "nop"), Seed: 1, MaxRounds: 1})
		played <- err
	}()
	<-entered // the Play holds the only slot
	stream, err := c.RunLeague(t.Context(), &botarenav1.RunLeagueRequest{League: "lg", Games: 3, MaxRounds: 20})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	if !stream.Receive() || stream.Msg().GetProgress().GetDone() != 0 {
		t.Fatalf("first message %v, %v; want progress at 0", stream.Msg(), stream.Err())
	}
	// The run waits for the slot: nothing is stored while Play holds it.
	games, err := c.LeagueGames(t.Context(), &botarenav1.LeagueGamesRequest{League: "lg"})
	if err != nil || games.GetTotal() != 0 {
		t.Errorf("games while the slot is taken: %v, %v", games, err)
	}
	open()
	if err := <-played; err != nil {
		t.Fatal(err)
	}
	if _, sum, err := readRun(stream); err != nil || sum.GetPlayed() != 3 {
		t.Fatalf("run: %v, %v", sum, err)
	}
}

func TestLeagueWritersWaitForNoRunButFailDuringOne(t *testing.T) {
	_, c, _ := newLeagueServer(t, matchservice.WithMaxMatches(2))
	makeLeague(t, c, "lg", 4, "rpc-test-waits", "nop")
	open, entered := setGate(t, 64)
	done := make(chan error, 1)
	go func() {
		_, sum, err := runLeagueRPC(t.Context(), c, &botarenav1.RunLeagueRequest{League: "lg", Games: 4, MaxRounds: 2})
		if err == nil && sum.GetPlayed() != 4 {
			err = fmt.Errorf("summary %v", sum)
		}
		done <- err
	}()
	<-entered
	_, err := c.AddLeagueAgent(t.Context(), &botarenav1.AddLeagueAgentRequest{League: "lg", Name: "huggy", Spec: "huggy"})
	rpctest.WantCode(t, err, connect.CodeFailedPrecondition, "playing")
	_, _, err = runLeagueRPC(t.Context(), c, &botarenav1.RunLeagueRequest{League: "lg", Games: 4})
	rpctest.WantCode(t, err, connect.CodeFailedPrecondition, "playing")
	if table, err := c.LeagueTable(t.Context(), &botarenav1.LeagueTableRequest{League: "lg"}); err != nil || len(table.GetRows()) != 2 {
		t.Errorf("table during the run: %v, %v", table, err)
	}
	open()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddLeagueAgent(t.Context(), &botarenav1.AddLeagueAgentRequest{League: "lg", Name: "huggy", Spec: "huggy"}); err != nil {
		t.Errorf("AddLeagueAgent after the run: %v", err)
	}
}

func TestRunLeagueStoppedByCloseResumesOnTheNextServer(t *testing.T) {
	ls, err := league.NewLeagues(t.TempDir(), league.LeaguesOptions{Chart: textChart})
	if err != nil {
		t.Fatal(err)
	}
	ts := rpctest.New(t, matchservice.WithLeagues(ls), matchservice.WithMaxMatches(1))
	c := ts.MatchClient(t)
	makeLeague(t, c, "lg", 6, "rpc-test-waits", "nop")
	open, entered := setGate(t, 64)
	req := &botarenav1.RunLeagueRequest{League: "lg", Games: 5, MaxRounds: 3}
	done := make(chan error, 1)
	go func() {
		_, _, err := runLeagueRPC(t.Context(), c, req)
		done <- err
	}()
	<-entered
	ts.Close()
	open()
	rpctest.WantCode(t, <-done, connect.CodeUnavailable, "shutting down", "RunLeague with the same options")

	// The store is free again; another server resumes the run.
	c2 := rpctest.New(t, matchservice.WithLeagues(ls)).MatchClient(t)
	_, sum, err := runLeagueRPC(t.Context(), c2, req)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.GetResumed() || sum.GetRun() != 1 || int(sum.GetSkipped()+sum.GetPlayed()) != 5 {
		t.Errorf("resumed run: %v", sum)
	}
}

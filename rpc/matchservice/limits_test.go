package matchservice_test

import (
	"strconv"
	"strings"
	"testing"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/league"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
	"github.com/botarena/botarena/rpc/internal/rpctest"
	"github.com/botarena/botarena/rpc/matchservice"
	"github.com/botarena/botarena/rpc/server"
)

// TestLeagueRPCsRefuseOversizedAndUnprintableStrings: one 1 MiB tag on 300
// agents made every LeagueTable 318 MB (four at once OOM-killed the
// server), and a 100,000-character agent name was Internal (bbolt: key too
// large). Every string a league stores is bounded and printable:
// InvalidArgument naming the field, quoting a few dozen bytes of it at most.
func TestLeagueRPCsRefuseOversizedAndUnprintableStrings(t *testing.T) {
	t.Parallel()
	_, c, _ := newLeagueServer(t)
	makeLeague(t, c, "lg", 1, "huggy", "nop")
	mib := strings.Repeat("x", 1<<20)
	tests := []struct {
		name             string
		league, agent    string
		spec, tag        string
		want             string
		createInsteadOfA bool // CreateLeague with league as its name
	}{
		{name: "tag_1MiB", league: "lg", agent: "a1", spec: "nop", tag: mib, want: "tag"},
		{name: "tag_control_char", league: "lg", agent: "a2", spec: "nop", tag: "v1\x1b[2J", want: "not printable"},
		{name: "tag_line_break", league: "lg", agent: "a3", spec: "nop", tag: "v1\r\nv2", want: "not printable"},
		{name: "name_100000_chars", league: "lg", agent: strings.Repeat("n", 100000), spec: "nop", want: "agent name"},
		{name: "name_not_a_name", league: "lg", agent: "a b", spec: "nop", want: "letters, digits"},
		{name: "spec_over_limit", league: "lg", agent: "a4", spec: strings.Repeat("s", league.MaxSpecBytes+1), want: "spec"},
		{name: "league_name_100000_chars", league: strings.Repeat("l", 100000), createInsteadOfA: true, want: "over the limit of 256"},
		{name: "league_hidden", league: ".lg", createInsteadOfA: true, want: "no hidden"},
		{name: "league_too_deep", league: "a/b/c/d/e", createInsteadOfA: true, want: "over the limit of 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.createInsteadOfA {
				_, err = c.CreateLeague(t.Context(), &botarenav1.CreateLeagueRequest{League: tt.league, Game: "battlebots"})
			} else {
				_, err = c.AddLeagueAgent(t.Context(), &botarenav1.AddLeagueAgentRequest{League: tt.league, Name: tt.agent, Spec: tt.spec, Tag: tt.tag})
			}
			rpctest.WantCode(t, err, connect.CodeInvalidArgument, tt.want)
			if n := len(connect.CodeOf(err).String() + err.Error()); n > 500 {
				t.Errorf("a message of %d bytes: it repeats the value", n)
			}
		})
	}
	// The longest tag allowed, on every agent, keeps the table small.
	for i := range 50 {
		name := "t" + strconv.Itoa(i)
		if _, err := c.AddLeagueAgent(t.Context(), &botarenav1.AddLeagueAgentRequest{League: "lg", Name: name, Spec: "nop", Tag: strings.Repeat("t", league.MaxTagBytes)}); err != nil {
			t.Fatal(err)
		}
	}
	table, err := c.LeagueTable(t.Context(), &botarenav1.LeagueTableRequest{League: "lg"})
	if err != nil {
		t.Fatal(err)
	}
	if len(table.GetRows()) != 52 || len(table.GetText()) > 52*(100+league.MaxTagBytes+8) {
		t.Errorf("%d rows, a text of %d bytes", len(table.GetRows()), len(table.GetText()))
	}
}

// TestCreateLeagueStopsAtTheFoldersLimit: the number of leagues had no cap
// (28 KiB each); beyond --max-leagues CreateLeague is ResourceExhausted.
func TestCreateLeagueStopsAtTheFoldersLimit(t *testing.T) {
	t.Parallel()
	ls, err := league.NewLeagues(t.TempDir(), league.LeaguesOptions{Chart: textChart, MaxLeagues: 2})
	if err != nil {
		t.Fatal(err)
	}
	c := rpctest.New(t, matchservice.WithLeagues(ls)).MatchClient(t)
	for _, name := range []string{"one", "team/two"} {
		if _, err := c.CreateLeague(t.Context(), &botarenav1.CreateLeagueRequest{League: name, Game: "battlebots"}); err != nil {
			t.Fatal(err)
		}
	}
	_, err = c.CreateLeague(t.Context(), &botarenav1.CreateLeagueRequest{League: "three", Game: "battlebots"})
	rpctest.WantCode(t, err, connect.CodeResourceExhausted, "holds 2 leagues, its limit", "--max-leagues")
	if _, err := c.CreateLeague(t.Context(), &botarenav1.CreateLeagueRequest{League: "one", Game: "battlebots", OpenExisting: true}); err != nil {
		t.Errorf("opening an existing league at the limit: %v", err)
	}
}

// TestPlayBatchAdmitsByTheEncodingUsed: over Connect JSON, a PlayBatch of
// 2,000 recorded games was admitted by its binary size, and its response,
// several times larger in JSON, failed as a whole (429), losing every
// outcome. Admission and the final check size the response in the call's
// encoding: the games that do not fit get a per-game ResourceExhausted, the
// others are played and returned, over every protocol and codec.
func TestPlayBatchAdmitsByTheEncodingUsed(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t, server.WithMaxMessageBytes(4<<20), matchservice.WithMaxMatches(2))
	req := nopBatch(2000)
	tests := []struct {
		name string
		opts []connect.ClientOption
	}{
		{"grpc_binary", []connect.ClientOption{connect.WithGRPC()}},
		{"connect_binary", nil},
		{"connect_json", []connect.ClientOption{connect.WithProtoJSON()}},
		{"grpc_json", []connect.ClientOption{connect.WithGRPC(), connect.WithProtoJSON()}},
		{"grpc_web_json", []connect.ClientOption{connect.WithGRPCWeb(), connect.WithProtoJSON()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := botarenav1connect.NewMatchServiceClient(ts.HTTPClient(t, false), "http://memory", tt.opts...)
			resp, err := c.PlayBatch(t.Context(), req)
			if err != nil {
				t.Fatalf("the call failed as a whole: %v", err)
			}
			if len(resp.GetOutcomes()) != 2000 {
				t.Fatalf("%d outcomes, want 2000", len(resp.GetOutcomes()))
			}
			played := 0
			for i, o := range resp.GetOutcomes() {
				if r := o.GetResult(); r != nil {
					if r.GetData().GetSteps() != 50 || r.GetIndex() != int64(i) {
						t.Fatalf("game %d: %d recorded steps of game %d", i, r.GetData().GetSteps(), r.GetIndex())
					}
					played++
					continue
				}
				if e := o.GetError(); e.GetCode() != connect.CodeResourceExhausted.String() || !strings.Contains(e.GetMessage(), "matches["+strconv.Itoa(i)+"]") {
					t.Fatalf("game %d: %v, want resource_exhausted", i, o)
				}
			}
			t.Logf("%d of 2000 games played", played)
			if played < 1 {
				t.Errorf("no game played")
			}
			rpctest.WantInUse(t, ts.Host, 0)
		})
	}
}

// TestRunLeagueRequestIDPlaysARunOnce: RunLeague was at-least-once: a
// retry after a run finished unseen played a whole new run. A retry with
// the run's request_id returns that run's summary and plays nothing.
func TestRunLeagueRequestIDPlaysARunOnce(t *testing.T) {
	t.Parallel()
	_, c, _ := newLeagueServer(t)
	makeLeague(t, c, "lg", 3, "huggy", "nop", "sniper")
	run := func(id string, games int32) *botarenav1.RunLeagueRequest {
		return &botarenav1.RunLeagueRequest{League: "lg", Games: games, MaxRounds: 20, RequestId: id}
	}
	tests := []struct {
		name      string
		req       *botarenav1.RunLeagueRequest
		code      connect.Code // 0: none
		played    int32
		duplicate bool
		games     int64 // stored after the call
	}{
		{name: "first_call", req: run("6d1f-0001", 6), played: 6, games: 6},
		{name: "retry_plays_nothing", req: run("6d1f-0001", 6), duplicate: true, games: 6},
		{name: "retry_again", req: run("6d1f-0001", 6), duplicate: true, games: 6},
		{name: "same_id_other_games", req: run("6d1f-0001", 7), code: connect.CodeInvalidArgument, games: 6},
		{name: "id_not_printable_ascii", req: run("id\n", 2), code: connect.CodeInvalidArgument, games: 6},
		{name: "id_over_the_limit", req: run(strings.Repeat("i", league.MaxRequestIDBytes+1), 2), code: connect.CodeInvalidArgument, games: 6},
		{name: "new_id_plays", req: run("6d1f-0002", 2), played: 2, games: 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, sum, err := runLeagueRPC(t.Context(), c, tt.req)
			if tt.code != 0 {
				rpctest.WantCode(t, err, tt.code, "request_id")
			} else if err != nil {
				t.Fatal(err)
			} else if sum.GetPlayed() != tt.played || sum.GetDuplicate() != tt.duplicate || sum.GetGames() != tt.req.GetGames() {
				t.Errorf("summary %v, want played %d, duplicate %v", sum, tt.played, tt.duplicate)
			}
			info, err := c.GetLeague(t.Context(), &botarenav1.GetLeagueRequest{League: "lg"})
			if err != nil || info.GetLeague().GetGames() != tt.games {
				t.Errorf("%d games stored (%v), want %d", info.GetLeague().GetGames(), err, tt.games)
			}
		})
	}
}

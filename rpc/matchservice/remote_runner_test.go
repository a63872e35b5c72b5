package matchservice_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/league"
	"github.com/botarena/botarena/rpc/matchservice"
	"github.com/botarena/botarena/rpc/server"
)

// tcpServer is a host serving a MatchService on a loopback port, as
// `botarena serve` runs it.
type tcpServer struct {
	addr string
	host *server.Host
	hs   *http.Server
	// killed is set once the server has died (see dieAt).
	killed atomic.Bool
}

// death is how a tcpServer dies on its dieAt-th PlayBatch call.
type death int

const (
	never           death = iota
	dropConnections       // the process dies: the call's stream is reset, every connection closed
	shutDown              // a graceful shutdown (Host.Close) while the call's games run
)

// startTCPServer serves a MatchService on 127.0.0.1:0 until the test ends;
// with how != never it dies on its dieAt-th PlayBatch call.
func startTCPServer(t *testing.T, how death, dieAt int32) *tcpServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts := &tcpServer{addr: ln.Addr().String(), host: server.New()}
	h := ts.host.Handler(matchservice.New(ts.host))
	var calls atomic.Int32
	ts.hs = server.NewHTTPServer("", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if how != never && strings.HasSuffix(r.URL.Path, "/PlayBatch") && calls.Add(1) == dieAt {
			ts.killed.Store(true)
			switch how {
			case dropConnections:
				go ts.hs.Close()
				panic(http.ErrAbortHandler)
			case shutDown:
				go ts.host.Close()
			}
		}
		h.ServeHTTP(w, r)
	}))
	go ts.hs.Serve(ln)
	t.Cleanup(func() {
		ts.hs.Close()
		ts.host.Close()
	})
	return ts
}

var leagueBots = []string{"huggy", "nop", "sniper", "random"}

// runLeague runs a BattleBots league of leagueBots seeded 11 with o and
// returns its stored games (without times and run ids) and ratings.
func runLeague(t *testing.T, o league.RunOptions) ([]league.GameRecord, map[string]league.Rating, error) {
	t.Helper()
	l, err := league.Create(filepath.Join(t.TempDir(), "lg"), league.Settings{Game: "battlebots", Seed: 11}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	base := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	for i, a := range leagueBots {
		if err := l.AddAgent(league.Agent{Name: a, Spec: a, Added: base.Add(time.Duration(i) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	_, runErr := l.Run(t.Context(), o)
	games, err := l.Games(0, -1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range games {
		games[i].Time, games[i].Run = time.Time{}, 0
	}
	ratings, err := l.Ratings()
	if err != nil {
		t.Fatal(err)
	}
	return games, ratings, runErr
}

// remoteRunner returns a runner of servers, closed when the test ends.
func remoteRunner(t *testing.T, servers []*tcpServer, opts ...matchservice.RemoteOption) *matchservice.RemoteRunner {
	t.Helper()
	var addrs []string
	for _, s := range servers {
		addrs = append(addrs, s.addr)
	}
	r, err := matchservice.NewRemoteRunner(addrs, opts...)
	return testutil.Closing(t, r, err)
}

// played returns the games each server played and their sum.
func played(r *matchservice.RemoteRunner) (each []int64, total int64) {
	for _, s := range r.Servers() {
		each = append(each, s.Games)
		total += s.Games
	}
	return each, total
}

func TestRemoteRunnerGivesTheLocalRunnersResults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		servers int
		match   league.Matchmaking
		opts    []matchservice.RemoteOption
	}{
		{"one_server_one_game_per_call", 1, league.RoundRobin, []matchservice.RemoteOption{matchservice.WithRemoteBatch(1), matchservice.WithRemoteWindow(1)}},
		{"two_servers", 2, league.RoundRobin, nil},
		{"three_servers_uniform", 3, league.Uniform, []matchservice.RemoteOption{matchservice.WithRemoteBatch(16), matchservice.WithRemoteWindow(2)}},
		{"two_servers_pfsp", 2, league.PFSP, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := league.RunOptions{Games: 150, Match: tt.match, MaxRounds: 60, Workers: 2}
			if tt.match == league.PFSP {
				o.Target = "huggy"
			}
			want, wantRatings, err := runLeague(t, o)
			if err != nil {
				t.Fatal(err)
			}
			var servers []*tcpServer
			for range tt.servers {
				servers = append(servers, startTCPServer(t, never, 0))
			}
			r := remoteRunner(t, servers, tt.opts...)
			o.Runner, o.Workers = r, league.BatchGames
			got, gotRatings, err := runLeague(t, o)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("games differ from the local runner's (%d stored, want %d)", len(got), len(want))
			}
			if !reflect.DeepEqual(gotRatings, wantRatings) {
				t.Errorf("ratings differ from the local runner's")
			}
			if each, n := played(r); n != int64(o.Games) {
				t.Errorf("servers played %d games (%v), want %d", n, each, o.Games)
			}
		})
	}
}

func TestRemoteRunnerReplaysTheGamesOfAServerThatDies(t *testing.T) {
	t.Parallel()
	o := league.RunOptions{Games: 192, MaxRounds: 60, Workers: 2}
	want, wantRatings, err := runLeague(t, o)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		how  death
	}{
		{"connection_dropped_mid_call", dropConnections},
		{"server_shut_down_mid_call", shutDown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dying := startTCPServer(t, tt.how, 3)
			servers := []*tcpServer{dying, startTCPServer(t, never, 0), startTCPServer(t, never, 0)}
			r := remoteRunner(t, servers)
			o := o
			o.Runner, o.Workers = r, league.BatchGames
			got, gotRatings, err := runLeague(t, o)
			if err != nil {
				t.Fatal(err)
			}
			if !dying.killed.Load() {
				t.Fatal("the dying server got fewer than 3 calls; the test did not kill it")
			}
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotRatings, wantRatings) {
				t.Errorf("games or ratings differ from the local runner's (%d stored, want %d)", len(got), len(want))
			}
			if each, n := played(r); n != int64(o.Games) {
				t.Errorf("servers played %d games (%v), want each of the %d once", n, each, o.Games)
			}
			if st := r.Servers(); st[0].Err == nil || st[1].Err != nil || st[2].Err != nil {
				t.Errorf("servers %+v, want only the first marked down", st)
			}
		})
	}
}

func TestRemoteRunnerReportsWhenEveryServerIsDown(t *testing.T) {
	t.Parallel()
	// Two addresses nothing listens on.
	var dead []string
	for range 2 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		dead = append(dead, ln.Addr().String())
		ln.Close()
	}
	t.Run("none_reachable", func(t *testing.T) {
		t.Parallel()
		r, err := matchservice.NewRemoteRunner(dead)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		_, _, err = runLeague(t, league.RunOptions{Games: 10, Runner: r, Workers: 4})
		if !errors.Is(err, matchservice.ErrAllServersDown) {
			t.Fatalf("err = %v, want ErrAllServersDown", err)
		}
		for _, a := range dead {
			if !strings.Contains(err.Error(), a) {
				t.Errorf("error %q does not name server %s", err, a)
			}
		}
	})
	t.Run("last_server_dies_mid_run", func(t *testing.T) {
		t.Parallel()
		r := remoteRunner(t, []*tcpServer{startTCPServer(t, dropConnections, 3)})
		games, _, err := runLeague(t, league.RunOptions{Games: 200, MaxRounds: 60, Runner: r, Workers: league.BatchGames})
		if !errors.Is(err, matchservice.ErrAllServersDown) {
			t.Fatalf("err = %v, want ErrAllServersDown", err)
		}
		if len(games) >= 200 {
			t.Errorf("%d games stored, want fewer than 200", len(games))
		}
	})
}

func TestRemoteRunnerReturnsAGamesOwnError(t *testing.T) {
	t.Parallel()
	r := remoteRunner(t, []*tcpServer{startTCPServer(t, never, 0)})
	tests := []struct {
		name string
		spec string
		code connect.Code
		want string
	}{
		{"external_bot_is_permission_denied", "cmd:python3 bot.py", connect.CodePermissionDenied, "--allow-external-bots"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := league.Create(filepath.Join(t.TempDir(), "lg"), league.Settings{Game: "battlebots", Seed: 1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			l.AddAgent(league.Agent{Name: "a", Spec: "nop"})
			if err := l.AddAgent(league.Agent{Name: "b", Spec: tt.spec}); err != nil {
				t.Fatal(err)
			}
			o := league.RunOptions{Games: 4, Runner: r, Workers: 4}
			_, err = l.Run(context.Background(), o)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
			if connect.CodeOf(err) != tt.code {
				t.Errorf("code %v, want %v", connect.CodeOf(err), tt.code)
			}
		})
	}
}

// TestRemoteRunnerGivesTheLocalRunnersForfeits: a game whose
// agent panics, played on a server, is the record the local runner makes
// of it: the same forfeiting seat and agent and the same leaderboard, so
// that a league stores the same games wherever they were played.
func TestRemoteRunnerGivesTheLocalRunnersForfeits(t *testing.T) {
	t.Parallel()
	r := remoteRunner(t, []*tcpServer{startTCPServer(t, never, 0)})
	for _, seats := range [][]string{{"zz-unplayable", "nop"}, {"sniper", "zz-unplayable"}, {"huggy", "sniper"}} {
		m := league.Match{Index: 5, Seed: 77, Game: "battlebots", MaxRounds: 30}
		for _, s := range seats {
			m.Seats = append(m.Seats, league.Entrant{Name: s, Spec: s})
		}
		want, err := (&league.LocalRunner{}).Play(t.Context(), m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.Play(t.Context(), m)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%v: remote\n%+v\nlocal\n%+v", seats, got, want)
		}
		if forfeits := seats[0] == "zz-unplayable" || seats[1] == "zz-unplayable"; forfeits != (want.Forfeit != nil) {
			t.Errorf("%v: forfeit %+v", seats, want.Forfeit)
		}
	}
}

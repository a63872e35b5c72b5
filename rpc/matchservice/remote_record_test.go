package matchservice_test

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/league"
	"github.com/botarena/botarena/observations/matchdata"
	"github.com/botarena/botarena/rpc/client"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
	"github.com/botarena/botarena/rpc/matchservice"
	"github.com/botarena/botarena/rpc/server"
)

// capture is a league.Runner that keeps the Data of every result its
// Runner returns, by game index.
type capture struct {
	league.Runner
	mu   sync.Mutex
	data map[int64]*matchdata.Rows
}

func (c *capture) Play(ctx context.Context, m league.Match) (league.Result, error) {
	res, err := c.Runner.Play(ctx, m)
	if err == nil && res.Data != nil {
		c.mu.Lock()
		if c.data == nil {
			c.data = map[int64]*matchdata.Rows{}
		}
		c.data[res.Index] = res.Data
		c.mu.Unlock()
	}
	return res, err
}

// dataFiles reads the files of dir by name.
func dataFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

// batchSizes is a client interceptor that records the most games one
// PlayBatch call carried.
type batchSizes struct{ most atomic.Int64 }

func (b *batchSizes) interceptor() connect.UnaryInterceptorFunc {
	return func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			if r, ok := req.Any().(*botarenav1.PlayBatchRequest); ok {
				n := int64(len(r.GetMatches()))
				for m := b.most.Load(); n > m && !b.most.CompareAndSwap(m, n); m = b.most.Load() {
				}
			}
			return next(ctx, req)
		}
	}
}

func TestRemoteRunnerRecordsWhatTheLocalRunnerRecords(t *testing.T) {
	t.Parallel()
	// A recorded 60-round BattleBots game is at most about 236 kB, so a
	// 600 kB client limit lets a call carry 2 games.
	tests := []struct {
		name      string
		servers   int
		limit     int // client message limit; 0: the default
		wantBatch int64
	}{
		{"two_servers", 2, 0, matchservice.DefaultRemoteBatch},
		{"small_message_limit_shrinks_the_batches", 2, 600_000, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := league.RunOptions{Games: 150, MaxRounds: 60, Workers: 2, DataDir: t.TempDir()}
			local := &capture{Runner: &league.LocalRunner{}}
			o.Runner = local
			want, wantRatings, err := runLeague(t, o)
			if err != nil {
				t.Fatal(err)
			}
			wantFiles := dataFiles(t, o.DataDir)

			var servers []*tcpServer
			for range tt.servers {
				servers = append(servers, startTCPServer(t, never, 0))
			}
			var sizes batchSizes
			copts := []client.Option{client.WithConnectOptions(connect.WithInterceptors(sizes.interceptor()))}
			if tt.limit > 0 {
				copts = append(copts, client.WithMaxMessageBytes(tt.limit))
			}
			remote := &capture{Runner: remoteRunner(t, servers, matchservice.WithRemoteClientOptions(copts...))}
			o.Runner, o.Workers, o.DataDir = remote, league.BatchGames, t.TempDir()
			got, gotRatings, err := runLeague(t, o)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotRatings, wantRatings) {
				t.Errorf("games or ratings differ from the local runner's (%d stored, want %d)", len(got), len(want))
			}
			if len(remote.data) != o.Games || len(local.data) != o.Games {
				t.Fatalf("data of %d remote and %d local games, want %d each", len(remote.data), len(local.data), o.Games)
			}
			for i, w := range local.data {
				if d := diffRows(remote.data[i], w); d != "" {
					t.Errorf("game %d: %s", i, d)
				}
			}
			gotFiles := dataFiles(t, o.DataDir)
			if len(gotFiles) != len(wantFiles) || len(gotFiles) == 0 {
				t.Errorf("%d data files, want %d (and some)", len(gotFiles), len(wantFiles))
			}
			for name, b := range wantFiles {
				if !bytes.Equal(gotFiles[name], b) {
					t.Errorf("data file %s differs from the local run's", name)
				}
			}
			if most := sizes.most.Load(); most > tt.wantBatch {
				t.Errorf("a call carried %d recorded games, want at most %d", most, tt.wantBatch)
			}
		})
	}
}

// tampering serves MatchService with a real Server and changes the data of
// every recorded result with mutate before sending it.
type tampering struct {
	botarenav1connect.MatchServiceHandler
	mutate func(*botarenav1.PlayResponse)
}

func (s tampering) PlayBatch(ctx context.Context, req *botarenav1.PlayBatchRequest) (*botarenav1.PlayBatchResponse, error) {
	resp, err := s.MatchServiceHandler.PlayBatch(ctx, req)
	for _, o := range resp.GetOutcomes() {
		if r := o.GetResult(); r.GetData() != nil {
			s.mutate(r)
		}
	}
	return resp, err
}

func TestRemoteRunnerRejectsInconsistentMatchData(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		mutate func(*botarenav1.PlayResponse)
		want   []string
	}{
		{"no_data", func(r *botarenav1.PlayResponse) { r.Data = nil }, []string{"has none", "record flag"}},
		{"short_tensor", func(r *botarenav1.PlayResponse) { r.Data.Obs[1] = r.Data.Obs[1][:len(r.Data.Obs[1])-4] }, []string{`tensor "scalars" has`, "× 2 seats × 16 bytes"}},
		{"missing_tensor", func(r *botarenav1.PlayResponse) { r.Data.Obs = r.Data.Obs[:1] }, []string{"1 observation tensors, want the 2"}},
		{"more_steps_than_rows", func(r *botarenav1.PlayResponse) { r.Data.Steps++ }, []string{`tensor "planes" has`, "21 steps"}},
		{"short_mask", func(r *botarenav1.PlayResponse) { r.Data.Mask = r.Data.Mask[1:] }, []string{"mask has", "× 34 actions"}},
		{"extra_action", func(r *botarenav1.PlayResponse) { r.Data.Action = append(r.Data.Action, 0) }, []string{"action has 41 values, want 40"}},
		{"missing_flags", func(r *botarenav1.PlayResponse) { r.Data.Truncated = nil }, []string{"truncated has 0 values"}},
		{"an_agent_too_many", func(r *botarenav1.PlayResponse) { r.Data.Agents = append(r.Data.Agents, "x") }, []string{"3 agents for the 2 seats"}},
		{"another_agent", func(r *botarenav1.PlayResponse) { r.Data.Agents[1] = "x" }, []string{`agents[1] is "x", want "b"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			h := server.New()
			srv := matchservice.New(h)
			mux := http.NewServeMux()
			mux.Handle(botarenav1connect.NewMatchServiceHandler(tampering{srv, tt.mutate}))
			hs := server.NewHTTPServer("", mux)
			go hs.Serve(ln)
			t.Cleanup(func() {
				hs.Close()
				srv.Close()
			})
			r := remoteRunner(t, []*tcpServer{{addr: ln.Addr().String()}})
			m := league.Match{Index: 5, Seed: 3, Game: "battlebots", Seats: []league.Entrant{{Name: "a", Spec: "nop"}, {Name: "b", Spec: "nop"}}, MaxRounds: 20, Record: true}
			_, err = r.Play(t.Context(), m)
			if !errors.Is(err, matchservice.ErrMatchData) {
				t.Fatalf("err = %v, want ErrMatchData", err)
			}
			for _, s := range append([]string{ln.Addr().String(), "game 5"}, tt.want...) {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
			if st := r.Servers(); st[0].Err != nil {
				t.Errorf("the server was marked down (%v); a game's bad data is that game's error", st[0].Err)
			}
			// A game without Record is played as before.
			m.Record = false
			if res, err := r.Play(t.Context(), m); err != nil || res.Data != nil {
				t.Errorf("unrecorded game: data %v, err %v; want no data and no error", res.Data, err)
			}
		})
	}
}

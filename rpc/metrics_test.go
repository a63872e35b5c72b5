package rpc_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/rpc"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
)

// metricValue returns the value of the metric name (a counter, gauge or
// untyped) with labels among its labels, summed over the matching series;
// 0 when there is none.
func metricValue(t testing.TB, s *rpc.Server, name string, labels map[string]string) float64 {
	t.Helper()
	families, err := s.Metrics().Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	series:
		for _, m := range f.GetMetric() {
			have := map[string]string{}
			for _, l := range m.GetLabel() {
				have[l.GetName()] = l.GetValue()
			}
			for k, v := range labels {
				if have[k] != v {
					continue series
				}
			}
			switch {
			case m.GetCounter() != nil:
				sum += m.GetCounter().GetValue()
			case m.GetGauge() != nil:
				sum += m.GetGauge().GetValue()
			case m.GetHistogram() != nil:
				sum += float64(m.GetHistogram().GetSampleCount())
			case m.GetUntyped() != nil:
				sum += m.GetUntyped().GetValue()
			}
		}
	}
	return sum
}

// TestMetrics: /metrics serves the server's counters of pools, envs,
// steps, agent-steps, call durations and errors, its version, and the Go
// and process collectors.
func TestMetrics(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, rpc.WithVersion("v9.9.9-test"))
	c := ts.client(t)
	ctx := t.Context()
	const envs, seats = 3, 2
	p := createPool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: envs, Seed: seed(5), LearnerSeats: []int32{0}, Opponents: map[int32]string{1: "random"}})
	if _, err := p.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	actions := make([]int32, p.Rows())
	for range 3 {
		if _, err := p.Step(ctx, actions); err != nil {
			t.Fatal(err)
		}
	}
	st, err := p.Stream(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Reset(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := st.Step(actions); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	_, err = c.Raw().Step(ctx, &botarenav1.StepRequest{PoolId: "p-nope"})
	wantCode(t, err, connect.CodeNotFound)

	const step = "/botarena.v1.EnvService/Step"
	for _, tc := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"botarena_pools_created_total", nil, 1},
		{"botarena_pools_open", nil, 1},
		{"botarena_envs_open", nil, envs},
		{"botarena_steps_total", nil, 5},
		{"botarena_env_steps_total", nil, 5 * envs},
		{"botarena_agent_steps_total", nil, 5 * envs * seats},
		{"botarena_rpc_duration_seconds", map[string]string{"procedure": step}, 4},
		{"botarena_rpc_errors_total", map[string]string{"procedure": step, "code": "not_found"}, 1},
		{"botarena_rpc_errors_total", nil, 1},
		{"botarena_build_info", map[string]string{"version": "v9.9.9-test"}, 1},
		{"botarena_match_games_in_flight", nil, 0},
	} {
		if got := metricValue(t, ts.Server, tc.name, tc.labels); got != tc.want {
			t.Errorf("%s%v = %v, want %v", tc.name, tc.labels, got, tc.want)
		}
	}

	// The text format over HTTP, with the standard collectors.
	resp, err := ts.httpClient(t, true).Get("http://memory/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	text := string(b)
	for _, want := range []string{
		"# TYPE botarena_agent_steps_total counter",
		"botarena_agent_steps_total 30",
		`botarena_rpc_duration_seconds_bucket{procedure="/botarena.v1.EnvService/Step",le="+Inf"} 4`,
		`botarena_build_info{version="v9.9.9-test"} 1`,
		"go_goroutines ",
		"botarena_http_connections_open ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics has no %q", want)
		}
	}
	if resp.StatusCode != 200 {
		t.Errorf("/metrics: %s", resp.Status)
	}

	c.Raw().ClosePool(ctx, &botarenav1.ClosePoolRequest{PoolId: p.ID()})
	if got := metricValue(t, ts.Server, "botarena_pools_open", nil); got != 0 {
		t.Errorf("botarena_pools_open after ClosePool = %v, want 0", got)
	}
}

// TestMatchMetrics: MatchService games are counted in flight and finished.
func TestMatchMetrics(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	mc := ts.matchClient(t)
	if _, err := mc.Play(t.Context(), &botarenav1.PlayRequest{Game: "battlebots", Seats: seats("nop", "nop"), Seed: 1, MaxRounds: 5}); err != nil {
		t.Fatal(err)
	}
	resp, err := mc.PlayBatch(t.Context(), &botarenav1.PlayBatchRequest{Matches: []*botarenav1.PlayRequest{
		{Game: "battlebots", Seats: seats("nop", "random"), Seed: 2, MaxRounds: 5},
		{Game: "battlebots", Seats: seats("random", "nop"), Seed: 3, MaxRounds: 5},
	}})
	if err != nil || len(resp.GetOutcomes()) != 2 {
		t.Fatalf("PlayBatch: %v %v", resp, err)
	}
	if got := metricValue(t, ts.Server, "botarena_match_games_total", nil); got != 3 {
		t.Errorf("botarena_match_games_total = %v, want 3", got)
	}
	if got := metricValue(t, ts.Server, "botarena_match_games_in_flight", nil); got != 0 {
		t.Errorf("botarena_match_games_in_flight = %v, want 0", got)
	}
}

// TestListGamesVersion: ListGames reports the server's version.
func TestListGamesVersion(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, rpc.WithVersion("v1.2.3 go1.26"))
	resp, err := ts.client(t).Raw().ListGames(t.Context(), &botarenav1.ListGamesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.GetServerVersion(); got != "v1.2.3 go1.26" {
		t.Errorf("server_version %q, want %q", got, "v1.2.3 go1.26")
	}
}

// TestClientErrorsLoggedAtDebug: a client's error is logged at Debug with
// the procedure, the code and the bounded message; nothing at Info.
func TestClientErrorsLoggedAtDebug(t *testing.T) {
	t.Parallel()
	for _, level := range []slog.Level{slog.LevelDebug, slog.LevelInfo} {
		var log testutil.SyncBuffer
		ts := newTestServer(t, rpc.WithLogger(slog.New(slog.NewJSONHandler(&log, &slog.HandlerOptions{Level: level}))))
		_, err := ts.client(t).Raw().Step(t.Context(), &botarenav1.StepRequest{PoolId: huge})
		wantCode(t, err, connect.CodeNotFound)
		if level == slog.LevelInfo {
			if log.String() != "" {
				t.Errorf("at Info: logged %.300s", log.String())
			}
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(log.String()), &rec); err != nil {
			t.Fatalf("log %.300q: %v", log.String(), err)
		}
		if rec["level"] != "DEBUG" || rec["msg"] != "call failed" || rec["procedure"] != "/botarena.v1.EnvService/Step" || rec["code"] != "not_found" ||
			!strings.Contains(rec["err"].(string), "no such pool") || len(log.String()) > 4096 {
			t.Errorf("log record %.500v", rec)
		}
	}
}

package envservice_test

import (
	"io"
	"strings"
	"testing"

	"connectrpc.com/connect"

	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/rpctest"
	"github.com/botarena/botarena/rpc/server"
)

// TestMetrics: /metrics serves the server's counters of pools, envs,
// steps, agent-steps, call durations and errors, its version, and the Go
// and process collectors.
func TestMetrics(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t, server.WithVersion("v9.9.9-test"))
	c := ts.Client(t)
	ctx := t.Context()
	const envs, seats = 3, 2
	p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: envs, Seed: rpctest.Seed(5), LearnerSeats: []int32{0}, Opponents: map[int32]string{1: "random"}})
	if _, err := p.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	actions := make([]int32, p.Rows())
	for range 3 {
		if _, err := p.Step(ctx, actions); err != nil {
			t.Fatal(err)
		}
	}
	st := rpctest.ResetStream(t, ctx, p)
	for range 2 {
		if _, err := st.Step(actions); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	_, err := c.Raw().Step(ctx, &botarenav1.StepRequest{PoolId: "p-nope"})
	rpctest.WantCode(t, err, connect.CodeNotFound)

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
		if got := rpctest.MetricValue(t, ts.Metrics(), tc.name, tc.labels); got != tc.want {
			t.Errorf("%s%v = %v, want %v", tc.name, tc.labels, got, tc.want)
		}
	}

	// The text format over HTTP, with the standard collectors.
	resp, err := ts.HTTPClient(t, true).Get("http://memory/metrics")
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
	if got := rpctest.MetricValue(t, ts.Metrics(), "botarena_pools_open", nil); got != 0 {
		t.Errorf("botarena_pools_open after ClosePool = %v, want 0", got)
	}
}

// TestListGamesVersion: ListGames reports the server's version.
func TestListGamesVersion(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t, server.WithVersion("v1.2.3 go1.26"))
	resp, err := ts.Client(t).Raw().ListGames(t.Context(), &botarenav1.ListGamesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.GetServerVersion(); got != "v1.2.3 go1.26" {
		t.Errorf("server_version %q, want %q", got, "v1.2.3 go1.26")
	}
}

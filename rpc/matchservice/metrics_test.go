package matchservice_test

import (
	"testing"

	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/rpctest"
)

// TestMatchMetrics: MatchService games are counted in flight and finished.
func TestMatchMetrics(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	mc := ts.MatchClient(t)
	if _, err := mc.Play(t.Context(), &botarenav1.PlayRequest{Game: "battlebots", Seats: rpctest.Seats("nop", "nop"), Seed: 1, MaxRounds: 5}); err != nil {
		t.Fatal(err)
	}
	resp, err := mc.PlayBatch(t.Context(), &botarenav1.PlayBatchRequest{Matches: []*botarenav1.PlayRequest{
		{Game: "battlebots", Seats: rpctest.Seats("nop", "random"), Seed: 2, MaxRounds: 5},
		{Game: "battlebots", Seats: rpctest.Seats("random", "nop"), Seed: 3, MaxRounds: 5},
	}})
	if err != nil || len(resp.GetOutcomes()) != 2 {
		t.Fatalf("PlayBatch: %v %v", resp, err)
	}
	if got := rpctest.MetricValue(t, ts.Metrics(), "botarena_match_games_total", nil); got != 3 {
		t.Errorf("botarena_match_games_total = %v, want 3", got)
	}
	if got := rpctest.MetricValue(t, ts.Metrics(), "botarena_match_games_in_flight", nil); got != 0 {
		t.Errorf("botarena_match_games_in_flight = %v, want 0", got)
	}
}

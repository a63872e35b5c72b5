package league

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkRun measures BattleBots league runs (round robin, games to the
// end): whole games played, stored with their rating updates, per second.
// The built-in league has huggy, nop, sniper, random and idle; the neural
// one the two committed snapshots of the make league example (sampling)
// with sniper and random. Each runs on the default PoolRunner (the games of
// a worker on one pool, policies batched) and on a LocalRunner (one game
// per goroutine), for comparison, and with 64 games per worker.
func BenchmarkRun(b *testing.B) {
	snap := func(n string) string {
		return "policy:" + filepath.Join("..", "examples", "league", "policies", "battlebots-snap-"+n+".safetensors") + "?sample"
	}
	leagues := []struct {
		name   string
		agents [][2]string
		games  int
	}{
		{"builtin", [][2]string{{"huggy", "huggy"}, {"nop", "nop"}, {"sniper", "sniper"}, {"random", "random"}, {"idle", "idle"}}, 128},
		{"neural", [][2]string{{"snap-008", snap("008")}, {"snap-052", snap("052")}, {"sniper", "sniper"}, {"random", "random"}}, 128},
	}
	runners := []struct {
		name string
		make func() Runner
	}{
		{"pool", func() Runner { return &PoolRunner{} }},
		{"pool64", func() Runner { return &PoolRunner{EnvsPerWorker: 64} }},
		{"local", func() Runner { return &LocalRunner{} }},
	}
	for _, lg := range leagues {
		for _, r := range runners {
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("battlebots/%s/runner=%s/workers=%d", lg.name, r.name, workers), func(b *testing.B) {
					l, err := Create(filepath.Join(b.TempDir(), "lg"), Settings{Game: "battlebots", Seed: 1}, nil)
					if err != nil {
						b.Fatal(err)
					}
					defer l.Close()
					for _, a := range lg.agents {
						if err := l.AddAgent(Agent{Name: a[0], Spec: a[1]}); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportAllocs()
					for b.Loop() {
						if _, err := l.Run(context.Background(), RunOptions{Games: lg.games, Workers: workers, Runner: r.make()}); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(lg.games*b.N)/b.Elapsed().Seconds(), "games/s")
				})
			}
		}
	}
}

package league

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkRun measures a BattleBots league run with the built-in agents
// (huggy, nop, sniper, random, idle; round robin, games to the end): whole
// games played, stored with their rating updates, per second.
func BenchmarkRun(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("battlebots/agents=5/workers=%d", workers), func(b *testing.B) {
			l, err := Create(filepath.Join(b.TempDir(), "lg"), Settings{Game: "battlebots", Seed: 1}, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close()
			for _, a := range []string{"huggy", "nop", "sniper", "random", "idle"} {
				if err := l.AddAgent(Agent{Name: a, Spec: a}); err != nil {
					b.Fatal(err)
				}
			}
			const games = 100
			b.ReportAllocs()
			for b.Loop() {
				if _, err := l.Run(context.Background(), RunOptions{Games: games, Workers: workers}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(games*b.N)/b.Elapsed().Seconds(), "games/s")
		})
	}
}

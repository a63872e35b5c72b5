package all_test

import (
	"slices"
	"testing"

	"github.com/botarena/botarena/agents"
	_ "github.com/botarena/botarena/agents/all"
)

// TestAllLinksEveryScheme: importing agents/all, and nothing else,
// registers every agent scheme of botarena, each for the games it plays:
// each game's external-bot protocol (Entelect bot folders for the two
// Entelect games, HTTP bots for Battle³, command-line bots for BattleBots,
// UPE clients for portal Bomberman) and trained policies for every game.
func TestAllLinksEveryScheme(t *testing.T) {
	for _, tc := range []struct {
		game string
		want []string
	}{
		{"bomberman", []string{"dagger:...", "dir:...", "policy:..."}},
		{"battleships", []string{"dagger:...", "dir:...", "policy:..."}},
		{"battlecube", []string{"dagger:...", "http://...", "https://...", "policy:..."}},
		{"battlebots", []string{"cmd:...", "dagger:...", "policy:..."}},
		{"portalbomber", []string{"dagger:...", "policy:...", "upe://..."}},
		{"portalbomber/2p", []string{"dagger:...", "policy:...", "upe://..."}}, // a variant plays its base game's schemes
	} {
		t.Run(tc.game, func(t *testing.T) {
			if got := agents.Schemes(tc.game); !slices.Equal(got, tc.want) {
				t.Errorf("schemes of %s: %v, want %v", tc.game, got, tc.want)
			}
		})
	}
}

package entelect

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/bomberman"
	"github.com/botarena/botarena/internal/testutil"
)

// roundBot is a Bomberman bot that writes move.txt: 5 (place bomb) in
// round bombRound, else 0 (do nothing). It reads the round from its
// folder's path (<root>/<round>/<Key>) to start fast.
func roundBot(bombRound int) string {
	return "import os, sys\n" +
		"d = sys.argv[2]\n" +
		"r = int(os.path.basename(os.path.dirname(d)))\n" +
		"open(os.path.join(d, 'move.txt'), 'w').write('5' if r == " + strconv.Itoa(bombRound) + " else '0')\n"
}

// playLayout plays a 3-player Bomberman game of seed 777 between the
// agents, as match.Run does (every seat's Act each round, then GameEnded
// for every seat), and returns the game.
func playLayout(t *testing.T, seats []env.Agent) *bomberman.Game {
	t.Helper()
	g := bombermanGame(t, 3, 777)
	if rounds := len(testutil.Play(g, seats, 777, func(int) uint64 { return 0 })) / 3; rounds > 101 {
		t.Fatalf("the game took %d rounds, want at most 101", rounds)
	}
	for seat, a := range seats {
		if e, ok := a.(agents.GameEnder); ok {
			e.GameEnded(g, seat)
		}
	}
	return g
}

// playerFolders lists the player folders under root, one line per folder
// in round order: "<round>/<Key>:" and its files, sorted.
func playerFolders(t *testing.T, root string) string {
	t.Helper()
	rounds, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(rounds, func(a, b os.DirEntry) int {
		x, _ := strconv.Atoi(a.Name())
		y, _ := strconv.Atoi(b.Name())
		return x - y
	})
	var out strings.Builder
	for _, r := range rounds {
		keys, err := os.ReadDir(filepath.Join(root, r.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			files, err := os.ReadDir(filepath.Join(root, r.Name(), k.Name()))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&out, "%s/%s:", r.Name(), k.Name())
			for _, f := range files {
				out.WriteString(" " + f.Name())
			}
			out.WriteString("\n")
		}
	}
	return out.String()
}

// TestEntelectBombermanDeadLastLayout: the player folders of a 3-player
// game of seed 777 where A and B only do nothing (the 20-do-nothing rule
// plants their bombs in round 19, triggered in round 21, both killed in
// round 22: the game ends at round 23) and C plants a bomb under itself
// in round 13 (killed in round 17). As in the original, whose round loop
// reaches C (the dead player with no live one after it) only after the
// game ended: C has no folder in rounds 18 to 22, and its final state.json
// and map.txt are in 17/C (GameEnded: its last round folder) and 23/C
// (its late NewRoundStarted). A and B, past their 20 do-nothings, have
// empty folders in rounds 21 and 22, and their final files in 22/A and
// 22/B. The golden file, testdata/entelect-layout-777.txt, lists every
// player folder and its files (the round-level files are botarena play's,
// not the agents').
func TestEntelectBombermanDeadLastLayout(t *testing.T) {
	withOptions(t, agents.ExternalSettings{NoLimit: true})
	root := t.TempDir()
	seats := make([]env.Agent, 3)
	for seat, bombRound := range []int{-1, -1, 13} {
		b := newPyBot(t, "bomberman", roundBot(bombRound), root)
		seats[seat] = b
	}
	g := playLayout(t, seats)
	if c := g.Player(2); !c.Killed || c.KilledRound != 17 || g.Round() != 23 {
		t.Fatalf("C killed %v in round %d, game ended at round %d; want killed in round 17, end at round 23", c.Killed, c.KilledRound, g.Round())
	}
	testutil.Golden(t, "entelect-layout-777.txt", []byte(playerFolders(t, root)))
	want, _ := g.AppendNative(nil, "state.json", 2)
	for _, dir := range []string{"17/C", "23/C", "22/A", "22/B"} {
		if got, err := os.ReadFile(filepath.Join(root, dir, "state.json")); err != nil || string(got) != string(want) {
			t.Errorf("%s/state.json (%v) is not the final state", dir, err)
		}
	}
}

// TestEntelectBombermanDeadFirstLayout: a dead player with a live one
// after it is reached in the original's round loop: A, killed in round 17
// (its bomb of round 13), still gets an empty folder in rounds 18 to 22,
// and its final files in 22/A only. B and C are scripted (do nothing).
func TestEntelectBombermanDeadFirstLayout(t *testing.T) {
	withOptions(t, agents.ExternalSettings{NoLimit: true})
	root := t.TempDir()
	b := newPyBot(t, "bomberman", roundBot(13), root)
	g := playLayout(t, []env.Agent{b, agents.Idle{}, agents.Idle{}})
	if a := g.Player(0); !a.Killed || a.KilledRound != 17 || g.Round() != 23 {
		t.Fatalf("A killed %v in round %d, game ended at round %d; want killed in round 17, end at round 23", a.Killed, a.KilledRound, g.Round())
	}
	var want strings.Builder
	for round := range 23 {
		files := " log.txt move.txt"
		switch {
		case round > 17 && round < 22:
			files = ""
		case round == 22:
			files = " map.txt state.json"
		}
		fmt.Fprintf(&want, "%d/A:%s\n", round, files)
	}
	if got := playerFolders(t, root); got != want.String() {
		t.Errorf("player folders:\n%s\nwant:\n%s", got, want.String())
	}
}

package agents

import (
	"bytes"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/battlebots"
	"github.com/botarena/botarena/env/bomberman"
)

func TestConsoleBattleBots(t *testing.T) {
	g, err := battlebots.New(battlebots.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(1)
	a, err := New("battlebots", "console", g.Spec())
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	in := strings.NewReader("M SE\n\nhelp\nfire!\nb e\n  B  E  \r\nP")
	a.(Terminal).Attach(in, &out)
	a.Reset(g, 0, 0)
	want := []int32{int32(battlebots.Missile(battlebots.SE)), 0, int32(battlebots.Bullet(battlebots.E)), int32(battlebots.EMP), 0, 0}
	for i, w := range want {
		if got := a.Act(g, 0); got != w {
			t.Errorf("Act %d = %d, want %d", i, got, w)
		}
	}
	s := out.String()
	for _, frag := range []string{
		"console: you play seat 0 of battlebots. Commands: NO, a move N NE",
		"battlebots round 0, seat 0:\n..........\n.Y........\n", // the arena string
		"Y hp=10\nX hp=10\nseat 0> ",
		`console: battlebots does not take "fire!" (type ? for help)`,
		`console: battlebots does not take "b e"`,
		"console: end of input: seat 0 does nothing from now on",
	} {
		if !strings.Contains(s, frag) {
			t.Errorf("output lacks %q:\n%s", frag, s)
		}
	}
	if n := strings.Count(s, "end of input"); n != 1 {
		t.Errorf("end of input reported %d times", n)
	}
}

func TestConsoleBombermanKeys(t *testing.T) {
	g, err := bomberman.New(&bomberman.Config{Players: 2, ConsoleSeats: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(1)
	// Two consoles share one reader (hot seat): each reads its own line.
	in := strings.NewReader("w\nA\ns\nd\nZ\nx\n3\n0\nup\n9\n")
	var out bytes.Buffer
	oldIn, oldOut := ConsoleInput, ConsoleOutput
	ConsoleInput, ConsoleOutput = in, &out
	t.Cleanup(func() { ConsoleInput, ConsoleOutput = oldIn, oldOut })
	var cons [2]env.Agent
	for seat := range cons {
		if cons[seat], err = New("bomberman", "console", g.Spec()); err != nil {
			t.Fatal(err)
		}
		cons[seat].Reset(g, seat, 0)
	}
	want := []int32{
		int32(bomberman.MoveUp), int32(bomberman.MoveLeft), int32(bomberman.MoveDown), int32(bomberman.MoveRight),
		int32(bomberman.PlaceBomb), int32(bomberman.TriggerBomb), int32(bomberman.MoveRight), int32(bomberman.DoNothing),
		int32(bomberman.DoNothing), // "up" is refused, then "9" is read as move.txt reads it: nothing
	}
	for i, w := range want {
		if got := cons[i%2].Act(g, i%2); got != w {
			t.Errorf("Act %d = %d, want %d", i, got, w)
		}
	}
	s := out.String()
	for _, frag := range []string{
		"Commands: w a s d move", "bomberman round 0, seat 1:\n", "Player Name: ", `bomberman does not take "up"`,
	} {
		if !strings.Contains(s, frag) {
			t.Errorf("output lacks %q:\n%s", frag, s)
		}
	}
}

// TestEveryLinkedGamesConsoleKeysAreValid checks the console keys of every
// linked game's kit ([ConsoleKeys]): trimmed lower-case keys other than ?
// and help, for actions of the game, and one line of help wherever there
// are keys.
func TestEveryLinkedGamesConsoleKeysAreValid(t *testing.T) {
	for _, game := range env.Default.Names() {
		keys, help := consoleKeys(game)
		if len(keys) > 0 && strings.TrimSpace(help) == "" || strings.ContainsAny(help, "\n\r") {
			t.Errorf("%s: help %q: want one line, with the keys", game, help)
		}
		e, err := env.Make(game, nil)
		if err != nil {
			t.Fatal(err)
		}
		for key, a := range keys {
			if key == "" || key != strings.ToLower(strings.TrimSpace(key)) || key == "?" || key == "help" || a < 0 || int(a) >= e.Spec().Actions {
				t.Errorf("%s: console key %q (action %d): want a trimmed lower-case key other than ? and help, for an action of the game", game, key, a)
			}
		}
	}
}

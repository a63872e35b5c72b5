package portalbomber

import (
	"testing"
)

// FuzzParseCommand feeds arbitrary move strings to a game with and without
// the variant commands: the action is always in range, ok is false exactly
// for InvalidMove, an accepted move's canonical string reads back as the
// same action, the original's commands are exact matches, and the variant
// reads everything the original reads the same way.
func FuzzParseCommand(f *testing.F) {
	for _, s := range moveStrings {
		f.Add([]byte(s))
	}
	for _, s := range []string{"buy 00", "buy 01", "buy 02", "buy 03", "u", "l", "r", "d", " b", "b\n", "ML", "buy 04", "\xff"} {
		f.Add([]byte(s))
	}
	orig, err := New(DefaultConfig())
	if err != nil {
		f.Fatal(err)
	}
	variant, err := New(VariantConfig())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		var acts [2]int32
		for i, g := range []*Game{orig, variant} {
			for seat := range Seats {
				a, ok := g.ParseCommand(seat, text)
				if a < 0 || a >= NumActions {
					t.Fatalf("%q: action %d out of range", text, a)
				}
				if ok != (a != int32(InvalidMove)) {
					t.Fatalf("%q: action %v with ok %v", text, Action(a), ok)
				}
				if ok {
					canon := g.AppendCommand(nil, seat, a)
					if b, okb := g.ParseCommand(seat, canon); b != a || !okb {
						t.Fatalf("%q → %v → %q → %v, %v", text, Action(a), canon, Action(b), okb)
					}
				}
				if g == orig && ok && string(text) != moveStrings[a] {
					t.Fatalf("the original reads %q as %v, whose string is %q", text, Action(a), moveStrings[a])
				}
				if seat == 0 {
					acts[i] = a
				} else if a != acts[i] {
					t.Fatalf("%q: seat 0 reads %v, seat 1 %v", text, Action(acts[i]), Action(a))
				}
			}
		}
		if acts[0] != int32(InvalidMove) && acts[1] != acts[0] {
			t.Fatalf("%q: the original reads %v, the variant %v", text, Action(acts[0]), Action(acts[1]))
		}
	})
}

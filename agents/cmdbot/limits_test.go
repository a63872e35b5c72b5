package cmdbot

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/botarena/botarena/env/battlebots"
	"github.com/botarena/botarena/internal/testutil"
)

// TestCmdBotOutputCap: a command-line bot's stdout is kept squeezed and
// capped: whitespace padding of any length still reads as the original
// reads it, and megabytes of anything else are garbage.
func TestCmdBotOutputCap(t *testing.T) {
	spaces := "head -c 1048576 /dev/zero | tr '\\0' ' '"
	nbsp := "yes \"$(printf '\\302\\240')\" | head -c 1572864 | tr -d '\\n'" // U+00A0, half a million times
	for _, tc := range []struct {
		name, body string
		want       battlebots.Action
		fault      string
	}{
		{"padded_move", "printf '\\n\\n  '; " + spaces + "; printf N; " + spaces + "; printf '\\n'", battlebots.Move(battlebots.N), ""},
		{"padded_weapon", "printf B; " + spaces + "; printf NE", battlebots.Bullet(battlebots.NE), ""},
		// strings.Fields splits on U+00A0 and U+3000 too: the original fires.
		{"padded_with_unicode_spaces", "printf 'B\\302\\240'; " + nbsp + "; printf '\\343\\200\\200NE\\302\\205'; " + nbsp, battlebots.Bullet(battlebots.NE), ""},
		{"megabytes_of_garbage", "head -c 67108864 /dev/zero | tr '\\0' x", battlebots.Nothing, "garbage output: more than 4096 bytes"},
		{"nul_bytes", "head -c 10000000 /dev/zero", battlebots.Nothing, "garbage output: more than 4096 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Parse("cmd:timeout=20s:" + testutil.ShScript(t, "bot.sh", tc.body))
			if err != nil {
				t.Fatal(err)
			}
			var log bytes.Buffer
			b.Log = &log
			got := b.Act(newBattleBots(t), 0)
			if battlebots.Action(got) != tc.want {
				t.Errorf("action %v, want %v (log %q)", battlebots.Action(got), tc.want, log.String())
			}
			if tc.fault == "" && log.Len() > 0 || !strings.Contains(log.String(), tc.fault) {
				t.Errorf("log %q, want %q", log.String(), tc.fault)
			}
			if cap(b.out.buf) > 2*MaxCommandOutput {
				t.Errorf("stdout buffer grew to %d bytes", cap(b.out.buf))
			}
		})
	}
}

// TestSqueezeCapOnlyCutsGarbage: output over the cap is output the
// original reads as no command, since the squeezed form of every command
// it accepts, whitespace included, is at most 9 bytes.
// squeezeRandom joins fewer than most random pieces into a bot's output
// and squeezes it through c, reset to limit, written in random chunks;
// it returns the output.
func squeezeRandom(r *rand.Rand, c *squeezeBuffer, pieces []string, most, limit int) []byte {
	var out []byte
	for range r.IntN(most) {
		out = append(out, pieces[r.IntN(len(pieces))]...)
	}
	c.reset(limit)
	for rest := out; len(rest) > 0; {
		n := 1 + r.IntN(len(rest))
		c.Write(rest[:n])
		rest = rest[n:]
	}
	c.flush()
	return out
}

func TestSqueezeCapOnlyCutsGarbage(t *testing.T) {
	pieces := []string{"N", "NE", "B", "M", "L", "P", "NO", "x", " ", "\t\n", "\u00a0", "\u3000", "\u0085", "\u2028", "\xe3\x80", "\xff"}
	r := rand.New(rand.NewPCG(3, 4))
	var c squeezeBuffer
	for range 50000 {
		out := squeezeRandom(r, &c, pieces, 10, 9)
		wa, wok := battlebots.ParseAction(out)
		if c.over {
			if wok {
				t.Fatalf("%q is over the cap, yet the original reads it as %v", out, wa)
			}
			continue
		}
		if ga, gok := battlebots.ParseAction(c.buf); ga != wa || gok != wok {
			t.Fatalf("%q squeezed to %q: parsed %v,%v; want %v,%v", out, c.buf, ga, gok, wa, wok)
		}
	}
}

// TestSqueezeKeepsTheParse: the squeezed output parses as the full output
// does, for random outputs of commands, whitespace and other text, written
// in random pieces.
func TestSqueezeKeepsTheParse(t *testing.T) {
	pieces := []string{"N", "NE", "E", "S", "W", "B", "M", "L", "P", "NO", "x", " ", "  ", "\t", "\n", "\r\n", "\v", "\f", "\u00a0", "\u2003", "\u0085"}
	r := rand.New(rand.NewPCG(1, 2))
	var c squeezeBuffer
	for range 20000 {
		out := squeezeRandom(r, &c, pieces, 8, MaxCommandOutput)
		wa, wok := battlebots.ParseAction(out)
		ga, gok := battlebots.ParseAction(c.buf)
		if wa != ga || wok != gok || c.over {
			t.Fatalf("%q squeezed to %q: parsed %v,%v; want %v,%v", out, c.buf, ga, gok, wa, wok)
		}
	}
}

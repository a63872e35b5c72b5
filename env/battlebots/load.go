package battlebots

import (
	"bytes"
	"fmt"
	"strconv"
)

// maxLoadHP bounds the HP a loaded state may give a bot.
const maxLoadHP = 1 << 20

// LoadNative replaces the bout's state with one read from "arena.txt" as
// bot1 sees it (Y is bot1, X is bot2), the format [Game.AppendNative]
// writes:
//
//   - 10 grid lines of 10 characters from ".YXBML", with exactly one Y and
//     one X, on distinct cells inside the arena. Only the bots' cells are
//     read from the grid; B, M and L cells are drawings, and the lines
//     below are what counts.
//   - "Y hp=<n>" then "X hp=<n>".
//   - Any number of "B x=<x> y=<y> dir=<DIR>" and "M ..." lines (list order
//     is line order) and the referee's extension lines: "L x=<x> y=<y>"
//     with optional "by=Y" (the default) or "by=X" and "dead", at most one
//     mine per cell; "P paralysed=<0–2>"; "R round=<n>" (default 0, below
//     the round cap).
//
// Lines may end in "\n" or "\r\n" and fields may be separated by any
// whitespace. A bot below 1 HP, or a round at the cap, loads a finished
// bout. On error the game is unchanged; the error names the line.
func (g *Game) LoadNative(data []byte) error {
	ng := *g
	if err := ng.load(data); err != nil {
		return fmt.Errorf("battlebots: arena.txt: %w", err)
	}
	*g = ng
	return nil
}

func (g *Game) load(data []byte) error {
	lines := bytes.Split(data, []byte("\n"))
	if n := len(lines); n > 0 && len(bytes.TrimSpace(lines[n-1])) == 0 {
		lines = lines[:n-1]
	}
	for i, l := range lines {
		lines[i] = bytes.TrimSuffix(l, []byte("\r"))
	}
	if len(lines) < Side+2 {
		return fmt.Errorf("got %d lines, want at least %d (the grid, then the Y and X lines)", len(lines), Side+2)
	}
	g.Reset(0)
	var found [2]bool
	for y := range Side {
		row := lines[y]
		if len(row) != Side {
			return fmt.Errorf("line %d: grid row has %d characters, want %d", y+1, len(row), Side)
		}
		for x, c := range row {
			seat := -1
			switch c {
			case '.', 'B', 'M', 'L':
				continue
			case 'Y':
				seat = 0
			case 'X':
				seat = 1
			default:
				return fmt.Errorf("line %d: grid character %q at x=%d, want one of .YXBML", y+1, c, x)
			}
			if found[seat] {
				return fmt.Errorf("line %d: a second %c at x=%d", y+1, c, x)
			}
			if !g.InBounds(x, y) {
				return fmt.Errorf("line %d: %c at (%d,%d) is outside the %s arena", y+1, c, x, y, g.cfg.Arena)
			}
			found[seat] = true
			g.bots[seat].X, g.bots[seat].Y = x, y
		}
	}
	if !found[0] || !found[1] {
		return fmt.Errorf("the grid needs one Y (bot1) and one X (bot2)")
	}
	for seat, name := range [2]string{"Y", "X"} {
		ln := Side + seat + 1
		f := bytes.Fields(lines[Side+seat])
		if len(f) != 2 || string(f[0]) != name {
			return fmt.Errorf("line %d: want %q, got %q", ln, name+" hp=<n>", lines[Side+seat])
		}
		hp, err := keyInt(f[1], "hp", -maxLoadHP, maxLoadHP)
		if err != nil {
			return fmt.Errorf("line %d: %w", ln, err)
		}
		g.bots[seat].HP = hp
	}
	roundSet := false
	for i, line := range lines[Side+2:] {
		ln := Side + 3 + i
		f := bytes.Fields(line)
		if len(f) == 0 {
			return fmt.Errorf("line %d: empty line", ln)
		}
		var err error
		switch string(f[0]) {
		case "B", "M":
			err = g.loadProjectile(f)
		case "L":
			err = g.loadMine(f)
		case "P":
			if len(f) != 2 {
				err = fmt.Errorf("want \"P paralysed=<n>\"")
			} else {
				g.paralysed, err = keyInt(f[1], "paralysed", 0, 2)
			}
		case "R":
			if len(f) != 2 || roundSet {
				err = fmt.Errorf("want one \"R round=<n>\" line")
			} else {
				g.round, err = keyInt(f[1], "round", 0, g.maxRounds)
				roundSet = true
			}
		default:
			err = fmt.Errorf("unknown line %q (want B, M, L, P or R)", line)
		}
		if err != nil {
			return fmt.Errorf("line %d: %w", ln, err)
		}
	}
	if g.bots[0].HP < 1 || g.bots[1].HP < 1 {
		g.done = true
	} else if g.round >= g.maxRounds {
		g.done, g.truncatedEnd = true, true
	}
	return nil
}

func (g *Game) loadProjectile(f [][]byte) error {
	if len(f) != 4 {
		return fmt.Errorf("want %q", string(f[0])+" x=<x> y=<y> dir=<DIR>")
	}
	x, y, err := g.keyCell(f[1], f[2])
	if err != nil {
		return err
	}
	v, ok := bytes.CutPrefix(f[3], []byte("dir="))
	d, okd := parseDir(v)
	if !ok || !okd {
		return fmt.Errorf("want dir=<N|NE|E|SE|S|SW|W|NW>, got %q", f[3])
	}
	p := Projectile{X: x, Y: y, Dir: d}
	if f[0][0] == 'B' {
		if g.nBullets == MaxBullets {
			return fmt.Errorf("more than %d bullets", MaxBullets)
		}
		g.bullets[g.nBullets] = p
		g.nBullets++
		return nil
	}
	if g.nMissiles == MaxMissiles {
		return fmt.Errorf("more than %d missiles", MaxMissiles)
	}
	g.missiles[g.nMissiles] = p
	g.nMissiles++
	return nil
}

func (g *Game) loadMine(f [][]byte) error {
	if len(f) < 3 || len(f) > 5 {
		return fmt.Errorf("want \"L x=<x> y=<y> [by=Y|X] [dead]\"")
	}
	x, y, err := g.keyCell(f[1], f[2])
	if err != nil {
		return err
	}
	flags := mineLive
	for _, opt := range f[3:] {
		switch string(opt) {
		case "by=Y":
		case "by=X":
			flags |= mineBot2
		case "dead":
			flags |= mineDead
		default:
			return fmt.Errorf("unknown landmine field %q (want by=Y, by=X or dead)", opt)
		}
	}
	i := y*Side + x
	if g.mines[i] != 0 {
		return fmt.Errorf("a second landmine at (%d,%d)", x, y)
	}
	g.setMine(i, flags)
	return nil
}

// keyCell reads the fields "x=<x>" and "y=<y>" of a projectile or mine
// line, each a coordinate of the arena.
func (g *Game) keyCell(fx, fy []byte) (x, y int, err error) {
	if x, err = keyInt(fx, "x", g.lo, Side-1); err != nil {
		return 0, 0, err
	}
	if y, err = keyInt(fy, "y", g.lo, Side-1); err != nil {
		return 0, 0, err
	}
	return x, y, nil
}

// keyInt parses "key=<int>" with lo ≤ value ≤ hi.
func keyInt(field []byte, key string, lo, hi int) (int, error) {
	v, ok := bytes.CutPrefix(field, []byte(key+"="))
	if !ok {
		return 0, fmt.Errorf("want %s=<n>, got %q", key, field)
	}
	n, err := strconv.Atoi(string(v))
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s=%s: want an integer in %d–%d", key, v, lo, hi)
	}
	return n, nil
}

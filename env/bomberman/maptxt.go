package bomberman

import "strconv"

// map.txt (spec §8.2): the header, the map drawn row by row, then one
// section per registered player.

// mapDashes is the separator line around each player section.
const mapDashes = "---------------------------"

// appendMapTxt appends the state as the original's map.txt. Lines end with
// LF, or CRLF when the config asks for it; the last line ends too.
func (g *Game) appendMapTxt(dst []byte) []byte {
	nl := "\n"
	if g.cfg.MapCRLF {
		nl = "\r\n"
	}
	dst = append(dst, "Map Width: "...)
	dst = strconv.AppendInt(dst, int64(g.width), 10)
	dst = append(dst, ", Map Height: "...)
	dst = strconv.AppendInt(dst, int64(g.height), 10)
	dst = append(dst, ", Current Round: "...)
	dst = strconv.AppendInt(dst, int64(g.round), 10)
	dst = append(dst, ", Seed: "...)
	dst = strconv.AppendInt(dst, int64(g.mapSeed), 10)
	if !g.noBounty {
		dst = append(dst, ", PlayerBounty: "...)
		dst = strconv.AppendInt(dst, int64(g.bounty), 10)
	}
	dst = append(dst, nl...)
	for y := 1; y <= g.height; y++ {
		for x := 1; x <= g.width; x++ {
			dst = append(dst, g.mapSymbol(x, y))
		}
		dst = append(dst, nl...)
	}
	for seat := range g.nPlayers {
		p := &g.players[seat]
		dst = append(dst, mapDashes...)
		dst = append(dst, nl...)
		dst = append(dst, "Player Name: "...)
		dst = append(dst, p.Name...)
		dst = append(dst, nl...)
		dst = append(dst, "Key: "...)
		dst = append(dst, p.Key)
		dst = append(dst, nl...)
		dst = append(dst, "Points: "...)
		dst = strconv.AppendInt(dst, int64(p.Points()), 10)
		dst = append(dst, nl...)
		if p.Killed {
			dst = append(dst, "Status: Dead"...)
		} else {
			dst = append(dst, "Status: Alive"...)
		}
		dst = append(dst, nl...)
		dst = append(dst, "Bombs: "...)
		n := 0
		for y := 1; y <= g.height; y++ {
			for x := 1; x <= g.width; x++ {
				c := &g.cells[g.index(x, y)]
				if c.bomb == 0 || g.bombs[c.bomb-1].Owner != seat {
					continue
				}
				b := &g.bombs[c.bomb-1]
				if n > 0 {
					dst = append(dst, ',')
				}
				n++
				dst = append(dst, "{x:"...)
				dst = strconv.AppendInt(dst, int64(x), 10)
				dst = append(dst, ",y:"...)
				dst = strconv.AppendInt(dst, int64(y), 10)
				dst = append(dst, ",fuse:"...)
				dst = strconv.AppendInt(dst, int64(b.Timer), 10)
				dst = append(dst, ",radius:"...)
				dst = strconv.AppendInt(dst, int64(b.Radius), 10)
				dst = append(dst, '}')
			}
		}
		dst = append(dst, nl...)
		// BombBag here is the bombs still available, not the capacity.
		dst = append(dst, "BombBag: "...)
		dst = strconv.AppendInt(dst, int64(p.BombBag-n), 10)
		dst = append(dst, nl...)
		dst = append(dst, "BlastRadius: "...)
		dst = strconv.AppendInt(dst, int64(p.BombRadius), 10)
		dst = append(dst, nl...)
		dst = append(dst, mapDashes...)
		dst = append(dst, nl...)
	}
	return dst
}

// mapSymbol returns the map.txt symbol of cell (x, y), by the original's
// priority: '*' exploding; a bomb (the owner's lower-case key while the
// owner's recorded location is the bomb cell, else the timer digit); an
// entity ('#', '+', the player's key); a power-up ('&', '!', '$'); ' '.
//
// The original crashes drawing a timer of 10 or more with the owner
// elsewhere (it cannot happen in its games, spec §12.13); such a timer is
// drawn as '9', "at least 9". A timer below 0 is drawn as '0'.
func (g *Game) mapSymbol(x, y int) byte {
	c := &g.cells[g.index(x, y)]
	if c.reached != 0 {
		return '*'
	}
	if c.bomb != 0 {
		b := &g.bombs[c.bomb-1]
		if o := &g.players[b.Owner]; o.X == x && o.Y == y {
			return o.Key | 0x20 // lower case
		}
		return '0' + byte(min(max(b.Timer, 0), 9))
	}
	switch c.Entity {
	case IndestructibleWall:
		return '#'
	case DestructibleWall:
		return '+'
	case PlayerEntity:
		return g.players[c.Player].Key
	}
	switch c.PowerUp {
	case BombBagPowerUp:
		return '&'
	case BombRadiusPowerUp:
		return '!'
	case SuperPowerUp:
		return '$'
	}
	return ' '
}

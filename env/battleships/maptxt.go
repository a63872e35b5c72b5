package battleships

func (g *Game) appendMapTxt(dst []byte, seat int) []byte {
	const crlf = "\r\n"
	n := g.n
	me, op := &g.players[seat], &g.players[1-seat]
	line := func(s string) { dst = append(dst, s...); dst = append(dst, crlf...) }
	hashes := func() {
		for range n {
			dst = append(dst, '#')
		}
	}
	line("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXX")
	line("Game Version : 1.0.0")
	line("Game Level : 1")
	dst = append(dst, "Round Number : "...)
	dst = appendInt(dst, g.round)
	dst = append(dst, crlf+"Map Dimensions : "...)
	dst = appendInt(dst, n)
	dst = append(dst, " x "...)
	dst = appendInt(dst, n)
	dst = append(dst, crlf+"Phase : "...)
	dst = appendInt(dst, g.phase)
	dst = append(dst, crlf...)
	line("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXX")
	line("")
	// board writes a map under a line of hashes and title, north (y = n-1)
	// first, one character a cell from glyph.
	board := func(title string, cells *[MaxCells]Cell, glyph func(Cell) byte) {
		hashes()
		line(title)
		for y := n - 1; y >= 0; y-- {
			for x := range n {
				dst = append(dst, glyph(cells[x*n+y]))
			}
			dst = append(dst, crlf...)
		}
	}
	board(" Player", &me.cells, ownMapGlyph)
	board(" Opponent", &op.cells, opponentMapGlyph)
	hashes()
	dst = append(dst, crlf...)
	line("")
	line("---------------------------")
	dst = append(dst, "Player Name: "+me.Name+crlf+"Available Energy: "...)
	dst = appendInt(dst, me.Energy)
	dst = append(dst, crlf+"Shots: "...)
	dst = appendInt(dst, me.ShotsFired)
	dst = append(dst, crlf+"Hit: "...)
	dst = appendInt(dst, me.ShotsHit)
	dst = append(dst, crlf+"Points: "...)
	dst = appendInt(dst, me.Points)
	// PrintAvailableWeapons: the distinct weapons of the ships afloat, each
	// ship's SingleShot first, so "[]" when none is left.
	dst = append(dst, crlf+"Arsenal: ["...)
	afloat := false
	for k := range NumShips {
		if !me.Ships[k].Destroyed {
			if !afloat {
				dst = append(dst, weaponNames[SingleShot]...)
				afloat = true
			}
			dst = append(dst, ',')
			if g.legacy && shipWeapon[k] == SeekerMissile {
				dst = append(dst, "SeekerMissle"...)
			} else {
				dst = append(dst, weaponNames[shipWeapon[k]]...)
			}
		}
	}
	dst = append(dst, "]"+crlf...)
	dst = g.appendShipList(dst, me)
	dst = appendStatus(dst, me)
	if !g.legacy {
		// RenderPlayerInfo: status and charges always, the center point
		// only while the shield is up.
		sh := &me.Shield
		if sh.Active {
			dst = append(dst, "Shield: (Status: Activated, Charges: "...)
		} else {
			dst = append(dst, "Shield: (Status: Deactivated, Charges: "...)
		}
		dst = appendInt(dst, sh.Charges)
		if sh.Active {
			dst = append(dst, "), Center Point: X:"...)
			dst = appendInt(dst, sh.CX)
			dst = append(dst, ",Y:"...)
			dst = appendInt(dst, sh.CY)
			dst = append(dst, crlf...)
		} else {
			dst = append(dst, "), Center Point: No Shield"+crlf...)
		}
	}
	line("---------------------------")
	dst = append(dst, "Opponent: "+op.Name+crlf+"Points: "...)
	dst = appendInt(dst, op.Points)
	dst = append(dst, crlf...)
	dst = g.appendShipList(dst, op)
	dst = appendStatus(dst, op)
	line("---------------------------")
	return dst
}

func (g *Game) appendShipList(dst []byte, p *Player) []byte {
	dst = append(dst, "Ships: ["...)
	first := true
	for k := range NumShips {
		if p.Ships[k].Destroyed {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, shipFriendly[k]...)
	}
	return append(dst, "]\r\n"...)
}

func appendStatus(dst []byte, p *Player) []byte {
	if p.Killed {
		return append(dst, "Status: Dead\r\n"...)
	}
	return append(dst, "Status: Alive\r\n"...)
}

// ownMapGlyph is map.txt's character for a cell of the player's own map:
// '@' a shielded cell that stopped a shot, the ship's letter (lower case
// once hit), '~' water.
func ownMapGlyph(c Cell) byte {
	switch {
	case c.Shielded && c.ShieldHit:
		return '@'
	case c.Ship != 0 && c.Hit:
		return shipLetters[c.Ship-1] + 'a' - 'A'
	case c.Ship != 0:
		return shipLetters[c.Ship-1]
	}
	return '~'
}

// opponentMapGlyph is map.txt's character for a cell of the opponent's
// map, which shows only shots: '@' a shielded cell that stopped one, '*' a
// hit on a ship, '!' a miss, '~' a cell not shot.
func opponentMapGlyph(c Cell) byte {
	switch {
	case c.Shielded && c.ShieldHit:
		return '@'
	case c.Hit && c.Ship != 0:
		return '*'
	case c.Hit:
		return '!'
	}
	return '~'
}

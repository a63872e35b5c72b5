package bomberman

// writeView writes seat's player-centred observation into dst
// ([Config.ViewRadius] > 0): the whole-map planes as [Game.WriteObs]
// writes them without the option, in g.view, cut to the window around
// the seat's player (its last cell once dead); then the scalars. It never
// allocates.
func (g *Game) writeView(seat int, dst [][]byte) {
	n := NumPlanes * g.width * g.height
	g.sharedPlanes(n)
	if len(g.view) != n {
		// Only a state loaded with another map size gets here.
		g.view = make([]byte, n)
	}
	copy(g.view, g.obsShared)
	g.writeMarks(seat, g.view)
	p := &g.players[seat]
	cropView(dst[0], g.view, g.width, g.height, p.X, p.Y, g.cfg.ViewRadius)
	g.writeScalars(seat, dst[1])
}

// cropView writes into dst, [NumPlanes, 2r+1, 2r+1], the window of the
// whole-map planes src, [NumPlanes, h, w] over 1-based cells, centred on
// cell (cx, cy): window cell (u, v) is map cell (cx−r+u, cy−r+v); cells
// off the map read as indestructible walls (1 in PlaneIndestructible, 0
// in the other planes).
func cropView(dst, src []byte, w, h, cx, cy, r int) {
	d := 2*r + 1
	// The window's columns u0..u1-1 fall on the map (x = cx-r+u in 1..w),
	// and likewise its rows.
	u0, u1 := max(0, 1-(cx-r)), min(d, w+1-(cx-r))
	for c := range NumPlanes {
		off := byte(0)
		if c == PlaneIndestructible {
			off = 1
		}
		plane := dst[c*d*d : (c+1)*d*d]
		for v := range d {
			row := plane[v*d : (v+1)*d]
			y := cy - r + v
			if y < 1 || y > h || u0 >= u1 {
				fill(row, off)
				continue
			}
			fill(row[:u0], off)
			x0 := cx - r + u0
			base := c*w*h + (y-1)*w + (x0 - 1)
			copy(row[u0:u1], src[base:base+u1-u0])
			fill(row[u1:], off)
		}
	}
}

// fill sets every byte of b to v.
func fill(b []byte, v byte) {
	for i := range b {
		b[i] = v
	}
}

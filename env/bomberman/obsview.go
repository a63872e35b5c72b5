package bomberman

// writeView writes seat's player-centred observation into dst
// ([Config.ViewRadius] > 0): the window around the seat's player (its last
// cell once dead) of the whole-map planes as [Game.WriteObs] writes them
// without the option: the shared planes cut to the window, then the seat's
// own marks (players, bombs) that fall inside it; then the scalars. It
// never allocates.
func (g *Game) writeView(seat int, dst [][]byte) {
	w, h, r := g.width, g.height, g.cfg.ViewRadius
	g.sharedPlanes(NumPlanes * w * h)
	p := &g.players[seat]
	d := 2*r + 1
	if p.X >= 1 && p.X <= w && p.Y >= 1 && p.Y <= h {
		g.refreshPadded()
		pw := w + 2*r // a padded plane's width; the window's top left is (X-1, Y-1)
		for c := range NumPlanes {
			src := g.padded[c*pw*(h+2*r):]
			out := dst[0][c*d*d : (c+1)*d*d]
			for v := range d {
				o := (p.Y-1+v)*pw + p.X - 1
				copy(out[v*d:(v+1)*d], src[o:o+d])
			}
		}
	} else {
		cropView(dst[0], g.obsShared, w, h, p.X, p.Y, r)
	}
	// put sets plane's byte of map cell i (an index of Game.cells) to v
	// when the cell is inside the window.
	put := func(plane, i int, v byte) {
		u, vv := i%w+1-(p.X-r), i/w+1-(p.Y-r)
		if u >= 0 && u < d && vv >= 0 && vv < d {
			dst[0][(plane*d+vv)*d+u] = v
		}
	}
	m := &g.marks
	for _, pm := range m.players[:m.nPlayers] {
		put(pm.plane(seat), int(pm.cell), 1)
	}
	for _, bm := range m.bombs[:m.nBombs] {
		put(bm.plane(seat), int(bm.cell), bm.timer)
	}
	g.writeScalars(seat, dst[1])
}

// writeTouchedView writes the two [Config.TouchedPlanes] of seat's window
// ([Config.ViewRadius] > 0) into dst, after writeView: as
// [Game.writeTouched] on the map, 0 off it. (Kept out of writeView, whose
// copy loop is compiled better without it.)
func (g *Game) writeTouchedView(seat int, dst []byte) {
	r, p := g.cfg.ViewRadius, &g.players[seat]
	x0, y0, d := p.X-r, p.Y-r, 2*r+1
	self := dst[PlaneSelfTouched*d*d : (PlaneSelfTouched+1)*d*d]
	others := dst[PlaneOpponentsTouched*d*d : (PlaneOpponentsTouched+1)*d*d]
	clear(self)
	clear(others)
	// The window's columns u0..u1-1 fall on the map (x = x0+u in 1..w).
	w, h := g.width, g.height
	u0, u1 := max(0, 1-x0), min(d, w+1-x0)
	if u0 >= u1 {
		return
	}
	bit := uint16(1) << seat
	for v := range d {
		y := y0 + v
		if y < 1 || y > h {
			continue
		}
		cells := g.cells[(y-1)*w+x0-1+u0 : (y-1)*w+x0-1+u1]
		s, o := self[v*d+u0:v*d+u1], others[v*d+u0:v*d+u1]
		for i := range cells {
			t := cells[i].touched
			s[i] = flag(t&bit != 0)
			o[i] = flag(t&^bit != 0)
		}
	}
}

// refreshPadded brings g.padded up to the current shared planes: made
// with its border the first time, then the map's rows copied in once per
// state (every seat's window is cut from it).
func (g *Game) refreshPadded() {
	w, h, r := g.width, g.height, g.cfg.ViewRadius
	pw, ph := w+2*r, h+2*r
	if len(g.padded) != NumPlanes*pw*ph {
		g.padded = make([]byte, NumPlanes*pw*ph)
		fill(g.padded[PlaneIndestructible*pw*ph:(PlaneIndestructible+1)*pw*ph], 1)
		g.paddedVer = 0
	}
	if g.paddedVer == g.obsVer && g.paddedVer != 0 {
		return
	}
	for c := range NumPlanes {
		plane := g.padded[c*pw*ph : (c+1)*pw*ph]
		for y := range h {
			o := (y+r)*pw + r
			copy(plane[o:o+w], g.obsShared[(c*h+y)*w:(c*h+y+1)*w])
		}
	}
	g.paddedVer = g.obsVer
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

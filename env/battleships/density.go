package battleships

// tracker is what a seat knows of the opponent's map, as its state.json
// shows it, and what it has made of it: the missed and damaged cells, the
// cells it put down to the ships it saw sink, and those ships. Hunter
// keeps one, and so does a game with Config.DensityPlane, per seat. It is
// a fixed-size value.
type tracker struct {
	known    [MaxCells]uint8 // 0 unknown, 1 missed, 2 damaged (index x*N + y)
	fresh    [MaxCells]bool  // damaged since the last update
	sunkCell [MaxCells]bool  // damaged cells put down to a sunk ship
	sunk     [NumShips]bool
}

// update reads the opponent's map as seat sees it and puts the hits of
// the ships newly sunk to them: for each, the first run of its length of
// damaged cells not yet put down to a ship, through a hit made since the
// last update when there is one (a sunk ship's cells are the run of hits
// through the shot that sank it). Call it once a round. It reports whether
// what density reads changed (a cell newly missed or damaged, a ship newly
// seen to sink); when it did not, density gives what it gave before.
func (t *tracker) update(g *Game, seat int) (changed bool) {
	n := g.n
	anyFresh := false
	opp := &g.players[1-seat]
	for i := range n * n {
		c := opp.cells[i]
		t.fresh[i] = false
		switch {
		case c.Hit && c.Ship != 0 && t.known[i] != 2:
			t.known[i], t.fresh[i], anyFresh = 2, true, true
		case c.Hit && c.Ship == 0 && t.known[i] != 1:
			t.known[i], changed = 1, true
		}
	}
	changed = changed || anyFresh
	for k := range NumShips {
		if t.sunk[k] || !opp.Ships[k].Destroyed {
			continue
		}
		t.sunk[k], changed = true, true
		t.resolve(n, ShipType(k), anyFresh)
	}
	return changed
}

// resolve marks the damaged cells of a run of ship type st's length,
// through a fresh hit when there is one, as st's.
func (t *tracker) resolve(n int, st ShipType, anyFresh bool) {
	L := st.Len()
	for _, pl := range placementTable[n][L] {
		i0, step := int(pl.i0), int(pl.step)
		ok, fresh := true, false
		for c := range L {
			i := i0 + c*step
			if t.known[i] != 2 || t.sunkCell[i] {
				ok = false
				break
			}
			fresh = fresh || t.fresh[i]
		}
		if ok && (fresh || !anyFresh) {
			for c := range L {
				t.sunkCell[i0+c*step] = true
			}
			return
		}
	}
}

// placement is a ship's placement on an n×n map: the index (x*n+y) of
// its first cell and the index step from one of its cells to the next.
type placement struct{ i0, step int16 }

// placementTable holds, per map side n and ship length L, every placement
// of the ship, by x, then y, then East before North.
var placementTable = func() (t [MaxSize + 1][6][]placement) {
	for n := 1; n <= MaxSize; n++ {
		for L := 2; L <= 5; L++ {
			for x := range n {
				for y := range n {
					for _, d := range [2]Direction{East, North} {
						if x+dirDX[d]*(L-1) >= n || y+dirDY[d]*(L-1) >= n {
							continue
						}
						t[n][L] = append(t[n][L], placement{int16(x*n + y), int16(dirDX[d]*n + dirDY[d])})
					}
				}
			}
		}
	}
	return t
}()

// hitWeight is the weight of a placement covering k unresolved hits.
var hitWeight = [6]float32{1, 40, 1600, 64000, 2.56e6, 1.024e8}

// density fills prob[:n*n] with each unknown cell's chance of holding a
// ship (0 on the cells already shot): the sum, over the ships not seen to
// sink, of the share of the ship's placements covering the cell, among
// those that avoid missed cells and cells put down to sunk ships, each
// weighted by hitWeight of the unresolved hits it covers. dens is
// scratch. It never allocates.
func (t *tracker) density(n int, prob, dens *[MaxCells]float32) {
	clear(prob[:n*n])
	for k := range NumShips {
		if t.sunk[k] {
			continue
		}
		L := ShipType(k).Len()
		clear(dens[:n*n])
		total := float32(0)
		for _, pl := range placementTable[n][L] {
			i0, step := int(pl.i0), int(pl.step)
			ok, hits := true, 0
			for c := range L {
				i := i0 + c*step
				if t.known[i] == 1 || t.sunkCell[i] {
					ok = false
					break
				}
				if t.known[i] == 2 {
					hits++
				}
			}
			if !ok {
				continue
			}
			w := hitWeight[hits]
			total += w
			for c := range L {
				if i := i0 + c*step; t.known[i] == 0 {
					dens[i] += w
				}
			}
		}
		if total == 0 {
			continue
		}
		for i := range n * n {
			prob[i] += dens[i] / total
		}
	}
}

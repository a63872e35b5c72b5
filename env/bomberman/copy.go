package bomberman

// CopyFrom makes g an exact copy of src's game, for search: the map, the
// players, the bombs, the round, the per-round working state and the
// collision generator, so that stepping g and src with the same actions
// gives the same states, rewards and flags byte for byte. g shares nothing
// mutable with src afterwards: it keeps its own observation buffers (marked
// stale, rebuilt by the next observation), its own copies of the config's
// name lists and its own safe-mask scratch, and stepping one leaves the
// other unchanged.
//
// g may have been made by [New] with any config; it takes src's. CopyFrom
// allocates only when g's buffers are too small for src's (the first copy
// into a fresh or smaller game); after that it does not allocate. It is
// not safe for concurrent use with Step on either game.
//
// The copy includes what a bot does not see: the power-ups hidden under
// destructible walls and the generator that draws the collision rolls.
// A bot searches on [Game.CopyVisible] instead.
func (g *Game) CopyFrom(src *Game) {
	if g == src {
		return
	}
	// What g owns and keeps: its buffers and scratch.
	obsShared, padded, paddedVer, dyn := g.obsShared, g.padded, g.paddedVer, g.dyn
	delta := g.delta
	names, console := g.cfg.Names, g.cfg.ConsoleSeats
	safety := g.safety
	sameView := g.cfg.ViewRadius == src.cfg.ViewRadius && g.width == src.width && g.height == src.height
	ver := max(g.obsVer, src.obsVer)

	*g = *src

	g.cfg.Names = append(names[:0], src.cfg.Names...)
	g.cfg.ConsoleSeats = append(console[:0], src.cfg.ConsoleSeats...)
	if src.safety != nil && safety == nil {
		safety = NewHunter()
	}
	g.safety = nil
	if src.safety != nil {
		g.safety = safety
	}
	g.obsShared, g.dyn = obsShared, dyn[:0]
	g.padded, g.paddedVer = padded, paddedVer
	if !sameView {
		g.padded, g.paddedVer = nil, 0 // its border is another map's
	}
	g.delta = delta
	// The buffers show g's old state (or none): a version newer than
	// any either game gave, so that no observation row reads as fresh.
	g.obsVer = ver
	g.stateChanged()
}

// CopyVisible makes g a copy of src as the players see it, for a bot's
// search: [Game.CopyFrom], then without what the original's state.json
// hides from bots. Bomberman 2016 shows bots the whole map (every wall,
// player, bomb with its owner, radius and fuse, and every power-up lying
// in the open), but not the power-ups under destructible walls, which
// CopyVisible removes (a search finds none where a wall falls), nor the
// clock the original drew collision rolls from: g's generator is seeded
// with seed instead of src's state. It allocates as CopyFrom does.
func (g *Game) CopyVisible(src *Game, seed uint64) {
	g.CopyFrom(src)
	for i := range g.width * g.height {
		if c := &g.cells[i]; c.Entity != NoEntity {
			c.PowerUp = NoPowerUp
		}
	}
	g.rng.Seed(seed, seed^0x9e3779b97f4a7c15)
}

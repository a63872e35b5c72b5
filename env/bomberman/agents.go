package bomberman

import (
	"fmt"
	"math/rand/v2"

	"github.com/botarena/botarena/env"
)

// newReferenceAgent is the factory of the "reference" agent.
var newReferenceAgent = env.GameAgent("bomberman", "reference", func() env.Agent { return NewReference() })

// maxCells is the number of cells of the largest Bomberman map.
const maxCells = MaxSide * MaxSide

// nodeKind is what the reference bot sees on a node: the first of the
// visible power-up, the entity and the bomb, as its Node class takes them.
type nodeKind uint8

const (
	notNode   nodeKind = iota // no node: an indestructible wall, or x = W or y = H
	nodeEmpty                 // a node with nothing on it
	nodePowerUp
	nodeSuperPowerUp
	nodeWall // a destructible wall
	nodePlayer
	nodeBomb // a bomb with no entity on it
)

// Reference is the Entelect Challenge 2016 reference bot ("Reference
// Bots/C#", AStarStrategy; spec §11) for Bomberman, with the original's
// quirks:
//
//   - It reads the state as the bot reads state.json: a power-up under an
//     entity is invisible, bombs are seen with their owner, radius and fuse,
//     and a cell is exploding when a blast reached it last round. It builds
//     a node for every cell that is not an indestructible wall, but only for
//     x < W and y < H (the last column and row are left out; on generated
//     maps they are border walls anyway).
//   - Target: the closest visible power-up, where "closest" compares only
//     the x-difference (the original's distance function compares the
//     player's y with itself), ties going to the first node in row-major
//     order; else the remembered target if its cell still holds something
//     (a wall, a player, a bomb or a power-up); else the "farthest"
//     destructible wall by the same x-only distance (the last of the ties in
//     row-major order), which is then remembered; else a random node.
//   - Path: the original's A*: Chebyshev distance as heuristic and step
//     cost, exploding cells never entered, walls and bombs walkable at a
//     price, and a penalty added for the node being expanded (not the one
//     entered): 0 for the bot's own node; 110 for a bomb; for a
//     destructible wall 250/30 when the bot is in danger and 150/−10 when it
//     is safe (the first figure when the wall itself is in blast range); for
//     an empty node while in danger 50 in blast range, −50 otherwise; 200 in
//     blast range or exploding; −85 for a super power-up, −55 for another
//     power-up, 50 for a player. "In blast range" means a bomb on the node,
//     or a bomb in the same row or column within its radius, walls
//     ignored. Open-list ties keep the original's order (lowest F, then
//     lowest H, then first added).
//   - Decision: trigger (6) when not in danger and one of its bombs has a
//     fuse above 2; else move towards the next path node when it is not a
//     destructible wall or when in danger (so in danger it may walk into a
//     wall or a bomb, which the engine rejects); else plant (5) when the next
//     node is a wall and none of its bombs is on the map; else it writes 7,
//     which the engine reads as Do Nothing, so Act returns 0.
//   - Where the C# bot throws (its player is dead, the target cannot be
//     reached, or the target is its own cell) it writes no move.txt, which
//     the harness reads as Do Nothing: Act returns 0 (after the trigger
//     check, in the last case, as in the original).
//
// Differences, by design: the original remembered its target in a file
// %TEMP%/<MapSeed>_<Key>.state, which outlived the game; Reference keeps it
// in the instance and forgets it on Reset. The random node the original drew
// from an unseeded clock comes from the agent's PCG generator, seeded in
// Reset.
//
// Reference is not safe for concurrent use; use one per seat. Its working
// memory is fixed-size arrays, so Act does not allocate.
type Reference struct {
	pcg rand.PCG
	rng *rand.Rand

	// memX, memY is the remembered target (the %TEMP% file); 0 for none.
	memX, memY int

	w, h int // map size of the current Act

	kind      [maxCells]nodeKind
	bomb      [maxCells]bool
	exploding [maxCells]bool
	inRange   [maxCells]bool
	nodes     [maxCells]int32 // node indexes in row-major order
	nNodes    int

	// A* state.
	gCost, hCost [maxCells]int32
	parent       [maxCells]int32
	inOpen       [maxCells]bool
	closed       [maxCells]bool
	open         [maxCells]int32
	nOpen        int
}

// NewReference returns a reference bot, seeded with 0 until Reset.
func NewReference() *Reference {
	r := &Reference{}
	r.rng = rand.New(&r.pcg)
	return r
}

// referenceStream is the PCG stream constant of Reference.
const referenceStream = 0x2016b0b

// Reset forgets the remembered target and seeds the generator with seed. It
// panics if e is not a Bomberman game.
func (r *Reference) Reset(e env.Env, seat int, seed uint64) {
	asBomberman(e)
	r.pcg.Seed(seed, referenceStream)
	r.memX, r.memY = 0, 0
}

// Act returns the reference bot's move.txt code for seat (0–6; its 7 is
// returned as 0). It panics if e is not a Bomberman game.
func (r *Reference) Act(e env.Env, seat int) int32 {
	return int32(r.act(asBomberman(e), seat))
}

func asBomberman(e env.Env) *Game {
	// Through any: the assertion must compile before *Game
	// implements env.Env on every branch.
	g, ok := any(e).(*Game)
	if !ok {
		panic(fmt.Sprintf("bomberman: the reference bot cannot play %T", e))
	}
	return g
}

// idx returns the cell index of 1-based (x, y).
func (r *Reference) idx(x, y int) int { return (y-1)*r.w + (x - 1) }

// node returns the node index at (x, y), or -1 where there is no node.
func (r *Reference) node(x, y int) int {
	if x < 1 || y < 1 || x >= r.w || y >= r.h {
		return -1
	}
	i := r.idx(x, y)
	if r.kind[i] == notNode {
		return -1
	}
	return i
}

// xy returns the 1-based coordinates of cell index i.
func (r *Reference) xy(i int) (x, y int) { return i%r.w + 1, i/r.w + 1 }

func (r *Reference) act(g *Game, seat int) Action {
	p := g.Player(seat)
	if p.Killed {
		return DoNothing // no player node: the C# bot throws
	}
	r.see(g)
	start := -1
	if c := g.At(p.X, p.Y); c.Entity == PlayerEntity && int(c.Player) == seat {
		start = r.node(p.X, p.Y)
	}
	if start < 0 {
		return DoNothing
	}
	ownBombs, ripe := 0, false
	for _, i := range r.nodes[:r.nNodes] {
		if !r.bomb[i] {
			continue
		}
		x, y := r.xy(int(i))
		if b, ok := g.BombAt(x, y); ok && b.Owner == seat {
			ownBombs++
			ripe = ripe || b.Timer > 2
		}
	}

	end := r.target(p.X)
	if !r.search(start, end) {
		return DoNothing // GetPath walks off a null parent
	}
	danger := r.inRange[start]
	if !danger && ripe {
		return TriggerBomb
	}
	if end == start {
		return DoNothing // path[0] of an empty path
	}
	next := end
	for int(r.parent[next]) != start {
		next = int(r.parent[next])
	}
	if r.kind[next] != nodeWall || danger {
		sx, sy := r.xy(start)
		nx, ny := r.xy(next)
		switch {
		case sx == nx && sy > ny:
			return MoveUp
		case sx == nx:
			return MoveDown
		case sx > nx:
			return MoveLeft
		default:
			return MoveRight
		}
	}
	if ownBombs < 1 {
		return PlaceBomb
	}
	return DoNothing // the bot's 7
}

// see reads the map into the node arrays, as the bot builds its NodeMap.
func (r *Reference) see(g *Game) {
	r.w, r.h = g.Width(), g.Height()
	n := r.w * r.h
	clear(r.kind[:n])
	clear(r.bomb[:n])
	clear(r.exploding[:n])
	clear(r.inRange[:n])
	r.nNodes = 0
	for y := 1; y < r.h; y++ {
		for x := 1; x < r.w; x++ {
			c := g.At(x, y)
			if c.Entity == IndestructibleWall {
				continue
			}
			i := r.idx(x, y)
			r.nodes[r.nNodes] = int32(i)
			r.nNodes++
			r.bomb[i] = c.HasBomb()
			r.exploding[i] = c.Exploding()
			switch {
			case c.Entity == NoEntity && c.PowerUp == SuperPowerUp:
				r.kind[i] = nodeSuperPowerUp
			case c.Entity == NoEntity && c.PowerUp != NoPowerUp:
				r.kind[i] = nodePowerUp
			case c.Entity == DestructibleWall:
				r.kind[i] = nodeWall
			case c.Entity == PlayerEntity:
				r.kind[i] = nodePlayer
			case c.HasBomb():
				r.kind[i] = nodeBomb
			default:
				r.kind[i] = nodeEmpty
			}
		}
	}
	// Blast range: a bomb on the node, or one in its row or column within
	// the bomb's radius, walls ignored.
	for _, i := range r.nodes[:r.nNodes] {
		if !r.bomb[i] {
			continue
		}
		bx, by := r.xy(int(i))
		b, _ := g.BombAt(bx, by)
		r.markRange(bx, by, b.Radius)
	}
}

// markRange marks the nodes in blast range of a bomb of radius at (bx, by).
// The original scans a node's column for y up to the map width, so a bomb
// below row W counts only for its row (on square maps this never matters).
func (r *Reference) markRange(bx, by, radius int) {
	r.inRange[r.idx(bx, by)] = true
	for x := max(1, bx-radius); x <= min(r.w-1, bx+radius); x++ {
		if j := r.node(x, by); j >= 0 {
			r.inRange[j] = true
		}
	}
	if by > r.w {
		return
	}
	for y := max(1, by-radius); y <= min(r.h-1, by+radius); y++ {
		if j := r.node(bx, y); j >= 0 {
			r.inRange[j] = true
		}
	}
}

// target picks the node to walk to; px is the player's x (the only
// coordinate the bot's distance uses).
func (r *Reference) target(px int) int {
	dist := func(i int) int {
		x, _ := r.xy(i)
		return abs(px - x)
	}
	best, bestD := -1, 0
	for _, n := range r.nodes[:r.nNodes] {
		i := int(n)
		if k := r.kind[i]; k == nodePowerUp || k == nodeSuperPowerUp {
			if d := dist(i); best < 0 || d < bestD {
				best, bestD = i, d
			}
		}
	}
	if best >= 0 {
		return best
	}
	if r.memX > 0 {
		if i := r.node(r.memX, r.memY); i >= 0 && r.kind[i] != nodeEmpty {
			return i
		}
	}
	for _, n := range r.nodes[:r.nNodes] {
		i := int(n)
		if r.kind[i] == nodeWall {
			if d := dist(i); best < 0 || d >= bestD {
				best, bestD = i, d
			}
		}
	}
	if best >= 0 {
		r.memX, r.memY = r.xy(best)
		return best
	}
	return int(r.nodes[r.rng.IntN(r.nNodes)])
}

// chebyshev is the bot's A* distance.
func (r *Reference) chebyshev(a, b int) int32 {
	ax, ay := r.xy(a)
	bx, by := r.xy(b)
	return int32(max(abs(ax-bx), abs(ay-by)))
}

// penalty is the bot's extra cost for expanding node i from start.
func (r *Reference) penalty(i, start int) int32 {
	if i == start {
		return 0
	}
	if r.bomb[i] {
		return 110
	}
	danger := r.inRange[start]
	switch {
	case r.kind[i] == nodeWall && danger:
		return pick(r.inRange[i], 250, 30)
	case r.kind[i] == nodeWall:
		return pick(r.inRange[i], 150, -10)
	case r.kind[i] == nodeEmpty && danger:
		return pick(r.inRange[i], 50, -50)
	case r.inRange[i] || r.exploding[i]:
		return 200
	case r.kind[i] == nodeSuperPowerUp:
		return -85
	case r.kind[i] == nodePowerUp:
		return -55
	case r.kind[i] == nodePlayer:
		return 50
	}
	return 0
}

func pick(c bool, a, b int32) int32 {
	if c {
		return a
	}
	return b
}

// neighbours are the offsets the bot's GetNeighbours yields, in its order.
var neighbours = [4][2]int{{-1, 0}, {0, -1}, {0, 1}, {1, 0}}

// search runs the bot's A* from start towards end, leaving the parent
// links in r.parent. It reports whether end was reached (or is start).
func (r *Reference) search(start, end int) bool {
	for _, n := range r.nodes[:r.nNodes] {
		r.gCost[n], r.hCost[n], r.parent[n] = 0, 0, -1
		r.inOpen[n], r.closed[n] = false, false
	}
	r.open[0] = int32(start)
	r.nOpen = 1
	r.inOpen[start] = true
	for r.nOpen > 0 {
		ci := 0
		cur := int(r.open[0])
		for k := 1; k < r.nOpen; k++ {
			o := int(r.open[k])
			fo, fc := r.gCost[o]+r.hCost[o], r.gCost[cur]+r.hCost[cur]
			if fo < fc || fo == fc && r.hCost[o] < r.hCost[cur] {
				ci, cur = k, o
			}
		}
		copy(r.open[ci:r.nOpen], r.open[ci+1:r.nOpen])
		r.nOpen--
		r.inOpen[cur] = false
		r.closed[cur] = true
		if cur == end {
			break
		}
		cx, cy := r.xy(cur)
		for _, d := range neighbours {
			nb := r.node(cx+d[0], cy+d[1])
			if nb < 0 || r.exploding[nb] || r.closed[nb] {
				continue
			}
			cost := r.gCost[cur] + r.chebyshev(cur, nb) + r.penalty(cur, start)
			if cost < r.gCost[nb] || !r.inOpen[nb] {
				r.gCost[nb] = cost
				r.hCost[nb] = r.chebyshev(nb, end)
				r.parent[nb] = int32(cur)
				if !r.inOpen[nb] {
					r.open[r.nOpen] = int32(nb)
					r.nOpen++
					r.inOpen[nb] = true
				}
			}
		}
	}
	return end == start || r.parent[end] >= 0
}

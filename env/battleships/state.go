package battleships

import (
	"math/rand/v2"

	"github.com/botarena/botarena/env"
)

// Sizes and limits.
const (
	// MaxSize is the largest map side (large, 14).
	MaxSize = 14
	// MaxCells is the number of cells of the largest map.
	MaxCells = MaxSize * MaxSize
	// NumShips is the fleet size.
	NumShips = 5
	// Seats is the number of players.
	Seats = 2
	// ShieldChargeTime is the rounds between shield charges.
	ShieldChargeTime = 7
	// DoNothingLimit is the harness's consecutive do-nothing limit.
	DoNothingLimit = 20
	// PlacementFailureLimit is the harness's failed-placement limit.
	PlacementFailureLimit = 5
	// Margin is how far outside the map a command centre can lie in the
	// action space (see the package documentation): every centre further
	// out acts like one Margin cells out.
	Margin = 3
)

// ShipType is a ship, in the player's list order (which is the JSON order).
type ShipType uint8

// The ships in list order.
const (
	Submarine ShipType = iota
	Destroyer
	Battleship
	Carrier
	Cruiser
)

var (
	shipLengths  = [NumShips]int{3, 2, 4, 5, 3}
	shipNames    = [NumShips]string{"Submarine", "Destroyer", "Battleship", "Carrier", "Cruiser"}
	shipFriendly = [NumShips]string{"Submarine", "Destroyer", "Battle Ship", "Carrier", "Cruiser"}
	shipLetters  = [NumShips]byte{'S', 'D', 'B', 'C', 'R'}
	// shipWeapon is each ship's special weapon.
	shipWeapon = [NumShips]Weapon{SeekerMissile, DoubleShot, DiagonalCrossShot, CornerShot, CrossShot}
)

// Len returns the ship's length.
func (t ShipType) Len() int { return shipLengths[t] }

// String returns the ship's JSON name ("Submarine", ...).
func (t ShipType) String() string { return shipNames[t] }

// Weapon is a weapon type, in the original enum's order.
type Weapon uint8

// The weapons.
const (
	SingleShot Weapon = iota
	DoubleShot
	CornerShot
	SeekerMissile
	DiagonalCrossShot
	CrossShot
)

var (
	weaponNames  = [6]string{"SingleShot", "DoubleShot", "CornerShot", "SeekerMissile", "DiagonalCrossShot", "CrossShot"}
	weaponRounds = [6]int{0, 8, 10, 12, 12, 14}
)

// String returns the weapon's enum name (v1.2 spelling).
func (w Weapon) String() string { return weaponNames[w] }

// Direction is a placement direction, in the action-space order.
type Direction uint8

// The placement directions.
const (
	North Direction = iota // (0, +1)
	East                   // (+1, 0)
	South                  // (0, −1)
	West                   // (−1, 0)
)

var (
	dirDX    = [4]int{0, 1, 0, -1}
	dirDY    = [4]int{1, 0, -1, 0}
	dirNames = [4]string{"North", "East", "South", "West"}
)

// String returns "North", "East", "South" or "West".
func (d Direction) String() string { return dirNames[d&3] }

// Command codes of command.txt.
const (
	CodeNothing = iota
	CodeSingle
	CodeDoubleVertical
	CodeDoubleHorizontal
	CodeCorner
	CodeDiagonalCross
	CodeCross
	CodeSeeker
	CodeShield
	NumCodes // 9: codes 0–8
)

// codeShip is the ship whose special weapon a code fires (-1: any ship).
var codeShip = [NumCodes]int8{-1, -1, int8(Destroyer), int8(Destroyer), int8(Carrier), int8(Battleship), int8(Cruiser), int8(Submarine), -1}

// codeWeapon is the weapon a fire code uses.
var codeWeapon = [NumCodes]Weapon{SingleShot, SingleShot, DoubleShot, DoubleShot, CornerShot, DiagonalCrossShot, CrossShot, SeekerMissile, SingleShot}

// Cell is one cell of a player's own map.
type Cell struct {
	// Ship is the occupying ship's type + 1, 0 for water.
	Ship      uint8
	Hit       bool
	Shielded  bool
	ShieldHit bool
}

// Occupied reports whether a ship lies on the cell.
func (c Cell) Occupied() bool { return c.Ship != 0 }

// Ship is one ship of a fleet. Its cells are (X, Y) + k·Dir for k in
// 0..Len-1, start cell first.
type Ship struct {
	X, Y      int8
	Dir       Direction
	Placed    bool
	Destroyed bool
}

// Shield is a player's shield.
type Shield struct {
	RoundLastUsed int
	Charges       int
	Radius        int
	Active        bool
	CX, CY        int // centre
}

// Player is one player's side: fleet, map, energy and counters.
type Player struct {
	Name       string
	Energy     int
	Points     int
	ShotsFired int
	ShotsHit   int
	// Failed is FailedFirstPhaseCommands.
	Failed int
	Killed bool
	// FirstShotLanded is the round of the first landed hit, -1 for never.
	FirstShotLanded int
	// Idle counts consecutive do-nothing commands (the harness's counter).
	Idle   int
	Ships  [NumShips]Ship
	Shield Shield
	cells  [MaxCells]Cell // index x*N + y: map order
}

// ShipsRemaining counts the ships whose Destroyed flag is false.
func (p *Player) ShipsRemaining() int {
	n := 0
	for i := range p.Ships {
		if !p.Ships[i].Destroyed {
			n++
		}
	}
	return n
}

// pending is a seat's progress through a phase-1 round in learn mode.
type pending struct {
	n     uint8 // ships chosen so far, in list order
	state uint8 // pendOpen, or how the seat finished
	ships [NumShips]Ship
	// code, cx, cy: a non-placement command that fails the round.
	code, cx, cy int8
}

const (
	pendOpen    = iota
	pendPlace   // all 5 chosen (a PlaceShip command, valid or not)
	pendNothing // do nothing
	pendFail    // an illegal placement or a non-placement command: fails
	pendNone    // no command (killed)
)

// Game is one match as a fixed-size value. It is not safe for concurrent
// use; vecenv gives each worker goroutine a disjoint range of envs.
type Game struct {
	cfg      Config
	spec     *env.Spec
	n        int // map side
	maxRound int // the last round processed
	learn    bool
	legacy   bool // loaded from a v1.1 file: write v1.1 again

	// The fields a Step reads or writes come first, up to players, so
	// that a pool's step over many games touches few cache lines of each.
	round, phase, steps int
	done, truncEnd      bool
	roundOpen           bool
	// destroyedFresh reports that the ships' Destroyed flags were
	// refreshed at the end of a Step and no touchAll, Reset or LoadNative
	// came since (see updateDestroyed).
	destroyedFresh bool
	// hitShips marks, per player, the ships (bit = ship type) on which
	// the current Step turned a cell's Hit true (see updateDestroyed).
	hitShips [Seats]uint8

	// obsVer numbers the states observations show: every Reset, Step and
	// LoadNative gives a new one. obsFrom is the version the last Step
	// started from (0 after a Reset or LoadNative), and changed marks, per
	// player, the cells (bit x*N + y) that Step may have changed; before
	// holds those cells as they were before the Step changed them (see
	// touch). See [Game.UpdateObs].
	obsVer, obsFrom uint64
	changed         [Seats][changedWords]uint64

	invalid    [Seats]int
	lastPoints [Seats]int
	pend       [Seats]pending
	moves      [Seats]moveRecord // for roundCommand.json
	players    [Seats]Player

	// delta[:nDelta] is the delta list of the Step that made version
	// deltaVer, for UpdateObs (see buildDelta).
	deltaVer uint64
	nDelta   int
	delta    [MaxCells]cellDelta

	rng    rand.PCG
	r      *rand.Rand // over rng
	names  [Seats]string
	before [Seats][MaxCells]Cell

	// planes is the number of observation planes: NumPlanes, one more
	// with Config.DensityPlane.
	planes int
	// seen is, with Config.DensityPlane, what each seat knows of the
	// opponent's map (see tracker): cleared by Reset, updated at the end
	// of every Step that plays a round, rebuilt by LoadNative.
	seen [Seats]tracker
	// dens holds, where densOK, each seat's density plane (plane order)
	// as seen gives it now (see writeDensity); densVer is the version
	// (obsVer) of the last Step that changed seen[seat], for UpdateObs.
	// Reset and LoadNative clear densOK.
	dens    [Seats][MaxCells]byte
	densOK  [Seats]bool
	densVer [Seats]uint64
}

// changedWords is the length of a bitmap of the cells of the largest map.
const changedWords = (MaxCells + 63) / 64

var _ env.Env = (*Game)(nil)

// Size returns the map side N.
func (g *Game) Size() int { return g.n }

// Round returns CurrentRound.
func (g *Game) Round() int { return g.round }

// Phase returns 1 (placement) or 2 (battle).
func (g *Game) Phase() int { return g.phase }

// Player returns seat's player (a copy).
func (g *Game) Player(seat int) Player { return g.players[seat] }

// At returns seat's own cell (x, y); it panics off the map.
func (g *Game) At(seat, x, y int) Cell {
	if !g.InBounds(x, y) {
		panic("battleships: At: cell off the map")
	}
	return g.players[seat].cells[x*g.n+y]
}

// InBounds reports whether (x, y) is on the map.
func (g *Game) InBounds(x, y int) bool { return x >= 0 && y >= 0 && x < g.n && y < g.n }

// Invalid returns how many of seat's actions were out of range or
// commands the engine rejected (failed), since Reset.
func (g *Game) Invalid(seat int) int { return g.invalid[seat] }

// Config returns a copy of the game's config.
func (g *Game) Config() Config { return g.cfg }

// PendingShips returns how many ships seat has chosen in the current
// phase-1 round (learn mode).
func (g *Game) PendingShips(seat int) int { return int(g.pend[seat].n) }

// energyPerRound is the player class's size match (weapon costs, starting
// energy): 7 small, 10 medium, anything else large.
func energyPerRound(n int) int {
	switch n {
	case 7:
		return 2
	case 10:
		return 3
	}
	return 4
}

// energyGrant is the round processor's size match: 10 → 3, 14 → 4,
// anything else 2 (spec §1.1, B10).
func energyGrant(n int) int {
	switch n {
	case 10:
		return 3
	case 14:
		return 4
	}
	return 2
}

// maxShieldRadius is 1, 2 or 3 by the player class's size match.
func maxShieldRadius(n int) int { return energyPerRound(n) - 1 }

// WeaponCost returns the energy a weapon costs on an n×n map.
func WeaponCost(w Weapon, n int) int {
	if w == SingleShot {
		return 1
	}
	return weaponRounds[w] * energyPerRound(n)
}

// shipCells calls f for each cell of s (type t), start first, and reports
// whether all lie on an n×n map.
func shipFits(t ShipType, s Ship, n int) bool {
	x, y := int(s.X), int(s.Y)
	ex, ey := x+dirDX[s.Dir]*(t.Len()-1), y+dirDY[s.Dir]*(t.Len()-1)
	return x >= 0 && y >= 0 && x < n && y < n && ex >= 0 && ey >= 0 && ex < n && ey < n
}

// overlaps reports whether ship t at s shares a cell with any of the first
// k ships of fleet.
func overlaps(t ShipType, s Ship, fleet *[NumShips]Ship, k int) bool {
	for j := range k {
		o := fleet[j]
		for a := range ShipType(j).Len() {
			ox, oy := int(o.X)+dirDX[o.Dir]*a, int(o.Y)+dirDY[o.Dir]*a
			for b := range t.Len() {
				if int(s.X)+dirDX[s.Dir]*b == ox && int(s.Y)+dirDY[s.Dir]*b == oy {
					return true
				}
			}
		}
	}
	return false
}

// legalNext reports whether ship k of fleet (whose first k ships are
// chosen) may go at s on an n×n map.
func legalNext(fleet *[NumShips]Ship, k int, s Ship, n int) bool {
	return shipFits(ShipType(k), s, n) && !overlaps(ShipType(k), s, fleet, k)
}

// ValidFleet reports whether fleet is a legal placement on an n×n map:
// every ship on the map and no two overlapping (touching is allowed).
func ValidFleet(fleet *[NumShips]Ship, n int) bool {
	for k := range NumShips {
		if !legalNext(fleet, k, fleet[k], n) {
			return false
		}
	}
	return true
}

// RandomFleet returns a uniformly random legal position for each ship in
// list order, given the earlier ones (the built-in "random" placer).
//
// A draw is legal as legalNext says (on the map, no cell shared with an
// earlier ship); the earlier ships' cells are kept in a bitmap (bit x*n +
// y) so that each draw checks its own cells only.
func RandomFleet(r *rand.Rand, n int) [NumShips]Ship {
	var f [NumShips]Ship
	var taken [changedWords]uint64
	for k := range NumShips {
		t := ShipType(k)
		for {
			s := Ship{X: int8(r.IntN(n)), Y: int8(r.IntN(n)), Dir: Direction(r.IntN(4))}
			if !shipFits(t, s, n) {
				continue
			}
			start, step := int(s.X)*n+int(s.Y), dirDX[s.Dir]*n+dirDY[s.Dir]
			free := true
			for a := range t.Len() {
				i := start + a*step
				free = free && taken[i>>6]>>(i&63)&1 == 0
			}
			if !free {
				continue
			}
			for a := range t.Len() {
				i := start + a*step
				taken[i>>6] |= 1 << (i & 63)
			}
			f[k] = s
			break
		}
	}
	return f
}

// referenceOrder is the reference bot's placement order.
var referenceOrder = [NumShips]ShipType{Battleship, Carrier, Cruiser, Destroyer, Submarine}

// ReferenceFleet returns a placement drawn as the reference bot draws it
// (spec §11): ships in the order Battleship, Carrier, Cruiser, Destroyer,
// Submarine; for each a random start with x and y in [0, N−2], the four
// directions in random order (a Fisher–Yates shuffle), the first that fits
// and does not overlap the earlier ships, else a new start.
func ReferenceFleet(r *rand.Rand, n int) [NumShips]Ship {
	var f [NumShips]Ship
	var taken [MaxCells]bool
	for _, t := range referenceOrder {
	retry:
		for {
			x, y := r.IntN(n-1), r.IntN(n-1)
			dirs := [4]Direction{North, East, South, West}
			for i := 3; i > 0; i-- {
				j := r.IntN(i + 1)
				dirs[i], dirs[j] = dirs[j], dirs[i]
			}
			for _, d := range dirs {
				s := Ship{X: int8(x), Y: int8(y), Dir: d}
				if !shipFits(t, s, n) {
					continue
				}
				free := true
				for a := range t.Len() {
					if taken[(x+dirDX[d]*a)*n+y+dirDY[d]*a] {
						free = false
					}
				}
				if !free {
					continue
				}
				for a := range t.Len() {
					taken[(x+dirDX[d]*a)*n+y+dirDY[d]*a] = true
				}
				f[t] = s
				break retry
			}
		}
	}
	return f
}

// Seen returns what seat knows of the opponent's cell (x, y), as its
// state.json shows it: damaged (a ship cell hit), missed (water hit) and
// shield-hit. It panics off the map.
func (g *Game) Seen(seat, x, y int) (damaged, missed, shieldHit bool) {
	if !g.InBounds(x, y) {
		panic("battleships: Seen: cell off the map")
	}
	c := g.players[1-seat].cells[x*g.n+y]
	return c.Hit && c.Ship != 0, c.Hit && c.Ship == 0, c.ShieldHit
}

// Learn reports whether phase 1 is played step by step (Config.Placement
// "learn").
func (g *Game) Learn() bool { return g.learn }

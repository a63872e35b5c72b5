package battlecube

import (
	"fmt"

	"github.com/botarena/botarena/env"
)

// Limits of botarena's implementation. The original has none beyond the
// player count (at most edge³ players); these keep an env's memory bounded.
const (
	MinPlayers = 1
	MaxPlayers = 64
	MinEdge    = 1
	// MaxEdge is the largest cube edge: 32 gives 32³ = 32768 bomb actions.
	MaxEdge = 32
	// MaxOutsideBombs is how many bombs outside the cube a loaded state may
	// hold (the original keeps such bombs in items forever; actions cannot
	// place them).
	MaxOutsideBombs = 256
	// MaxTasksPerTick bounds numOfTasksPerTick.
	MaxTasksPerTick = 64
	// MaxStrayKeys is how many stray properties ([StrayMove]) a bot's
	// position keeps; the original has no limit, and later ones are not
	// added.
	MaxStrayKeys = 16
)

// Config configures a Battle³ game: the original's GameSetup plus the
// players. The zero value is not valid; start from [DefaultConfig]. JSON
// names are the struct tags.
type Config struct {
	// Players is the number of seats, 1–64 and at most Edge³ (the
	// original's "too many players" check). Default 4.
	Players int `json:"players" doc:"number of players (seats)" allowed:"1..64, at most edge³"`
	// Edge is the cube's edge length (edgeLength), 1–32. Default 8.
	Edge int `json:"edge" doc:"edge length of the cube (edgeLength)" allowed:"1..32"`
	// MaxTicks is maxNumOfTicks: the game ends after the tick numbered
	// MaxTicks-1. Required by the original's validator; default 1000.
	MaxTicks int `json:"max_ticks" doc:"maxNumOfTicks: the game ends after tick max_ticks-1" allowed:">= 1"`
	// TasksPerTick is numOfTasksPerTick: a bot is asked once every this
	// many ticks and must reply with exactly this many tasks. Default 1.
	TasksPerTick int `json:"tasks_per_tick" doc:"numOfTasksPerTick: a bot is asked once every this many ticks and replies with this many tasks" allowed:"1..64"`
	// Speed is the original's delay in ms after every tick. It is
	// validated (≥ 0) and otherwise ignored: botarena never sleeps.
	Speed int `json:"speed" doc:"the original's delay in ms after each tick; validated, otherwise ignored (botarena never sleeps)" allowed:">= 0"`
	// Names are the player names, one per seat; missing or empty names
	// default to "Player N" (N = seat+1). Names must be unique.
	Names []string `json:"names" doc:"player names, one per seat; missing or empty names are Player N (N = seat+1)" allowed:"at most one per seat, all unique"`
	// URLs are the players' urls, one per seat, as the original sends them
	// in currentPlayer and the scores. An empty url is left out of those
	// objects, as JSON.stringify leaves out the function urls of the
	// original's tests. Default none.
	URLs []string `json:"urls" doc:"player urls, one per seat, as the original sends them in currentPlayer and the scores; empty urls are left out" allowed:"at most one per seat"`
	// StartPositions, when given, holds one [x,y,z] start cell per seat
	// (the original's playerStartPositions; seat order is the player
	// order). Cells must lie in the cube; two seats may share one, as the
	// original allows. Default: random cells drawn
	// from the env's seeded generator.
	StartPositions [][3]int `json:"start_positions" doc:"one [x,y,z] start cell per seat (playerStartPositions); null means random cells from the env's seeded generator" allowed:"null or one cell per seat, coordinates 0..edge-1"`
	// DistinctStarts re-rolls random start cells that are already taken,
	// as the original meant to (its check compares against an empty list,
	// so two bots can start on one cell and crash at once, spec §10.1).
	// Default false: the original's behaviour.
	DistinctStarts bool `json:"distinct_starts" doc:"re-roll random start cells that are already taken, as the original meant to; false is the original's behaviour"`
	// SafeMask marks as illegal, in WriteMask, the moves that leave the
	// cube and the bomb on the seat's own cell (both legal in the original
	// and certain losses). Default false: every action is legal.
	SafeMask bool `json:"safe_mask" doc:"mask out the moves that leave the cube and the bomb on the seat's own cell (legal in the original, certain losses)"`
	// History adds [NumHistoryScalars] scalars to the observation after
	// the four of every config (see the package doc's observation layout):
	// the share of the ticks so far in which the seat stood still (kept
	// its cell), how many ticks in a row it has stood still up to now
	// (capped at [HistoryRunCap], over the cap), and the mean share of the
	// other bots in play. Bots such as stalker predict a bot that stood
	// still in half its ticks to stay; the game's other tensors hold no
	// history. Default false: the four scalars, byte for byte as before.
	History bool `json:"history" doc:"add 3 history scalars to the observation: the share of ticks the seat stood still, its ticks standing still in a row (capped at 8, over 8), the mean share of the other bots in play" obs:"append scalars"`
	// CycleMarks adds [NumCycleMarkScalars] scalars to the observation
	// after all others (after the history scalars with History; see the
	// package doc's observation layout): for the seat's cell and its six
	// neighbours, in action order (stay, +X, −X, +Y, −Y, +Z, −Z), 1 when
	// the cell is the seat's own cycle-start cell, then 1 when it is the
	// cycle-start cell of another bot in play. A bot's cycle-start cell is
	// where it stood when bots were last asked (the start of the coming
	// tick's cycle, its current cell when the coming tick starts a cycle).
	// With tasks_per_tick > 1 the original bots see only a cycle's first
	// state, and teebot bombs its targets' cycle-start cells; the other
	// tensors show only the present. Default false: the scalars as before,
	// byte for byte.
	CycleMarks bool `json:"cycle_marks" doc:"add 14 cycle-start scalars to the observation: for the seat's cell and its 6 neighbours (stay, +X, -X, +Y, -Y, +Z, -Z), whether it is the seat's own cell at the start of the current task cycle (when bots were last asked), then whether it is another bot's" obs:"append scalars"`
	// TasksScalar adds one scalar to the observation after all others:
	// 1/T for T tasks per tick (1 with one task per tick, 1/3 in
	// battlecube/tasks3). The other scalars tell a cycle's first tick from
	// a one-task cube's every tick by nothing (ScalarSubTick is 0 in
	// both), and the bots that play well differ there (dodger steps off
	// its cycle-start cell, stalker bombs). Default false: the scalars as
	// before, byte for byte.
	TasksScalar bool `json:"tasks_scalar" doc:"add 1 scalar to the observation after all others: 1/tasks_per_tick (1 with one task per tick), so that a policy can tell one-task cubes from cycles of several tasks" obs:"append scalars"`
	// GameID is the game id the original takes from the socket id
	// (GAME_STARTED, gameInfo.id, GAME_ENDED). Default "botarena".
	GameID string `json:"game_id" doc:"the game id the original takes from the socket id (GAME_STARTED, gameInfo.id, GAME_ENDED)"`
}

// DefaultConfig returns the bundled UI's defaults for 4 players: edge 8,
// 1000 ticks, 1 task per tick.
func DefaultConfig() *Config {
	return &Config{Players: 4, Edge: 8, MaxTicks: 1000, TasksPerTick: 1, GameID: "botarena"}
}

// Validate reports the first invalid field as an [*env.ConfigError]. It
// rejects what the original's config validation rejects (spec §9 v1–v5):
// a missing (zero) max_ticks, more players than cells, duplicate names, a
// negative speed, and tasks_per_tick below 1.
func (c *Config) Validate() error {
	bad := func(field string, value any, reason string) error {
		return &env.ConfigError{Game: "battlecube", Field: field, Value: value, Reason: reason}
	}
	if c.Edge < MinEdge || c.Edge > MaxEdge {
		return bad("edge", c.Edge, fmt.Sprintf("want %d–%d", MinEdge, MaxEdge))
	}
	if c.Players < MinPlayers || c.Players > MaxPlayers {
		return bad("players", c.Players, fmt.Sprintf("want %d–%d", MinPlayers, MaxPlayers))
	}
	if c.Players > c.Edge*c.Edge*c.Edge {
		return bad("players", c.Players, fmt.Sprintf("too many players for the selected game area size (at most edge³ = %d)", c.Edge*c.Edge*c.Edge))
	}
	if c.MaxTicks < 1 {
		return bad("max_ticks", c.MaxTicks, "want a positive integer (maxNumOfTicks is required)")
	}
	if c.TasksPerTick < 1 || c.TasksPerTick > MaxTasksPerTick {
		return bad("tasks_per_tick", c.TasksPerTick, fmt.Sprintf("want a positive integer, at most %d", MaxTasksPerTick))
	}
	if c.Speed < 0 {
		return bad("speed", c.Speed, "want 0 or more")
	}
	if len(c.Names) > c.Players {
		return bad("names", len(c.Names), fmt.Sprintf("want at most one name per seat (%d)", c.Players))
	}
	if len(c.URLs) > c.Players {
		return bad("urls", len(c.URLs), fmt.Sprintf("want at most one url per seat (%d)", c.Players))
	}
	seen := map[string]int{}
	for s := range c.Players {
		n := c.name(s)
		if prev, dup := seen[n]; dup {
			return bad(fmt.Sprintf("names[%d]", s), fmt.Sprintf("%q", n), fmt.Sprintf("all player names must be unique (seat %d has it)", prev))
		}
		seen[n] = s
	}
	if c.StartPositions != nil && len(c.StartPositions) != c.Players {
		return bad("start_positions", len(c.StartPositions), fmt.Sprintf("want one start cell per seat (%d)", c.Players))
	}
	for i, p := range c.StartPositions {
		for _, v := range p {
			if v < 0 || v >= c.Edge {
				return bad(fmt.Sprintf("start_positions[%d]", i), p, fmt.Sprintf("want cells in the cube, coordinates 0–%d", c.Edge-1))
			}
		}
	}
	return nil
}

// name returns seat's player name.
func (c *Config) name(seat int) string {
	if seat < len(c.Names) && c.Names[seat] != "" {
		return c.Names[seat]
	}
	return fmt.Sprintf("Player %d", seat+1)
}

// url returns seat's url, "" for none.
func (c *Config) url(seat int) string {
	if seat < len(c.URLs) {
		return c.URLs[seat]
	}
	return ""
}

package battlecube

import (
	"fmt"
	"strings"

	"github.com/botarena/botarena/env"
)

func init() {
	env.Register(env.Presets([]env.Preset[*Config]{
		{Name: "battlecube", Summary: "Battle³, exact: bots in an 8×8×8 cube moving and bombing, 4 players, 1 task per tick (1–64 with players)", Config: func() *Config { c := DefaultConfig(); c.Players, c.TasksPerTick = 4, 1; return c }},
		{Name: "battlecube/2p", Summary: "Battle³, 2 players in an 8×8×8 cube", Config: func() *Config { c := DefaultConfig(); c.Players, c.TasksPerTick = 2, 1; return c }},
		{Name: "battlecube/tasks3", Summary: "Battle³, 4 players, 3 tasks per tick (bots plan three ticks ahead)", Config: func() *Config { c := DefaultConfig(); c.Players, c.TasksPerTick = 4, 3; return c }},
	}, Rules, newGame, Kit{})...)
}

// Rules returns the rules as botarena implements them for cfg, in Markdown.
func Rules(cfg *Config) string {
	var b strings.Builder
	f := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	e := cfg.Edge
	f("# Battle³ — rules as implemented\n\n")
	f("botarena reproduces the original server (leomelin/battlecube, the code, quirks included; docs/specs/battlecube.md). ")
	f("This game: %d players in a %d×%d×%d cube, %d task(s) per tick, at most %d ticks.\n\n", cfg.Players, e, e, e, cfg.TasksPerTick, cfg.MaxTicks)
	f("## The cube and the bots\n\n")
	f("- Cells (x, y, z), each coordinate 0 to %d. Bots start on random cells drawn independently", e-1)
	if cfg.DistinctStarts {
		f(" (re-rolled when taken, as the original meant)")
	} else {
		f(" (two bots may share one and crash at once: the original's check is broken)")
	}
	f("; botarena draws them from the env's seeded generator.\n")
	f("- Bombs are deadly cells: placed anywhere (not only near the bot), they never expire, and a bomb is used up when a bot is found on its cell.\n\n")
	f("## A tick, in the server's order\n\n")
	f("1. Bombs used up in the previous tick are removed.\n")
	f("2. NEXT_TICK: the tick number, the bots in play and the bombs.\n")
	f("3. Bots are asked at the start of each cycle of %d tick(s); a failed or invalid reply (not JSON, wrong schema, not exactly %d tasks) loses at once, ", cfg.TasksPerTick, cfg.TasksPerTick)
	f("though the bot still occupies its cell for this tick's collisions. Replies are read as the original's JSON.parse and Joi 11 schema read them ")
	f("(a JSON string holding the array or a task counts as it; coordinate strings convert as Joi does: \"0x3\" is 0, \" 5\" is 5).\n")
	f("4. In player order, each bot carries out its task for this tick: MOVE ±X/±Y/±Z one cell (leaving the cube loses at once), BOMB on any cell (one bomb per cell), or NOOP. ")
	f("As in the original: a MOVE without a direction loses the bot at its turn (cause {}); a direction whose second character is no axis (\"foo\", \"+\") moves nothing ")
	f("and adds that property (null) to the bot's position in every later message; a BOMB without coordinates adds an item {\"type\":\"BOMB\"} on no cell, kept for good; any other task does nothing.\n")
	f("5. Collisions: a bot on the same cell as another bot (moving or not: swapping cells is fine) or on a bomb (placed before or after it moved, by anyone, itself included) is lost.\n")
	f("6. The game ends when nobody or one bot is left, or after tick %d (ticks count from 0).\n\n", cfg.MaxTicks-1)
	f("## Scores and winner\n\n")
	f("- A lost bot scores the tick it was lost in; bots left at the end score the number of ticks played.\n")
	f("- One bot left: WINNER_FOUND. Otherwise TIE (at the tick limit, or nobody left).\n")
	f("- A batch of games: the champion has the most wins, then the highest total score.\n\n")
	f("## botarena\n\n")
	f("- One action per seat per tick: 0 NOOP, 1–6 moves +X −X +Y −Y +Z −Z, 7 + (z·%d + y)·%d + x a bomb on (x,y,z); %d actions.\n", e, e, NumActions(e))
	f("- Out-of-range actions are rejected replies: −1 wrong task count, −2 schema error, −3 connection error; the seat is lost in that tick's ask phase. ")
	f("−4 MOVE without a direction, −5 BOMB without coordinates, −6 another task, −16−u a direction whose axis is UTF-16 code unit u (−16−65536: none) are the accepted tasks above.\n")
	f("- Observation: uint8 planes [3,%d,%d,%d] (self, other bots, bombs) and %d float32 scalars", e, e, e, scalarsOf(cfg))
	if cfg.History {
		f(" (the last %d: the share of its ticks the bot stood still, its ticks standing still in a row, the other bots' mean share)", NumHistoryScalars)
	}
	if cfg.CycleMarks {
		f(" (from index %d, %d cycle marks: for its cell and its 6 neighbours, whether the bot stood there when bots were last asked, then whether another bot did)", CycleMarksOffset(cfg), NumCycleMarkScalars)
	}
	if cfg.TasksScalar {
		f(" (the last: 1/%d, one over the tasks per tick)", cfg.TasksPerTick)
	}
	f(".\n")
	f("- Reward: %s\n", RewardDefinition)
	f("- No mid-game setup changes (GAME_SETUP_UPDATE); speed is ignored.\n")
	return b.String()
}

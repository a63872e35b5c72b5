package battlecube

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// BenchmarkStep measures one env of 4 seats in the 8×8×8 cube
// ([testutil.BenchStep]): each iteration steps once with pseudo-random
// actions (moves mostly, some bombs) and writes the observations and masks
// of all 4 seats; a finished game is Reset inline. The tasks3 cases play
// three tasks per tick, without and with the history and cycle-mark
// scalars.
func BenchmarkStep(b *testing.B) {
	table := testutil.ActionTable(func(r *rand.Rand) int32 {
		if r.IntN(8) == 0 {
			return int32(NumFixedActions) + int32(r.IntN(512))
		}
		return int32(r.IntN(int(NumFixedActions)))
	})
	tasks3 := func(history, marks bool) *Config {
		c := DefaultConfig()
		c.TasksPerTick, c.History, c.CycleMarks = 3, history, marks
		return c
	}
	for _, bc := range []struct {
		name string
		cfg  *Config
	}{
		{"battlecube", DefaultConfig()},
		{"tasks3", tasks3(false, false)},
		{"tasks3-history", tasks3(true, false)},
		{"tasks3-history-cycle-marks", tasks3(true, true)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			g, err := New(bc.cfg)
			if err != nil {
				b.Fatal(err)
			}
			testutil.BenchStep(b, g, table, true, false)
		})
	}
}

// BenchmarkAct measures a tick of a built-in bot in self-play in the
// default 4-player cube ([testutil.BenchAct]: every seat acts each tick).
func BenchmarkAct(b *testing.B) {
	for _, bot := range []struct {
		name string
		make func() env.Agent
	}{{"teebot", func() env.Agent { return NewTeebot(DefaultTeebotParams()) }}, {"stalker", func() env.Agent { return NewStalker() }}} {
		b.Run(bot.name, func(b *testing.B) {
			g, _ := New(DefaultConfig())
			testutil.BenchAct(b, g, bot.make)
		})
	}
}

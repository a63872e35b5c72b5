package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/botarena/botarena/agents"
)

// externalBotFlags are the flags of every command that runs external bots
// (play, tournament, league run): the time limit an Entelect bot folder gets
// per round, the original's --nolimit, and where the logs of rounds that
// went wrong are kept. One definition, so that a bot is judged by the same
// settings whichever command plays it.
type externalBotFlags struct {
	timeLimit time.Duration // 0: the game's default (the original's)
	noLimit   bool          // no time limit and no kill (the original's --nolimit)
	botLogs   string        // keep the log.txt of every round that went wrong here
}

// add registers the flags on f.
func (o *externalBotFlags) add(f *pflag.FlagSet) {
	f.DurationVar(&o.timeLimit, "time-limit", 0, "external bots' time limit per run, killed at twice it (default: the original's, 3s for Bomberman, 2s for Battleships bot folders; raise it on a loaded machine, where a JVM or Mono bot's start-up alone can take seconds)")
	f.BoolVar(&o.noLimit, "nolimit", false, "external bots: no time limit and no kill (the original's --nolimit)")
	f.StringVar(&o.botLogs, "bot-logs", "", "Entelect bot folders without --replays: keep the log.txt of every round that went wrong under this directory")
}

// apply checks the flags and sets [agents.ExternalOptions] from them, with
// stderr for the bots' problem lines. Call it before making any agent.
func (o *externalBotFlags) apply(stderr io.Writer) error {
	if o.timeLimit < 0 {
		return fmt.Errorf("--time-limit: want 0 or more, got %s", o.timeLimit)
	}
	agents.ExternalOptions = agents.ExternalSettings{TimeLimit: o.timeLimit, NoLimit: o.noLimit, Log: stderr, LogDir: o.botLogs}
	return nil
}

package agents

import (
	"io"
	"strings"
	"time"

	"github.com/botarena/botarena/env"
)

// What every external-bot protocol shares (the packages agents/entelect,
// agents/cmdbot and agents/httpbot): the harness settings and the
// interfaces through which play and match talk to such agents.

// ExternalSettings are the harness settings of external bots.
type ExternalSettings struct {
	// TimeLimit replaces the original's MaxBotRuntimeSeconds (0: the game's
	// default: 3 s for Bomberman, 2 s for Battleships). Processes are
	// killed at twice the limit.
	TimeLimit time.Duration
	// NoLimit turns the time limit and the kill off (the original's
	// --nolimit).
	NoLimit bool
	// Log, if not nil, gets one line per round with a problem (time-out,
	// crash, missing or bad file), besides the round's log.txt: the
	// problems, the last lines of the bot's stderr and stdout, and where
	// log.txt is kept. It must be safe for concurrent use when several
	// agents run at once. An agent's Attach ([Terminal]) replaces it.
	Log io.Writer
	// LogDir, if not empty, keeps the log.txt of every round with a
	// problem of a bot that plays without a replay folder (leagues, the
	// match service, pools, play without --replays), whose round folders
	// are temporary: LogDir/<bot folder name>-<Key>-<unique>/<round
	// folder>/log.txt, one folder per match, made when the first problem
	// comes. With a replay folder log.txt stays in the round folder.
	LogDir string
}

// ExternalOptions are the settings external-bot agents copy when they are
// made (botarena play sets them from --time-limit and --nolimit before it
// makes its agents). Set it before making agents; it is not guarded for
// concurrent writes.
var ExternalOptions ExternalSettings

// ExternalLog is where an external bot whose own log is own writes: own,
// else ExternalOptions.Log, else nowhere. The library writes to no stream
// of its own; the program that makes the agents says where their lines go.
func ExternalLog(own io.Writer) io.Writer {
	switch {
	case own != nil:
		return own
	case ExternalOptions.Log != nil:
		return ExternalOptions.Log
	}
	return io.Discard
}

// SplitQuoted splits s into words at runs of the runes space reports,
// a quote (any rune of quotes, closed by the same rune) grouping what it
// holds, spaces and other quotes included, into the word around it, with
// no escapes; "" makes an empty word. It returns the words and the quote
// left open at the end of s, or 0; an open quote's text ends the last
// word. External-bot protocols split their command lines with it, each
// with its own quotes and spaces, and each decides what an open quote
// means.
func SplitQuoted(s, quotes string, space func(rune) bool) (words []string, open rune) {
	var word strings.Builder
	in := false // inside a word
	for _, r := range s {
		switch {
		case open != 0 && r == open:
			open = 0
		case open != 0:
			word.WriteRune(r)
		case strings.ContainsRune(quotes, r):
			open, in = r, true
		case space(r):
			if in {
				words = append(words, word.String())
				word.Reset()
				in = false
			}
		default:
			word.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, word.String())
	}
	return words, open
}

// PlayerNamer is implemented by agents that bring their own player name
// (an Entelect bot's nickname); play uses it for the game's "names".
type PlayerNamer interface {
	PlayerName() string
}

// ReplayDirSetter is implemented by agents that write files per round
// (Entelect bot folders): play calls SetReplayDir with the match's replay
// folder (--replays DIR gives DIR/<seed>) before Reset, so that the bot's
// round folders are part of the original's replay layout.
type ReplayDirSetter interface {
	SetReplayDir(dir string)
}

// GameEnder is implemented by agents that act when a game ends: an
// Entelect bot folder writes the final state into its last round folder,
// as the original's BotHarness.GameEnded does. botarena play calls
// GameEnded once the env is Done (not when --max-rounds cuts the game
// short), before it closes the agents.
type GameEnder interface {
	GameEnded(e env.Env, seat int)
}

// Terminal is implemented by agents that talk to a person or write a log:
// the command line (botarena play) attaches its stdin and stderr, so that
// the console reads the player's commands there and external bots report
// their faults there.
type Terminal interface {
	Attach(in io.Reader, out io.Writer)
}

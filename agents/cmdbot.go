package agents

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/battlebots"
)

// CommandPrefix starts the spec of a BattleBots command-line bot:
// "cmd:python3 bot.py" (see [ParseCommandSpec]).
const CommandPrefix = "cmd:"

// CommandTimeout is the default time limit of one run of a command-line
// bot ([CmdBot.Timeout]); a spec's "timeout=" option overrides it. The
// original control program had none: a hanging bot hung the tournament.
var CommandTimeout = time.Second

// CommandLog is where command-line bots write their fault lines when their
// [CmdBot.Log] is nil; the command line attaches its own stderr instead
// ([Terminal]).
var CommandLog io.Writer = os.Stderr

// MaxCommandOutput caps what a command-line bot's run may print on stdout;
// more is a fault (garbage output). The original read stdout in full.
const MaxCommandOutput = 1 << 20

// maxLoggedFaults is how many fault lines one bot writes; later faults are
// only counted ([CmdBot.Faults]) and summed up by Close.
const maxLoggedFaults = 10

func init() {
	RegisterScheme(Scheme{
		Prefix:  CommandPrefix,
		Games:   []string{"battlebots"},
		Summary: `a BattleBots command-line bot: cmd:COMMAND, run once per round with the arena string as its last argument (cmd:timeout=2s:COMMAND sets its time limit, default 1s)`,
		New: func(game, spec string, envSpec *env.Spec) (Agent, error) {
			if envSpec != nil && BaseGame(envSpec.Game) != "battlebots" {
				return nil, fmt.Errorf("a command-line bot cannot play %s", envSpec.Game)
			}
			return ParseCommandSpec(spec)
		},
	})
}

// Terminal is implemented by agents that talk to a person or write a log:
// the command line (botarena play) attaches its stdin and stderr, so that
// the console reads the player's commands there and external bots report
// their faults there.
type Terminal interface {
	Attach(in io.Reader, out io.Writer)
}

// CmdBot is a BattleBots command-line bot, run as the original control
// program runs its bots (spec §6): every round a fresh process of the
// command, without a shell, with the arena string ([battlebots.FormatArena]
// as the seat sees it, byte for byte) appended as its last argument, in the
// current directory (or Dir), stdin empty, stderr discarded (its last line
// is quoted in fault lines); its stdout is the action, read by the game's
// ParseCommand exactly as the control program reads it.
//
// Unlike the original, which panicked on a bot that could not start or
// exited non-zero and waited forever on one that hung, every fault is the
// do-nothing action (NO) for that round, with a line on Log:
//
//   - the command cannot start (not found, not executable);
//   - it runs past Timeout: its whole process group is killed (SIGKILL), so
//     no child it started survives;
//   - it exits non-zero or is killed by a signal;
//   - its output is not a command (garbage; the original also did nothing
//     with it, silently) or is larger than [MaxCommandOutput].
//
// The first faults of a bot are logged one line each, later ones only
// counted ([CmdBot.Faults]); Close writes the total. Processes that the
// bot leaves behind after a normal exit are killed with its group too. Act
// allocates and blocks for up to Timeout: pools run such opponents in
// their worker goroutines.
//
// A CmdBot is not safe for concurrent use; it holds no process between
// calls of Act.
type CmdBot struct {
	// Name is the bot's name in fault lines: NAME of the tournament's
	// NAME=COMMAND, else the command line.
	Name string
	// Argv is the command line: the program and its arguments, without
	// the arena string.
	Argv []string
	// Timeout limits one run; 0 means [CommandTimeout].
	Timeout time.Duration
	// Dir is the working directory; "" is botarena's own (the original ran
	// bots in its cwd).
	Dir string
	// Log receives the fault lines; nil means [CommandLog].
	Log io.Writer
	// OnFault, when set, is called on every fault with the round and the
	// error (the tournament records them per bout).
	OnFault func(round int, err error)

	faults int
	arena  []byte
	out    capBuffer
	errOut capBuffer
}

// ParseCommandSpec makes a CmdBot from a spec "cmd:COMMAND" or
// "cmd:timeout=DURATION:COMMAND" (DURATION as Go parses it: "500ms",
// "2s"). COMMAND is split into words as the original splits it, on
// whitespace, with two additions: single or double quotes group words
// ('my bot.py' is one argument; no escapes inside), and a COMMAND that is
// one quoted string as a whole (cmd:"python3 bot.py") is unquoted first.
func ParseCommandSpec(spec string) (*CmdBot, error) {
	rest, ok := strings.CutPrefix(spec, CommandPrefix)
	if !ok {
		return nil, fmt.Errorf("want %sCOMMAND, got %q", CommandPrefix, spec)
	}
	rest = strings.TrimSpace(rest)
	var timeout time.Duration
	if opt, ok := strings.CutPrefix(rest, "timeout="); ok {
		d, cmd, found := strings.Cut(opt, ":")
		if !found {
			return nil, fmt.Errorf("want %stimeout=DURATION:COMMAND, got %q", CommandPrefix, spec)
		}
		var err error
		if timeout, err = time.ParseDuration(d); err != nil || timeout <= 0 {
			return nil, fmt.Errorf("timeout %q: want a positive duration such as 500ms or 2s", d)
		}
		rest = strings.TrimSpace(cmd)
	}
	argv, err := SplitCommand(rest)
	if err != nil {
		return nil, err
	}
	return &CmdBot{Name: strings.Join(argv, " "), Argv: argv, Timeout: timeout}, nil
}

// SplitCommand splits a bot command line into words: on whitespace, as the
// original control program does (Go's strings.Fields), with single and
// double quotes grouping words (no escapes). A command that is one quoted
// string as a whole is unquoted first. It is an error if the command is
// empty or a quote is not closed.
func SplitCommand(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if n := len(s); n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n-1] == s[0] && !strings.ContainsRune(s[1:n-1], rune(s[0])) {
		s = strings.TrimSpace(s[1 : n-1])
	}
	var (
		words []string
		word  strings.Builder
		in    bool // inside a word
		quote rune // the open quote, or 0
	)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(r)
		case r == '"' || r == '\'':
			quote, in = r, true
		case isSpace(r):
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
	if quote != 0 {
		return nil, fmt.Errorf("command %q: unclosed %c", s, quote)
	}
	if in {
		words = append(words, word.String())
	}
	if len(words) == 0 {
		return nil, errors.New("empty command")
	}
	return words, nil
}

// isSpace is the whitespace of strings.Fields.
func isSpace(r rune) bool { return strings.TrimSpace(string(r)) == "" }

// Reset does nothing: the bot keeps no state between runs, as the
// original's bots do.
func (b *CmdBot) Reset(env.Env, int, uint64) {}

// Act runs the bot once for the current state of e and returns its
// action, or 0 (NO) on a fault, which it logs.
func (b *CmdBot) Act(e env.Env, seat int) int32 {
	act, err := b.Ask(e, seat)
	if err != nil {
		b.fault(e.Steps(), seat, err)
		return 0
	}
	return act
}

// Ask runs the bot once for the current state of e and returns the action
// it printed, or an error saying why it has none (the fault; Act turns it
// into NO).
func (b *CmdBot) Ask(e env.Env, seat int) (int32, error) {
	var err error
	b.arena, err = e.AppendNative(b.arena[:0], battlebots.FormatArena, seat)
	if err != nil {
		return 0, err
	}
	out, err := b.run(string(b.arena))
	if err != nil {
		return 0, err
	}
	act, ok := e.ParseCommand(seat, out)
	if !ok {
		return 0, fmt.Errorf("garbage output %s", quoteOutput(out))
	}
	return act, nil
}

// run runs the command once with arena as its last argument and returns
// its stdout.
func (b *CmdBot) run(arena string) ([]byte, error) {
	if len(b.Argv) == 0 {
		return nil, errors.New("empty command")
	}
	timeout := b.Timeout
	if timeout <= 0 {
		timeout = CommandTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	args := append(append(make([]string, 0, len(b.Argv)), b.Argv[1:]...), arena)
	cmd := exec.CommandContext(ctx, b.Argv[0], args...)
	cmd.Dir = b.Dir
	b.out.reset(MaxCommandOutput, false)
	b.errOut.reset(4096, true)
	cmd.Stdout, cmd.Stderr = &b.out, &b.errOut
	ownGroup(cmd)
	cmd.Cancel = func() error { return killGroup(cmd.Process) }
	// Pipes that a killed process's children still hold open must not
	// block Wait.
	cmd.WaitDelay = 200 * time.Millisecond
	err := cmd.Run()
	if cmd.Process != nil {
		killGroup(cmd.Process) // what the bot left running
	}
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return nil, fmt.Errorf("no answer within %v (killed)", timeout)
	case err != nil && cmd.Process == nil:
		return nil, fmt.Errorf("cannot start: %v", err)
	case err != nil:
		if tail := b.errOut.lastLine(); tail != "" {
			return nil, fmt.Errorf("%v (stderr: %s)", err, tail)
		}
		return nil, err
	case b.out.over:
		return nil, fmt.Errorf("garbage output: more than %d bytes", MaxCommandOutput)
	}
	return b.out.buf, nil
}

// fault logs a fault of round (the first ones) and counts it.
func (b *CmdBot) fault(round, seat int, err error) {
	b.faults++
	if b.OnFault != nil {
		b.OnFault(round, err)
	}
	if b.faults > maxLoggedFaults {
		return
	}
	more := ""
	if b.faults == maxLoggedFaults {
		more = "; further faults of this bot are counted, not logged"
	}
	fmt.Fprintf(b.log(), "botarena: bot %q (seat %d), round %d: %v: doing nothing (NO)%s\n", b.Name, seat, round, err, more)
}

func (b *CmdBot) log() io.Writer {
	if b.Log != nil {
		return b.Log
	}
	return CommandLog
}

// Faults returns the number of rounds in which the bot faulted (and did
// nothing).
func (b *CmdBot) Faults() int { return b.faults }

// Attach makes out the bot's log ([Terminal]); the bot reads no input.
func (b *CmdBot) Attach(_ io.Reader, out io.Writer) { b.Log = out }

// Close reports the number of faults if some were not logged. The bot
// holds no process between runs, so there is nothing else to release.
func (b *CmdBot) Close() error {
	if b.faults > maxLoggedFaults {
		fmt.Fprintf(b.log(), "botarena: bot %q: %d faults in all (did nothing in those rounds)\n", b.Name, b.faults)
	}
	b.faults = 0
	return nil
}

// quoteOutput quotes a bot's output for a log line, cut to 60 bytes.
func quoteOutput(out []byte) string {
	out = bytes.TrimSpace(out)
	if len(out) > 60 {
		return fmt.Sprintf("%q...", out[:60])
	}
	return fmt.Sprintf("%q", out)
}

// capBuffer keeps the first max bytes written to it (or, with tail, the
// last max) and notes whether more came; it never fails, so the process's
// output is drained. exec copies each of stdout and stderr from one
// goroutine, and the buffer is read after Wait.
type capBuffer struct {
	buf  []byte
	max  int
	tail bool
	over bool
}

func (c *capBuffer) reset(max int, tail bool) {
	c.buf, c.max, c.tail, c.over = c.buf[:0], max, tail, false
}

func (c *capBuffer) Write(p []byte) (int, error) {
	c.buf = append(c.buf, p...)
	if n := len(c.buf); n > c.max {
		c.over = true
		if c.tail {
			c.buf = append(c.buf[:0], c.buf[n-c.max:]...)
		} else {
			c.buf = c.buf[:c.max]
		}
	}
	return len(p), nil
}

// lastLine returns the last non-empty line written, cut to 120 bytes.
func (c *capBuffer) lastLine() string {
	s := strings.TrimSpace(string(c.buf))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[i+1:])
	}
	if len(s) > 120 {
		s = s[:120] + "..."
	}
	return s
}

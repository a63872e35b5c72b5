package cmdbot

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/agents/internal/proctree"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/battlebots"
)

// Prefix starts the spec of a BattleBots command-line bot:
// "cmd:python3 bot.py" (see [Parse]).
const Prefix = "cmd:"

// Timeout is the default time limit of one run of a command-line
// bot ([Bot.Timeout]), 10 s of wall time; a spec's "timeout=" option
// overrides it. The original control program had none (a hanging bot hung
// the tournament), so the limit only has to stop a bot that hangs: it is
// thousands of times what a bot needs to start and answer (a few
// milliseconds for a native or Python bot, a fraction of a second for
// Java), so that a run slowed by a loaded machine still answers, and the
// game is the original's. (At 1 s, the former default, a bot that answers
// in 2 ms missed rounds under load.)
var Timeout = 10 * time.Second

// MaxCommandOutput caps what botarena keeps of a command-line bot's stdout
// in one run (4 KiB): the output with leading whitespace dropped and every
// later run of whitespace squeezed to its first character (whitespace as
// Go's unicode.IsSpace has it, U+00A0 and U+0085 included), which the
// original's reading (strings.TrimSpace, then an exact match or
// strings.Fields) does not tell apart from the full output. More is
// garbage output: a fault, the do-nothing action NO. The original read
// stdout in full, but what it accepts is at most 4 bytes besides
// whitespace ("B NE"), squeezed at most 9 (a 3-byte space such as U+3000
// inside and after), so every output over the cap is one the original also found to be no
// command and did nothing with: the cap bounds botarena's memory and
// changes no game.
const MaxCommandOutput = 4 << 10

// maxLoggedFaults is how many fault lines one bot writes; later faults are
// only counted ([Bot.Faults]) and summed up by Close.
const maxLoggedFaults = 10

func init() {
	agents.RegisterScheme(agents.Scheme{
		Prefix:  Prefix,
		Games:   []string{"battlebots"},
		Needs:   agents.CapCommands,
		Summary: `a BattleBots command-line bot: cmd:COMMAND, run once per round with the arena string as its last argument (cmd:timeout=2s:COMMAND sets its time limit, default 10s)`,
		New: func(game, spec string, envSpec *env.Spec) (env.Agent, error) {
			if envSpec != nil && agents.BaseGame(envSpec.Game) != "battlebots" {
				return nil, fmt.Errorf("a command-line bot cannot play %s", envSpec.Game)
			}
			return Parse(spec)
		},
	})
}

// Bot is a BattleBots command-line bot, run as the original control
// program runs its bots (spec §6): every round a fresh process of the
// command, without a shell, with the arena string ([battlebots.FormatArena]
// as the seat sees it, byte for byte) appended as its last argument, in the
// current directory (or Dir), stdin empty, stderr discarded (its last line
// is quoted in fault lines); its stdout is the action, read by the game's
// ParseCommand exactly as the control program reads it.
//
// The answer is complete when the bot has exited and every process holding
// its stdout has closed it, as the original's exec.Cmd.Output waits for
// both: a bot that leaves a child running with its stdout ("sleep 2 & echo
// S") answers when the child ends, with whatever the child wrote too
// ("(sleep 1; echo X) & echo S" answers "S\nX", garbage to the original
// as here). Timeout bounds the whole of it. A process that holds only the
// bot's stderr, or neither, cannot change the answer: it is killed as soon
// as the answer is complete (the original waited for stderr as well).
//
// Unlike the original, which panicked on a bot that could not start or
// exited non-zero and waited forever on one that hung, every fault is the
// do-nothing action (NO) for that round, with a line on Log:
//
//   - the command cannot start (not found, not executable);
//   - it runs past Timeout (default [Timeout], 10 s), or a process
//     it started holds its stdout open past Timeout: it is killed
//     (SIGKILL) with every process it started (see below);
//   - it exits non-zero or is killed by a signal;
//   - its output is not a command (garbage; the original also did nothing
//     with it, silently), including output larger than [MaxCommandOutput],
//     none of which the original reads as a command.
//
// The first faults of a bot are logged one line each, later ones only
// counted ([Bot.Faults]); Close writes the total. Every process the
// run started is killed when the run ends, after a normal exit as after a
// time-out, even one that left the bot's process group or session (setsid,
// a double-forked daemon): on Linux the run has a cgroup of its own where
// botarena may make one (cgroup v2 with cgroup.kill), else botarena finds
// the run's processes in /proc by parentage, process group and the
// [proctree.RunEnv] variable in their environment; other systems kill the process
// group. The bot's environment is botarena's plus [proctree.RunEnv]. Act allocates
// and blocks for up to Timeout: pools run such opponents in their worker
// goroutines.
//
// A Bot is not safe for concurrent use; it holds no process between
// calls of Act.
type Bot struct {
	// Name is the bot's name in fault lines: NAME of the tournament's
	// NAME=COMMAND, else the command line.
	Name string
	// Argv is the command line: the program and its arguments, without
	// the arena string.
	Argv []string
	// Timeout limits one run; 0 means [Timeout].
	Timeout time.Duration
	// Dir is the working directory; "" is botarena's own (the original ran
	// bots in its cwd).
	Dir string
	// Log receives the fault lines; nil means [agents.ExternalOptions].Log, and
	// none when that is nil too.
	Log io.Writer
	// OnFault, when set, is called on every fault with the round and the
	// error (the tournament records them per bout).
	OnFault func(round int, err error)

	faults agents.Faults
	arena  []byte
	out    squeezeBuffer
	errOut capBuffer
}

// Parse makes a Bot from a spec "cmd:COMMAND" or
// "cmd:timeout=DURATION:COMMAND" (DURATION as Go parses it: "500ms",
// "2s"). COMMAND is split into words as the original splits it, on
// whitespace, with two additions: single or double quotes group words
// ('my bot.py' is one argument; no escapes inside), and a COMMAND that is
// one quoted string as a whole (cmd:"python3 bot.py") is unquoted first.
func Parse(spec string) (*Bot, error) {
	rest, ok := strings.CutPrefix(spec, Prefix)
	if !ok {
		return nil, fmt.Errorf("want %sCOMMAND, got %q", Prefix, spec)
	}
	rest = strings.TrimSpace(rest)
	var timeout time.Duration
	if opt, ok := strings.CutPrefix(rest, "timeout="); ok {
		d, cmd, found := strings.Cut(opt, ":")
		if !found {
			return nil, fmt.Errorf("want %stimeout=DURATION:COMMAND, got %q", Prefix, spec)
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
	return &Bot{Name: strings.Join(argv, " "), Argv: argv, Timeout: timeout}, nil
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
	words, quote := agents.SplitQuoted(s, `"'`, isSpace)
	if quote != 0 {
		return nil, fmt.Errorf("command %q: unclosed %c", s, quote)
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
func (b *Bot) Reset(env.Env, int, uint64) {}

// Act runs the bot once for the current state of e and returns its
// action, or 0 (NO) on a fault, which it logs.
func (b *Bot) Act(e env.Env, seat int) int32 {
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
func (b *Bot) Ask(e env.Env, seat int) (int32, error) {
	c, err := env.CodecOf(e)
	if err != nil {
		return 0, err
	}
	b.arena, err = c.AppendNative(b.arena[:0], battlebots.FormatArena, seat)
	if err != nil {
		return 0, err
	}
	out, err := b.run(string(b.arena))
	if err != nil {
		return 0, err
	}
	act, ok := c.ParseCommand(seat, out)
	if !ok {
		return 0, withKind(agents.Invalid, fmt.Errorf("garbage output %s", quoteOutput(out)))
	}
	return act, nil
}

// run runs the command once with arena as its last argument and returns
// its stdout, squeezed (see [MaxCommandOutput]).
func (b *Bot) run(arena string) ([]byte, error) {
	if len(b.Argv) == 0 {
		return nil, errors.New("empty command")
	}
	timeout := b.Timeout
	if timeout <= 0 {
		timeout = Timeout
	}
	// The pipes are botarena's, not exec's: Wait returns when the bot
	// exits, and the reads end once the run's processes are killed.
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("cannot start: %v", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("cannot start: %v", err)
	}
	b.out.reset(MaxCommandOutput)
	b.errOut.reset(4096, true)
	args := append(append(make([]string, 0, len(b.Argv)), b.Argv[1:]...), arena)
	cmd, tree, err := proctree.Start(func() *exec.Cmd {
		c := exec.Command(b.Argv[0], args...)
		c.Dir = b.Dir
		c.Stdout, c.Stderr = outW, errW
		return c
	})
	outW.Close()
	errW.Close()
	outDone, errDone := make(chan struct{}), make(chan struct{})
	go func() { io.Copy(&b.out, outR); b.out.flush(); close(outDone) }()
	go func() { io.Copy(&b.errOut, errR); close(errDone) }()
	// drain waits for the copies: every writer is dead once the run is
	// killed; one that escaped the kill gets 200 ms, then the pipes close.
	drain := func() {
		t := time.NewTimer(200 * time.Millisecond)
		defer t.Stop()
		for _, done := range []chan struct{}{outDone, errDone} {
			select {
			case <-done:
			case <-t.C:
				outR.Close()
				errR.Close()
				<-done
			}
		}
		outR.Close()
		errR.Close()
	}
	if err != nil {
		drain()
		return nil, fmt.Errorf("cannot start: %v", err)
	}
	killed := make(chan struct{})
	timer := time.AfterFunc(timeout, func() {
		tree.Kill()
		close(killed)
	})
	err = cmd.Wait()
	exited := err == nil
	if exited {
		// The original's exec.Cmd.Output returns once every process that
		// holds the bot's stdout has closed it, and reads all they wrote:
		// a process the bot left running may still add to the answer.
		select {
		case <-outDone:
		case <-killed:
		}
	}
	timedOut := !timer.Stop()
	if timedOut {
		<-killed
	}
	tree.Finish() // what the bot left running
	drain()
	switch {
	case timedOut && exited:
		return nil, withKind(agents.TimedOut, fmt.Errorf("no answer within %v: the bot exited, but a process it started kept its stdout open (killed)", timeout))
	case timedOut:
		return nil, withKind(agents.TimedOut, fmt.Errorf("no answer within %v (killed)", timeout))
	case err != nil:
		if tail := b.errOut.lastLine(); tail != "" {
			return nil, fmt.Errorf("%v (stderr: %s)", err, tail)
		}
		return nil, err
	case b.out.over:
		return nil, withKind(agents.Invalid, fmt.Errorf("garbage output: more than %d bytes", MaxCommandOutput))
	}
	return b.out.buf, nil
}

// fault logs a fault of round (the first ones) and counts it by its kind
// ([FaultKindOf]).
func (b *Bot) fault(round, seat int, err error) {
	b.faults.Count(FaultKindOf(err))
	if b.OnFault != nil {
		b.OnFault(round, err)
	}
	n := b.faults.Total()
	if n > maxLoggedFaults {
		return
	}
	more := ""
	if n == maxLoggedFaults {
		more = "; further faults of this bot are counted, not logged"
	}
	fmt.Fprintf(b.log(), "botarena: bot %q (seat %d), round %d: %v: doing nothing (NO)%s\n", b.Name, seat, round, err, more)
}

func (b *Bot) log() io.Writer { return agents.ExternalLog(b.Log) }

// Faults returns, by kind, the rounds in which the bot faulted (and did
// nothing): timed out (ran past Timeout), crashed (could not start, exited
// non-zero, killed by a signal) or invalid (garbage output). It
// implements match.FaultCounter.
func (b *Bot) Faults() agents.Faults { return b.faults }

// Attach makes out the bot's log ([agents.Terminal]); the bot reads no input.
func (b *Bot) Attach(_ io.Reader, out io.Writer) { b.Log = out }

// Close reports the number of faults if some were not logged. The bot
// holds no process between runs, so there is nothing else to release.
func (b *Bot) Close() error {
	if n := b.faults.Total(); n > maxLoggedFaults {
		fmt.Fprintf(b.log(), "botarena: bot %q: %d faults in all (%v; did nothing in those rounds)\n", b.Name, n, b.faults)
	}
	b.faults = agents.Faults{}
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
// output is drained. One goroutine writes it; it is read after that
// goroutine is done.
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

// squeezeBuffer keeps a command-line bot's stdout in bounded memory as
// ParseCommand reads it: whitespace (unicode.IsSpace, as the original's
// strings.TrimSpace and strings.Fields see it, so U+00A0 and U+0085 too)
// at the start is dropped and every later run of it is kept as its first
// character, which changes nothing for the original's TrimSpace, exact matches and
// Fields. Bytes that are not valid UTF-8 are kept as they are (those
// functions read them as U+FFFD, not a space). It keeps up to max bytes of
// that and notes whether more came; it never fails, so the process's
// output is drained. One goroutine writes it and then calls flush; it is
// read after that goroutine is done.
type squeezeBuffer struct {
	buf   []byte
	max   int
	over  bool
	space bool    // the last character kept is whitespace
	part  [4]byte // the start of a UTF-8 sequence split between writes
	n     int     // bytes in part
}

func (c *squeezeBuffer) reset(max int) {
	c.buf, c.max, c.over, c.space, c.n = c.buf[:0], max, false, false, 0
}

func (c *squeezeBuffer) Write(p []byte) (int, error) {
	for i, x := range p {
		if c.over {
			break
		}
		if c.n == 0 && x < utf8.RuneSelf {
			c.keep(p[i:i+1], asciiSpace(x))
			continue
		}
		c.part[c.n] = x
		c.n++
		for c.n > 0 && utf8.FullRune(c.part[:c.n]) {
			r, size := utf8.DecodeRune(c.part[:c.n])
			c.keep(c.part[:size], r != utf8.RuneError && unicode.IsSpace(r))
			c.n = copy(c.part[:], c.part[size:c.n])
		}
	}
	return len(p), nil
}

// flush keeps the bytes of a UTF-8 sequence cut short by the end of the
// output, which are no whitespace.
func (c *squeezeBuffer) flush() {
	for i := 0; i < c.n && !c.over; i++ {
		c.keep(c.part[i:i+1], false)
	}
	c.n = 0
}

// keep appends the bytes of one character, seq, unless it is whitespace
// at the start or after whitespace.
func (c *squeezeBuffer) keep(seq []byte, space bool) {
	if space && (len(c.buf) == 0 || c.space) {
		return
	}
	if len(c.buf)+len(seq) > c.max {
		c.over = true
		return
	}
	c.buf = append(c.buf, seq...)
	c.space = space
}

// asciiSpace reports whether x is ASCII whitespace to unicode.IsSpace.
func asciiSpace(x byte) bool {
	switch x {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		return true
	}
	return false
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

// faultError is an error of a bot's run that carries its [agents.FaultKind]; its
// text is Err's.
type faultError struct {
	kind agents.FaultKind
	err  error
}

func (e *faultError) Error() string { return e.err.Error() }
func (e *faultError) Unwrap() error { return e.err }

// withKind marks err as a fault of kind k.
func withKind(k agents.FaultKind, err error) error { return &faultError{k, err} }

// FaultKindOf returns the kind of a fault error returned by [Bot.Ask]:
// the kind it was marked with, else Crashed (the bot gave no answer).
func FaultKindOf(err error) agents.FaultKind {
	if err == nil {
		return agents.NoFault
	}
	var f *faultError
	if errors.As(err, &f) {
		return f.kind
	}
	return agents.Crashed
}

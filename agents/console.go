package agents

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/botarena/botarena/env"
)

// ConsoleInput and ConsoleOutput are where console agents read the
// player's commands and show the game when nothing is attached to them
// ([Terminal]; botarena play attaches its stdin and stderr). Tests replace
// them, or attach their own reader and writer.
var (
	ConsoleInput  io.Reader = os.Stdin
	ConsoleOutput io.Writer = os.Stderr
)

func init() {
	Register("console", "a human at the terminal: shows the seat's native view and reads one native command per line from stdin", func(*env.Spec) (env.Agent, error) {
		return &Console{}, nil
	})
}

// Console is a human player at the terminal. Each Act shows the seat's
// view of the game, in the game's first text native format (map.txt,
// arena.txt, ...; its first native format, JSON, where it has no text
// one), then reads one line: a native command, parsed by the game's
// ParseCommand as the original reads its bots' files and outputs (a
// move.txt digit in Bomberman, a BattleBots action, a Battle³ reply's JSON
// ...), or one of the original's console keys where it had console players
// (its kit's [ConsoleKeys]; Bomberman: w a s d, z, x). An empty line does
// nothing (action 0), "?" or "help" lists the commands (the keys' help),
// and a line the game rejects is asked
// again. At the end of the input the console does nothing from then on.
//
// In Bomberman, console seats are exempt from the 20-do-nothing rule, as
// the original's console players were: botarena play puts the seats of
// "console" agents into the config's console_seats.
//
// A Console is not safe for concurrent use. It reads its input one byte
// at a time, without buffering, so several consoles (hot seat) can share
// one reader.
type Console struct {
	// In is the player's input; nil means [ConsoleInput].
	In io.Reader
	// Out shows the game; nil means [ConsoleOutput].
	Out io.Writer

	format string
	buf    []byte
	line   []byte
	eof    bool
}

// Attach reads the player's commands from in and shows the game on out
// ([Terminal]).
func (c *Console) Attach(in io.Reader, out io.Writer) { c.In, c.Out = in, out }

func (c *Console) in() io.Reader {
	if c.In != nil {
		return c.In
	}
	return ConsoleInput
}

func (c *Console) out() io.Writer {
	if c.Out != nil {
		return c.Out
	}
	return ConsoleOutput
}

// Reset picks the view's format and shows the commands. A game without a
// native codec ([env.CodecOf]) cannot be shown or typed into: the console
// says so and does nothing from then on.
func (c *Console) Reset(e env.Env, seat int, _ uint64) {
	codec, err := env.CodecOf(e)
	if err != nil {
		c.eof = true
		fmt.Fprintf(c.out(), "console: %v: seat %d does nothing\n", err, seat)
		return
	}
	formats := codec.NativeFormats()
	c.format = ""
	if len(formats) > 0 {
		c.format = formats[0]
	}
	for _, f := range formats {
		if !env.IsJSONFormat(f) {
			c.format = f
			break
		}
	}
	fmt.Fprintf(c.out(), "console: you play seat %d of %s. %s\n", seat, e.Spec().Game, c.help(e))
}

// ConsoleKeys is implemented by the kit of a game (its [env.Entry] Kit)
// whose original had console players, for [Console].
type ConsoleKeys interface {
	// ConsoleKeys returns the original's console controls: each key, typed
	// on a line of its own (trimmed, lower case, neither "?" nor "help":
	// the console lower-cases what the player types), and the action
	// (>= 0) it stands for; and help, one line describing the commands a
	// player may type (keys and native commands). A line that is not a
	// key is read as a native command. The map is shared and must not be
	// modified.
	ConsoleKeys() (keys map[string]int32, help string)
}

// consoleKeys returns the console keys and help of the registry name game
// in [env.Default]; none for a game whose kit has none.
func consoleKeys(game string) (keys map[string]int32, help string) {
	e, err := env.Default.Lookup(game)
	if err != nil {
		return nil, ""
	}
	if k, ok := e.Kit.(ConsoleKeys); ok {
		return k.ConsoleKeys()
	}
	return nil, ""
}

// help lists the game's commands.
func (c *Console) help(e env.Env) string {
	if _, help := consoleKeys(e.Spec().Game); help != "" {
		return "Commands: " + help + "; an empty line does nothing."
	}
	return "Type a native command of the game (as its bots print it); an empty line does nothing."
}

// Act shows the seat's view and returns the command the player types.
func (c *Console) Act(e env.Env, seat int) int32 {
	codec, ok := e.(env.Codec)
	if c.eof || !ok {
		return 0
	}
	out := c.out()
	var err error
	c.buf, err = codec.AppendNative(c.buf[:0], c.format, seat)
	if err != nil {
		c.buf = fmt.Appendf(c.buf[:0], "(no view: %v)", err)
	}
	fmt.Fprintf(out, "\n%s round %d, seat %d:\n%s", e.Spec().Game, e.Steps(), seat, c.buf)
	if len(c.buf) > 0 && c.buf[len(c.buf)-1] != '\n' {
		fmt.Fprintln(out)
	}
	keys, _ := consoleKeys(e.Spec().Game)
	for {
		fmt.Fprintf(out, "seat %d> ", seat)
		line, err := c.readLine()
		if err != nil && len(line) == 0 {
			c.eof = true
			if errors.Is(err, io.EOF) {
				fmt.Fprintf(out, "\nconsole: end of input: seat %d does nothing from now on\n", seat)
			} else {
				fmt.Fprintf(out, "\nconsole: reading input: %v: seat %d does nothing from now on\n", err, seat)
			}
			return 0
		}
		text := strings.TrimSpace(string(line))
		switch text {
		case "":
			return 0
		case "?", "help":
			fmt.Fprintln(out, c.help(e))
			continue
		}
		if a, ok := keys[strings.ToLower(text)]; ok {
			return a
		}
		// The game reads the line as it reads a bot's output, with its
		// own rules for whitespace (the raw line, without its newline).
		if a, ok := codec.ParseCommand(seat, bytes.TrimRight(line, "\r\n")); ok {
			return a
		}
		fmt.Fprintf(out, "console: %s does not take %q (type ? for help)\n", e.Spec().Game, text)
	}
}

// readLine reads one line, byte by byte, without its newline. It returns
// the bytes read and the error that ended a line without a newline.
func (c *Console) readLine() ([]byte, error) {
	c.line = c.line[:0]
	var b [1]byte
	for {
		n, err := c.in().Read(b[:])
		if n == 1 {
			if b[0] == '\n' {
				return c.line, nil
			}
			c.line = append(c.line, b[0])
			continue
		}
		if err != nil {
			if len(c.line) > 0 && errors.Is(err, io.EOF) {
				return c.line, nil
			}
			return c.line, err
		}
	}
}

// Package replay is the layout of the match folders `botarena play
// --replays DIR` writes and the web viewer reads back: the generic layout,
// DIR/<seed>/<round>/<native format files>, and [Layout], which a game's
// kit implements when its replays follow the original's own layout.
package replay

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/botarena/botarena/env"
)

// Layout is implemented by the kit of a game (its [env.Entry] Kit) whose
// replays follow the original competition's layout rather than the
// generic one. The play command, Entelect bot folders and the web viewer
// ask a kit for it with [Of].
type Layout interface {
	// ReplayWriter makes the writer of one match's replay: dir is the
	// match's folder (DIR/<seed>), seats the agents in seat order (see
	// [BotDescriber]). The play command calls the writer with the state at
	// the start of every round and a last time with the final state once
	// the env is Done; it may keep what it needs between calls.
	ReplayWriter(dir string, seats []env.Agent) func(e env.Env, round int) error

	// ReplayStates reads a match folder written by ReplayWriter back: it
	// returns the paths in fsys (the match's folder) of the files that
	// hold the full state in the canonical native format, one per state,
	// in the order of the match.
	ReplayStates(fsys fs.FS) ([]string, error)
}

// Of returns the replay layout of the game whose registry entry is e, and
// whether it has one of its own; without one, its replays are in the
// generic layout ([File], [States]).
func Of(e env.Entry) (Layout, bool) {
	l, ok := e.Kit.(Layout)
	return l, ok
}

// BotDescriber is implemented by agents that stand for a competition bot
// with a description of its own (an Entelect bot folder's bot.json), so
// that a game's replay can describe the player as the original harness
// did. Seats played by other agents have no such description.
type BotDescriber interface {
	DescribeBot() BotDescription
}

// BotDescription describes a competition bot as its metadata does. A nil
// string is a field the metadata leaves out.
type BotDescription struct {
	Author, NickName, Email *string
	BotType                 string // the bot's language or runtime, as the metadata names it ("Python3")
}

// File is the file name of a native format in a round folder of the
// generic layout (DIR/<seed>/<round>/<files>, for a game whose kit has no
// [Layout]): the format's name when it is a file name ("state.json"), else
// "state.<name>" ("state.events").
func File(format string) string {
	if strings.Contains(format, ".") {
		return format
	}
	return "state." + format
}

// WriteRound writes the state of the env behind c at the start of round
// into the generic layout under dir, a match folder (DIR/<seed>): every
// native format c lists, in the referee's view (seat -1) or, for a format
// without one, seat 0's, as dir/<round>/[File](format), making the round
// folder as needed. buf is scratch space for the encoding; WriteRound
// returns it (grown) so that a caller writing every round allocates once.
// Errors name the round and, for an encoding error, the format.
func WriteRound(dir string, round int, c env.Codec, buf []byte) ([]byte, error) {
	folder := filepath.Join(dir, strconv.Itoa(round))
	if err := os.MkdirAll(folder, 0o755); err != nil {
		return buf, fmt.Errorf("replay: round %d: %w", round, err)
	}
	for _, f := range c.NativeFormats() {
		var err error
		if buf, err = AppendState(buf[:0], c, f); err != nil {
			return buf, fmt.Errorf("replay: round %d: %w", round, err)
		}
		if err := os.WriteFile(filepath.Join(folder, File(f)), buf, 0o644); err != nil {
			return buf, fmt.Errorf("replay: round %d: %w", round, err)
		}
	}
	return buf, nil
}

// AppendState appends the state in format to dst as a replay shows it: the
// referee's view (seat -1) or, for a format without one, seat 0's. The
// error names the format.
func AppendState(dst []byte, c env.Codec, format string) ([]byte, error) {
	out, err := c.AppendNative(dst, format, -1)
	if err != nil {
		out, err = c.AppendNative(dst, format, 0)
	}
	if err != nil {
		return dst, fmt.Errorf("native format %s: %w", format, err)
	}
	return out, nil
}

// States returns the paths in fsys, a match folder of the generic layout
// (DIR/<seed>), of the files holding each round's state in format, the
// game's canonical native format: <round>/[File](format)
// for the round folders 0, 1, 2, ... in order. Entries that are not
// round folders are skipped; a round folder without the file, a gap in
// the rounds, or no round folder at all is an error. At most limit rounds
// are listed (0: no limit); a folder with more is an error.
func States(fsys fs.FS, format string, limit int) ([]string, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	var rounds []int
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil || n < 0 || strconv.Itoa(n) != e.Name() || !e.IsDir() {
			continue
		}
		rounds = append(rounds, n)
		if limit > 0 && len(rounds) > limit {
			return nil, fmt.Errorf("replay: more than %d round folders", limit)
		}
	}
	if len(rounds) == 0 {
		return nil, fmt.Errorf("replay: no round folders (0, 1, ...)")
	}
	slices.Sort(rounds)
	paths := make([]string, len(rounds))
	for i, n := range rounds {
		if n != i {
			return nil, fmt.Errorf("replay: round folder %d is missing", i)
		}
		paths[i] = strconv.Itoa(n) + "/" + File(format)
		if _, err := fs.Stat(fsys, paths[i]); err != nil {
			return nil, fmt.Errorf("replay: round %d: %w", n, err)
		}
	}
	return paths, nil
}

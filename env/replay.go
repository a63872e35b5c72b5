package env

import (
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
)

// ReplayFile is the file name of a native format in a round folder of the
// generic replay layout (`botarena play --replays DIR` for a game whose
// [Kit] has no Replay writer: DIR/<seed>/<round>/<files>): the format's
// name when it is a file name ("state.json"), else "state.<name>"
// ("state.events").
func ReplayFile(format string) string {
	if strings.Contains(format, ".") {
		return format
	}
	return "state." + format
}

// ReplayStates returns the paths in fsys, a match folder of the generic
// replay layout (DIR/<seed>), of the files holding each round's state in
// format, the game's canonical native format: <round>/[ReplayFile](format)
// for the round folders 0, 1, 2, ... in order. Entries that are not
// round folders are skipped; a round folder without the file, a gap in
// the rounds, or no round folder at all is an error. At most limit rounds
// are listed (0: no limit); a folder with more is an error.
func ReplayStates(fsys fs.FS, format string, limit int) ([]string, error) {
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
		paths[i] = strconv.Itoa(n) + "/" + ReplayFile(format)
		if _, err := fs.Stat(fsys, paths[i]); err != nil {
			return nil, fmt.Errorf("replay: round %d: %w", n, err)
		}
	}
	return paths, nil
}

package battleships

import (
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/replay"
)

// replayFolder writes the original's replay layout (spec §8.2) of one match into
// dir (DIR/<seed>), for `botarena play --replays` through the kit's Replay:
// DIR/<seed>/Phase P - Round R/ holds the round's full state.json,
// "A - map.txt", "B - map.txt", roundInfo.json and roundCommand.json; its A/
// and B/ folders hold each player's state.json and map.txt, except in the
// final folder: the final state goes into the last round's A/ and B/ (spec
// §12 B13).
type replayFolder struct {
	dir   string
	seats []env.Agent
	last  string // the folder of the last round the players' files went to
	buf   []byte
}

// newReplay makes the writer of one match's replay into dir, with the
// agents of its seats (see [Kit.ReplayWriter]).
func newReplay(dir string, seats []env.Agent) func(e env.Env, round int) error {
	r := &replayFolder{dir: dir, seats: seats}
	return r.write
}

// replayStates lists the full state.json of every round folder of a
// match folder written by [newReplay], "Phase P - Round R", by phase then
// round (see [Kit.ReplayStates]).
func replayStates(fsys fs.FS) ([]string, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	type folder struct {
		name         string
		phase, round int
	}
	var folders []folder
	for _, e := range entries {
		var f folder
		if _, err := fmt.Sscanf(e.Name(), "Phase %d - Round %d", &f.phase, &f.round); err != nil || !e.IsDir() ||
			e.Name() != fmt.Sprintf("Phase %d - Round %d", f.phase, f.round) {
			continue
		}
		f.name = e.Name()
		folders = append(folders, f)
	}
	if len(folders) == 0 {
		return nil, fmt.Errorf("battleships: replay: no round folders (\"Phase P - Round R\")")
	}
	slices.SortFunc(folders, func(a, b folder) int { return cmp.Or(cmp.Compare(a.phase, b.phase), cmp.Compare(a.round, b.round)) })
	paths := make([]string, len(folders))
	for i, f := range folders {
		paths[i] = f.name + "/" + FormatStateJSON
		if _, err := fs.Stat(fsys, paths[i]); err != nil {
			return nil, fmt.Errorf("battleships: replay: %w", err)
		}
	}
	return paths, nil
}

// write writes the round folder of the state of e: at the start of a round
// the global files and the players' A/ and B/ folders; once the game is
// over the final folder with the global files only, and the final state
// into the players' folders of the last round, as the original's
// BattleshipsGame.WriteStateFiles (RoundStarting, also for the final
// round) and BotHarness.GameEnded do.
func (r *replayFolder) write(e env.Env, _ int) error {
	g, ok := e.(*Game)
	if !ok {
		return fmt.Errorf("battleships: replay: got %T", e)
	}
	folder := filepath.Join(r.dir, fmt.Sprintf("Phase %d - Round %d", g.Phase(), g.Round()))
	for _, format := range []string{FormatStateJSON, FormatRoundInfo, FormatRoundCommand} {
		if err := r.file(g, filepath.Join(folder, format), format, -1); err != nil {
			return err
		}
	}
	for seat, key := range []string{"A", "B"} {
		if err := r.file(g, filepath.Join(folder, key+" - map.txt"), FormatMapTxt, seat); err != nil {
			return err
		}
	}
	players := folder
	if g.Done() {
		if players = r.last; players == "" {
			return nil
		}
	}
	r.last = players
	for seat, key := range []string{"A", "B"} {
		for _, format := range []string{FormatStateJSON, FormatMapTxt} {
			if err := r.file(g, filepath.Join(players, key, format), format, seat); err != nil {
				return err
			}
		}
	}
	return nil
}

// file writes g's format for seat to path; roundInfo.json describes each
// Entelect bot folder's player by its bot.json.
func (r *replayFolder) file(g *Game, path, format string, seat int) error {
	var err error
	if r.buf, err = g.AppendNative(r.buf[:0], format, seat); err != nil {
		return err
	}
	if format == FormatRoundInfo {
		r.buf = withBotInfo(r.buf, g, r.seats)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, r.buf, 0o644)
}

// withBotInfo returns roundInfo.json with every seat whose agent describes
// its bot ([replay.BotDescriber]: an Entelect bot folder) described as the
// original's BattleshipsGame.GetPlayerInfo describes a bot harness:
// bot.json's Author, NickName and Email (null where bot.json has none) and
// its BotType. The env describes every seat as a console player (its name
// thrice, BotType "Unkown"), which stays right for the other seats; info is
// the env's file, returned as it is when no seat's agent describes its bot.
func withBotInfo(info []byte, g *Game, seats []env.Agent) []byte {
	bots := make([]replay.BotDescriber, Seats)
	found := false
	for seat, a := range seats {
		if b, ok := a.(replay.BotDescriber); ok && seat < len(bots) {
			bots[seat], found = b, true
		}
	}
	if !found {
		return info
	}
	player := func(dst []byte, seat int) []byte {
		name := g.Player(seat).Name
		if b := bots[seat]; b != nil {
			d := b.DescribeBot()
			return appendPlayerInfoJSON(dst, d.Author, d.NickName, d.Email, d.BotType)
		}
		return appendPlayerInfoJSON(dst, &name, &name, &name, consoleBotType)
	}
	w, _ := g.Outcome()
	out := append(info[:0], `{"MapSize":`...)
	out = strconv.AppendInt(out, int64(g.Size()), 10)
	out = append(out, `,"Round":`...)
	out = strconv.AppendInt(out, int64(g.Round()), 10)
	out = append(out, `,"Winner":`...)
	out = player(out, w)
	out = append(out, `,"LeaderBoard":[`...)
	out = player(out, w)
	out = append(out, ',')
	out = player(out, 1-w)
	out = append(out, `],"Players":[`...)
	out = player(out, 0)
	out = append(out, ',')
	out = player(out, 1)
	return append(out, "]}"...)
}

// appendPlayerInfoJSON appends a PlayerInfo object as the original writes
// it: {"Author":…,"NickName":…,"Email":…,"BotType":…}, each string as
// [appendNewtonsoftString] writes it.
func appendPlayerInfoJSON(dst []byte, author, nick, email *string, botType string) []byte {
	dst = append(dst, `{"Author":`...)
	dst = appendNewtonsoftString(dst, author)
	dst = append(dst, `,"NickName":`...)
	dst = appendNewtonsoftString(dst, nick)
	dst = append(dst, `,"Email":`...)
	dst = appendNewtonsoftString(dst, email)
	dst = append(dst, `,"BotType":`...)
	dst = appendNewtonsoftString(dst, &botType)
	return append(dst, '}')
}

// appendNewtonsoftString appends s as Newtonsoft's JsonConvert writes a
// string by default (null for nil): '"', '\\' and control characters
// escaped (\b, \t, \n, \f, \r, else \u00XX), and U+0085, U+2028 and
// U+2029 as \uXXXX; invalid UTF-8 becomes U+FFFD.
func appendNewtonsoftString(dst []byte, s *string) []byte {
	if s == nil {
		return append(dst, "null"...)
	}
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for _, r := range *s {
		switch {
		case r == '"' || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r == '\b':
			dst = append(dst, `\b`...)
		case r == '\t':
			dst = append(dst, `\t`...)
		case r == '\n':
			dst = append(dst, `\n`...)
		case r == '\f':
			dst = append(dst, `\f`...)
		case r == '\r':
			dst = append(dst, `\r`...)
		case r < 0x20 || r == 0x85 || r == 0x2028 || r == 0x2029:
			dst = append(dst, '\\', 'u', hex[r>>12], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
		default:
			dst = utf8.AppendRune(dst, r)
		}
	}
	return append(dst, '"')
}

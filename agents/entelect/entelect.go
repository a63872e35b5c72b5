package entelect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/agents/internal/proctree"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/battleships"
	"github.com/botarena/botarena/env/bomberman"
	"github.com/botarena/botarena/env/replay"
	"github.com/botarena/botarena/internal/utf8sub"
)

func init() {
	agents.RegisterScheme(agents.Scheme{
		Prefix:  "dir:",
		Games:   []string{"bomberman", "battleships"},
		Needs:   agents.CapFiles,
		Summary: "dir:PATH: an Entelect Challenge bot folder with bot.json (Bomberman 2016, Battleships 2017)",
		New: func(game, spec string, _ *env.Spec) (env.Agent, error) {
			return NewBot(game, strings.TrimPrefix(spec, "dir:"))
		},
	})
}

// Default MaxBotRuntimeSeconds of the shipped harness configs.
const (
	BombermanTimeLimit   = 3 * time.Second
	BattleshipsTimeLimit = 2 * time.Second
)

// maxOutput caps the bot output kept per run (stdout and stderr each, for
// log.txt).
const maxOutput = 1 << 20

// MaxCommandFile caps what botarena reads of a bot's move.txt, place.txt
// or command.txt (4 KiB), so that a bot that leaves a huge file (or a
// sparse one of many gigabytes) costs no more than this. The original
// harness read them whole: Bomberman's harness looks only at the first
// character of move.txt, so the first 4 KiB decide the same move; a
// Battleships place.txt (5 lines "ship x y direction") or command.txt
// ("code,x,y") over 4 KiB is malformed for botarena (Do Nothing, as the
// original's malformed files), which differs from the original only for
// files padded with kilobytes of blank lines or leading zeros. Only
// regular files are read (a symbolic link is followed): a FIFO or device
// counts as unreadable.
const MaxCommandFile = 4 << 10

// MaxBotJSON caps the size of a bot folder's bot.json (64 KiB).
const MaxBotJSON = 64 << 10

// readBotFile reads up to max bytes of the regular file at path; over
// reports that the file is longer.
func readBotFile(path string, max int64) (data []byte, over bool, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, false, err
	}
	if !st.Mode().IsRegular() {
		return nil, false, fmt.Errorf("%s: not a regular file", filepath.Base(path))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, false, err
	}
	if int64(len(data)) > max {
		return data[:max], true, nil
	}
	return data, false, nil
}

// BotMeta is an Entelect bot.json.
type BotMeta struct {
	Author          *string
	Email           *string
	NickName        *string
	BotType         json.RawMessage
	ProjectLocation string
	RunFile         string
	RunArgs         string
}

var botTypes = []string{"CSharp", "Java", "JavaScript", "CPlusPlus", "Python2", "Python3", "FSharp"}

// botType returns the BotType name of meta.
func (m *BotMeta) botType() (string, error) {
	raw := bytes.TrimSpace(m.BotType)
	if len(raw) == 0 || string(raw) == "null" {
		return "", errors.New("bot.json: BotType is missing")
	}
	var n int
	if err := json.Unmarshal(raw, &n); err == nil {
		if n < 0 || n >= len(botTypes) {
			return "", fmt.Errorf("bot.json: BotType %d: want 0–%d (%s)", n, len(botTypes)-1, strings.Join(botTypes, ", "))
		}
		return botTypes[n], nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("bot.json: BotType %s: want a name or a number", raw)
	}
	for _, t := range botTypes {
		if strings.EqualFold(strings.TrimSpace(s), t) {
			return t, nil
		}
	}
	if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && n >= 0 && n < len(botTypes) {
		return botTypes[n], nil
	}
	return "", fmt.Errorf("bot.json: unknown BotType %q (want one of %s)", s, strings.Join(botTypes, ", "))
}

// Nickname is the player name the original gives the bot: NickName, else
// Author, else Email (the first present).
func (m *BotMeta) Nickname() string {
	for _, p := range []*string{m.NickName, m.Author, m.Email} {
		if p != nil {
			return *p
		}
	}
	return ""
}

// Bot is the agent of an Entelect bot folder: the agent scheme
// "dir:PATH" runs a bot written for
// the Entelect Challenge 2016 (Bomberman) or 2017 (Battleships) harness,
// from its folder with bot.json, as the original harness did (Bomberman
// spec §7, §8.4, §8.5; Battleships spec §3.6, §4, §8).
//
// # bot.json
//
// {"Author","Email","NickName","BotType","ProjectLocation","RunFile","RunArgs"}.
// Backslashes in ProjectLocation and RunFile become '/'. The player name is
// NickName, else Author, else Email (the first that is present, as C#'s ??).
// BotType is a name (case-insensitive) or its number, and picks the command,
// run with (the match's copy of) the bot folder as working directory:
//
//	Python3    (5) python3 RunFile <Key> <player folder> RunArgs...
//	Python2    (4) python2 RunFile ...        only where python2 runs Python 2
//	JavaScript (2) node RunFile ...
//	Java       (1) java -Xmx1g -Xms512m -jar RunFile ...
//	CPlusPlus  (3) <bot folder>/RunFile ...   a native executable
//	CSharp (0), FSharp (6)  mono RunFile ...  only where mono is installed
//
// RunArgs is split on spaces (double quotes group). [NewBot] checks
// the BotType's runtime by running it once per process (python2 and
// python3 must report their major version, node, java and mono must
// start), so that a command on PATH that runs nothing (a pyenv shim
// without the version) fails there, in one line naming the bot folder,
// the runtime and the fix, rather than in every round.
//
// # One copy of the bot folder per match
//
// Each match (from Reset to the end of the game, or Close) runs the bot
// from a copy of its folder in a temporary folder, made before the
// match's first run and removed when the game ends: a bot that keeps
// state in its folder (a temp.in rewritten every round) sees only its own
// match's files, however many matches run at once (leagues, pools), and
// the bot folder itself is never written. The copy holds the folders,
// regular files (with their permissions) and the symbolic links that stay
// inside; a folder over [MaxBotFolder] bytes or [MaxBotFolderEntries]
// entries, or with a link that leads out, is refused by NewBot.
// A bot that reads files beside its folder (../x) does not find them.
//
// # Each round
//
// The player folder is <root>/<round>/<Key>/ (Bomberman) or
// <root>/Phase P - Round R/<Key>/ (Battleships), where root is the match's
// replay folder (--replays DIR gives DIR/<seed>, see [agents.ReplayDirSetter]) or,
// without one, a folder in the match's temporary folder (then only the
// current round's folder is kept). Every path the bot gets is absolute.
// The round folder above it holds the round-level files, as the original
// engine writes them at the start of every round before it runs the bots:
// state.json, map.txt and roundInfo.json for Bomberman; the full
// state.json, "A - map.txt", "B - map.txt", roundInfo.json and
// roundCommand.json for Battleships (with the players' A/ and B/ folders,
// the kit's replay layout). With a replay folder botarena play writes
// them; without one the agent writes them into its own temporary root,
// so that a bot that reads ../state.json plays in leagues, the match
// service and pools as it does under play --replays. Before the run the
// agent writes the seat's state.json and map.txt into the player folder;
// the bot gets the folder as its second argument and writes move.txt
// (Bomberman), place.txt (phase 1) or command.txt (Battleships) there.
// After the run the agent reads the file (its first [MaxCommandFile]
// bytes) with the env's ParseCommand, exactly as the harness reads it, and
// writes log.txt in the folder: the command line, the bot's stdout and
// stderr, the run time and the outcome. Bomberman's player state.json and
// map.txt are deleted when the next round starts (the round-level copies
// stay), as the original does; a Bomberman bot that is no longer run
// (dead, or past its 20 do-nothings) still gets its empty round folder,
// as in the original, with one exception below. Battleships' place.txt
// and command.txt are left as the original harness leaves them: read as
// .NET reads text and written back as UTF-8 without a byte-order mark
// (BotHarness.RemoveCommandFile). When the game ends,
// [Bot.GameEnded] writes the final state.json and map.txt into
// the bot's last round folder (BotHarness.GameEnded), where they stay.
//
// # A dead Bomberman bot with no live player after it
//
// The original's engine processes a round from inside the callback of
// the command that completes it (BombermanEngine.player_CommandListener),
// so the whole game runs as a recursion: each round it calls
// NewRoundStarted on its players in order (A, B, C, ...; a call writes the
// player's round files and runs the bot if the player is alive), and the
// call of the last live player processes the round and goes on to the
// next one before the loop reaches the players after it, who are all
// dead. Their NewRoundStarted for that round runs only when the recursion
// unwinds, after the game has ended, with the final state. So a dead
// player with no live player after it in seat order gets no round folder
// from then on; its last round folder, where GameEnded writes the final
// files, is the one of the round it was killed in; and the final round's
// folder <F>/<Key>/ also gets the final state.json and map.txt (the late
// NewRoundStarted, whose files no RoundComplete deletes). In a 3-player
// game where C is killed in round 17 and the game ends at round 23, C's
// final files are in 17/C and 23/C, and 18/C to 22/C do not exist. A dead
// player with a live one after it is reached in order: an empty folder
// every round, the final files in the folder of the round before the
// final one.
//
// # Problems
//
// A round with a problem (below) gets one line on the log
// (ExternalSettings.Log, or what Attach gave): the problems, the last
// lines of the bot's stderr and stdout (a few, each cut short), and where
// its log.txt is kept: in the replay folder, or a copy under
// ExternalSettings.LogDir; without either the round folder is temporary
// and the line is what remains.
//
// # Penalties, as the original's harness
//
//   - A run of the time limit or longer (process start to exit; the limit is
//     MaxBotRuntimeSeconds, 3 s for Bomberman and 2 s for Battleships, or
//     ExternalOptions.TimeLimit, plus the calibration time) is Do Nothing,
//     even if the bot wrote a move. The bot is killed at twice the limit
//     (without the calibration time). ExternalOptions.NoLimit (play's
//     --nolimit) turns all of this off, as the original's --nolimit.
//   - Every process the run started is killed when the run ends, after a
//     normal exit as at the kill, even one that left the bot's process
//     group or session (setsid, a double-forked daemon): see agents/cmdbot's Bot for
//     how. The bot's environment is botarena's plus [proctree.RunEnv].
//   - A missing file, or one the harness cannot parse, is Do Nothing (action
//     0); so is a Battleships file larger than [MaxCommandFile]. A crash (non-zero exit) is logged and the file is still read, as
//     the original reads it whatever the exit status.
//   - The do-nothing rules (Bomberman's 20 do-nothings, Battleships' kill
//     after 20 do-nothings or 5 failed placements) are the envs' own: the
//     agent does not run a Bomberman bot that is dead or that the rule has
//     taken over (the original never runs it again).
//
// Calibration: the original timed a calibration bot at game start and added
// its time to the limit. botarena times, once per agent, what starts the
// runtime: nothing for Python (the original's Python calibration did
// nothing), `node -e 0` for JavaScript, `java -Xmx1g -Xms512m -version` for
// Java, nothing for native and .NET bots.
//
// Battleships placement: with the env's default placement ("random" or
// "reference") the env's placer places both fleets in Reset and the bot is
// first run in phase 2 (its place.txt is never asked for). With
// {"placement":"learn"} the bot is run once per phase-1 round and its
// place.txt is fed to the env's five placement steps of that round, one
// ship per step, as the env's ParseCommand documents. A place.txt in phase
// 2 is ignored (botarena rejects re-placement, bug B3); a malformed
// command.txt is Do Nothing even when place.txt is valid, as in the
// original.
//
// Not on the hot path: Act starts a process and allocates. An Bot
// is not safe for concurrent use (one per seat); separate ones, of the
// same bot folder too, may play at once.
type Bot struct {
	game    string // base game
	dir     string // absolute bot folder, as named
	src     string // the bot folder's real path, which each match copies
	meta    BotMeta
	botType string
	command []string // program and arguments before <Key> <folder>; see run
	runArgs []string
	calib   []string // calibration command, nil for none

	limit     time.Duration
	noLimit   bool
	log       io.Writer
	logDir    string
	calibrate time.Duration
	calibDone bool

	// The match: made by its first run, removed at its end.
	work    string // the match's temporary folder ("" before)
	runDir  string // the copy of the bot folder in work ("" before)
	copyErr error  // why the copy failed, reported every round
	kept    string // the match's folder in logDir ("" before)

	replay  string // the replay folder (absolute), "" for none
	root    string // the match folder of the round folders: replay, or in work
	seat    int
	key     byte
	lastDir string // the previous round's folder
	late    bool   // Bomberman: dead with no live seat after it (see Act)
	lastKey string // phase/round of the last run (Battleships)
	cached  []byte // place.txt of the last run (Battleships learn mode)
	cachedA int32
	cachedP bool // cached holds a place.txt to re-parse
	faults  agents.Faults

	// rounds writes the round-level files without a replay folder.
	rounds func(e env.Env, round int) error
	mu     sync.Mutex
}

var (
	_ agents.Terminal        = (*Bot)(nil)
	_ agents.ReplayDirSetter = (*Bot)(nil)
	_ agents.GameEnder       = (*Bot)(nil)
)

// NewBot reads the bot folder dir (or its bot.json) for game
// ("bomberman" or "battleships", presets allowed) and checks that the bot
// can run here: the BotType's runtime runs (see [Bot]), RunFile
// exists, and the folder is within the limits of the copy each match runs
// it from. It starts nothing else; the first Act does.
func NewBot(game, dir string) (*Bot, error) {
	base := agents.BaseGame(game)
	if base != "bomberman" && base != "battleships" {
		return nil, fmt.Errorf("entelect bot folders play bomberman and battleships, not %s", base)
	}
	if dir == "" {
		return nil, errors.New("dir: wants a bot folder (dir:PATH)")
	}
	if st, err := os.Stat(dir); err == nil && !st.IsDir() && filepath.Base(dir) == "bot.json" {
		dir = filepath.Dir(dir)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	data, over, err := readBotFile(filepath.Join(abs, "bot.json"), MaxBotJSON)
	if err != nil {
		return nil, fmt.Errorf("bot folder %s: %w", dir, err)
	}
	if over {
		return nil, fmt.Errorf("bot folder %s: bot.json is larger than %d bytes", dir, MaxBotJSON)
	}
	b := &Bot{game: base, dir: abs}
	if b.src, err = filepath.EvalSymlinks(abs); err != nil {
		return nil, fmt.Errorf("bot folder %s: %w", dir, err)
	}
	if err := json.Unmarshal(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), &b.meta); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "bot.json"), err)
	}
	if b.botType, err = b.meta.botType(); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "bot.json"), err)
	}
	runFile := filepath.FromSlash(strings.ReplaceAll(b.meta.RunFile, `\`, "/"))
	b.meta.RunFile = runFile
	b.meta.ProjectLocation = filepath.FromSlash(strings.ReplaceAll(b.meta.ProjectLocation, `\`, "/"))
	if runFile == "" {
		return nil, fmt.Errorf("%s: RunFile is missing", filepath.Join(dir, "bot.json"))
	}
	runPath := runFile
	if !filepath.IsAbs(runPath) {
		runPath = filepath.Join(abs, runFile)
	}
	if _, err := os.Stat(runPath); err != nil {
		return nil, fmt.Errorf("bot folder %s: RunFile: %w", dir, err)
	}
	if err := scanBotFolder(b.src, dir); err != nil {
		return nil, err
	}
	cannot := func(err error) error {
		return fmt.Errorf("bot folder %s: BotType %s cannot run on this machine: it %w", dir, b.botType, err)
	}
	switch b.botType {
	case "Python3", "Python2":
		major := 3
		if b.botType == "Python2" {
			major = 2
		}
		p, err := pythonRuntime(major)
		if err != nil {
			return nil, cannot(err)
		}
		b.command = []string{p, runFile}
	case "JavaScript":
		p, err := runtimeOf("node", "Node.js", "-e", "0")
		if err != nil {
			return nil, cannot(err)
		}
		b.command = []string{p, runFile}
		b.calib = []string{p, "-e", "0"}
	case "Java":
		p, err := runtimeOf("java", "a Java runtime", "-version")
		if err != nil {
			return nil, cannot(err)
		}
		b.command = []string{p, "-Xmx1g", "-Xms512m", "-jar", runFile}
		b.calib = []string{p, "-Xmx1g", "-Xms512m", "-version"}
	case "CPlusPlus":
		b.command = []string{runFile} // in the match's copy; see run
	case "CSharp", "FSharp":
		p, err := runtimeOf("mono", "the .NET runtime the original ran .exe bots with", "--version")
		if err != nil {
			return nil, cannot(err)
		}
		b.command = []string{p, runFile}
	}
	b.runArgs = splitArgs(b.meta.RunArgs)
	o := agents.ExternalOptions
	b.limit, b.noLimit, b.log, b.logDir = o.TimeLimit, o.NoLimit, o.Log, o.LogDir
	if b.limit <= 0 {
		b.limit = BombermanTimeLimit
		if base == "battleships" {
			b.limit = BattleshipsTimeLimit
		}
	}
	return b, nil
}

// splitArgs splits RunArgs on spaces and tabs; double quotes group, and
// one left open runs to the end.
func splitArgs(s string) []string {
	words, _ := agents.SplitQuoted(s, `"`, func(r rune) bool { return r == ' ' || r == '\t' })
	return words
}

// PlayerName returns the bot's nickname (NickName, else Author, else Email).
func (b *Bot) PlayerName() string { return b.meta.Nickname() }

// BotType returns the bot's BotType name ("Python3", ...).
func (b *Bot) BotType() string { return b.botType }

// Meta returns the bot's bot.json (RunFile and ProjectLocation with OS
// separators).
func (b *Bot) Meta() BotMeta { return b.meta }

// DescribeBot describes the bot as bot.json does (see [replay.BotDescriber]):
// its Author, NickName and Email, and its BotType name.
func (b *Bot) DescribeBot() replay.BotDescription {
	return replay.BotDescription{Author: b.meta.Author, NickName: b.meta.NickName, Email: b.meta.Email, BotType: b.botType}
}

// TimeLimit returns the limit the agent applies (without calibration) and
// whether it applies one.
func (b *Bot) TimeLimit() (time.Duration, bool) { return b.limit, !b.noLimit }

// SetReplayDir makes dir the match folder of the bot's round folders (see
// [agents.ReplayDirSetter]); a relative dir is taken from the working directory
// now, since the bot runs in its own folder. Call it before Reset.
func (b *Bot) SetReplayDir(dir string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.endMatch()
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	b.replay = dir
}

// Attach makes out the log of the bot's problem lines ([agents.Terminal];
// match.NewAgents attaches the log of play, tournament and league runs),
// in place of ExternalOptions.Log. The bot reads no input.
func (b *Bot) Attach(_ io.Reader, out io.Writer) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.log = out
}

// Faults returns, by kind, the rounds in which the bot's move was lost
// and the harness did nothing for it (see the type's Penalties): timed out
// (the time limit or longer), crashed (could not start, or crashed,
// killed at the hard limit or exited normally without leaving its move
// file), invalid (a move file the harness cannot parse). A crash after
// which the move file is read is not counted: its move is played. It
// implements match.FaultCounter.
func (b *Bot) Faults() agents.Faults {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.faults
}

// Close ends the match, if one is under way: it deletes the last Bomberman
// player files and removes the match's temporary folder (the copy of the
// bot folder, and the round folders without a replay folder).
func (b *Bot) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.clearPlayerFiles()
	b.endMatch()
	return nil
}

// endMatch removes the match's temporary folder and forgets the match.
func (b *Bot) endMatch() {
	if b.work != "" {
		os.RemoveAll(b.work)
	}
	b.work, b.runDir, b.copyErr, b.kept, b.root, b.rounds = "", "", nil, "", "", nil
	b.lastDir, b.lastKey, b.cached, b.cachedP, b.cachedA, b.late = "", "", nil, false, 0, false
}

// aliveAfter reports whether a seat after seat is alive (not killed): the
// original's engine then reaches seat in the round's loop over its players
// before it processes the round (see [Bot.Act]).
func aliveAfter(g *bomberman.Game, seat int) bool {
	for s := seat + 1; s < g.Spec().Seats; s++ {
		if !g.Player(s).Killed {
			return true
		}
	}
	return false
}

// Reset prepares a new game for seat, ending the previous one (its copy of
// the bot folder is removed; the next Act makes a fresh one). For Bomberman
// it also records the bot's bot.json in roundInfo.json.
func (b *Bot) Reset(e env.Env, seat int, _ uint64) {
	b.check(e)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.endMatch()
	b.seat = seat
	b.key = byte('A' + seat)
	if g, ok := e.(*bomberman.Game); ok {
		b.key = g.Player(seat).Key
		str := func(p *string) string {
			if p == nil {
				return ""
			}
			return *p
		}
		g.SetPlayerInfo(seat, bomberman.PlayerInfo{Author: str(b.meta.Author), NickName: str(b.meta.NickName), Email: str(b.meta.Email), BotType: b.botType})
	}
}

func (b *Bot) check(e env.Env) env.Codec {
	switch g := e.(type) {
	case *bomberman.Game:
		if b.game == "bomberman" {
			return g
		}
	case *battleships.Game:
		if b.game == "battleships" {
			return g
		}
	}
	panic(fmt.Sprintf("agents: Entelect bot for %s got a %T", b.game, e))
}

// Act runs the bot for the current round and returns the command it wrote,
// or the original's penalty. For a Bomberman bot that is no longer run it
// makes the round folder the original makes (see the type's doc: none for
// a dead seat with no live seat after it).
func (b *Bot) Act(e env.Env, seat int) int32 {
	b.check(e)
	b.mu.Lock()
	defer b.mu.Unlock()
	if e.Done() {
		return 0
	}
	switch g := e.(type) {
	case *bomberman.Game:
		p := g.Player(seat)
		if p.Killed && !aliveAfter(g, seat) {
			// The original has not reached this seat in this round and
			// only will after the game ends (see the type's doc): no folder.
			// The kill round's player files are deleted (RoundComplete)
			// and that folder stays the one GameEnded writes into.
			if !b.late {
				end := b.lastDir
				b.clearPlayerFiles()
				b.late = true
				if b.replay != "" {
					b.lastDir = end
				}
			}
			return 0
		}
		if p.Killed || p.Idle > 20 {
			// The original no longer runs the bot, but still writes its
			// round files, which the end of the round deletes: an empty
			// round folder.
			b.clearPlayerFiles()
			if err := b.ensureRoot(); err == nil {
				dir := filepath.Join(b.root, strconv.Itoa(g.Round()), string(rune(b.key)))
				if os.MkdirAll(dir, 0o755) == nil {
					b.lastDir = dir
				}
			}
			return 0
		}
		return b.actBomberman(g, seat)
	case *battleships.Game:
		return b.actBattleships(g, seat)
	}
	return 0
}

// GameEnded writes the seat's state.json and map.txt of the final state
// into the bot's last round folder, as the original's BotHarness.GameEnded
// does (Bomberman's then stay, where the end of every other round deletes
// them), and, for a Bomberman bot dead with no live seat after it, into
// the final round's folder too (the original's late NewRoundStarted, see
// the type's doc). It then ends the match: its temporary folder is
// removed. Without a replay folder nothing is kept.
func (b *Bot) GameEnded(e env.Env, seat int) {
	c := b.check(e)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.replay != "" {
		var dirs []string
		if b.lastDir != "" {
			dirs = append(dirs, b.lastDir)
		}
		if g, ok := e.(*bomberman.Game); ok && b.late {
			dirs = append(dirs, filepath.Join(b.replay, strconv.Itoa(g.Round()), string(rune(b.key))))
		}
		for _, dir := range dirs {
			if os.MkdirAll(dir, 0o755) != nil {
				continue
			}
			for _, f := range []string{"state.json", "map.txt"} {
				if data, err := c.AppendNative(nil, f, seat); err == nil {
					os.WriteFile(filepath.Join(dir, f), data, 0o644)
				}
			}
		}
		b.lastDir = "" // kept: Close deletes no player files
	}
	b.endMatch()
}

// ensureWork makes the match's temporary folder, with an absolute path.
func (b *Bot) ensureWork() error {
	if b.work != "" {
		return nil
	}
	d, err := os.MkdirTemp("", "botarena-entelect-*")
	if err != nil {
		return err
	}
	if abs, err := filepath.Abs(d); err == nil {
		d = abs
	}
	b.work = d
	return nil
}

// ensureRoot sets the match folder of the round folders: the replay
// folder, or "replay" in the match's temporary folder.
func (b *Bot) ensureRoot() error {
	if b.root != "" {
		return nil
	}
	if b.replay != "" {
		b.root = b.replay
		return nil
	}
	if err := b.ensureWork(); err != nil {
		return err
	}
	b.root = filepath.Join(b.work, "replay")
	return nil
}

// ensureCopy makes the match's copy of the bot folder, once: a failure is
// kept and reported every round.
func (b *Bot) ensureCopy() error {
	if b.runDir != "" || b.copyErr != nil {
		return b.copyErr
	}
	if b.copyErr = b.ensureWork(); b.copyErr != nil {
		return b.copyErr
	}
	name := filepath.Base(b.dir)
	if name == "" || name == "." || name == string(filepath.Separator) || name == "replay" {
		name = "bot"
	}
	dst := filepath.Join(b.work, name)
	if b.copyErr = copyBotFolder(dst, b.src, b.dir); b.copyErr != nil {
		os.RemoveAll(dst)
		return b.copyErr
	}
	b.runDir = dst
	return nil
}

// writeRounds writes the round-level files of the state of e into the
// round folders of the agent's temporary root, as botarena play writes
// them into its replay folder (which it does itself: with a replay folder
// this does nothing): the game kit's replay layout (Battleships), or each
// native format in <root>/<round>/.
func (b *Bot) writeRounds(e env.Env, c env.Codec, round int) error {
	if b.replay != "" {
		return nil
	}
	if b.rounds == nil {
		entry, _ := env.Default.Lookup(b.game)
		if layout, ok := replay.Of(entry); ok {
			seats := make([]env.Agent, e.Spec().Seats)
			if b.seat < len(seats) {
				seats[b.seat] = b
			}
			b.rounds = layout.ReplayWriter(b.root, seats)
		} else {
			root := b.root
			var buf []byte
			b.rounds = func(e env.Env, round int) error {
				var err error
				buf, err = replay.WriteRound(root, round, c, buf)
				return err
			}
		}
	}
	return b.rounds(e, round)
}

// roundLog collects one round's log.txt.
type roundLog struct {
	bytes.Buffer
	problems []string
	stdout   []string // the last lines of the bot's output
	stderr   []string
	crashed  bool             // the bot could not start, exited non-zero or was killed
	fault    agents.FaultKind // why the round's move was lost, if it was
}

// lost notes that the round's move is lost to a missing or bad file: a
// crash when the bot crashed, else kind.
func (l *roundLog) lost(kind agents.FaultKind) {
	if l.crashed {
		kind = agents.Crashed
	}
	l.fault = kind
}

func (l *roundLog) printf(format string, args ...any) {
	fmt.Fprintf(&l.Buffer, format+"\n", args...)
}

func (l *roundLog) problem(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	l.problems = append(l.problems, s)
	l.printf("%s", s)
}

// prepareRun prepares the round (see prepare) and the copy of the bot
// folder the bot runs in, and returns the player folder. When either
// fails it reports the round as a Do Nothing and returns false.
func (b *Bot) prepareRun(l *roundLog, e env.Env, c env.Codec, seat int, sub string, round int) (string, bool) {
	dir, err := b.prepare(e, c, seat, sub, round)
	if err != nil {
		b.report(l, "", sub, round, fmt.Sprintf("cannot write the round files: %v: Do Nothing", err))
		return "", false
	}
	b.lastDir = dir
	if err := b.ensureCopy(); err != nil {
		b.report(l, dir, sub, round, fmt.Sprintf("cannot copy the bot folder to run it: %v: Do Nothing", err))
		return "", false
	}
	return dir, true
}

// prepare makes the player folder of the round folder sub, writing the
// round-level files first without a replay folder, and writes the seat's
// state files there.
func (b *Bot) prepare(e env.Env, c env.Codec, seat int, sub string, round int) (string, error) {
	if err := b.ensureRoot(); err != nil {
		return "", err
	}
	if err := b.writeRounds(e, c, round); err != nil {
		return "", fmt.Errorf("the round folder: %w", err)
	}
	dir := filepath.Join(b.root, sub, string(rune(b.key)))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for _, f := range []string{"state.json", "map.txt"} {
		data, err := c.AppendNative(nil, f, seat)
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// clearPlayerFiles deletes the previous round's Bomberman player state
// files, as the original does after each round, and in a temporary match
// folder the whole previous round folder.
func (b *Bot) clearPlayerFiles() {
	if b.lastDir == "" {
		return
	}
	if b.replay == "" {
		os.RemoveAll(filepath.Dir(b.lastDir))
	} else if b.game == "bomberman" {
		os.Remove(filepath.Join(b.lastDir, "state.json"))
		os.Remove(filepath.Join(b.lastDir, "map.txt"))
	}
	b.lastDir = ""
}

func (b *Bot) actBomberman(g *bomberman.Game, seat int) int32 {
	b.clearPlayerFiles()
	round := g.Round()
	var l roundLog
	l.printf("botarena Entelect harness: Bomberman round %d, player %c (seat %d), bot %s", round, b.key, seat, b.dir)
	sub := strconv.Itoa(round)
	dir, ok := b.prepareRun(&l, g, g, seat, sub, round)
	if !ok {
		return 0
	}
	os.Remove(filepath.Join(dir, "move.txt"))
	timedOut := b.run(dir, &l)
	action := int32(0)
	data, over, err := readBotFile(filepath.Join(dir, "move.txt"), MaxCommandFile)
	switch {
	case errors.Is(err, os.ErrNotExist):
		l.problem("no move.txt: Do Nothing")
		l.lost(agents.Crashed)
	case err != nil:
		l.problem("cannot read move.txt: %v: Do Nothing", err)
		l.lost(agents.Crashed)
	default:
		if over {
			l.printf("move.txt is larger than %d bytes: its first %d bytes are read (the harness reads the first character)", MaxCommandFile, MaxCommandFile)
		}
		a, ok := g.ParseCommand(seat, data)
		if !ok {
			l.problem("bad move.txt %q (want a digit 1-6 first): Do Nothing", clip(data))
			l.lost(agents.Invalid)
		} else {
			l.printf("move.txt %q: %v", clip(data), bomberman.Action(a))
		}
		action = a
	}
	if timedOut && action != 0 {
		l.printf("the move is ignored: time limit exceeded")
		action = 0
	}
	if timedOut {
		l.fault = agents.TimedOut
	}
	if action == 0 && g.Player(seat).Idle+1 == 20 {
		l.printf("20 do-nothing commands in a row: the harness places a bomb instead")
	}
	b.report(&l, dir, sub, round, "")
	return action
}

func (b *Bot) actBattleships(g *battleships.Game, seat int) int32 {
	phase, round := g.Phase(), g.Round()
	sub := fmt.Sprintf("Phase %d - Round %d", phase, round)
	if sub == b.lastKey {
		// Learn mode: one engine round is several steps (one ship each);
		// the bot ran once, its file serves every step.
		if b.cachedP {
			a, _ := g.ParseCommand(seat, b.cached)
			return a
		}
		return b.cachedA
	}
	b.clearPlayerFiles()
	b.lastKey, b.cached, b.cachedP, b.cachedA = sub, nil, false, 0
	var l roundLog
	l.printf("botarena Entelect harness: Battleships phase %d round %d, player %c (seat %d), bot %s", phase, round, b.key, seat, b.dir)
	dir, ok := b.prepareRun(&l, g, g, seat, sub, round)
	if !ok {
		return 0
	}
	os.Remove(filepath.Join(dir, "place.txt"))
	os.Remove(filepath.Join(dir, "command.txt"))
	timedOut := b.run(dir, &l)
	place, pover, perr := readBotFile(filepath.Join(dir, "place.txt"), MaxCommandFile)
	cmd, cover, cerr := readBotFile(filepath.Join(dir, "command.txt"), MaxCommandFile)
	for _, f := range []struct {
		name string
		err  error
	}{{"place.txt", perr}, {"command.txt", cerr}} {
		if f.err != nil && !errors.Is(f.err, os.ErrNotExist) {
			l.problem("cannot read %s: %v", f.name, f.err)
		}
	}
	action, isPlace := int32(0), false
	switch {
	case timedOut:
		l.printf("the command is ignored: time limit exceeded")
		l.fault = agents.TimedOut
	case cerr == nil && cover:
		l.problem("bad command.txt: larger than %d bytes (want code,x,y): Do Nothing", MaxCommandFile)
		l.lost(agents.Invalid)
	case cerr == nil && !parses(g, seat, cmd):
		l.problem("bad command.txt %q (want code,x,y): Do Nothing", clip(cmd))
		l.lost(agents.Invalid)
	case perr == nil && phase == 1 && !pover && parses(g, seat, place):
		action, _ = g.ParseCommand(seat, place)
		l.printf("place.txt %q: placement (action %d for the next ship)", clip(place), action)
		isPlace = true
	case cerr == nil:
		action, _ = g.ParseCommand(seat, cmd)
		l.printf("command.txt %q: action %d", clip(cmd), action)
		if perr == nil {
			l.printf("place.txt ignored (phase 2: botarena rejects re-placement)")
		}
	case perr == nil:
		switch {
		case phase == 1 && pover:
			l.problem("bad place.txt: larger than %d bytes (want 5 lines \"<ship> <x> <y> <direction>\"): Do Nothing", MaxCommandFile)
		case phase == 1:
			l.problem("bad place.txt %q (want 5 lines \"<ship> <x> <y> <direction>\"): Do Nothing", clip(place))
		default:
			l.problem("place.txt in phase 2 and no command.txt: Do Nothing")
		}
		l.lost(agents.Invalid)
	default:
		if phase == 1 {
			l.problem("no place.txt: Do Nothing (a failed placement)")
		} else {
			l.problem("no command.txt: Do Nothing")
		}
		l.lost(agents.Crashed)
	}
	// The harness reads each file with File.ReadAllText, deletes it and
	// writes the text back (BotHarness.RemoveCommandFile).
	rewriteAsNET(filepath.Join(dir, "place.txt"), place, perr == nil && !pover)
	rewriteAsNET(filepath.Join(dir, "command.txt"), cmd, cerr == nil && !cover)
	if isPlace {
		b.cached, b.cachedP = place, true
	}
	b.cachedA = action
	b.report(&l, dir, sub, round, "")
	return action
}

// rewriteAsNET rewrites the bot's file at path, whose content (read whole
// when read is true) is data, as the original harness leaves it: read with
// .NET's File.ReadAllText and written back with File.WriteAllText as UTF-8
// without a byte-order mark (see [netText]). A file botarena did not read
// whole stays as the bot wrote it.
func rewriteAsNET(path string, data []byte, read bool) {
	if !read {
		return
	}
	if text := netText(data); !bytes.Equal(text, data) {
		os.WriteFile(path, text, 0o644)
	}
}

// netText returns data as .NET's File.ReadAllText reads it, encoded as
// UTF-8: a byte-order mark picks the encoding (UTF-8 EF BB BF, UTF-16 FF FE
// or FE FF, UTF-32 FF FE 00 00 or 00 00 FE FF) and is dropped, anything
// else is UTF-8; what the encoding cannot decode becomes U+FFFD (in UTF-8,
// one per maximal ill-formed subsequence, the Unicode recommendation:
// [utf8sub.DecodeRune]).
func netText(data []byte) []byte {
	var out []byte
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE, 0, 0}):
		return appendUTF32(out, data[4:], false)
	case bytes.HasPrefix(data, []byte{0, 0, 0xFE, 0xFF}):
		return appendUTF32(out, data[4:], true)
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		return appendUTF16(out, data[2:], false)
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return appendUTF16(out, data[2:], true)
	}
	data = bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})
	if utf8.Valid(data) {
		return data
	}
	for len(data) > 0 {
		r, n := utf8sub.DecodeRune(data)
		out = utf8.AppendRune(out, r)
		data = data[n:]
	}
	return out
}

// appendUTF16 appends UTF-16 p, big- or little-endian, as UTF-8; a lone
// surrogate or a last odd byte is U+FFFD.
func appendUTF16(dst, p []byte, big bool) []byte {
	units := make([]uint16, 0, len(p)/2)
	for ; len(p) >= 2; p = p[2:] {
		if big {
			units = append(units, uint16(p[0])<<8|uint16(p[1]))
		} else {
			units = append(units, uint16(p[1])<<8|uint16(p[0]))
		}
	}
	for _, r := range utf16.Decode(units) {
		dst = utf8.AppendRune(dst, r)
	}
	if len(p) > 0 {
		dst = utf8.AppendRune(dst, utf8.RuneError)
	}
	return dst
}

// appendUTF32 appends UTF-32 p, big- or little-endian, as UTF-8; a value
// that is no scalar value, or a last 1 to 3 bytes, is U+FFFD.
func appendUTF32(dst, p []byte, big bool) []byte {
	for ; len(p) >= 4; p = p[4:] {
		var v uint32
		if big {
			v = uint32(p[0])<<24 | uint32(p[1])<<16 | uint32(p[2])<<8 | uint32(p[3])
		} else {
			v = uint32(p[3])<<24 | uint32(p[2])<<16 | uint32(p[1])<<8 | uint32(p[0])
		}
		r := rune(v)
		if v > unicode.MaxRune || !utf8.ValidRune(r) {
			r = utf8.RuneError
		}
		dst = utf8.AppendRune(dst, r)
	}
	if len(p) > 0 {
		dst = utf8.AppendRune(dst, utf8.RuneError)
	}
	return dst
}

// parses reports whether the harness parses text without error.
func parses(g *battleships.Game, seat int, text []byte) bool {
	_, ok := g.ParseCommand(seat, text)
	return ok
}

func clip(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}

// report writes log.txt into dir (if any) and, for a round with problems,
// one line to the log: the problems, the last lines of the bot's stderr
// and stdout, and where log.txt is kept (the replay folder, or a copy in
// the log folder; sub is the round folder's name).
func (b *Bot) report(l *roundLog, dir, sub string, round int, fatal string) {
	if fatal != "" {
		l.problem("%s", fatal)
		l.fault = agents.Crashed
	}
	b.faults.Count(l.fault)
	if dir != "" {
		os.WriteFile(filepath.Join(dir, "log.txt"), l.Bytes(), 0o644)
	}
	if len(l.problems) == 0 {
		return
	}
	line := strings.Join(l.problems, "; ")
	if len(l.stderr) > 0 {
		line += "; stderr ends: " + quoteLines(l.stderr)
	}
	if len(l.stdout) > 0 {
		line += "; stdout ends: " + quoteLines(l.stdout)
	}
	if where := b.keepLog(l, dir, sub); where != "" {
		line += "; log: " + where
	}
	if b.log != nil {
		fmt.Fprintf(b.log, "botarena: dir:%s (player %c, %s round %d): %s\n", b.dir, b.key, b.game, round, line)
	}
}

// keepLog returns where the round's log.txt is kept: in the replay
// folder, or copied to the log folder (ExternalSettings.LogDir) when
// the round folder is temporary; "" when it is not kept.
func (b *Bot) keepLog(l *roundLog, dir, sub string) string {
	if b.replay != "" {
		if dir == "" {
			return ""
		}
		return filepath.Join(dir, "log.txt")
	}
	if b.logDir == "" {
		return ""
	}
	if b.kept == "" {
		if err := os.MkdirAll(b.logDir, 0o755); err != nil {
			return ""
		}
		d, err := os.MkdirTemp(b.logDir, fmt.Sprintf("%s-%c-*", filepath.Base(b.dir), b.key))
		if err != nil {
			return ""
		}
		if abs, err := filepath.Abs(d); err == nil {
			d = abs
		}
		b.kept = d
	}
	to := filepath.Join(b.kept, sub)
	if os.MkdirAll(to, 0o755) != nil || os.WriteFile(filepath.Join(to, "log.txt"), l.Bytes(), 0o644) != nil {
		return ""
	}
	return filepath.Join(to, "log.txt")
}

// readCapped reads up to maxOutput bytes of f from its start.
func readCapped(f *os.File) (data []byte, cut bool) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, false
	}
	data, _ = io.ReadAll(io.LimitReader(f, maxOutput+1))
	if len(data) > maxOutput {
		return data[:maxOutput], true
	}
	return data, false
}

// runCalibration times the calibration command once.
func (b *Bot) runCalibration(l *roundLog) {
	if b.calibDone {
		return
	}
	b.calibDone = true
	if b.calib == nil || b.noLimit {
		return
	}
	start := time.Now()
	c, tree, err := proctree.Start(func() *exec.Cmd {
		c := exec.Command(b.calib[0], b.calib[1:]...)
		c.Dir = b.runDir
		return c
	})
	if err == nil {
		t := time.AfterFunc(2*b.limit, tree.Kill)
		c.Wait()
		t.Stop()
		tree.Finish()
	}
	b.calibrate = time.Since(start)
	l.printf("Bot calibration complete and can run an additional %dms due to environment startup", b.calibrate.Milliseconds())
}

// run runs the bot once, from the match's copy of its folder, with dir as
// its player folder and reports whether it took the time limit or longer.
func (b *Bot) run(dir string, l *roundLog) (timedOut bool) {
	b.runCalibration(l)
	prog := b.command[0]
	if b.botType == "CPlusPlus" && !filepath.IsAbs(prog) {
		prog = filepath.Join(b.runDir, prog)
	}
	args := append(append(append([]string{}, b.command[1:]...), string(rune(b.key)), dir), b.runArgs...)
	// Output goes to files, not pipes: Wait returns when the bot exits,
	// even if something it started keeps the output open.
	var outs [2]*os.File
	for i := range outs {
		f, err := os.CreateTemp("", "botarena-bot-output-*")
		if err != nil {
			l.problem("cannot start the bot: %v", err)
			l.crashed = true
			return false
		}
		os.Remove(f.Name())
		defer f.Close()
		outs[i] = f
	}
	l.printf("Executing bot: %s", quoteCommand(prog, args))
	l.printf("Working directory: %s (this match's copy of %s)", b.runDir, b.dir)
	limit := b.limit + b.calibrate
	start := time.Now()
	c, tree, err := proctree.Start(func() *exec.Cmd {
		c := exec.Command(prog, args...)
		c.Dir = b.runDir
		c.Stdout, c.Stderr = outs[0], outs[1]
		return c
	})
	if err != nil {
		l.problem("cannot start the bot: %v", err)
		l.crashed = true
		return false
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	killed := false
	if b.noLimit {
		err = <-done
	} else {
		t := time.NewTimer(2 * b.limit)
		select {
		case err = <-done:
			t.Stop()
		case <-t.C:
			killed = true
			tree.Kill()
			err = <-done
		}
	}
	elapsed := time.Since(start)
	tree.Finish() // no orphans: whatever the bot left running
	for i, name := range []string{"stdout", "stderr"} {
		if data, cut := readCapped(outs[i]); len(data) > 0 {
			l.printf("Output from bot (%s):\n%s", name, strings.TrimRight(string(data), "\n"))
			if cut {
				l.printf("(%s cut at %d bytes)", name, maxOutput)
			}
		}
	}
	l.stdout, l.stderr = outputTail(outs[0]), outputTail(outs[1])
	l.printf("Your bots total execution time was %s (limit %s)", elapsed.Round(time.Millisecond), limitString(limit, b.noLimit))
	switch {
	case killed:
		l.problem("killed at the hard limit %s (twice the time limit)", 2*b.limit)
		l.crashed = true
	case err != nil:
		l.problem("the bot crashed: %v", err)
		l.crashed = true
	}
	if !b.noLimit && elapsed >= limit {
		l.problem("time limit exceeded (%s >= %s): Do Nothing", elapsed.Round(time.Millisecond), limit)
		return true
	}
	return false
}

func limitString(d time.Duration, no bool) string {
	if no {
		return "none: --nolimit"
	}
	return d.String()
}

// quoteCommand renders a command line for the log.
func quoteCommand(prog string, args []string) string {
	parts := []string{prog}
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\"'") {
			a = strconv.Quote(a)
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}

package entelect

import (
	"github.com/botarena/botarena/agents"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/battleships"
	"github.com/botarena/botarena/env/bomberman"
	"github.com/botarena/botarena/internal/testutil"
)

// writeBot makes a bot folder with bot.json (the given JSON fields) and
// bot.py (script), and returns its path.
func writeBot(t *testing.T, meta, script string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bot.json"), []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	if script != "" {
		if err := os.WriteFile(filepath.Join(dir, "bot.py"), []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const pyMeta = `{"Author":"Ann","Email":"ann@example.com","NickName":"Annie","BotType":"Python3","ProjectLocation":"","RunFile":"bot.py","RunArgs":""}`

// newPyBot starts a Python bot (pyMeta and script) for game, closed when
// the test ends; with a non-empty replayDir its round folders go there.
func newPyBot(t *testing.T, game, script, replayDir string) *Bot {
	t.Helper()
	b := openBot(t, game, writeBot(t, pyMeta, script))
	if replayDir != "" {
		b.SetReplayDir(replayDir)
	}
	return b
}

// openBot makes the agent of the bot folder dir for game, closed when the
// test ends.
func openBot(t *testing.T, game, dir string) *Bot {
	t.Helper()
	b, err := NewBot(game, dir)
	return testutil.Closing(t, b, err)
}

// seatBots opens the bot folder dir for game once per seat of g and
// resets each agent in its seat; they are closed when the test ends.
func seatBots(t *testing.T, game string, g env.Env, dir string) []*Bot {
	t.Helper()
	bots := make([]*Bot, g.Spec().Seats)
	for seat := range bots {
		bots[seat] = openBot(t, game, dir)
		bots[seat].Reset(g, seat, 0)
	}
	return bots
}

// placeShips steps g with the two bots' moves while it is in the placement
// phase (20 steps at most), and fails t unless both placed their ships,
// showing logw (if not nil) with the failure.
func placeShips(t *testing.T, g *battleships.Game, bots []*Bot, logw *testutil.SyncBuffer) {
	t.Helper()
	var rewards [2]float32
	var term, trunc [2]bool
	for step := 0; g.Phase() == 1 && step < 20; step++ {
		g.Step([]int32{bots[0].Act(g, 0), bots[1].Act(g, 1)}, rewards[:], term[:], trunc[:])
	}
	if g.Phase() != 2 || g.Player(0).Failed != 0 || g.Player(1).Failed != 0 {
		log := ""
		if logw != nil {
			log = "; log:\n" + logw.String()
		}
		t.Fatalf("phase %d, failed %d %d: placement did not succeed%s", g.Phase(), g.Player(0).Failed, g.Player(1).Failed, log)
	}
}

// withOptions sets ExternalOptions for one test.
func withOptions(t *testing.T, o agents.ExternalSettings) {
	t.Helper()
	old := agents.ExternalOptions
	agents.ExternalOptions = o
	t.Cleanup(func() { agents.ExternalOptions = old })
}

func TestEntelectBotMeta(t *testing.T) {
	for _, tc := range []struct {
		name, meta, wantName, wantType, wantErr string
	}{
		{"nickname", pyMeta, "Annie", "Python3", ""},
		{"author", `{"Author":"Ann","Email":"e","BotType":5,"RunFile":"bot.py"}`, "Ann", "Python3", ""},
		{"email", `{"Author":null,"Email":"e@x","BotType":"python3","RunFile":"bot.py"}`, "e@x", "Python3", ""},
		{"empty_nickname_kept", `{"NickName":"","Author":"Ann","BotType":"Python3","RunFile":"bot.py"}`, "", "Python3", ""},
		{"backslashes", `{"NickName":"N","BotType":"Python3","RunFile":"sub\\bot.py"}`, "N", "Python3", ""},
		{"unknown_type", `{"BotType":"Cobol","RunFile":"bot.py"}`, "", "", `unknown BotType "Cobol"`},
		{"type_number_range", `{"BotType":9,"RunFile":"bot.py"}`, "", "", "BotType 9"},
		{"no_type", `{"RunFile":"bot.py"}`, "", "", "BotType is missing"},
		{"no_runfile", `{"BotType":"Python3"}`, "", "", "RunFile is missing"},
		{"missing_runfile", `{"BotType":"Python3","RunFile":"nope.py"}`, "", "", "RunFile"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeBot(t, tc.meta, "print(1)\n")
			os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
			os.WriteFile(filepath.Join(dir, "sub", "bot.py"), []byte("print(1)\n"), 0o644)
			b, err := NewBot("bomberman", dir)
			if testutil.WantErr(t, err, tc.wantErr) {
				return
			}
			if b.PlayerName() != tc.wantName || b.BotType() != tc.wantType {
				t.Errorf("name %q type %q, want %q %q", b.PlayerName(), b.BotType(), tc.wantName, tc.wantType)
			}
			if tc.name == "backslashes" && b.Meta().RunFile != filepath.Join("sub", "bot.py") {
				t.Errorf("RunFile %q", b.Meta().RunFile)
			}
		})
	}
	// .NET bots need mono, absent here: a clear error at creation.
	if _, err := NewBot("bomberman", writeBot(t, `{"BotType":"CSharp","RunFile":"bot.py"}`, "x")); err == nil {
		t.Log("mono is installed: CSharp bots run")
	} else if !strings.Contains(err.Error(), "CSharp") || !strings.Contains(err.Error(), "mono") {
		t.Errorf("CSharp error %q should name the BotType and mono", err)
	}
	if _, err := agents.New("bomberman", "dir:"+writeBot(t, pyMeta, "x"), nil); err != nil {
		t.Errorf("New(dir:): %v", err)
	}
	if _, err := agents.New("battlecube", "dir:/nowhere", nil); err == nil {
		t.Error("dir: for battlecube: want an error")
	}
	if got := splitArgs(`a  "b c" d`); strings.Join(got, "|") != "a|b c|d" {
		t.Errorf("splitArgs = %q", got)
	}
}

// bombermanGame is a Bomberman game of players players at round 0 of
// seed.
func bombermanGame(t *testing.T, players int, seed uint64) *bomberman.Game {
	t.Helper()
	cfg := bomberman.DefaultConfig()
	cfg.Players = players
	g, err := bomberman.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(seed)
	return g
}

// movePy writes text to move.txt in the round folder, then runs tail.
func movePy(text, tail string) string {
	return "import sys, os, time, subprocess\n" +
		"d = sys.argv[2]\n" +
		"assert os.path.exists(os.path.join(d, 'state.json')) and os.path.exists(os.path.join(d, 'map.txt'))\n" +
		"print('key', sys.argv[1], 'args', sys.argv[3:])\n" +
		"open(os.path.join(d, 'move.txt'), 'w').write(" + strconv.Quote(text) + ")\n" + tail
}

func TestEntelectBombermanPenalties(t *testing.T) {
	for _, tc := range []struct {
		name   string
		script string
		want   int32
		log    string // in log.txt and on the options' log ("" for none)
		logTxt string // in log.txt
	}{
		{"good", movePy("3\r\n", ""), 3, "", "move.txt \"3\\r\\n\": right"},
		{"garbage", movePy("up", ""), 0, "bad move.txt \"up\"", ""},
		{"other_digit", movePy("9", ""), 0, "", "move.txt \"9\""},
		{"missing", "print('thinking')\n", 0, "no move.txt: Do Nothing", "thinking"},
		{"crash", "import sys\nsys.stderr.write('boom\\n')\nsys.exit(1)\n", 0, "the bot crashed: exit status 1", "boom"},
		{"crash_after_move", movePy("4", "sys.exit(3)\n"), 4, "the bot crashed: exit status 3", ""},
		// Far past the limit: killed at twice it.
		{"timeout", movePy("3", "time.sleep(60)\n"), 0, "time limit exceeded", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logw testutil.SyncBuffer
			// No limit but in the time-out case, so that a loaded machine
			// cannot time out the others.
			o := agents.ExternalSettings{NoLimit: true, Log: &logw}
			if tc.name == "timeout" {
				o = agents.ExternalSettings{TimeLimit: 300 * time.Millisecond, Log: &logw}
			}
			withOptions(t, o)
			root := t.TempDir()
			b := newPyBot(t, "bomberman", tc.script, root)
			g := bombermanGame(t, 2, 5)
			b.Reset(g, 1, 0)
			if got := b.Act(g, 1); got != tc.want {
				t.Errorf("action %d, want %d", got, tc.want)
			}
			logTxt, err := os.ReadFile(filepath.Join(root, "0", "B", "log.txt"))
			if err != nil {
				t.Fatal(err)
			}
			if tc.log != "" && (!strings.Contains(string(logTxt), tc.log) || !strings.Contains(logw.String(), tc.log)) {
				t.Errorf("log.txt:\n%s\noptions log:\n%s\nwant %q in both", logTxt, logw.String(), tc.log)
			}
			if tc.log == "" && logw.String() != "" {
				t.Errorf("unexpected problem lines: %s", logw.String())
			}
			if tc.logTxt != "" && !strings.Contains(string(logTxt), tc.logTxt) {
				t.Errorf("log.txt:\n%s\nwant %q", logTxt, tc.logTxt)
			}
			if !strings.Contains(string(logTxt), "execution time") {
				t.Errorf("log.txt has no run time:\n%s", logTxt)
			}
			// The next round deletes the player's state files; the rest stays.
			var rewards [2]float32
			var term, trunc [2]bool
			g.Step([]int32{0, 0}, rewards[:], term[:], trunc[:])
			b.Act(g, 1)
			if _, err := os.Stat(filepath.Join(root, "0", "B", "state.json")); !os.IsNotExist(err) {
				t.Errorf("round 0 B/state.json not deleted: %v", err)
			}
			if _, err := os.Stat(filepath.Join(root, "0", "B", "log.txt")); err != nil {
				t.Error(err)
			}
			if _, err := os.Stat(filepath.Join(root, "1", "B", "state.json")); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestEntelectKill: a bot that hangs far past the limit, and leaves a
// child behind, is killed at twice the limit with its whole process group.
func TestEntelectKill(t *testing.T) {
	const limit = time.Second
	var logw testutil.SyncBuffer
	withOptions(t, agents.ExternalSettings{TimeLimit: limit, Log: &logw})
	script := "import sys, os, time, subprocess\n" +
		"p = subprocess.Popen(['sleep', '600'])\n" +
		"open(os.path.join(sys.argv[2], 'child.pid'), 'w').write(str(p.pid))\n" +
		"open(os.path.join(sys.argv[2], 'move.txt'), 'w').write('5')\n" +
		"time.sleep(600)\n"
	root := t.TempDir()
	b := newPyBot(t, "bomberman", script, root)
	g := bombermanGame(t, 2, 5)
	b.Reset(g, 0, 0)
	if got := b.Act(g, 0); got != 0 {
		t.Errorf("action %d, want 0 (time-out)", got)
	}
	if !strings.Contains(logw.String(), "killed at the hard limit 2s") || !strings.Contains(logw.String(), "time limit exceeded") {
		t.Errorf("options log:\n%s", logw.String())
	}
	pidText, err := os.ReadFile(filepath.Join(root, "0", "A", "child.pid"))
	if err != nil {
		// Killed before it started its child (a machine loaded past
		// 2 s for a Python start): nothing left to check.
		t.Logf("no child started before the kill: %v", err)
		return
	}
	pid, _ := strconv.Atoi(string(pidText))
	// A bound for a stuck kill, not a measure of speed.
	deadline := time.Now().Add(time.Minute)
	for {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil || strings.Contains(string(stat), ") Z ") {
			break // gone, or a zombie waiting for its reaper
		}
		if time.Now().After(deadline) {
			t.Fatalf("child %d still running: %s", pid, stat)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestEntelectNoLimit: --nolimit takes a slow bot's move.
func TestEntelectNoLimit(t *testing.T) {
	withOptions(t, agents.ExternalSettings{TimeLimit: 100 * time.Millisecond, NoLimit: true})
	b := newPyBot(t, "bomberman", movePy("2", "time.sleep(0.4)\n"), "")
	g := bombermanGame(t, 2, 5)
	b.Reset(g, 0, 0)
	if got := b.Act(g, 0); got != 2 {
		t.Errorf("action %d, want 2", got)
	}
}

// TestEntelectTempDir: without a replay folder the agent works in a
// temporary folder that Close removes; the bot runs from a copy of its
// folder there, gets absolute paths, and RunArgs follow the folder.
func TestEntelectTempDir(t *testing.T) {
	withOptions(t, agents.ExternalSettings{NoLimit: true})
	report := filepath.Join(t.TempDir(), "report.txt")
	meta := strings.Replace(pyMeta, `"RunArgs":""`, `"RunArgs":"--fast \"two words\" \"`+report+`\""`, 1)
	script := "import sys, os\n" +
		"assert sys.argv[1] == 'A' and sys.argv[3:5] == ['--fast', 'two words'], sys.argv\n" +
		"assert os.path.isabs(sys.argv[2]), sys.argv[2]\n" +
		"assert os.path.samefile(os.getcwd(), os.path.dirname(os.path.abspath(__file__)))\n" +
		"open(os.path.join(sys.argv[2], 'move.txt'), 'w').write('1')\n" +
		"open('mine.txt', 'w').write('x')\n" +
		"open(sys.argv[5], 'w').write(sys.argv[2] + '\\n' + os.getcwd())\n"
	dir := writeBot(t, meta, script)
	b := openBot(t, "bomberman", dir)
	g := bombermanGame(t, 2, 5)
	b.Reset(g, 0, 0)
	if got := b.Act(g, 0); got != 1 {
		t.Fatalf("action %d, want 1", got)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	folder, cwd, _ := strings.Cut(string(data), "\n")
	if _, err := os.Stat(folder); err != nil {
		t.Fatal(err)
	}
	// work/<bot folder name> and work/replay/0/A, work the match's folder.
	work, _ := filepath.EvalSymlinks(filepath.Dir(filepath.Dir(filepath.Dir(folder))))
	if real, _ := filepath.EvalSymlinks(cwd); filepath.Dir(real) != work || filepath.Base(real) != filepath.Base(dir) {
		t.Errorf("ran in %s with player folder %s: want a copy of %s beside the round folders", cwd, folder, dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "mine.txt")); !os.IsNotExist(err) {
		t.Errorf("the bot wrote into its own folder, not the match's copy: %v", err)
	}
	b.Close()
	for _, d := range []string{folder, cwd} {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("%s left after Close: %v", d, err)
		}
	}
}

func battleshipsGame(t *testing.T, placement string) *battleships.Game {
	t.Helper()
	cfg := battleships.DefaultConfig()
	cfg.Size = battleships.SizeSmall
	cfg.Placement = placement
	g, err := battleships.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(9)
	return g
}

func TestEntelectBattleships(t *testing.T) {
	writeCmd := func(name, text string) string {
		return "import sys, os\nopen(os.path.join(sys.argv[2], " + strconv.Quote(name) + "), 'w').write(" + strconv.Quote(text) + ")\n"
	}
	const place = "Battleship 0 0 East\nCarrier 0 1 East\nCruiser 0 2 East\nDestroyer 0 3 East\nSubmarine 0 4 East\n"
	for _, tc := range []struct {
		name, script string
		want         func(g *battleships.Game) int32
		log          string
	}{
		{"command", writeCmd("command.txt", "1,3,4\r\n"), func(g *battleships.Game) int32 { return battleships.CommandAction(g.Size(), 1, 3, 4) }, ""},
		{"garbage", writeCmd("command.txt", "fire!"), func(*battleships.Game) int32 { return 0 }, "bad command.txt"},
		{"missing", "print('no')\n", func(*battleships.Game) int32 { return 0 }, "no command.txt: Do Nothing"},
		{"place_in_phase_2", writeCmd("place.txt", place), func(*battleships.Game) int32 { return 0 }, "place.txt in phase 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logw testutil.SyncBuffer
			withOptions(t, agents.ExternalSettings{NoLimit: true, Log: &logw})
			root := t.TempDir()
			b := newPyBot(t, "battleships", tc.script, root)
			g := battleshipsGame(t, "random")
			b.Reset(g, 1, 0)
			if got, want := b.Act(g, 1), tc.want(g); got != want {
				t.Errorf("action %d, want %d", got, want)
			}
			logTxt, err := os.ReadFile(filepath.Join(root, "Phase 2 - Round 1", "B", "log.txt"))
			if err != nil {
				t.Fatal(err)
			}
			if tc.log != "" && (!strings.Contains(string(logTxt), tc.log) || !strings.Contains(logw.String(), tc.log)) {
				t.Errorf("log.txt:\n%s\noptions log:\n%s\nwant %q", logTxt, logw.String(), tc.log)
			}
		})
	}

	// Learn mode: the bot runs once per phase-1 round; its place.txt
	// serves the five placement steps.
	withOptions(t, agents.ExternalSettings{NoLimit: true})
	runs := filepath.Join(t.TempDir(), "runs.txt")
	script := "import sys, os\n" +
		"open(sys.argv[3], 'a').write('x')\n" +
		"st = open(os.path.join(sys.argv[2], 'state.json')).read()\n" +
		"name = 'place.txt' if '\"Phase\":1' in st else 'command.txt'\n" +
		"open(os.path.join(sys.argv[2], name), 'w').write(" + strconv.Quote(place) + " if name == 'place.txt' else '1,0,0')\n"
	dir := writeBot(t, strings.Replace(pyMeta, `"RunArgs":""`, `"RunArgs":"\"`+runs+`\""`, 1), script)
	g := battleshipsGame(t, "learn")
	bots := seatBots(t, "battleships", g, dir)
	placeShips(t, g, bots, nil)
	if runs, _ := os.ReadFile(runs); string(runs) != "xx" {
		t.Errorf("phase 1 ran the bots %d times, want 2 (once per player)", len(runs))
	}
	if got, want := bots[0].Act(g, 0), battleships.CommandAction(g.Size(), 1, 0, 0); got != want {
		t.Errorf("phase 2 action %d, want %d", got, want)
	}
}

// TestNETText: a Battleships bot's place.txt and command.txt are left as
// the original's BotHarness.RemoveCommandFile leaves them, read with .NET's
// File.ReadAllText (a byte-order mark picks the encoding and is dropped)
// and written back as UTF-8 without a mark.
func TestNETText(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "1,3,4\r\n", "1,3,4\r\n"},
		{"utf8_bom", "\xef\xbb\xbf1,3,4", "1,3,4"},
		{"utf8_bom_only_once", "\xef\xbb\xbf\xef\xbb\xbf1", "\ufeff1"},
		{"utf16le", "\xff\xfe1\x00,\x002\x00\r\x00\n\x00", "1,2\r\n"},
		{"utf16be", "\xfe\xff\x00B\x00 \xd8\x3d\xde\x00", "B \U0001F600"},
		{"utf16_lone_surrogate_odd_byte", "\xff\xfe\x00\xd8A\x00x", "\ufffdA\ufffd"},
		{"utf32le", "\xff\xfe\x00\x001\x00\x00\x00\x00\xd8\x00\x00", "1\ufffd"},
		{"utf32be", "\x00\x00\xfe\xff\x00\x00\x00A\x00\x11\x00\x00\x00", "A\ufffd\ufffd"},
		// One U+FFFD per maximal ill-formed subsequence (utf8sub's
		// tests have the rule's cases).
		{"truncated_sequence", "\xe2\x82A", "\ufffdA"},
		{"surrogate_in_utf8", "\xed\xa0\x80", "\ufffd\ufffd\ufffd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(netText([]byte(tc.in))); got != tc.want {
				t.Errorf("netText(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestEntelectBattleshipsCommandCopy: after the run the round folder holds
// the bot's command.txt as the original harness rewrote it, without its
// byte-order mark, and the command is read as the harness reads it.
func TestEntelectBattleshipsCommandCopy(t *testing.T) {
	withOptions(t, agents.ExternalSettings{NoLimit: true})
	script := "import sys, os\nopen(os.path.join(sys.argv[2], 'command.txt'), 'wb').write(b'\\xef\\xbb\\xbf1,3,4\\r\\n')\n"
	root := t.TempDir()
	b := newPyBot(t, "battleships", script, root)
	g := battleshipsGame(t, "random")
	b.Reset(g, 1, 0)
	if got, want := b.Act(g, 1), battleships.CommandAction(g.Size(), 1, 3, 4); got != want {
		t.Errorf("action %d, want %d", got, want)
	}
	data, err := os.ReadFile(filepath.Join(root, "Phase 2 - Round 1", "B", "command.txt"))
	if err != nil || string(data) != "1,3,4\r\n" {
		t.Errorf("command.txt %q (%v), want %q", data, err, "1,3,4\r\n")
	}
}

// TestEntelectBombermanRoundFoldersAsBotHarness: as the original's
// BotHarness, a Bomberman bot that is no longer run (past its 20
// do-nothings here) still gets an empty round folder every round, and when
// the game ends its last round folder gets the final state.json and
// map.txt, which stay.
func TestEntelectBombermanRoundFoldersAsBotHarness(t *testing.T) {
	withOptions(t, agents.ExternalSettings{NoLimit: true})
	root := t.TempDir()
	b := newPyBot(t, "bomberman", "print('idle')\n", root)
	g := bombermanGame(t, 2, 5)
	b.Reset(g, 0, 0)
	var rewards [2]float32
	var term, trunc [2]bool
	skipped := 0
	for round := 0; round < 30 && !g.Done(); round++ {
		ran := g.Player(0).Idle <= 20 && !g.Player(0).Killed
		g.Step([]int32{b.Act(g, 0), 0}, rewards[:], term[:], trunc[:])
		entries, err := os.ReadDir(filepath.Join(root, strconv.Itoa(round), "A"))
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if !ran {
			skipped++
			if len(entries) != 0 {
				t.Errorf("round %d, bot not run: folder holds %d files, want none", round, len(entries))
			}
		}
	}
	if skipped == 0 {
		t.Fatal("the bot was run every round; want it stopped after 20 do-nothings")
	}
	last := g.Round() - 1
	b.GameEnded(g, 0)
	b.Close()
	for round := range last {
		entries, _ := os.ReadDir(filepath.Join(root, strconv.Itoa(round), "A"))
		for _, e := range entries {
			if e.Name() == "state.json" || e.Name() == "map.txt" {
				t.Errorf("round %d: A/%s left", round, e.Name())
			}
		}
	}
	want, _ := g.AppendNative(nil, "state.json", 0)
	if got, err := os.ReadFile(filepath.Join(root, strconv.Itoa(last), "A", "state.json")); err != nil || string(got) != string(want) {
		t.Errorf("last round folder's state.json (%v) is not the final state", err)
	}
}

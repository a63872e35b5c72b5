package entelect

import (
	"github.com/botarena/botarena/agents"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/botarena/botarena/env/battleships"
	"github.com/botarena/botarena/internal/testutil"
)

// roundFilesBot is the test bot that reads the round folder's files
// (../state.json and the rest), in testdata.
func roundFilesBot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "entelect-round-files"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestEntelectRoundFilesWithoutReplays: a bot that reads the round-level
// files (../state.json, ../map.txt, ../roundInfo.json; Battleships' full
// state.json and "<Key> - map.txt") plays without a replay folder, as in a
// league, the match service or a pool, both seats from the same folder:
// its moves come from the round-level state.json. The bot folder is never
// written, and the match's folders go with Close.
func TestEntelectRoundFilesWithoutReplays(t *testing.T) {
	dir := roundFilesBot(t)
	t.Run("bomberman", func(t *testing.T) {
		var logw testutil.SyncBuffer
		withOptions(t, agents.ExternalSettings{NoLimit: true, Log: &logw})
		g := bombermanGame(t, 2, 5)
		bots := seatBots(t, "bomberman", g, dir)
		var rewards [2]float32
		var term, trunc [2]bool
		for round := range 4 {
			acts := []int32{bots[0].Act(g, 0), bots[1].Act(g, 1)}
			for seat, a := range acts {
				if want := int32(1 + round%4); a != want {
					t.Fatalf("round %d seat %d: action %d, want %d; log:\n%s", round, seat, a, want, logw.String())
				}
			}
			g.Step(acts, rewards[:], term[:], trunc[:])
		}
		checkMatchGone(t, dir, bots, &logw)
	})
	t.Run("battleships", func(t *testing.T) {
		var logw testutil.SyncBuffer
		withOptions(t, agents.ExternalSettings{NoLimit: true, Log: &logw})
		g := battleshipsGame(t, "learn")
		bots := seatBots(t, "battleships", g, dir)
		placeShips(t, g, bots, &logw)
		var rewards [2]float32
		var term, trunc [2]bool
		for range 3 {
			want := battleships.CommandAction(g.Size(), 1, g.Round()%g.Size(), 0)
			acts := []int32{bots[0].Act(g, 0), bots[1].Act(g, 1)}
			if acts[0] != want || acts[1] != want {
				t.Fatalf("round %d: actions %v, want %d; log:\n%s", g.Round(), acts, want, logw.String())
			}
			g.Step(acts, rewards[:], term[:], trunc[:])
		}
		checkMatchGone(t, dir, bots, &logw)
	})
}

// checkMatchGone checks that no problem was logged, that the bot folder
// dir was not written, and that Close removes each bot's match folder.
func checkMatchGone(t *testing.T, dir string, bots []*Bot, logw *testutil.SyncBuffer) {
	t.Helper()
	if logw.String() != "" {
		t.Errorf("problems:\n%s", logw.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "rounds.txt")); !os.IsNotExist(err) {
		t.Errorf("the bot wrote into its folder %s, not the match's copy: %v", dir, err)
	}
	for _, b := range bots {
		work := b.work
		if work == "" {
			t.Fatal("no match folder")
		}
		if data, err := os.ReadFile(filepath.Join(b.runDir, "rounds.txt")); err != nil || len(data) == 0 {
			t.Errorf("the match's copy holds no rounds.txt (%v)", err)
		}
		b.Close()
		if _, err := os.Stat(work); !os.IsNotExist(err) {
			t.Errorf("match folder %s left after Close: %v", work, err)
		}
	}
}

// TestEntelectBotFolderPerMatch: two matches at once of a bot that keeps
// state in its own folder (temp.in, rewritten every round): each match
// runs from its own copy of the folder, so neither sees the other's file,
// and the next match of the same agent starts from a fresh copy.
func TestEntelectBotFolderPerMatch(t *testing.T) {
	withOptions(t, agents.ExternalSettings{NoLimit: true})
	// Move 1 when temp.in holds this match's folder (or does not exist in
	// round 0), 2 when it holds another match's, 3 when a temp.in exists
	// in round 0.
	script := "import os, sys\n" +
		"match = os.path.dirname(os.path.dirname(sys.argv[2]))\n" +
		"first = os.path.basename(os.path.dirname(sys.argv[2])) == '0'\n" +
		"prev = open('temp.in').read() if os.path.exists('temp.in') else None\n" +
		"move = '3' if first and prev is not None else '1' if prev in (None, match) else '2'\n" +
		"open('temp.in', 'w').write(match)\n" +
		"open(os.path.join(sys.argv[2], 'move.txt'), 'w').write(move)\n"
	dir := writeBot(t, pyMeta, script)
	x := openBot(t, "bomberman", dir)
	y := openBot(t, "bomberman", dir)
	for match := range 2 {
		gx, gy := bombermanGame(t, 2, 5), bombermanGame(t, 2, 5)
		x.Reset(gx, 0, 0)
		y.Reset(gy, 0, 0)
		var rewards [2]float32
		var term, trunc [2]bool
		// The rounds of the two matches interleave: x, y, x, y, ...
		for round := range 3 {
			ax, ay := x.Act(gx, 0), y.Act(gy, 0)
			if ax != 1 || ay != 1 {
				t.Fatalf("match %d round %d: actions %d and %d, want 1 and 1 (2: the other match's temp.in; 3: a previous match's)", match, round, ax, ay)
			}
			gx.Step([]int32{ax, 0}, rewards[:], term[:], trunc[:])
			gy.Step([]int32{ay, 0}, rewards[:], term[:], trunc[:])
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "temp.in")); !os.IsNotExist(err) {
		t.Errorf("temp.in in the bot folder itself: %v", err)
	}
}

// TestEntelectCrashShowsOutput: the problem line of a crashed bot quotes
// the last lines of its stderr and stdout, a few and cut short, and says
// where its log.txt is kept: under ExternalSettings.LogDir, or in the
// replay folder.
func TestEntelectCrashShowsOutput(t *testing.T) {
	script := "import sys\n" +
		"print('thinking')\n" +
		"sys.stderr.write('Traceback (most recent call last):\\n')\n" +
		"sys.stderr.write('  File \"bot.py\", line 9, in <module>\\n')\n" +
		"sys.stderr.write('    state = open(\"../state.json\")\\n')\n" +
		"sys.stderr.write('x' * 1000 + '\\n\\n')\n" +
		"sys.stderr.write(\"FileNotFoundError: [Errno 2] No such file or directory: '../state.json'\\n\")\n" +
		"sys.exit(1)\n"
	for _, where := range []string{"none", "log_dir", "replays"} {
		t.Run(where, func(t *testing.T) {
			var logw testutil.SyncBuffer
			o := agents.ExternalSettings{NoLimit: true, Log: &logw}
			if where == "log_dir" {
				o.LogDir = filepath.Join(t.TempDir(), "logs")
			}
			withOptions(t, o)
			b := newPyBot(t, "bomberman", script, "")
			root := t.TempDir()
			if where == "replays" {
				b.SetReplayDir(root)
			}
			g := bombermanGame(t, 2, 5)
			b.Reset(g, 0, 0)
			if got := b.Act(g, 0); got != 0 {
				t.Errorf("action %d, want 0", got)
			}
			line := logw.String()
			for _, want := range []string{
				"the bot crashed: exit status 1", "no move.txt: Do Nothing",
				`stderr ends: "    state = open(\"../state.json\")" / "xxxx`,
				`..." / "FileNotFoundError: [Errno 2] No such file or directory: '../state.json'"`,
				`stdout ends: "thinking"`,
			} {
				if !strings.Contains(line, want) {
					t.Errorf("log line:\n%s\nwant %q", line, want)
				}
			}
			if strings.Count(line, "\n") != 1 || strings.Contains(line, "Traceback") || len(line) > 2000 {
				t.Errorf("want one short line with the last 3 lines of stderr:\n%.3000s", line)
			}
			_, path, kept := strings.Cut(strings.TrimSpace(line), "; log: ")
			switch where {
			case "none":
				if kept {
					t.Errorf("log %s kept in a temporary folder", path)
				}
				return
			case "log_dir":
				if !strings.HasPrefix(path, o.LogDir) {
					t.Errorf("log %s, want it under %s", path, o.LogDir)
				}
			case "replays":
				if path != filepath.Join(root, "0", "A", "log.txt") {
					t.Errorf("log %s, want the replay folder's", path)
				}
			}
			b.Close() // the log outlives the match
			if data, err := os.ReadFile(path); err != nil || !strings.Contains(string(data), "FileNotFoundError") {
				t.Errorf("log.txt (%v):\n%.500s", err, data)
			}
		})
	}
}

// TestEntelectRelativeReplayDir: a relative replay folder reaches the bot
// as an absolute path, since the bot runs in its own folder.
func TestEntelectRelativeReplayDir(t *testing.T) {
	withOptions(t, agents.ExternalSettings{NoLimit: true})
	script := "import sys, os\n" +
		"if not os.path.isabs(sys.argv[2]): sys.exit('relative: ' + sys.argv[2])\n" +
		"open(os.path.join(sys.argv[2], 'move.txt'), 'w').write('4')\n"
	b := newPyBot(t, "bomberman", script, "")
	cwd := t.TempDir()
	t.Chdir(cwd)
	b.SetReplayDir(filepath.Join("replays", "7"))
	g := bombermanGame(t, 2, 5)
	b.Reset(g, 0, 0)
	if got := b.Act(g, 0); got != 4 {
		t.Errorf("action %d, want 4", got)
	}
	if _, err := os.Stat(filepath.Join(cwd, "replays", "7", "0", "A", "move.txt")); err != nil {
		t.Error(err)
	}
}

// TestEntelectChecksTheInterpreter: the interpreter a BotType needs is
// checked by running it, once: a python2 on PATH that runs nothing (a
// pyenv shim without Python 2) or Python 3 fails NewBot with one
// line naming the bot folder and the fix.
func TestEntelectChecksTheInterpreter(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell-script shims")
	}
	python3, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	for _, tc := range []struct{ name, shim, want string }{
		{"shim_without_python2", "echo 'pyenv: python2: command not found' >&2\nexit 127", "pyenv: python2: command not found"},
		{"python3_as_python2", "exec " + python3 + ` "$@"`, `runs Python "3"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := t.TempDir()
			calls := filepath.Join(t.TempDir(), "calls")
			shim := "#!/bin/sh\necho x >> " + calls + "\n" + tc.shim + "\n"
			if err := os.WriteFile(filepath.Join(bin, "python2"), []byte(shim), 0o755); err != nil {
				t.Fatal(err)
			}
			t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			dir := writeBot(t, `{"NickName":"Old","BotType":"Python2","RunFile":"bot.py"}`, "print 'hi'\n")
			for range 2 {
				_, err := NewBot("bomberman", dir)
				if err == nil {
					t.Fatal("NewBot: no error")
				}
				msg := err.Error()
				for _, want := range []string{"bot folder " + dir, "BotType Python2", tc.want, `install Python 2 so that "python2" on PATH runs it`, `"BotType": "Python3"`} {
					if !strings.Contains(msg, want) {
						t.Errorf("error %q\nwant %q", msg, want)
					}
				}
				if strings.Contains(msg, "\n") {
					t.Errorf("error of several lines: %q", msg)
				}
			}
			if data, _ := os.ReadFile(calls); string(data) != "x\n" {
				t.Errorf("python2 ran %d times, want once", strings.Count(string(data), "x"))
			}
		})
	}
}

// TestEntelectBotFolderLimits: a bot folder with a symbolic link that
// leads out, or over MaxBotFolder, is refused by NewBot; links
// that stay inside are copied as links into the match's copy.
func TestEntelectBotFolderLimits(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links")
	}
	withOptions(t, agents.ExternalSettings{NoLimit: true})
	outside := t.TempDir()
	for _, tc := range []struct {
		name  string
		setup func(dir string) error
		want  string
	}{
		{"link_out", func(dir string) error { return os.Symlink(outside, filepath.Join(dir, "data")) }, "symbolic link data leads out of the bot folder"},
		{"relative_link_out", func(dir string) error {
			os.Mkdir(filepath.Join(dir, "sub"), 0o755)
			rel, err := filepath.Rel(filepath.Join(dir, "sub"), outside)
			if err != nil {
				return err
			}
			return os.Symlink(rel, filepath.Join(dir, "sub", "up"))
		}, "symbolic link " + filepath.Join("sub", "up") + " leads out"},
		{"too_large", func(dir string) error {
			f, err := os.Create(filepath.Join(dir, "weights.bin"))
			if err != nil {
				return err
			}
			defer f.Close()
			return f.Truncate(MaxBotFolder + 1) // sparse
		}, "holds more than 512 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeBot(t, pyMeta, "print(1)\n")
			if err := tc.setup(dir); err != nil {
				t.Skip(err)
			}
			if _, err := NewBot("bomberman", dir); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("NewBot: %v, want %q", err, tc.want)
			}
		})
	}
	// Links inside, relative and absolute, lead into the copy.
	script := "import os, sys\n" +
		"here = os.path.dirname(os.path.abspath(__file__))\n" +
		"assert os.path.realpath('lib/data.txt').startswith(os.path.realpath(here) + os.sep)\n" +
		"assert os.path.realpath('abs.txt').startswith(os.path.realpath(here) + os.sep)\n" +
		"open(os.path.join(sys.argv[2], 'move.txt'), 'w').write(open('lib/data.txt').read() + open('abs.txt').read())\n"
	dir := writeBot(t, pyMeta, script)
	os.Mkdir(filepath.Join(dir, "vendor"), 0o755)
	os.WriteFile(filepath.Join(dir, "vendor", "data.txt"), []byte("2"), 0o644)
	if err := os.Symlink("vendor", filepath.Join(dir, "lib")); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink(filepath.Join(dir, "vendor", "data.txt"), filepath.Join(dir, "abs.txt")); err != nil {
		t.Fatal(err)
	}
	b := openBot(t, "bomberman", dir)
	g := bombermanGame(t, 2, 5)
	b.Reset(g, 0, 0)
	if got := b.Act(g, 0); got != 2 {
		t.Errorf("action %d, want 2 (move.txt \"22\")", got)
	}
}

package entelect

import (
	"github.com/botarena/botarena/agents"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/env/bomberman"
	"github.com/botarena/botarena/internal/testutil"
)

// hugeFilePy writes head to name in the round folder, then makes the file
// 8 GiB long (sparse: the rest reads as zero bytes).
func hugeFilePy(name, head string) string {
	return "import sys, os\n" +
		"p = os.path.join(sys.argv[2], " + strconv.Quote(name) + ")\n" +
		"f = open(p, 'wb')\n" +
		"f.write(" + strconv.Quote(head) + ".encode())\n" +
		"f.truncate(8 << 30)\n" +
		"f.close()\n"
}

// TestEntelectHugeCommandFiles: a bot that leaves an 8 GiB move.txt or
// command.txt costs botarena 4 KiB of reading: the game goes on, and the
// bot gets what the original gives it (Bomberman: the first character
// decides; Battleships: a malformed file, Do Nothing).
func TestEntelectHugeCommandFiles(t *testing.T) {
	for _, tc := range []struct {
		name, game, script string
		want               int32
		log                string
	}{
		{"move_txt_of_zero_bytes", "bomberman", hugeFilePy("move.txt", ""), int32(bomberman.DoNothing), "bad move.txt"},
		{"move_txt_starting_with_a_move", "bomberman", hugeFilePy("move.txt", "3"), int32(bomberman.MoveRight), "its first 4096 bytes are read"},
		{"command_txt", "battleships", hugeFilePy("command.txt", "1,3,4"), 0, "bad command.txt: larger than 4096 bytes"},
		{"place_txt_in_phase_2", "battleships", hugeFilePy("place.txt", "Battleship 0 0 East\n"), 0, "place.txt in phase 2 and no command.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logw testutil.SyncBuffer
			withOptions(t, agents.ExternalSettings{NoLimit: true, Log: &logw})
			root := t.TempDir()
			b := newPyBot(t, tc.game, tc.script, root)
			var got int32
			var logTxt string
			if tc.game == "bomberman" {
				g := bombermanGame(t, 2, 5)
				b.Reset(g, 0, 0)
				got = b.Act(g, 0)
				// The game goes on: the next round runs the bot again.
				var rewards [2]float32
				var term, trunc [2]bool
				g.Step([]int32{got, 0}, rewards[:], term[:], trunc[:])
				if again := b.Act(g, 0); again != got {
					t.Errorf("round 1: action %d, want %d as in round 0", again, got)
				}
				data, _ := os.ReadFile(filepath.Join(root, "0", "A", "log.txt"))
				logTxt = string(data)
			} else {
				g := battleshipsGame(t, "random")
				b.Reset(g, 0, 0)
				got = b.Act(g, 0)
				data, _ := os.ReadFile(filepath.Join(root, "Phase 2 - Round 1", "A", "log.txt"))
				logTxt = string(data)
			}
			if got != tc.want {
				t.Errorf("action %d, want %d; log.txt:\n%s", got, tc.want, logTxt)
			}
			if !strings.Contains(logTxt, tc.log) {
				t.Errorf("log.txt:\n%.2000s\nwant %q", logTxt, tc.log)
			}
			if len(logTxt) > 64<<10 {
				t.Errorf("log.txt is %d bytes", len(logTxt))
			}
		})
	}
}

// TestEntelectReadsOnlyRegularFiles: a move.txt that is a FIFO (which
// would block the read) or a link to a device counts as unreadable.
func TestEntelectReadsOnlyRegularFiles(t *testing.T) {
	for _, tc := range []struct{ name, script string }{
		{"fifo", "import sys, os\nos.mkfifo(os.path.join(sys.argv[2], 'move.txt'))\n"},
		{"link_to_dev_zero", "import sys, os\nos.symlink('/dev/zero', os.path.join(sys.argv[2], 'move.txt'))\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := os.Stat("/dev/zero"); err != nil || runtime.GOOS == "windows" {
				t.Skip("no FIFOs or /dev/zero")
			}
			var logw testutil.SyncBuffer
			withOptions(t, agents.ExternalSettings{NoLimit: true, Log: &logw})
			b := newPyBot(t, "bomberman", tc.script, "")
			g := bombermanGame(t, 2, 5)
			b.Reset(g, 0, 0)
			done := make(chan int32, 1)
			go func() { done <- b.Act(g, 0) }()
			select {
			case got := <-done:
				if got != 0 || !strings.Contains(logw.String(), "cannot read move.txt: move.txt: not a regular file") {
					t.Errorf("action %d, log:\n%s", got, logw.String())
				}
			case <-time.After(5 * time.Minute): // a bound for a hang, not a measure of speed
				t.Fatal("Act blocked")
			}
		})
	}
}

// TestEntelectHugeBotJSON: a bot.json over MaxBotJSON is refused unread.
func TestEntelectHugeBotJSON(t *testing.T) {
	dir := writeBot(t, pyMeta, "print(1)\n")
	if err := os.Truncate(filepath.Join(dir, "bot.json"), 8<<30); err != nil {
		t.Skipf("no sparse files here: %v", err)
	}
	if _, err := NewBot("bomberman", dir); err == nil || !strings.Contains(err.Error(), "bot.json is larger than 65536 bytes") {
		t.Errorf("NewBot: %v", err)
	}
}

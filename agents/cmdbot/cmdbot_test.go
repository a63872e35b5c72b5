package cmdbot

import (
	"bytes"
	"errors"
	"github.com/botarena/botarena/agents"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/battlebots"
	"github.com/botarena/botarena/internal/testutil"
)

func newBattleBots(t *testing.T) *battlebots.Game {
	t.Helper()
	g, err := battlebots.New(battlebots.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(1)
	return g
}

func TestSplitCommand(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"python3 bot.py", []string{"python3", "bot.py"}},
		{"  java   bots.Nop\t", []string{"java", "bots.Nop"}},
		{`"python3 bot.py"`, []string{"python3", "bot.py"}},
		{`'python3 bot.py'`, []string{"python3", "bot.py"}},
		{`python3 "my bots/bot.py" -v`, []string{"python3", "my bots/bot.py", "-v"}},
		{`python3 'a "b"' x"y z"w`, []string{"python3", `a "b"`, "xy zw"}},
		{`run ""`, []string{"run", ""}},
	} {
		got, err := SplitCommand(tc.in)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "   ", `python3 "bot.py`, `""`} {
		if got, err := SplitCommand(bad); err == nil {
			t.Errorf("SplitCommand(%q) = %q, want an error", bad, got)
		}
	}
}

func TestParseCommandSpec(t *testing.T) {
	b, err := Parse(`cmd:"python3 bot.py"`)
	if err != nil || !slices.Equal(b.Argv, []string{"python3", "bot.py"}) || b.Timeout != 0 || b.Name != "python3 bot.py" {
		t.Errorf("plain spec: %+v, %v", b, err)
	}
	b, err = Parse("cmd:timeout=2500ms:python3 bot.py")
	if err != nil || !slices.Equal(b.Argv, []string{"python3", "bot.py"}) || b.Timeout != 2500*time.Millisecond {
		t.Errorf("timeout spec: %+v, %v", b, err)
	}
	for _, bad := range []string{"cmd:", "cmd:timeout=2s", "cmd:timeout=x:bot", "cmd:timeout=-1s:bot", "cmd:timeout=0s:bot", "python3 bot.py"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q): want an error", bad)
		}
	}
	if _, err := agents.New("bomberman", "cmd:python3 bot.py", nil); err == nil || !strings.Contains(err.Error(), "cmd: agents play battlebots, not bomberman") {
		t.Errorf("cmd: for bomberman: %v", err)
	}
	if !agents.Known("battlebots/10x10", "cmd:x") || agents.Known("battleships", "cmd:x") {
		t.Error("Known: cmd: is for battlebots only")
	}
}

func TestCmdBotRunsTheOriginalProtocol(t *testing.T) {
	dir := t.TempDir()
	// The bot saves its last argument and its argument count, and prints
	// its action padded with whitespace (the control program trims it).
	bot := testutil.ShScript(t, "bot.sh", `for a; do last="$a"; done
printf '%s' "$last" > "`+dir+`/arena.txt"
echo $# > "`+dir+`/argc"
printf '  M SE \n\n'`)
	g := newBattleBots(t)
	a, err := agents.New("battlebots", "cmd:"+bot+" one 'two words'", g.Spec())
	if err != nil {
		t.Fatal(err)
	}
	defer a.(*Bot).Close()
	var log bytes.Buffer
	a.(agents.Terminal).Attach(nil, &log)
	a.Reset(g, 1, 0)
	if got, want := a.Act(g, 1), int32(battlebots.Missile(battlebots.SE)); got != want {
		t.Errorf("action %d, want %d (M SE)", got, want)
	}
	arena, _ := os.ReadFile(filepath.Join(dir, "arena.txt"))
	if want := g.AppendArena(nil, 1); !bytes.Equal(arena, want) {
		t.Errorf("the bot got\n%s\nwant seat 1's arena string\n%s", arena, want)
	}
	if argc, _ := os.ReadFile(filepath.Join(dir, "argc")); strings.TrimSpace(string(argc)) != "3" {
		t.Errorf("argument count %q, want 3 (one, two words, the arena)", argc)
	}
	if log.Len() != 0 || a.(*Bot).Faults().Total() != 0 {
		t.Errorf("unexpected faults: %s", log.String())
	}
}

// TestCmdBotFaults checks that every fault is a do-nothing with one clear
// log line, and that a bot far past its time limit is killed with its
// children. Only the hanging bot has a short limit, so that a loaded
// machine cannot time out the others.
func TestCmdBotFaults(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	for _, tc := range []struct {
		name, body string
		want       string
		kind       agents.FaultKind
	}{
		{"crash", "echo 'Traceback: boom' >&2\nexit 3", `round 0: exit status 3 (stderr: Traceback: boom): doing nothing (NO)`, agents.Crashed},
		{"signal", "kill -9 $$", "round 0: signal: killed: doing nothing", agents.Crashed},
		{"garbage", "echo 'fire at will'", `round 0: garbage output "fire at will": doing nothing`, agents.Invalid},
		{"silent", "exit 0", `round 0: garbage output "": doing nothing`, agents.Invalid},
		{"hang", "sleep 600 &\necho $! > " + pidFile + "\nsleep 600", "round 0: no answer within 300ms (killed): doing nothing", agents.TimedOut},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newBattleBots(t)
			timeout := "10m"
			if tc.name == "hang" {
				timeout = "300ms"
			}
			b, err := Parse("cmd:timeout=" + timeout + ":" + testutil.ShScript(t, tc.name+".sh", tc.body))
			if err != nil {
				t.Fatal(err)
			}
			var log bytes.Buffer
			b.Log = &log
			if a := b.Act(g, 0); a != 0 {
				t.Errorf("action %d, want 0 (NO)", a)
			}
			if !strings.Contains(log.String(), tc.want) || strings.Count(log.String(), "\n") != 1 {
				t.Errorf("log:\n%s\nwant one line with %q", log.String(), tc.want)
			}
			var want agents.Faults
			want.Count(tc.kind)
			if b.Faults() != want {
				t.Errorf("faults %+v, want %+v", b.Faults(), want)
			}
		})
	}
	// The hanging bot's child went with its process group.
	data, err := os.ReadFile(pidFile)
	if err != nil {
		// Killed before it started its child (a machine loaded past
		// 300 ms for a shell's start): nothing left to check.
		t.Logf("no child started before the kill: %v", err)
		return
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if pid <= 0 {
		t.Fatalf("child pid %q", data)
	}
	// A bound for a stuck kill, not a measure of speed.
	deadline := time.Now().Add(time.Minute)
	for processRuns(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("the hanging bot's child %d still runs", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// processRuns reports whether pid is a live process (not gone, not a zombie).
func processRuns(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] != 'Z'
	}
	return true
}

func TestCmdBotCannotStart(t *testing.T) {
	g := newBattleBots(t)
	b, _ := Parse("cmd:/nonexistent/bot --fast")
	var log bytes.Buffer
	b.Log = &log
	var rounds []int
	b.OnFault = func(round int, err error) { rounds = append(rounds, round) }
	for range maxLoggedFaults + 5 {
		if a := b.Act(g, 0); a != 0 {
			t.Fatalf("action %d", a)
		}
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != maxLoggedFaults || !strings.Contains(lines[0], `bot "/nonexistent/bot --fast" (seat 0), round 0: cannot start: `) ||
		!strings.HasSuffix(lines[len(lines)-1], "further faults of this bot are counted, not logged") {
		t.Errorf("log:\n%s", log.String())
	}
	if b.Faults().Total() != maxLoggedFaults+5 || len(rounds) != maxLoggedFaults+5 {
		t.Errorf("%d faults, %d reported", b.Faults().Total(), len(rounds))
	}
	log.Reset()
	b.Close()
	if !strings.Contains(log.String(), "15 faults in all") {
		t.Errorf("Close: %q", log.String())
	}
}

// A command-line bot without a log of its own writes to
// ExternalOptions.Log, the program's choice.
func TestBotLogsWhereTheProgramSays(t *testing.T) {
	g := newBattleBots(t)
	var log bytes.Buffer
	old := agents.ExternalOptions
	t.Cleanup(func() { agents.ExternalOptions = old })
	agents.ExternalOptions = agents.ExternalSettings{Log: &log}
	cmd, _ := Parse("cmd:/nonexistent/bot")
	cmd.Act(g, 0)
	if got := log.String(); !strings.Contains(got, `bot "/nonexistent/bot" (seat 0), round 0: cannot start`) {
		t.Errorf("ExternalOptions.Log got %q", got)
	}
}

// samplePython returns the command of the sample Python bot, or skips.
func samplePython(t *testing.T) string {
	t.Helper()
	return "cmd:timeout=10m:python3 " + testutil.PythonScript(t, "../examples/battlebots-python/bot.py") // no limit to meet on a loaded machine
}

func TestSamplePythonBot(t *testing.T) {
	py := samplePython(t)
	for _, opp := range []string{"nop", "huggy"} {
		for me := range 2 {
			g := newBattleBots(t)
			bot, err := Parse(py)
			if err != nil {
				t.Fatal(err)
			}
			ags := []env.Agent{bot, bot}
			ags[1-me] = testutil.Agent(t, "battlebots", opp, g.Spec())
			testutil.Play(g, ags, 1, func(seat int) uint64 { return 3 + uint64(seat) })
			if w, _ := g.Outcome(); w != me {
				t.Errorf("the Python bot in seat %d vs %s: winner %d after %d rounds, HP %d-%d; want the Python bot to win", me, opp, w, g.Round(), g.Bot(0).HP, g.Bot(1).HP)
			}
		}
	}
}

// TestCmdBotWaitsForStdoutAsOutput: the original control program reads a
// bot with exec.Cmd.Output, which returns once the bot has exited and
// every process holding its stdout has closed it, with all they wrote. A
// child that keeps stdout open delays the answer and may add to it; one
// that holds only stderr does not count here.
func TestCmdBotWaitsForStdoutAsOutput(t *testing.T) {
	for _, tc := range []struct {
		name, spec, body string
		want             battlebots.Action
		fault            string
		minWait, maxWait time.Duration
	}{
		// Issue 18 item 7: the original moves S after the child's 2 s.
		{"child_holds_stdout", "cmd:timeout=10m:", "sleep 2 &\necho S", battlebots.Move(battlebots.S), "", 1900 * time.Millisecond, 0},
		// The original reads "S\nX": no command.
		{"child_adds_to_the_answer", "cmd:timeout=10m:", "(sleep 2; echo X) &\necho S", battlebots.Nothing, `garbage output "S\nX"`, 1900 * time.Millisecond, 0},
		// Not the child's 600 s.
		{"child_holds_only_stderr", "cmd:timeout=10m:", "sleep 600 >/dev/null &\necho S", battlebots.Move(battlebots.S), "", 0, 5 * time.Minute},
		// The limit outlasts the shell's exit on a loaded machine, and the
		// child's sleep outlasts the limit.
		{"child_holds_stdout_past_the_limit", "cmd:timeout=10s:", "sleep 600 &\necho S", battlebots.Nothing,
			"no answer within 10s: the bot exited, but a process it started kept its stdout open (killed)", 9900 * time.Millisecond, 5 * time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, err := Parse(tc.spec + testutil.ShScript(t, "bot.sh", tc.body))
			if err != nil {
				t.Fatal(err)
			}
			var log bytes.Buffer
			b.Log = &log
			start := time.Now()
			got := b.Act(newBattleBots(t), 0)
			d := time.Since(start)
			if battlebots.Action(got) != tc.want {
				t.Errorf("action %v, want %v (log %q)", battlebots.Action(got), tc.want, log.String())
			}
			if tc.fault == "" && log.Len() > 0 || !strings.Contains(log.String(), tc.fault) {
				t.Errorf("log %q, want %q", log.String(), tc.fault)
			}
			// The lower bound is the child's sleep, which load only
			// lengthens; the upper one, where set, is far below the sleep
			// the answer must not wait for.
			if d < tc.minWait || tc.maxWait > 0 && d > tc.maxWait {
				t.Errorf("the answer took %v, want %v to %v", d, tc.minWait, tc.maxWait)
			}
		})
	}
}

// TestCmdBotDefaultLimitOutlastsALoadedMachine: the original had no time
// limit, so the default must not cut a bot that a loaded machine slows
// down: here a bot that answers at once except for one run of 1.5 s.
func TestCmdBotDefaultLimitOutlastsALoadedMachine(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "slow-once")
	b, err := Parse("cmd:" + testutil.ShScript(t, "bot.sh", "if [ ! -e "+marker+" ]; then touch "+marker+"; sleep 1.5; fi\necho SW"))
	if err != nil {
		t.Fatal(err)
	}
	if b.Timeout != 0 || Timeout < 10*time.Second {
		t.Fatalf("timeout %v, default %v: want the default of at least 10s", b.Timeout, Timeout)
	}
	var log bytes.Buffer
	b.Log = &log
	g := newBattleBots(t)
	for round := range 3 {
		if got := b.Act(g, 0); battlebots.Action(got) != battlebots.Move(battlebots.SW) {
			t.Errorf("round %d: action %v, want SW (log %q)", round, battlebots.Action(got), log.String())
		}
	}
	if b.Faults().Total() != 0 {
		t.Errorf("faults: %s", log.String())
	}
}

// TestBotNeedsACodec: a command-line bot speaks the game's native formats,
// so in a game without a native codec it says that the game has none.
func TestBotNeedsACodec(t *testing.T) {
	entry, err := env.Default.Lookup("battlebots")
	if err != nil {
		t.Fatal(err)
	}
	g, err := testutil.WithoutCodec(entry, "testgame").New(entry.NewConfig())
	if err != nil {
		t.Fatal(err)
	}
	g.Reset(1)
	b, err := Parse("cmd:true")
	if err != nil {
		t.Fatal(err)
	}
	const want = "game testgame has no native codec"
	if _, err := b.Ask(g, 0); !errors.Is(err, env.ErrNoCodec) || !strings.Contains(err.Error(), want) {
		t.Errorf("Bot.Ask: %v; want %q", err, want)
	}
}

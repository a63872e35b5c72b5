//go:build linux

package agents

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botarena/botarena/internal/testutil"
)

var sleepSeq atomic.Uint64

// uniqueSleep returns a sleep duration of about 1000 s that no other
// process has on its command line, to find the sleeps a test's bot starts.
func uniqueSleep() string {
	return fmt.Sprintf("1000.%d%06d", os.Getpid()%1000, sleepSeq.Add(1))
}

// sleepers returns the pids of live (not zombie) processes running
// "sleep arg".
func sleepers(arg string) []int {
	want := []byte("sleep\x00" + arg + "\x00")
	var pids []int
	for _, p := range listProcs() {
		if p.dead() {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/cmdline")
		if err == nil && bytes.HasSuffix(cmdline, want) {
			pids = append(pids, p.pid)
		}
	}
	return pids
}

// waitNoSleepers fails the test if a process running "sleep arg" is still
// alive a minute from now (a bound for a kill that failed, not a measure
// of speed).
func waitNoSleepers(t *testing.T, arg string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		pids := sleepers(arg)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range pids {
				stat, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
				t.Errorf("process %d (sleep %s) survived the run: %s", pid, arg, stat)
				killPid(pid)
			}
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func killPid(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}

// killMethods runs f once with cgroups (where botarena may make them) and
// once with the /proc walk.
func killMethods(t *testing.T, f func(t *testing.T)) {
	t.Run("cgroup", func(t *testing.T) {
		if cgroupBase() == "" {
			t.Skip("no writable cgroup v2 hierarchy here")
		}
		f(t)
		if cgroupsOff.Load() {
			t.Error("cgroups turned off during the run")
		}
	})
	t.Run("proc_walk", func(t *testing.T) {
		was := cgroupsOff.Swap(true)
		t.Cleanup(func() { cgroupsOff.Store(was) })
		f(t)
	})
}

// escapeScript starts a sleep in a session of its own (setsid) and another
// as a double-forked daemon in its own session, writes mark (if any) and
// exits or, with hang, hangs.
func escapeScript(setsidSleep, daemonSleep, out string, hang bool) string {
	s := "setsid sleep " + setsidSleep + " >/dev/null 2>&1 < /dev/null &\n" +
		"( setsid sh -c 'sleep " + daemonSleep + " >/dev/null 2>&1 < /dev/null & exit 0' & ) \n" +
		// Wait until both run, so that the kill has something to find.
		"for i in $(seq 100); do\n" +
		"  n=$(pgrep -fc 'sleep (" + setsidSleep + "|" + daemonSleep + ")$' || true)\n" +
		"  [ \"$n\" -ge 2 ] && break\n" +
		"  sleep 0.02\n" +
		"done\n" +
		out
	if hang {
		s += "\nexec sleep 600"
	}
	return s
}

// TestCmdBotKillsEverythingItStarted: a command-line bot that leaves a
// setsid'd sleep and a double-forked daemon behind, after a normal exit or
// at its time-out, leaves no process running after the run.
func TestCmdBotKillsEverythingItStarted(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	if _, err := exec.LookPath("pgrep"); err != nil {
		t.Skip("no pgrep")
	}
	killMethods(t, func(t *testing.T) {
		for _, hang := range []bool{false, true} {
			t.Run(map[bool]string{false: "exit", true: "hang"}[hang], func(t *testing.T) {
				a, b := uniqueSleep(), uniqueSleep()
				// Only the hanging bot meets its time-out: a loaded machine
				// cannot time out the other.
				timeout := "10m"
				if hang {
					timeout = "3s"
				}
				bot, err := ParseCommandSpec("cmd:timeout=" + timeout + ":" + shScript(t, "escape.sh", escapeScript(a, b, "echo NO", hang)))
				if err != nil {
					t.Fatal(err)
				}
				var log bytes.Buffer
				bot.Log = &log
				g := newBattleBots(t)
				act := bot.Act(g, 0)
				if hang && !strings.Contains(log.String(), "no answer within 3s (killed)") {
					t.Errorf("log: %q", log.String())
				}
				if !hang && (act != 0 || bot.Faults().Total() != 0) {
					t.Errorf("action %d, %d faults (log %q); want NO without a fault", act, bot.Faults().Total(), log.String())
				}
				waitNoSleepers(t, a)
				waitNoSleepers(t, b)
			})
		}
	})
}

// TestEntelectBotKillsEverythingItStarted: the same for an Entelect bot
// folder, after a normal run and at the hard limit.
func TestEntelectBotKillsEverythingItStarted(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	if _, err := exec.LookPath("pgrep"); err != nil {
		t.Skip("no pgrep")
	}
	meta := `{"NickName":"Escaper","BotType":"CPlusPlus","RunFile":"bot.sh","RunArgs":""}`
	killMethods(t, func(t *testing.T) {
		for _, hang := range []bool{false, true} {
			t.Run(map[bool]string{false: "exit", true: "hang"}[hang], func(t *testing.T) {
				var logw testutil.SyncBuffer
				// Only the hanging bot meets the limit: a loaded machine
				// cannot time out the other.
				o := ExternalSettings{NoLimit: true, Log: &logw}
				if hang {
					o = ExternalSettings{TimeLimit: 2 * time.Second, Log: &logw}
				}
				withOptions(t, o)
				a, b := uniqueSleep(), uniqueSleep()
				dir := writeBot(t, meta, "")
				script := "#!/bin/sh\n" + escapeScript(a, b, `printf 3 > "$2/move.txt"`, hang)
				if err := os.WriteFile(dir+"/bot.sh", []byte(script), 0o755); err != nil {
					t.Fatal(err)
				}
				bot, err := NewEntelectBot("bomberman", dir)
				if err != nil {
					t.Fatal(err)
				}
				defer bot.Close()
				g := bombermanGame(t)
				bot.Reset(g, 0, 0)
				act := bot.Act(g, 0)
				if !hang && act != 3 {
					t.Errorf("action %d, want 3; log:\n%s", act, logw.String())
				}
				if hang && (act != 0 || !strings.Contains(logw.String(), "killed at the hard limit")) {
					t.Errorf("action %d, log:\n%s", act, logw.String())
				}
				waitNoSleepers(t, a)
				waitNoSleepers(t, b)
			})
		}
	})
}

// TestRunCgroupsAreRemoved: a run's cgroup is gone after the run.
func TestRunCgroupsAreRemoved(t *testing.T) {
	base := cgroupBase()
	if base == "" {
		t.Skip("no writable cgroup v2 hierarchy here")
	}
	before, _ := os.ReadDir(base)
	bot, _ := ParseCommandSpec("cmd:" + shScript(t, "nop.sh", "echo NO"))
	g := newBattleBots(t)
	for range 3 {
		if a, err := bot.Ask(g, 0); err != nil || a != 0 {
			t.Fatalf("Ask = %d, %v", a, err)
		}
	}
	after, _ := os.ReadDir(base)
	prefix := fmt.Sprintf("botarena-bot-%d-", os.Getpid())
	n := func(es []os.DirEntry) int {
		c := 0
		for _, e := range es {
			if strings.HasPrefix(e.Name(), prefix) {
				c++
			}
		}
		return c
	}
	if n(after) > n(before) {
		t.Errorf("%d run cgroups left in %s", n(after)-n(before), base)
	}
}

//go:build linux

package proctree_test

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

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/agents/cmdbot"
	"github.com/botarena/botarena/agents/entelect"
	"github.com/botarena/botarena/agents/internal/proctree"
	_ "github.com/botarena/botarena/env/battlebots" // the games the bots play
	_ "github.com/botarena/botarena/env/bomberman"
	"github.com/botarena/botarena/internal/testutil"
)

// The kill tests run the bots of the two protocols that start processes
// through a Tree (agents/cmdbot, agents/entelect), as their users do: an
// external test package, which may import them.

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
	for _, pid := range proctree.LiveProcs() {
		cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		if err == nil && bytes.HasSuffix(cmdline, want) {
			pids = append(pids, pid)
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
		if proctree.CgroupBase() == "" {
			t.Skip("no writable cgroup v2 hierarchy here")
		}
		f(t)
		if proctree.CgroupsOff.Load() {
			t.Error("cgroups turned off during the run")
		}
	})
	t.Run("proc_walk", func(t *testing.T) {
		was := proctree.CgroupsOff.Swap(true)
		t.Cleanup(func() { proctree.CgroupsOff.Store(was) })
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
				bot, err := cmdbot.Parse("cmd:timeout=" + timeout + ":" + testutil.ShScript(t, "escape.sh", escapeScript(a, b, "echo NO", hang)))
				if err != nil {
					t.Fatal(err)
				}
				var log bytes.Buffer
				bot.Log = &log
				g := testutil.NewEnv(t, "battlebots", 1)
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
				o := agents.ExternalSettings{NoLimit: true, Log: &logw}
				if hang {
					o = agents.ExternalSettings{TimeLimit: 2 * time.Second, Log: &logw}
				}
				withOptions(t, o)
				a, b := uniqueSleep(), uniqueSleep()
				dir := t.TempDir()
				if err := os.WriteFile(dir+"/bot.json", []byte(meta), 0o644); err != nil {
					t.Fatal(err)
				}
				script := "#!/bin/sh\n" + escapeScript(a, b, `printf 3 > "$2/move.txt"`, hang)
				if err := os.WriteFile(dir+"/bot.sh", []byte(script), 0o755); err != nil {
					t.Fatal(err)
				}
				bot, err := entelect.NewBot("bomberman", dir)
				if err != nil {
					t.Fatal(err)
				}
				defer bot.Close()
				g := testutil.NewEnv(t, "bomberman/2p", 5)
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
	base := proctree.CgroupBase()
	if base == "" {
		t.Skip("no writable cgroup v2 hierarchy here")
	}
	before, _ := os.ReadDir(base)
	bot, _ := cmdbot.Parse("cmd:" + testutil.ShScript(t, "nop.sh", "echo NO"))
	g := testutil.NewEnv(t, "battlebots", 1)
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

// withOptions sets agents.ExternalOptions for one test.
func withOptions(t *testing.T, o agents.ExternalSettings) {
	t.Helper()
	old := agents.ExternalOptions
	agents.ExternalOptions = o
	t.Cleanup(func() { agents.ExternalOptions = old })
}

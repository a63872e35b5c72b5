package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/bots"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/match"
)

// TestBotsBuildLocal builds a recipe whose repository is a local git
// repository holding the sample Python bot, through `bots build`, and plays
// the dir: spec it prints.
func TestBotsBuildLocal(t *testing.T) {
	recipes, cache, commit := localRecipe(t)
	out, errOut, code := runCLI(t, "", "bots", "build", "--recipes", recipes, "--cache", cache, "-q", "pybomber")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	spec := strings.TrimSpace(out)
	if want := "dir:" + filepath.Join(cache, "pybomber-"+commit[:12], "out"); spec != want {
		t.Fatalf("spec %q, want %q", spec, want)
	}
	out, _, code = runCLI(t, "", "bots", "list", "--recipes", recipes, "--cache", cache)
	if code != 0 || !strings.Contains(out, "pybomber") || !strings.Contains(out, spec) || !strings.Contains(out, "kabousvlieg-2016-bomberman") {
		t.Errorf("list: %s", out)
	}
	out, _, code = runCLI(t, "", "bots", "build", "--recipes", recipes, "--cache", cache, "pybomber")
	if code != 0 || !strings.Contains(out, "pybomber\tcached\t"+spec) {
		t.Errorf("second build: %d %s", code, out)
	}
	if testing.Short() {
		return
	}
	out, errOut, code = runCLI(t, "", "play", "bomberman", "--players", "2", "--seed", "3", "--agents", "reference,"+spec, "--json", "--nolimit")
	if code != 0 {
		t.Fatalf("play: exit %d: %s", code, errOut)
	}
	var res match.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Rounds < 10 {
		t.Errorf("play: %v, %d rounds: %s", err, res.Rounds, out)
	}
}

func TestBotsErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bots", "build", "--cache", t.TempDir(), "nosuch"}, `no recipe "nosuch" (recipes: kabousvlieg-2016-bomberman`},
		{[]string{"bots", "build", "--cache", t.TempDir(), "--repo-override", "x"}, "--repo-override: want NAME=REPOSITORY"},
		{[]string{"bots", "list", "--recipes", filepath.Join(t.TempDir(), "none")}, "recipes "},
	} {
		_, errOut, code := runCLI(t, "", tc.args...)
		if code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q, want %q", tc.args, code, errOut, tc.want)
		}
	}
	// A missing toolchain is one line naming it and what to install.
	t.Setenv("PATH", t.TempDir())
	_, errOut, code := runCLI(t, "", "bots", "build", "--cache", t.TempDir(), "kabousvlieg-2016-bomberman")
	if code != 1 || !strings.Contains(errOut, "git is not on PATH") {
		t.Errorf("no git: %d %q", code, errOut)
	}
}

// TestBotsPublic plays the public bots the cache holds (built with
// `botarena bots build`); it skips those not built.
func TestBotsPublic(t *testing.T) {
	if testing.Short() {
		t.Skip("plays external bots")
	}
	cache := os.Getenv("BOTARENA_BOTS_CACHE")
	if cache == "" {
		cache, _ = bots.DefaultCache()
	}
	all, err := bots.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	b := &bots.Builder{Cache: cache}
	for _, r := range all {
		t.Run(r.Name, func(t *testing.T) {
			if !b.Built(r) {
				t.Skipf("not built in %s (botarena bots build %s)", cache, r.Name)
			}
			// The game's own seat count, the reference bot in the other
			// seats, 20 rounds: enough to show the bot reads every round's
			// files and answers, few enough for a JVM started every round.
			probe, err := env.Default.Make(r.Game, nil)
			if err != nil {
				t.Fatal(err)
			}
			seats := make([]string, probe.Spec().Seats)
			for i := range seats {
				seats[i] = "reference"
			}
			seats[len(seats)-1] = "dir:" + b.BotDir(r)
			out, errOut := runOKIn(t, "", "play", r.Game, "--seed", "1", "--agents", strings.Join(seats, ","), "--max-rounds", "20", "--json", "--nolimit")
			var res match.Result
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			if f := res.SeatFaultsOf(len(seats) - 1); res.Rounds == 0 || f.Crashed+f.Invalid >= res.Rounds {
				t.Errorf("the bot crashed or answered garbage in every one of %d rounds (%+v): %s", res.Rounds, f, errOut)
			}
		})
	}
}

// localRecipe makes a recipe "pybomber" (in the folder recipes) whose
// repository is a local git repository holding the sample Python Bomberman
// bot, and an empty cache; it skips the test without git.
func localRecipe(t *testing.T) (recipes, cache, commit string) {
	t.Helper()
	src := exampleBot(t, "entelect-bomberman-python")
	files := map[string]string{}
	for _, f := range []string{"bot.json", "bot.py"} {
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		files["src/"+f] = string(data)
	}
	repo, commit := testutil.GitRepo(t, files)
	recipes, cache = t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(recipes, "pybomber.json"), []byte(`{"game":"bomberman","repository":"`+repo+`","commit":"`+commit+`",
		"toolchain":"python3","build":["mkdir -p out && cp src/bot.json src/bot.py out/"],"bot":"out"}`), 0o644)
	return recipes, cache, commit
}

// tournament --public adds the game's public bots that are built, named
// after their recipes, and names each one that is not, with the command
// that builds it.
func TestTournamentPublicAddsTheBuiltBots(t *testing.T) {
	recipes, cache, _ := localRecipe(t)
	if _, errOut, code := runCLI(t, "", "bots", "build", "--recipes", recipes, "--cache", cache, "-q", "pybomber"); code != 0 {
		t.Fatalf("build: %s", errOut)
	}
	out, errOut, code := runCLI(t, "", "tournament", "bomberman/2p", "--public", "--recipes", recipes, "--bots-cache", cache,
		"--agents", "reference", "--games", "1", "--max-rounds", "2", "--nolimit", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `"agent":"pybomber"`) {
		t.Errorf("the built bot pybomber is not among the agents: %s", out)
	}
	if want := "leaving out kabousvlieg-2016-bomberman: not built in " + cache + " (botarena bots build kabousvlieg-2016-bomberman)"; !strings.Contains(errOut, want) {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
	if strings.Contains(errOut, "scooterdelta") {
		t.Errorf("a Battleships recipe was considered for Bomberman: %q", errOut)
	}
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/botarena/match"
)

// exampleBot is the absolute path of a sample bot folder.
func exampleBot(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "agents", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustExist(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			t.Error(err)
		}
	}
}

func mustNotExist(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s: want no such file, got %v", p, err)
		}
	}
}

// TestPlayEntelectBomberman plays a full match, the reference bot against
// the sample Python bot folder, and checks the replay layout. The bot plays
// without a time limit (--nolimit, as the original allows): a loaded machine
// can start a Python process slower than the limit, and the limits have a
// test of their own (TestPlayEntelectPenalties).
func TestPlayEntelectBomberman(t *testing.T) {
	if testing.Short() {
		t.Skip("a full match with a Python bot")
	}
	bot := exampleBot(t, "entelect-bomberman-python")
	dir := t.TempDir()
	out, errOut, code := runCLI(t, "", "play", "bomberman", "--players", "2", "--seed", "7",
		"--agents", "reference,dir:"+bot, "--replays", dir, "--json", "--nolimit")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if errOut != "" {
		t.Errorf("problems reported: %s", errOut)
	}
	var res match.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if res.Rounds < 10 {
		t.Errorf("only %d rounds", res.Rounds)
	}
	for _, s := range res.Leaderboard {
		if s.Seat == 1 && s.Name != "PyBomber" {
			t.Errorf("seat 1 is named %q, want the bot's NickName PyBomber", s.Name)
		}
	}
	game := filepath.Join(dir, "7")
	for round := range res.Rounds - 1 {
		r := filepath.Join(game, strconv.Itoa(round))
		mustExist(t, filepath.Join(r, "state.json"), filepath.Join(r, "map.txt"), filepath.Join(r, "roundInfo.json"))
		// The player's copies of the state are deleted after the round
		// (but the last round's, see below).
		mustNotExist(t, filepath.Join(r, "B", "state.json"), filepath.Join(r, "B", "map.txt"))
		if t.Failed() {
			return
		}
	}
	r0 := filepath.Join(game, "0", "B")
	mustExist(t, filepath.Join(r0, "move.txt"))
	logTxt, err := os.ReadFile(filepath.Join(r0, "log.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Executing bot: ", "bot.py B " + r0, "execution time was", "move.txt "} {
		if !strings.Contains(string(logTxt), want) {
			t.Errorf("log.txt lacks %q:\n%s", want, logTxt)
		}
	}
	info, _ := os.ReadFile(filepath.Join(game, "0", "roundInfo.json"))
	if !strings.Contains(string(info), `"NickName":"PyBomber","Email":"bots@botarena.invalid","PlayerKey":"B","BotType":"Python3"`) {
		t.Errorf("roundInfo.json does not describe the bot: %s", info)
	}
	// The original's layout at the end (BombermanGame.WriteStateFiles at
	// the final round's start, BotHarness.GameEnded): the final folder has
	// the round files only; the bot's last round folder has the final
	// state.json and map.txt.
	final, last := filepath.Join(game, strconv.Itoa(res.Rounds)), filepath.Join(game, strconv.Itoa(res.Rounds-1))
	wantTree(t, final, "map.txt", "roundInfo.json", "state.json")
	wantTree(t, last, "B/", "B/log.txt", "B/map.txt", "B/move.txt", "B/state.json", "map.txt", "roundInfo.json", "state.json")
	sameFiles(t, filepath.Join(final, "state.json"), filepath.Join(last, "B", "state.json"))
	sameFiles(t, filepath.Join(final, "map.txt"), filepath.Join(last, "B", "map.txt"))
}

// wantTree checks the files and folders (with a trailing "/") under dir.
func wantTree(t *testing.T, dir string, want ...string) {
	t.Helper()
	var got []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || path == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() {
			rel += "/"
		}
		got = append(got, filepath.ToSlash(rel))
		return nil
	})
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s holds\n%s\nwant\n%s", dir, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// sameFiles checks that two files have the same bytes.
func sameFiles(t *testing.T, a, b string) {
	t.Helper()
	da, errA := os.ReadFile(a)
	db, errB := os.ReadFile(b)
	if errA != nil || errB != nil || string(da) != string(db) {
		t.Errorf("%s and %s differ (%v, %v)", a, b, errA, errB)
	}
}

// TestPlayEntelectBattleships plays the sample Battleships bot, placing
// its own fleet (placement "learn"), without a time limit as above.
func TestPlayEntelectBattleships(t *testing.T) {
	bot := exampleBot(t, "entelect-battleships-python")
	dir := t.TempDir()
	out, errOut, code := runCLI(t, "", "play", "battleships", "--seed", "3", "--config", `{"placement":"learn","size":"small"}`,
		"--agents", "reference,dir:"+bot, "--replays", dir, "--json", "--nolimit")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if errOut != "" {
		t.Errorf("problems reported: %s", errOut)
	}
	if !strings.Contains(out, `"name":"PyShips"`) || !strings.Contains(out, `"failed_placements":0`) {
		t.Errorf("result: %s", out)
	}
	game := filepath.Join(dir, "3")
	p1 := filepath.Join(game, "Phase 1 - Round 0", "B")
	p2 := filepath.Join(game, "Phase 2 - Round 1", "B")
	mustExist(t, filepath.Join(p1, "place.txt"), filepath.Join(p1, "log.txt"), filepath.Join(p1, "state.json"), filepath.Join(p1, "map.txt"),
		filepath.Join(p2, "command.txt"), filepath.Join(p2, "log.txt"), filepath.Join(game, "Phase 2 - Round 1", "A - map.txt"))
	logTxt, _ := os.ReadFile(filepath.Join(p2, "log.txt"))
	if !strings.Contains(string(logTxt), "command.txt \"1,") {
		t.Errorf("log.txt:\n%s", logTxt)
	}
	// roundInfo.json describes the bot folder's player by its bot.json,
	// as the original's BattleshipsGame.GetPlayerInfo describes a bot harness.
	info, _ := os.ReadFile(filepath.Join(game, "Phase 1 - Round 0", "roundInfo.json"))
	if !strings.Contains(string(info), `"Players":[{"Author":"Reference","NickName":"Reference","Email":"Reference","BotType":"Unkown"},{"Author":"botarena","NickName":"PyShips","Email":"bots@botarena.invalid","BotType":"Python3"}]}`) {
		t.Errorf("roundInfo.json: %s", info)
	}
	// The original's layout at the end (BattleshipsGame.WriteStateFiles at
	// the final round's start, BotHarness.GameEnded): the final folder has
	// the global files only; the last round's player folders have the
	// final state.json and map.txt.
	var res match.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	final, last := filepath.Join(game, "Phase 2 - Round "+strconv.Itoa(res.Rounds)), filepath.Join(game, "Phase 2 - Round "+strconv.Itoa(res.Rounds-1))
	wantTree(t, final, "A - map.txt", "B - map.txt", "roundCommand.json", "roundInfo.json", "state.json")
	wantTree(t, last, "A/", "A/map.txt", "A/state.json", "A - map.txt", "B/", "B/command.txt", "B/log.txt", "B/map.txt", "B/state.json",
		"B - map.txt", "roundCommand.json", "roundInfo.json", "state.json")
	for _, key := range []string{"A", "B"} {
		sameFiles(t, filepath.Join(final, key+" - map.txt"), filepath.Join(last, key, "map.txt"))
		st, _ := os.ReadFile(filepath.Join(last, key, "state.json"))
		if !strings.Contains(string(st), `"Round":`+strconv.Itoa(res.Rounds)+",") {
			t.Errorf("%s/state.json of the last round is not the final state", key)
		}
	}
}

// TestPlayEntelectPenalties: time-outs and bad files are reported on
// stderr, one line per round (its problems, then the end of the bot's
// output and where log.txt is), and the game goes on.
func TestPlayEntelectPenalties(t *testing.T) {
	bot := t.TempDir()
	os.WriteFile(filepath.Join(bot, "bot.json"), []byte(`{"NickName":"Sleepy","BotType":"Python3","RunFile":"bot.py"}`), 0o644)
	os.WriteFile(filepath.Join(bot, "bot.py"), []byte(
		"import sys, os, time\n"+
			"r = int(open(os.path.join(sys.argv[2], 'state.json')).read().split('\"CurrentRound\":')[1].split(',')[0])\n"+
			"if r == 0: time.sleep(5)\n"+
			"if r == 1: open(os.path.join(sys.argv[2], 'move.txt'), 'w').write('garbage')\n"+
			"if r == 2: sys.stderr.write('giving up\\n'); sys.exit(2)\n"), 0o644)
	dir := t.TempDir()
	// The limit must outlast Python's start on a loaded machine, so that
	// only round 0's sleep times out.
	_, errOut, code := runCLI(t, "", "play", "bomberman", "--players", "2", "--seed", "1", "--agents", "dir:"+bot+",reference",
		"--replays", dir, "--max-rounds", "3", "--time-limit", "1500ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// Each round's line, piece by piece: a loaded machine may add a
	// time-out to rounds 1 and 2.
	for _, want := range []struct{ round, piece string }{
		{"0", "killed at the hard limit 3s (twice the time limit)"},
		{"0", "time limit exceeded"},
		{"1", `bad move.txt "garbage"`},
		{"2", "the bot crashed: exit status 2"},
		{"2", "no move.txt: Do Nothing"},
		{"2", `stderr ends: "giving up"`},
		{"2", "; log: " + filepath.Join(dir, "1", "2", "A", "log.txt")},
	} {
		prefix := "(player A, bomberman round " + want.round + "): "
		line := ""
		for _, l := range strings.Split(errOut, "\n") {
			if strings.Contains(l, prefix) {
				line = l
			}
		}
		if !strings.Contains(line, want.piece) {
			t.Errorf("stderr lacks %q in its line for round %s:\n%s", want.piece, want.round, errOut)
		}
	}
	logTxt, _ := os.ReadFile(filepath.Join(dir, "1", "0", "A", "log.txt"))
	if !strings.Contains(string(logTxt), "time limit exceeded") {
		t.Errorf("log.txt:\n%s", logTxt)
	}

	// --nolimit waits for the slow round.
	_, errOut, code = runCLI(t, "", "play", "bomberman", "--players", "2", "--seed", "1", "--agents", "dir:"+bot+",reference",
		"--max-rounds", "1", "--time-limit", "300ms", "--nolimit") // waits the 5 s
	if code != 0 || strings.Contains(errOut, "time limit") {
		t.Errorf("--nolimit: exit %d: %s", code, errOut)
	}

	_, errOut, code = runCLI(t, "", "play", "bomberman", "--agents", "dir:"+filepath.Join(bot, "nope"))
	if code != 1 || !strings.Contains(errOut, "bot.json") {
		t.Errorf("missing folder: exit %d: %s", code, errOut)
	}
}

package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/replay"
	"github.com/botarena/botarena/league"
	"github.com/botarena/botarena/match"
)

// playMatch plays game between the default agents from seed, at most
// maxRounds rounds, with the hooks hooks, and returns the result.
func playMatch(t testing.TB, game string, seed uint64, maxRounds int, hooks func(*match.Match)) (match.Result, []string) {
	t.Helper()
	e, err := env.Make(game, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range agents.Names(game) {
		if watchable(game, a) {
			names = append(names, a)
		}
	}
	specs := make([]string, e.Spec().Seats)
	for i := range specs {
		specs[i] = defaultAgent(names)
	}
	ags, err := match.NewAgents(game, specs, e.Spec(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := &match.Match{Env: e, Agents: ags, Seed: seed, MaxRounds: maxRounds}
	defer g.Close()
	hooks(g)
	res, err := g.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return res, specs
}

// recordMatch records a match of game into dir/name with the match
// runner, as play --record does, and returns its recorded states.
func recordMatch(t testing.TB, dir, name, game string, seed uint64, maxRounds int) [][]byte {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rec *match.Recorder
	var states [][]byte
	res, _ := playMatch(t, game, seed, maxRounds, func(g *match.Match) {
		rec = match.NewRecorder(f, match.RecordingHeader{Game: game, Seed: seed}, 0)
		g.Hooks = rec.Hooks(match.Hooks{State: func(e env.Env, _ int) error {
			c, _ := env.CodecOf(e)
			s, err := c.AppendNative(nil, c.NativeFormats()[0], -1)
			states = append(states, s)
			return err
		}})
	})
	if err := rec.Finish(res); err != nil {
		t.Fatal(err)
	}
	return states
}

// writeReplayFolder writes the match folder of play --replays DIR for a
// match of game: DIR/<seed>, in the game's own layout (its kit's Replay)
// or the generic one, DIR/<seed>/<round>/<native files>.
func writeReplayFolder(t testing.TB, dir, game string, seed uint64, maxRounds int) int {
	t.Helper()
	entry, err := env.Default.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, strconv.FormatUint(seed, 10))
	states := 0
	playMatch(t, game, seed, maxRounds, func(g *match.Match) {
		var write func(env.Env, int) error
		if layout, ok := replay.Of(entry); ok {
			write = layout.ReplayWriter(folder, g.Agents)
		}
		g.Hooks.State = func(e env.Env, round int) error {
			states++
			if write != nil {
				return write(e, round)
			}
			c, _ := env.CodecOf(e)
			rd := filepath.Join(folder, strconv.Itoa(round))
			if err := os.MkdirAll(rd, 0o755); err != nil {
				return err
			}
			for _, format := range c.NativeFormats() {
				data, err := c.AppendNative(nil, format, -1)
				if err != nil {
					data, _ = c.AppendNative(nil, format, 0)
				}
				if err := os.WriteFile(filepath.Join(rd, replay.File(format)), data, 0o644); err != nil {
					return err
				}
			}
			return nil
		}
	})
	return states
}

// openedReplay is the answer of POST /api/replays.
type openedReplay struct {
	ID     string     `json:"id"`
	Game   string     `json:"game"`
	Seats  int        `json:"seats"`
	Rounds int        `json:"rounds"`
	Mode   string     `json:"mode"`
	Note   string     `json:"note"`
	Replay ReplayInfo `json:"replay"`
	Games  []matchDataGame
	Error  string `json:"error"`
}

func postJSON(t testing.TB, url string, body any, out any) int {
	t.Helper()
	data, _ := json.Marshal(body)
	resp, err := http.Post(url, "application/json", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	return resp.StatusCode
}

func openReplay(t testing.TB, base string, req openRequest) (openedReplay, int) {
	t.Helper()
	var out openedReplay
	code := postJSON(t, base+"/api/replays", req, &out)
	return out, code
}

func listReplays(t *testing.T, base string) map[string]ReplayInfo {
	t.Helper()
	var list struct {
		Replays []ReplayInfo `json:"replays"`
	}
	if code := getJSON(t, base+"/api/replays", &list); code != http.StatusOK {
		t.Fatalf("GET /api/replays: %d", code)
	}
	out := map[string]ReplayInfo{}
	for _, r := range list.Replays {
		out[r.Path] = r
	}
	return out
}

// TestWebReplayRecordingEachGame: a recording of each game is listed,
// opens replayed from its actions, and streams every recorded state, the
// last with the recorded result.
func TestWebReplayRecordingEachGame(t *testing.T) {
	dir := t.TempDir()
	recorded := map[string][][]byte{}
	for _, game := range baseGames {
		recorded[game] = recordMatch(t, dir, game+".jsonl", game, 5, 60)
	}
	_, ts := newTestServer(t, Options{ReplaysDir: dir})
	list := listReplays(t, ts.URL)
	for _, game := range baseGames {
		t.Run(game, func(t *testing.T) {
			info, ok := list[game+".jsonl"]
			if !ok || info.Kind != kindRecording || info.Game != game || info.Seed == nil || *info.Seed != 5 {
				t.Fatalf("listed as %+v (%v)", info, ok)
			}
			r, code := openReplay(t, ts.URL, openRequest{Path: game + ".jsonl"})
			if code != http.StatusCreated || r.Mode != modeReplayed || r.Note != "" || r.Game != game || r.Rounds != len(recorded[game])-1 {
				t.Fatalf("open: %d %+v", code, r)
			}
			frames, events := readFrames(t, ts.URL+"/api/matches/"+r.ID+"/events?speed=0&seat=0", 10000)
			if len(frames) != len(recorded[game]) || len(events) != 1 || !frames[len(frames)-1].Done {
				t.Fatalf("%d frames (want %d), events %v", len(frames), len(recorded[game]), events)
			}
			format := frames[0].Format
			for i, f := range frames {
				var state []byte = f.State
				if !env.IsJSONFormat(format) {
					var s string
					json.Unmarshal(f.State, &s)
					state = []byte(s)
				}
				if f.Round != i || !sameNative(format, state, recorded[game][i]) || len(f.View) == 0 {
					t.Fatalf("frame %d (round %d) differs from the recorded state", i, f.Round)
				}
			}
			// A frame alone, and the state of a replay that is not replayed.
			var f Frame
			if code := getJSON(t, fmt.Sprintf("%s/api/matches/%s/frame?round=%d&seat=1", ts.URL, r.ID, r.Rounds), &f); code != http.StatusOK || !f.Done || f.Round != r.Rounds {
				t.Errorf("last frame: %d, round %d, done %v", code, f.Round, f.Done)
			}
		})
	}
}

// TestWebReplayRecordingOfStates: a recording whose actions do not lead
// to its states plays its recorded states, and says so.
func TestWebReplayRecordingOfStates(t *testing.T) {
	dir := t.TempDir()
	states := recordMatch(t, dir, "bb.jsonl", "battlebots", 3, 30)
	data, err := os.ReadFile(filepath.Join(dir, "bb.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// Round 2's actions changed: they lead elsewhere.
	lines := bytes.Split(data, []byte("\n"))
	var round map[string]any
	json.Unmarshal(lines[3], &round)
	round["actions"] = []int{17, 25}
	lines[3], _ = json.Marshal(round)
	data = bytes.Join(lines, []byte("\n"))
	if err := os.WriteFile(filepath.Join(dir, "other.jsonl"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, ts := newTestServer(t, Options{ReplaysDir: dir})
	r, code := openReplay(t, ts.URL, openRequest{Path: "other.jsonl"})
	if code != http.StatusCreated || r.Mode != modeStates || !strings.Contains(r.Note, "does not replay") {
		t.Fatalf("open: %d %+v", code, r)
	}
	frames, _ := readFrames(t, ts.URL+"/api/matches/"+r.ID+"/events?speed=0&seat=1", 10000)
	if len(frames) != len(states) || !frames[len(frames)-1].Done {
		t.Fatalf("%d frames, want %d", len(frames), len(states))
	}
	var s string
	json.Unmarshal(frames[7].State, &s)
	if s != string(states[7]) || len(frames[7].View) == 0 {
		t.Errorf("round 7 is not the recorded state")
	}
	// Its record is a recording again, with the recorded actions.
	h, rounds, result := getRecording(t, ts.URL, r.ID)
	if h.Game != "battlebots" || len(rounds) != len(states) || rounds[0].Actions == nil || result == nil {
		t.Errorf("record: %+v, %d rounds, result %s", h, len(rounds), result)
	}
}

func TestWebReplayUpload(t *testing.T) {
	dir := t.TempDir()
	states := recordMatch(t, dir, "pb.jsonl", "portalbomber", 8, 40)
	data, _ := os.ReadFile(filepath.Join(dir, "pb.jsonl"))
	_, ts := newTestServer(t, Options{MaxUploadBytes: int64(len(data))})
	var r openedReplay
	resp, err := http.Post(ts.URL+"/api/replays/upload?name=pb.jsonl", "application/x-ndjson", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&r)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || r.Mode != modeReplayed || r.Rounds != len(states)-1 || r.Replay.Path != "pb.jsonl" {
		t.Fatalf("upload: %s %+v", resp.Status, r)
	}
	frames, _ := readFrames(t, ts.URL+"/api/matches/"+r.ID+"/events?speed=0", 10000)
	if len(frames) != len(states) {
		t.Errorf("%d frames, want %d", len(frames), len(states))
	}
	resp, err = http.Post(ts.URL+"/api/replays/upload", "application/x-ndjson", bytes.NewReader(append(data, '\n')))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("an upload past the limit: %s, want 413", resp.Status)
	}
	resp, err = http.Post(ts.URL+"/api/replays/upload", "application/x-ndjson", strings.NewReader(`{"not":"a recording"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a file that is not a recording: %s, want 400", resp.Status)
	}
	// Without a replays folder, there is nothing to list.
	if code := getJSON(t, ts.URL+"/api/replays", nil); code != http.StatusNotFound {
		t.Errorf("GET /api/replays without a folder: %d", code)
	}
}

// TestWebReplayFolderEachGame: the match folders of play --replays are
// listed and play their states; the game is found from them.
func TestWebReplayFolderEachGame(t *testing.T) {
	dir := t.TempDir()
	states := map[string]int{}
	for i, game := range baseGames {
		states[game] = writeReplayFolder(t, filepath.Join(dir, game), game, uint64(10+i), 25)
	}
	_, ts := newTestServer(t, Options{ReplaysDir: dir})
	list := listReplays(t, ts.URL)
	for i, game := range baseGames {
		t.Run(game, func(t *testing.T) {
			p := fmt.Sprintf("%s/%d", game, 10+i)
			if info, ok := list[p]; !ok || info.Kind != kindFolder || info.Seed == nil || *info.Seed != Seed(10+i) {
				t.Fatalf("listed as %+v (%v): %v", info, ok, list)
			}
			r, code := openReplay(t, ts.URL, openRequest{Path: p})
			if code != http.StatusCreated || r.Game != game || r.Mode != modeStates {
				t.Fatalf("open: %d %+v", code, r)
			}
			frames, _ := readFrames(t, ts.URL+"/api/matches/"+r.ID+"/events?speed=0&seat=0", 10000)
			// Battleships' layout keeps one folder per round of the game.
			if len(frames) != states[game] && !(game == "battleships" && len(frames) > 20) {
				t.Fatalf("%d frames, %d states written", len(frames), states[game])
			}
			if !frames[len(frames)-1].Done || len(frames[3].View) == 0 || len(frames[3].Result.Leaderboard) != r.Seats {
				t.Errorf("frames: last done %v, view %d bytes, %d standings", frames[len(frames)-1].Done, len(frames[3].View), len(frames[3].Result.Leaderboard))
			}
		})
	}
	if _, code := openReplay(t, ts.URL, openRequest{Path: "bomberman/10", Game: "battlebots"}); code != http.StatusBadRequest {
		t.Errorf("a folder opened as another game: %d", code)
	}
}

// TestWebReplayConfined: nothing outside the replays folder opens.
func TestWebReplayConfined(t *testing.T) {
	outside := t.TempDir()
	recordMatch(t, outside, "secret.jsonl", "battlebots", 1, 5)
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(outside, "secret.jsonl"), filepath.Join(dir, "link.jsonl")); err != nil {
		t.Skip(err)
	}
	os.Symlink(outside, filepath.Join(dir, "out"))
	_, ts := newTestServer(t, Options{ReplaysDir: dir})
	for _, p := range []string{"../" + filepath.Base(outside) + "/secret.jsonl", "/etc/passwd", "link.jsonl", "out/secret.jsonl", "./link.jsonl", ""} {
		if r, code := openReplay(t, ts.URL, openRequest{Path: p}); code == http.StatusCreated || strings.Contains(r.Error, outside) {
			t.Errorf("%q: %d %+v", p, code, r)
		}
	}
	if list := listReplays(t, ts.URL); len(list) != 0 {
		t.Errorf("listed %v", list)
	}
	if _, err := NewServer(Options{ReplaysDir: filepath.Join(dir, "missing")}); err == nil {
		t.Error("a missing replays folder is not an error")
	}
}

// newLeague makes a battlebots league of built-in agents in dir and plays
// games games in it, with its match data in dir/data.
func newLeague(t *testing.T, dir string, games int) {
	t.Helper()
	l, err := league.Create(dir, league.Settings{Game: "battlebots", Seed: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, spec := range []string{"sniper", "random", "huggy"} {
		if err := l.AddAgent(league.Agent{Name: spec, Spec: spec, Added: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.Run(context.Background(), league.RunOptions{Games: games, Match: league.RoundRobin, Workers: 2, MaxRounds: 60, DataDir: filepath.Join(dir, "data")}); err != nil {
		t.Fatal(err)
	}
}

// TestWebReplayMatchData: a league's match data file lists its games,
// and each plays again from its seed and actions in the league's config.
func TestWebReplayMatchData(t *testing.T) {
	dir := t.TempDir()
	newLeague(t, filepath.Join(dir, "lg"), 6)
	_, ts := newTestServer(t, Options{ReplaysDir: dir})
	const p = "lg/data/games-000000000-000000005.parquet"
	if info, ok := listReplays(t, ts.URL)[p]; !ok || info.Kind != kindMatchData {
		t.Fatalf("not listed: %+v", info)
	}
	games, code := openReplay(t, ts.URL, openRequest{Path: p})
	if code != http.StatusOK || len(games.Games) != 6 {
		t.Fatalf("games: %d %+v", code, games)
	}
	for _, g := range games.Games {
		idx := g.Index
		r, code := openReplay(t, ts.URL, openRequest{Path: p, Index: &idx})
		if code != http.StatusCreated || r.Mode != modeReplayed || r.Note != "" || r.Rounds != g.Steps || r.Seats != 2 {
			t.Fatalf("game %d: %d %+v", idx, code, r)
		}
		frames, _ := readFrames(t, ts.URL+"/api/matches/"+r.ID+"/events?speed=0", 10000)
		if len(frames) != g.Steps+1 || !frames[g.Steps].Done {
			t.Errorf("game %d: %d frames, %d steps", idx, len(frames), g.Steps)
		}
	}
	missing := int64(99)
	if _, code := openReplay(t, ts.URL, openRequest{Path: p, Index: &missing}); code != http.StatusBadRequest {
		t.Errorf("a game not in the file: %d", code)
	}
}

func TestWebLeaguePage(t *testing.T) {
	dir := t.TempDir()
	newLeague(t, filepath.Join(dir, "team", "bb"), 8)
	_, ts := newTestServer(t, Options{LeaguesDir: dir})
	var list struct {
		Leagues []LeagueInfo `json:"leagues"`
	}
	if code := getJSON(t, ts.URL+"/api/leagues", &list); code != http.StatusOK || len(list.Leagues) != 1 {
		t.Fatalf("leagues: %d %+v", code, list)
	}
	if l := list.Leagues[0]; l.Name != "team/bb" || l.Game != "battlebots" || l.Games != 8 || l.Agents != 3 || l.Busy {
		t.Errorf("listed %+v", l)
	}
	var page LeaguePage
	if code := getJSON(t, ts.URL+"/api/leagues/table?name=team/bb", &page); code != http.StatusOK {
		t.Fatalf("table: %d", code)
	}
	if len(page.Rows) != 3 || page.Games != 8 || len(page.Runs) != 1 || len(page.Recent) != 8 || page.Live || page.Initial != league.InitialRating {
		t.Fatalf("page %+v", page)
	}
	// A recent game watched again as a live match ends as it did in the
	// league.
	g := page.Recent[0]
	if g.Watch == nil || g.Index != 7 {
		t.Fatalf("recent game %+v", g)
	}
	id, code, msg := createMatch(t, ts.URL, *g.Watch)
	if code != http.StatusCreated {
		t.Fatalf("watch: %d %s", code, msg)
	}
	frames, _ := readFrames(t, ts.URL+"/api/matches/"+id+"/events?speed=0", 10000)
	last := frames[len(frames)-1]
	if !last.Done || last.Result.Winner != g.Winner || len(frames)-1 != g.Rounds {
		t.Errorf("watched: %d rounds, winner %d; the league's game: %d rounds, winner %d", len(frames)-1, last.Result.Winner, g.Rounds, g.Winner)
	}
	for _, name := range []string{"", "..", "../x", "/etc", "team", "nope"} {
		if code := getJSON(t, ts.URL+"/api/leagues/table?name="+name, nil); code == http.StatusOK {
			t.Errorf("name %q: %d", name, code)
		}
	}
}

// TestWebLeagueBusy: while a run holds the store, the page shows the
// table the run last wrote.
func TestWebLeagueBusy(t *testing.T) {
	dir := t.TempDir()
	newLeague(t, filepath.Join(dir, "bb"), 2)
	l, err := league.Open(filepath.Join(dir, "bb"), false)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, ts := newTestServer(t, Options{LeaguesDir: dir})
	if code := getJSON(t, ts.URL+"/api/leagues/table?name=bb", nil); code != http.StatusServiceUnavailable {
		t.Errorf("busy without a live table: %d", code)
	}
	rows, _ := l.Table()
	live, _ := json.Marshal(map[string]any{"time": time.Now(), "game": "battlebots", "games": 2, "rows": rows})
	os.WriteFile(filepath.Join(dir, "bb", liveTableFile), live, 0o644)
	var page LeaguePage
	if code := getJSON(t, ts.URL+"/api/leagues/table?name=bb", &page); code != http.StatusOK || !page.Live || len(page.Rows) != 3 {
		t.Errorf("busy with a live table: %d %+v", code, page)
	}
}

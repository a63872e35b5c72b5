package league

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// textChart is a ChartFunc for tests: the title as text.
func textChart(w io.Writer, title string, rows []Row) error {
	_, err := fmt.Fprintf(w, "chart %s, %d agents", title, len(rows))
	return err
}

func newTestLeagues(t *testing.T) (*Leagues, string) {
	t.Helper()
	root := t.TempDir()
	ls, err := NewLeagues(root, LeaguesOptions{Chart: textChart})
	if err != nil {
		t.Fatal(err)
	}
	return ls, ls.Root()
}

// createLeague creates the battlebots league "lg" with seed 2 in ls, with
// one agent for each spec, named after it.
func createLeague(t *testing.T, ls *Leagues, specs ...string) {
	t.Helper()
	ctx := t.Context()
	if _, _, err := ls.Create(ctx, "lg", Settings{Game: "battlebots", Seed: 2}, false); err != nil {
		t.Fatal(err)
	}
	for _, a := range specs {
		if _, err := ls.AddAgent(ctx, "lg", Agent{Name: a, Spec: a}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLeaguesConfineNamesToTheFolder(t *testing.T) {
	ls, root := newTestLeagues(t)
	outside := t.TempDir()
	if _, err := Create(filepath.Join(outside, "theirs"), Settings{Game: "battlebots", Seed: 1}, nil); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(outside, filepath.Join(root, "out")))                             // a folder link out
	must(os.Symlink(filepath.Join(outside, "theirs"), filepath.Join(root, "theirs"))) // a league out
	must(os.MkdirAll(filepath.Join(root, "db"), 0o755))                               // a store file link out
	must(os.Symlink(filepath.Join(outside, "theirs", StoreFile), filepath.Join(root, "db", StoreFile)))
	must(os.MkdirAll(filepath.Join(root, "real", "x"), 0o755))
	must(os.Symlink(filepath.Join(root, "real"), filepath.Join(root, "alias"))) // a link inside
	must(os.Symlink(filepath.Join(outside, "nowhere"), filepath.Join(root, "dangling")))

	st := Settings{Game: "battlebots", Seed: 3}
	for _, name := range []string{"", ".", "/abs", outside, "../x", "a/../../x", "..", "out", "out/new", "theirs", "db", "dangling/x"} {
		_, _, err := ls.Create(t.Context(), name, st, true)
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("Create(%q): %v, want an ErrInvalid error", name, err)
		}
		if err != nil && strings.Contains(err.Error(), root) {
			t.Errorf("Create(%q): %q names the leagues folder", name, err)
		}
		if _, err := ls.Info(name); !errors.Is(err, ErrInvalid) {
			t.Errorf("Info(%q): %v, want an ErrInvalid error", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "new")); !os.IsNotExist(err) {
		t.Errorf("a refused name made a folder outside: %v", err)
	}
	for _, name := range []string{"bb", "team/bb", "alias/x/lg", "./c"} {
		info, made, err := ls.Create(t.Context(), name, st, false)
		if err != nil || !made || info.Game != "battlebots" || info.Seed != 3 {
			t.Errorf("Create(%q): %+v, %v, %v", name, info, made, err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "real", "x", "lg", StoreFile)); err != nil {
		t.Errorf("a league through a link inside the folder: %v", err)
	}
	if info, err := ls.Info("c"); err != nil || info.Name != "c" {
		t.Errorf(`Info("c"): %+v, %v`, info, err)
	}
}

func TestLeaguesOperationsAndTheirErrors(t *testing.T) {
	ls, root := newTestLeagues(t)
	ctx := t.Context()
	if _, err := ls.Info("lg"); !errors.Is(err, ErrNoLeague) || strings.Contains(err.Error(), root) {
		t.Errorf("Info of a missing league: %v, want ErrNoLeague without the folder's path", err)
	}
	if _, _, err := ls.Create(ctx, "lg", Settings{Game: "chess"}, false); err == nil {
		t.Error("Create of an unknown game: no error")
	}
	if _, err := os.Stat(filepath.Join(root, "lg")); !os.IsNotExist(err) {
		t.Errorf("Create of an unknown game left a folder: %v", err)
	}
	if _, _, err := ls.Create(ctx, "lg", Settings{Game: "battlebots", Config: []byte(`{"nope":1}`)}, false); !errors.Is(err, ErrInvalid) {
		t.Errorf("Create with a bad config: %v, want ErrInvalid", err)
	}
	if _, _, err := ls.Create(ctx, "lg", Settings{Game: "battlebots", Seed: 9}, false); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ls.Create(ctx, "lg", Settings{Game: "battlebots"}, false); !errors.Is(err, ErrExists) {
		t.Errorf("Create twice: %v, want ErrExists", err)
	}
	if info, made, err := ls.Create(ctx, "lg", Settings{Game: "bomberman", Seed: 1}, true); err != nil || made || info.Game != "battlebots" || info.Seed != 9 {
		t.Errorf("Create with openExisting: %+v, %v, %v; want the league as it was", info, made, err)
	}
	for _, a := range []string{"huggy", "nop"} {
		if _, err := ls.AddAgent(ctx, "lg", Agent{Name: a, Spec: a}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		a    Agent
		want error
	}{
		{Agent{Name: "nop", Spec: "nop"}, ErrAgentExists},
		{Agent{Name: "bad name", Spec: "nop"}, ErrInvalid},
		{Agent{Name: "x", Spec: "console"}, ErrInvalid},
		{Agent{Name: "x", Spec: "no-such-bot"}, ErrInvalid},
	} {
		if _, err := ls.AddAgent(ctx, "lg", tt.a); !errors.Is(err, tt.want) {
			t.Errorf("AddAgent(%+v): %v, want %v", tt.a, err, tt.want)
		}
	}
	if err := ls.RemoveAgent(ctx, "lg", "ghost"); !errors.Is(err, ErrUnknownAgent) {
		t.Errorf("RemoveAgent of a missing agent: %v", err)
	}
	for _, o := range []RunOptions{{Games: 0}, {Games: 2, Match: "swiss"}, {Games: 2, Match: PFSP}, {Games: 2, Target: "nop"}, {Games: 2, MaxRounds: -1}} {
		if _, err := ls.Run(ctx, "lg", o, nil); !errors.Is(err, ErrInvalid) {
			t.Errorf("Run(%+v): %v, want ErrInvalid", o, err)
		}
	}
	if _, err := ls.Run(ctx, "lg", RunOptions{Games: 2, Match: PFSP, Target: "ghost"}, nil); !errors.Is(err, ErrUnknownAgent) {
		t.Errorf("Run with an unknown target: %v", err)
	}
	sum, err := ls.Run(ctx, "lg", RunOptions{Games: 5, MaxRounds: 30, Workers: 2}, nil)
	if err != nil || sum.Played != 5 {
		t.Fatalf("Run: %+v, %v", sum, err)
	}
	games, total, err := ls.Games("lg", 2, 0, 0)
	if err != nil || total != 5 || len(games) != 2 || games[0].Index != 3 {
		t.Errorf("Games(last 2): %d games from %v, total %d, %v", len(games), games, total, err)
	}
	if games, _, _ := ls.Games("lg", 0, 1, 3); len(games) != 3 || games[0].Index != 1 {
		t.Errorf("Games(start 1, limit 3): %v", games)
	}
	snap, err := ls.Table("lg")
	if err != nil || snap.Games != 5 || len(snap.Rows) != 2 || snap.Live {
		t.Errorf("Table: %+v, %v", snap, err)
	}
	if file, err := ls.DrawChart("lg"); err != nil || file != ChartFile {
		t.Errorf("DrawChart: %q, %v", file, err)
	} else if b, _ := os.ReadFile(filepath.Join(root, "lg", ChartFile)); string(b) != "chart battlebots league lg after 5 games, 2 agents" {
		t.Errorf("chart %q", b)
	}
	if err := ls.RemoveAgent(ctx, "lg", "huggy"); err != nil {
		t.Fatal(err)
	}
	if _, err := ls.Run(ctx, "lg", RunOptions{Games: 2}, nil); !errors.Is(err, ErrTooFewAgents) {
		t.Errorf("Run with one agent: %v, want ErrTooFewAgents", err)
	}
	// Every call has given its league back: another process may open it.
	l, err := Open(filepath.Join(root, "lg"), false)
	if err != nil {
		t.Fatalf("the league is still held after the calls: %v", err)
	}
	l.Close()
}

// gateRunner plays matches with a LocalRunner once gate is closed,
// signalling started when its first game waits.
type gateRunner struct {
	gate    chan struct{}
	started chan struct{}
}

func (r *gateRunner) Play(ctx context.Context, m Match) (Result, error) {
	select {
	case r.started <- struct{}{}:
	default:
	}
	select {
	case <-r.gate:
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
	return (&LocalRunner{}).Play(ctx, m)
}

func TestLeaguesWritersTakeTurnsAndReadersSeeARun(t *testing.T) {
	ls, _ := newTestLeagues(t)
	ctx := t.Context()
	createLeague(t, ls, "sniper", "nop")
	r := &gateRunner{gate: make(chan struct{}), started: make(chan struct{}, 1)}
	done := make(chan error, 1)
	var allowed []string
	go func() {
		_, err := ls.Run(ctx, "lg", RunOptions{Games: 4, Workers: 1, MaxRounds: 20, Runner: r}, func(a Agent) (string, error) {
			allowed = append(allowed, a.Name)
			return a.Spec, nil
		})
		done <- err
	}()
	<-r.started
	if _, err := ls.AddAgent(ctx, "lg", Agent{Name: "huggy", Spec: "huggy"}); !errors.Is(err, ErrRunning) {
		t.Errorf("AddAgent during a run: %v, want ErrRunning", err)
	}
	if _, err := ls.Run(ctx, "lg", RunOptions{Games: 4}, nil); !errors.Is(err, ErrRunning) {
		t.Errorf("a second Run: %v, want ErrRunning", err)
	}
	if snap, err := ls.Table("lg"); err != nil || len(snap.Rows) != 2 {
		t.Errorf("Table during a run: %+v, %v", snap, err)
	}
	if info, err := ls.Info("lg"); err != nil || info.Agents != 2 {
		t.Errorf("Info during a run: %+v, %v", info, err)
	}
	close(r.gate)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if strings.Join(allowed, ",") != "sniper,nop" {
		t.Errorf("allow saw %q, want every agent", allowed)
	}
	if _, err := ls.AddAgent(ctx, "lg", Agent{Name: "huggy", Spec: "huggy"}); err != nil {
		t.Errorf("AddAgent after the run: %v", err)
	}
}

func TestLeaguesRunRefusesWhatAllowRefuses(t *testing.T) {
	ls, _ := newTestLeagues(t)
	ctx := t.Context()
	ls.Create(ctx, "lg", Settings{Game: "battlebots", Seed: 2}, false)
	ls.AddAgent(ctx, "lg", Agent{Name: "a", Spec: "sniper"})
	ls.AddAgent(ctx, "lg", Agent{Name: "b", Spec: "nop"})
	denied := errors.New("not here")
	_, err := ls.Run(ctx, "lg", RunOptions{Games: 3}, func(a Agent) (string, error) {
		if a.Name == "b" {
			return "", denied
		}
		return a.Spec, nil
	})
	if !errors.Is(err, denied) {
		t.Errorf("Run: %v, want allow's error", err)
	}
	if info, _ := ls.Info("lg"); info.Games != 0 {
		t.Errorf("%d games played after a refusal", info.Games)
	}
	// allow's spec is what plays: "b" becomes sniper.
	if _, err := ls.Run(ctx, "lg", RunOptions{Games: 2, MaxRounds: 30}, func(a Agent) (string, error) { return "sniper", nil }); err != nil {
		t.Fatal(err)
	}
	want, err := (&LocalRunner{}).Play(ctx, Match{Index: 0, Seed: GameSeed(2, 0), Game: "battlebots", MaxRounds: 30,
		Seats: []Entrant{{Name: "a", Spec: "sniper"}, {Name: "b", Spec: "sniper"}}})
	if err != nil {
		t.Fatal(err)
	}
	games, _, _ := ls.Games("lg", 0, 0, 0)
	if len(games) != 2 || fmt.Sprint(games[0].Result) != fmt.Sprint(want) || games[0].Seats[1].Spec != "nop" {
		t.Errorf("game 0: %+v\nwant the result of sniper vs sniper %+v, stored with b's own spec", games[0], want)
	}
}

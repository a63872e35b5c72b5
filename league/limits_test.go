package league

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TestCheckAgentBoundsAndChecksEveryString: the first repro stored a 1 MiB
// tag for each of 300 agents, and a 100,000-character name failed in bbolt
// (key too large); every name, spec and tag is bounded and printable, and
// refused with an ErrInvalid error that names the field and quotes a few
// dozen characters of the value at most, before anything is stored.
func TestCheckAgentBoundsAndChecksEveryString(t *testing.T) {
	l := newLeague(t, 1, "huggy", "huggy")
	mib := strings.Repeat("x", 1<<20)
	tests := []struct {
		name  string
		agent Agent
		want  string // in the error; "" for none
	}{
		{"valid", Agent{Name: "a.b-c_d+1", Spec: "nop", Tag: "step 1000 — ünïcode"}, ""},
		{"longest_name", Agent{Name: strings.Repeat("n", MaxAgentNameBytes), Spec: "nop", Tag: strings.Repeat("t", MaxTagBytes)}, ""},
		{"name_over_limit", Agent{Name: strings.Repeat("n", MaxAgentNameBytes+1), Spec: "nop"}, "agent name"},
		{"name_100000_chars", Agent{Name: strings.Repeat("n", 100000), Spec: "nop"}, "100000 bytes, over the limit of 128"},
		{"name_empty", Agent{Name: "", Spec: "nop"}, "agent name"},
		{"name_hidden", Agent{Name: ".x", Spec: "nop"}, "starting with a letter or digit"},
		{"name_space", Agent{Name: "a b", Spec: "nop"}, "letters, digits"},
		{"tag_1MiB", Agent{Name: "t1", Spec: "nop", Tag: mib}, "tag"},
		{"tag_control_char", Agent{Name: "t2", Spec: "nop", Tag: "v1\x07"}, "U+0007"},
		{"tag_newline", Agent{Name: "t3", Spec: "nop", Tag: "v1\nv2"}, "not printable"},
		{"tag_tab", Agent{Name: "t4", Spec: "nop", Tag: "v1\tv2"}, "not printable"},
		{"tag_bidi_override", Agent{Name: "t5", Spec: "nop", Tag: "v1\u202ev2"}, "U+202E"},
		{"tag_invalid_utf8", Agent{Name: "t6", Spec: "nop", Tag: "v1\xff"}, "UTF-8"},
		{"spec_over_limit", Agent{Name: "s1", Spec: "cmd:" + strings.Repeat("x", MaxSpecBytes)}, "spec"},
		{"spec_newline", Agent{Name: "s2", Spec: "cmd:bot\nrm"}, "not printable"},
		{"spec_empty", Agent{Name: "s3"}, "spec: required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckAgent(tt.agent)
			addErr := l.AddAgent(tt.agent)
			if tt.want == "" {
				if err != nil || addErr != nil {
					t.Fatalf("CheckAgent: %v, AddAgent: %v; want both nil", err, addErr)
				}
				return
			}
			for _, e := range []error{err, addErr} {
				if !errors.Is(e, ErrInvalid) || !strings.Contains(e.Error(), tt.want) {
					t.Fatalf("error %v, want an ErrInvalid error naming %q", e, tt.want)
				}
				if n := len(e.Error()); n > 400 {
					t.Errorf("error of %d bytes: it repeats the value", n)
				}
			}
		})
	}
	ags, _ := l.Agents()
	if len(ags) != 3 {
		t.Errorf("%d agents stored, want the 3 valid ones", len(ags))
	}
}

// TestAddAgentStopsAtMaxAgents: a league holds at most MaxAgents agents.
func TestAddAgentStopsAtMaxAgents(t *testing.T) {
	l := newLeague(t, 1)
	err := l.db.Update(func(tx *bolt.Tx) error {
		for i := range MaxAgents {
			if err := putJSON(tx.Bucket(agentsBucket), fmt.Appendf(nil, "a%d", i), Agent{Name: fmt.Sprintf("a%d", i), Spec: "nop"}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = l.AddAgent(Agent{Name: "one-more", Spec: "nop"})
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "1000 agents, its limit") {
		t.Fatalf("AddAgent beyond the limit: %v, want an ErrLimit error", err)
	}
	if err := l.RemoveAgent("a0"); err != nil {
		t.Fatal(err)
	}
	if err := l.AddAgent(Agent{Name: "one-more", Spec: "nop"}); err != nil {
		t.Fatalf("AddAgent after a removal: %v", err)
	}
}

// TestTableSizeDoesNotGrowWithTheWidestTag: a table was padded to its
// widest tag, so one 1 MiB tag among 300 agents made every table 318 MB.
// The tag ends its line unpadded, and tags, specs and names stored before
// the limits are cut to them.
func TestTableSizeDoesNotGrowWithTheWidestTag(t *testing.T) {
	rows := make([]Row, 300)
	for i := range rows {
		rows[i] = Row{Rank: i + 1, Agent: fmt.Sprintf("agent%03d", i), Rating: NewRating()}
	}
	text := func(rows []Row) string {
		var b bytes.Buffer
		if err := WriteTable(&b, rows); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	plain := text(rows)
	tests := []struct {
		name string
		tag  string
		grow int // the most the text may grow
	}{
		{"longest_tag", strings.Repeat("t", MaxTagBytes), MaxTagBytes + 2},
		{"legacy_1MiB_tag", strings.Repeat("t", 1<<20), MaxTagBytes + 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tagged := append([]Row(nil), rows...)
			tagged[7].Tag = tt.tag
			if grow := len(text(tagged)) - len(plain); grow > tt.grow {
				t.Errorf("one tag grew the table by %d bytes, want at most %d", grow, tt.grow)
			}
		})
	}

	// A league whose agent was stored with a 1 MiB tag and spec before the
	// limits: its table rows are cut to them.
	l := newLeague(t, 1, "huggy", "huggy")
	err := l.db.Update(func(tx *bolt.Tx) error {
		return putJSON(tx.Bucket(agentsBucket), []byte("old"), Agent{Name: "old", Spec: "cmd:" + strings.Repeat("s", 1<<20), Tag: strings.Repeat("t", 1<<20)})
	})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := l.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range snap.Rows {
		if len(r.Tag) > MaxTagBytes || len(r.Spec) > MaxSpecBytes {
			t.Errorf("row %s: tag of %d bytes, spec of %d", r.Agent, len(r.Tag), len(r.Spec))
		}
	}
	// So are the agents a server lists.
	ls, err := NewLeagues(filepath.Dir(l.Dir()), LeaguesOptions{Chart: textChart})
	if err != nil {
		t.Fatal(err)
	}
	l.Close() // the served league opens it
	ags, err := ls.Agents(filepath.Base(l.Dir()))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range ags {
		if len(a.Tag) > MaxTagBytes || len(a.Spec) > MaxSpecBytes {
			t.Errorf("agent %s: tag of %d bytes, spec of %d", a.Name, len(a.Tag), len(a.Spec))
		}
	}
}

// TestLeaguesLimitNamesDepthHiddenPartsAndCount: the leagues folder had no
// cap on leagues, name length, depth or hidden names.
func TestLeaguesLimitNamesDepthHiddenPartsAndCount(t *testing.T) {
	ls, err := NewLeagues(t.TempDir(), LeaguesOptions{Chart: textChart, MaxLeagues: 3})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	st := Settings{Game: "battlebots", Seed: 1}
	tests := []struct {
		name, league, want string
	}{
		{"name_100000_chars", strings.Repeat("n", 100000), "100000 bytes, over the limit of 256"},
		{"name_over_limit", strings.Repeat("n", MaxLeagueNameBytes+1), "over the limit of 256"},
		{"too_deep", "a/b/c/d/e", "5 folders deep, over the limit of 4"},
		{"hidden", ".hidden", "no hidden"},
		{"hidden_part", "team/.x", "no hidden"},
		{"control_char", "bb\x07", "U+0007"},
		{"line_break", "team/b\nb", "not printable"},
		{"backslash", `team\bb`, "no backslashes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ls.Create(ctx, tt.league, st, false)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) || len(err.Error()) > 400 {
				t.Errorf("Create: %v, want a short ErrInvalid error naming %q", err, tt.want)
			}
		})
	}
	for _, name := range []string{"a", "my team/été 2026", "a/b/c/d"} {
		if _, _, err := ls.Create(ctx, name, st, false); err != nil {
			t.Fatalf("Create(%q): %v", name, err)
		}
	}
	_, _, err = ls.Create(ctx, "fourth", st, false)
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "holds 3 leagues, its limit") {
		t.Fatalf("a fourth league: %v, want an ErrLimit error", err)
	}
	if _, err := os.Stat(filepath.Join(ls.Root(), "fourth")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the refused league left a folder: %v", err)
	}
	if info, made, err := ls.Create(ctx, "a", st, true); err != nil || made || info.Name != "a" {
		t.Errorf("opening an existing league at the limit: %+v, %v, %v", info, made, err)
	}
	if _, _, err := ls.Create(ctx, "big", Settings{Game: "battlebots", Config: bytes.Repeat([]byte(" "), MaxConfigBytes+1)}, false); !errors.Is(err, ErrInvalid) {
		t.Errorf("a config over the limit: %v, want ErrInvalid", err)
	}
}

// mkfifo makes a FIFO at path, or skips the test.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// Opening it for reading and writing frees a reader the old code
	// blocked, so that a failing test ends.
	t.Cleanup(func() {
		if f, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
			f.Close()
		}
	})
}

// notHanging runs fn and fails the test when it has not returned after a
// minute: long enough for any load, and the old code never returned.
func notHanging(t *testing.T, what string, fn func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		t.Fatalf("%s blocked on a FIFO", what)
		return nil
	}
}

// TestAFIFOStoreIsRefusedNotWaitedFor: a FIFO as a league's league.db
// blocked the request in open() forever; so did one as its live table.
func TestAFIFOStoreIsRefusedNotWaitedFor(t *testing.T) {
	ls, root := newTestLeagues(t)
	if err := os.Mkdir(filepath.Join(root, "fifo"), 0o755); err != nil {
		t.Fatal(err)
	}
	mkfifo(t, filepath.Join(root, "fifo", StoreFile))
	dir := filepath.Join(root, "fifo")
	tests := []struct {
		name string
		call func() error
	}{
		{"open_read_only", func() error { l, err := Open(dir, true); closeIf(l); return err }},
		{"open_for_writing", func() error { l, err := Open(dir, false); closeIf(l); return err }},
		{"read_table", func() error { _, err := ReadTable(dir); return err }},
		{"served_info", func() error { _, err := ls.Info("fifo"); return err }},
		{"served_table", func() error { _, err := ls.Table("fifo"); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := notHanging(t, tt.name, tt.call)
			if !errors.Is(err, ErrBadStore) || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%v, want an ErrBadStore error", err)
			}
			if strings.Contains(err.Error(), root) && strings.HasPrefix(tt.name, "served") {
				t.Errorf("%q names the leagues folder", err)
			}
		})
	}

	t.Run("live_table", func(t *testing.T) {
		// A run holds the store; its live table is a FIFO.
		l := newLeague(t, 1, "huggy", "huggy")
		mkfifo(t, filepath.Join(l.Dir(), LiveTableFile))
		err := notHanging(t, "ReadTable", func() error { _, err := ReadTable(l.Dir()); return err })
		if !errors.Is(err, ErrBusy) {
			t.Errorf("%v, want the ErrBusy error", err)
		}
	})
}

func closeIf(l *League) {
	if l != nil {
		l.Close()
	}
}

// TestRunRequestIDMakesRetriesIdempotent: a retry of RunLeague after its
// run finished unseen played a whole new run (6,000 games became 12,000).
// A run's request id is stored with it: a retry plays nothing once it has
// finished and resumes it when it has not.
func TestRunRequestIDMakesRetriesIdempotent(t *testing.T) {
	l := newLeague(t, 3, fourBots...)
	var calls atomic.Int64
	counted := countingRunner{&LocalRunner{}, &calls}
	opts := func(id string, games int) RunOptions {
		return RunOptions{Games: games, Workers: 2, MaxRounds: 20, Runner: counted, RequestID: id}
	}
	games := func() int64 {
		t.Helper()
		n, err := l.NumGames()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if sum, err := l.Run(t.Context(), opts("r1", 6)); err != nil || sum.Played != 6 || sum.Duplicate {
		t.Fatalf("first run: %+v, %v", sum, err)
	}
	// Stopped after 3 games, for the resume cases.
	ctx, cancel := context.WithCancel(t.Context())
	killed := opts("r2", 8)
	k := &killingRunner{inner: &LocalRunner{}, cut: 9, cancel: cancel} // after games 6, 7, 8
	k.finished.Store(6)
	killed.Runner = k
	if _, err := l.Run(ctx, killed); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}

	tests := []struct {
		name       string
		o          RunOptions
		played     int
		duplicate  bool
		resumed    bool
		wantErr    error
		wantGames  int64
		wantErrTxt string
	}{
		{name: "retry_of_an_unfinished_run_resumes_it", o: opts("r2", 8), played: 5, resumed: true, wantGames: 14},
		{name: "retry_of_a_finished_run_plays_nothing", o: opts("r1", 6), duplicate: true, wantGames: 14},
		{name: "retry_of_a_resumed_run_plays_nothing", o: opts("r2", 8), duplicate: true, wantGames: 14},
		{name: "same_id_other_options", o: opts("r1", 7), wantErr: ErrInvalid, wantGames: 14, wantErrTxt: "is that of run 1 (--games 6"},
		{name: "new_id_plays_a_new_run", o: opts("r3", 2), played: 2, wantGames: 16},
		{name: "no_id_plays_a_new_run", o: opts("", 2), played: 2, wantGames: 18},
		{name: "id_with_a_space", o: opts("r 4", 2), wantErr: ErrInvalid, wantGames: 18, wantErrTxt: "request_id"},
		{name: "id_over_the_limit", o: opts(strings.Repeat("r", MaxRequestIDBytes+1), 2), wantErr: ErrInvalid, wantGames: 18, wantErrTxt: "over the limit of 128"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls.Store(0)
			var last Progress
			tt.o.Progress = func(p Progress) { last = p }
			sum, err := l.Run(t.Context(), tt.o)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.wantErrTxt) {
					t.Errorf("err %v, want %v naming %q", err, tt.wantErr, tt.wantErrTxt)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if sum.Played != tt.played || int(calls.Load()) != tt.played || sum.Duplicate != tt.duplicate || sum.Resumed != tt.resumed {
				t.Errorf("summary %+v after %d games played; want played %d, duplicate %v, resumed %v", sum, calls.Load(), tt.played, tt.duplicate, tt.resumed)
			}
			if tt.wantErr == nil && (last.Done != last.Total || last.Total != sum.Run.Games) {
				t.Errorf("last progress %+v, want the run's %d games done", last, sum.Run.Games)
			}
			if n := games(); n != tt.wantGames {
				t.Errorf("%d games stored, want %d", n, tt.wantGames)
			}
		})
	}

	// Abandoned by a fresh run: its request id is refused.
	ctx, cancel = context.WithCancel(t.Context())
	killed = opts("r5", 8)
	k = &killingRunner{inner: &LocalRunner{}, cut: 19, cancel: cancel} // after game 18
	k.finished.Store(18)
	killed.Runner = k
	if _, err := l.Run(ctx, killed); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	fresh := opts("r6", 3)
	fresh.Fresh = true
	mustRun(t, l, fresh)
	if _, err := l.Run(t.Context(), opts("r5", 8)); !errors.Is(err, ErrUnfinishedRun) || !strings.Contains(err.Error(), "abandoned") {
		t.Errorf("retry of an abandoned run: %v, want ErrUnfinishedRun", err)
	}

	// The ids are in the store: a new process finds them.
	dir := l.Dir()
	l.Close()
	l2, err := Open(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	calls.Store(0)
	if sum, err := l2.Run(t.Context(), opts("r1", 6)); err != nil || !sum.Duplicate || sum.Run.ID != 1 || calls.Load() != 0 {
		t.Errorf("retry after reopening: %+v, %v, %d games played", sum, err, calls.Load())
	}
}

// TestLeaguesRetryOfARunningRunWaitsForIt: a retry that comes while its run
// plays (the client lost the stream, not the server) attaches to it,
// receiving its progress, and then gets its summary, with nothing played
// twice; another run of the league is still refused at once.
func TestLeaguesRetryOfARunningRunWaitsForIt(t *testing.T) {
	ls, _ := newTestLeagues(t)
	ctx := t.Context()
	createLeague(t, ls, "sniper", "nop")
	r := &gateRunner{gate: make(chan struct{}), started: make(chan struct{}, 1)}
	o := RunOptions{Games: 4, Workers: 1, MaxRounds: 20, Runner: r, RequestID: "run-1"}
	first := make(chan error, 1)
	go func() {
		_, err := ls.Run(ctx, "lg", o, nil)
		first <- err
	}()
	<-r.started

	if _, err := ls.Run(ctx, "lg", RunOptions{Games: 4, RequestID: "run-2"}, nil); !errors.Is(err, ErrRunning) {
		t.Errorf("a run of another request id: %v, want ErrRunning", err)
	}
	type result struct {
		sum      RunSummary
		err      error
		progress []Progress
	}
	retry := make(chan result, 1)
	go func() {
		var seen []Progress
		retried := o
		retried.Progress = func(p Progress) { seen = append(seen, p) }
		sum, err := ls.Run(ctx, "lg", retried, nil)
		retry <- result{sum, err, seen}
	}()
	// Wait until the retry waits for the run (it is not refused).
	for {
		ls.mu.Lock()
		e := ls.open["lg"]
		waiting := e != nil && e.changed != nil
		ls.mu.Unlock()
		if waiting {
			break
		}
		select {
		case res := <-retry:
			t.Fatalf("the retry returned while the run played: %+v, %v", res.sum, res.err)
		case <-time.After(time.Millisecond):
		}
	}
	close(r.gate)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	res := <-retry
	if res.err != nil || !res.sum.Duplicate || res.sum.Played != 0 || res.sum.Run.ID != 1 {
		t.Errorf("retry: %+v, %v; want the first run's summary, nothing played", res.sum, res.err)
	}
	if len(res.progress) == 0 || res.progress[len(res.progress)-1].Done != 4 {
		t.Errorf("retry's progress %+v, want the run's, ending with its 4 games", res.progress)
	}
	if info, _ := ls.Info("lg"); info.Games != 4 {
		t.Errorf("%d games stored, want 4", info.Games)
	}
}

// TestRunStoppedByAFullDiskCountsWhatIsStored: `league run` on a full disk
// printed 0/10000 games with 934 stored. The error names the cause and how
// many games are stored, the summary and the progress count them, and the
// same run resumes once there is space.
func TestRunStoppedByAFullDiskCountsWhatIsStored(t *testing.T) {
	enospc := &fs.PathError{Op: "write", Path: "league.db", Err: syscall.ENOSPC}
	edquot := &fs.PathError{Op: "write", Path: "league.db", Err: syscall.EDQUOT}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"no_space_left", enospc, "no space left on device"},
		{"quota_exceeded", edquot, "quota exceeded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLeague(t, 4, fourBots...)
			l.failCommit = func(games []GameRecord) error {
				if len(games) > 0 && games[len(games)-1].Index >= 5 {
					return tc.err // games 0 to 4 fit on the disk
				}
				return nil
			}
			var last Progress
			o := RunOptions{Games: 20, Workers: 1, MaxRounds: 20, Progress: func(p Progress) { last = p }}
			sum, err := l.Run(t.Context(), o)
			n, _ := l.NumGames()
			if !errors.Is(err, ErrDiskFull) || !errors.Is(err, ErrLimit) {
				t.Fatalf("err %v, want ErrDiskFull", err)
			}
			for _, s := range []string{fmt.Sprintf("run 1 stopped after %d of its 20 games, all %d stored", n, n), "the disk is full", tc.want} {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
			if n > 5 || int64(sum.Played) != n || int64(last.Done) != n || last.Total != 20 {
				t.Errorf("%d games stored, summary played %d, last progress %+v; want them equal", n, sum.Played, last)
			}
			l.failCommit = nil
			sum, err = l.Run(t.Context(), o)
			if err != nil || !sum.Resumed || int64(sum.Skipped) != n || sum.Skipped+sum.Played != 20 {
				t.Errorf("resumed: %+v, %v", sum, err)
			}
		})
	}
}

package league

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/safefile"
)

// Leagues serves the leagues kept in one folder, the leagues folder, to
// callers who may reach nothing outside it (`botarena serve --leagues-dir`):
// the operations of `botarena league` (init, add, remove, run, table,
// games) on leagues named by their path relative to the folder.
//
// # Names
//
// A league's name is a relative, slash-separated path ("bb", "team/bb"); its
// directory is that path inside the folder, made by [Leagues.Create]: at
// most [MaxLeagueNameBytes] bytes and [MaxLeagueDepth] parts, each of
// printable characters (no control characters; no backslash) not starting
// with "." (no hidden part, which the viewer would not list). An empty
// name, ".", an absolute path, a path with "..", another part, and a path
// whose existing part (the
// store file included) leads out of the folder through a symbolic link are
// refused with an error matching [ErrInvalid]. The check is made on every
// call, before the league is opened; the folder itself is trusted not to
// change under the server in the meantime. Error texts name leagues by
// their name (cut to a few dozen characters), never by the folder's path.
//
// # Limits
//
// The folder holds at most LeaguesOptions.MaxLeagues leagues: Create
// beyond them fails with an error matching [ErrLimit]. Agents, specs, tags,
// configs and request ids are bounded as [CheckAgent] and [Create] say.
//
// # Retries
//
// A Run with a RequestID ([RunOptions.RequestID]) that comes while the run
// of that request id plays in this process waits for it, receiving its
// progress, and then answers as a retry after it would: with the finished
// run (RunSummary.Duplicate), or, when the run stopped unfinished, by
// resuming it.
//
// # Concurrency
//
// A Leagues is safe for concurrent use. Calls on one league share one open
// store (a [League] holds an exclusive lock on its file, so the league is
// closed again when its last call ends, for other processes to use). Reads
// (Info, Agents, Table, Games) run at any time, during a run too, and see
// the games stored so far. Writers (Create, AddAgent, RemoveAgent, Run) of
// one league take turns; while a run plays, the other writers fail at once
// with an error matching [ErrRunning] rather than wait for it (but for a
// retry of the run, see Retries). A league
// held by another process (`botarena league run`) fails with [ErrBusy],
// except for Table, which then shows the table that process last wrote
// ([LiveTableFile]).
type Leagues struct {
	root       string // absolute, symbolic links resolved
	reg        *env.Registry
	chart      ChartFunc
	maxLeagues int

	createMu sync.Mutex // serialises counting the leagues and making one

	mu   sync.Mutex
	open map[string]*servedLeague // by name
}

// LeaguesOptions configure [NewLeagues].
type LeaguesOptions struct {
	// Registry makes the games; nil means env.Default.
	Registry *env.Registry
	// Chart draws the ratings charts (Chart, DrawChart); required.
	Chart ChartFunc
	// MaxLeagues is the most leagues the folder may hold (those
	// [MaxLeagueDepth] parts deep or less, hidden folders not counted):
	// Create beyond them fails with an error matching [ErrLimit]. 0 means
	// [DefaultMaxLeagues].
	MaxLeagues int
}

// ErrRunning is matched (errors.Is) by the error of a writer of a league
// (AddAgent, RemoveAgent, Run) while a run of it plays in this process.
var ErrRunning = errors.New("a run of the league is playing")

// MaxGamesPage is the most games [Leagues.Games] returns at once.
const MaxGamesPage = 10000

// servedLeague is one league in use by calls of a Leagues.
type servedLeague struct {
	name string
	dir  string
	refs int // calls using it; guarded by Leagues.mu

	openMu sync.Mutex // serialises opening l
	l      *League    // set under openMu, closed with the last reference

	// The writers' turn, guarded by Leagues.mu: writing while one holds
	// it, running when that is a run (whose progress is progress and
	// request id requestID); wake is closed when it is given back, changed
	// when progress changes.
	writing, running bool
	progress         Progress
	requestID        string
	wake, changed    chan struct{}
}

// NewLeagues returns the leagues kept in root, an existing folder.
func NewLeagues(root string, o LeaguesOptions) (*Leagues, error) {
	if o.Chart == nil {
		return nil, errors.New("league.NewLeagues: LeaguesOptions.Chart is nil")
	}
	abs, err := safefile.ResolveDir("leagues folder", root)
	if err != nil {
		return nil, err
	}
	reg := o.Registry
	if reg == nil {
		reg = env.Default
	}
	if o.MaxLeagues < 0 {
		return nil, fmt.Errorf("leagues folder %s: MaxLeagues: want 0 (the default, %d) or more, got %d", root, DefaultMaxLeagues, o.MaxLeagues)
	}
	if o.MaxLeagues == 0 {
		o.MaxLeagues = DefaultMaxLeagues
	}
	return &Leagues{root: abs, reg: reg, chart: o.Chart, maxLeagues: o.MaxLeagues, open: map[string]*servedLeague{}}, nil
}

// Root returns the leagues folder: absolute, symbolic links resolved.
func (s *Leagues) Root() string { return s.root }

// Info describes a league.
type Info struct {
	// Name is the league's name in the leagues folder.
	Name string
	Settings
	// Agents is the number of agents, Games of games stored.
	Agents int
	Games  int64
}

// Create makes the league name with settings st, as [Create] does (the
// game must exist and its config be valid; Created defaults to now), and
// describes it. When the league exists already it returns an error
// matching [ErrExists], or with openExisting that league's Info, unchanged,
// and made false. When the folder holds MaxLeagues leagues already, it
// returns an error matching [ErrLimit].
func (s *Leagues) Create(ctx context.Context, name string, st Settings, openExisting bool) (info Info, made bool, err error) {
	clean, dir, err := s.resolve(name)
	if err != nil {
		return Info{}, false, err
	}
	e, made, err := s.use(clean, dir, func() (*League, error) {
		// A bad game leaves no folder behind.
		if err := checkSettings(st); err != nil {
			return nil, err
		}
		if _, err := s.reg.Config(st.Game, st.Config); err != nil {
			return nil, kindError{ErrInvalid, err}
		}
		s.createMu.Lock()
		defer s.createMu.Unlock()
		if n := s.countLeagues(s.maxLeagues); n >= s.maxLeagues {
			return nil, kindError{ErrLimit, fmt.Errorf("league %q: the leagues folder holds %d leagues, its limit (botarena serve --max-leagues); remove one first", clean, n)}
		}
		// Made one folder at a time, each checked, so that a link put
		// there meanwhile cannot take the league out.
		if err := s.mkdirs(clean); err != nil {
			return nil, err
		}
		return Create(dir, st, s.reg)
	})
	if err != nil {
		return Info{}, false, s.public(err)
	}
	defer s.release(e)
	if !made && !openExisting {
		return Info{}, false, fmt.Errorf("league %q: %w", clean, ErrExists)
	}
	info, err = s.info(e)
	return info, made, s.public(err)
}

// Info describes the league name.
func (s *Leagues) Info(name string) (Info, error) {
	e, err := s.get(name)
	if err != nil {
		return Info{}, err
	}
	defer s.release(e)
	info, err := s.info(e)
	return info, s.public(err)
}

func (s *Leagues) info(e *servedLeague) (Info, error) {
	ags, err := e.l.Agents()
	if err != nil {
		return Info{}, err
	}
	n, err := e.l.NumGames()
	return Info{Name: e.name, Settings: e.l.Settings(), Agents: len(ags), Games: n}, err
}

// AddAgent adds a to the league name, as [League.AddAgent] does, and
// returns it as stored. It waits for the league's other writers, except a
// run ([ErrRunning]), or until ctx is done.
func (s *Leagues) AddAgent(ctx context.Context, name string, a Agent) (Agent, error) {
	if a.Added.IsZero() {
		a.Added = time.Now().UTC()
	}
	err := s.write(ctx, name, func(l *League) error { return l.AddAgent(a) })
	return a, err
}

// RemoveAgent removes the agent called agent from the league name, as
// [League.RemoveAgent] does. It waits as AddAgent does.
func (s *Leagues) RemoveAgent(ctx context.Context, name, agent string) error {
	return s.write(ctx, name, func(l *League) error { return l.RemoveAgent(agent) })
}

// Agents returns the agents of the league name in the order they were
// added, specs and tags stored before their limits cut to them (with "…"),
// as the table shows them.
func (s *Leagues) Agents(name string) ([]Agent, error) {
	e, err := s.get(name)
	if err != nil {
		return nil, err
	}
	defer s.release(e)
	ags, err := e.l.Agents()
	for i := range ags {
		ags[i].Spec, ags[i].Tag = clip(ags[i].Spec, MaxSpecBytes), clip(ags[i].Tag, MaxTagBytes)
	}
	return ags, s.public(err)
}

// Table returns the leaderboard of the league name. While another process
// holds the league it returns the table that process last wrote
// (Snapshot.Live), as [ReadTable] does.
func (s *Leagues) Table(name string) (Snapshot, error) {
	clean, dir, err := s.resolve(name)
	if err != nil {
		return Snapshot{}, err
	}
	e, _, err := s.use(clean, dir, nil)
	if err != nil {
		snap, err := liveInstead(dir, err)
		return snap, s.public(err)
	}
	defer s.release(e)
	snap, err := e.l.Snapshot()
	return snap, s.public(err)
}

// Chart draws snap, the table of the league name, as a PNG image into w.
func (s *Leagues) Chart(w io.Writer, name string, snap Snapshot) error {
	return s.chart(w, ChartTitle(snap.Game, name, snap.Games), snap.Rows)
}

// DrawChart draws the league's current table into its directory as
// [ChartFile], atomically, as `botarena league run` does after a run, and
// returns the file's path relative to the league's directory.
func (s *Leagues) DrawChart(name string) (string, error) {
	e, err := s.get(name)
	if err != nil {
		return "", err
	}
	defer s.release(e)
	snap, err := e.l.Snapshot()
	if err == nil {
		err = WriteChart(filepath.Join(e.dir, ChartFile), s.chart, ChartTitle(snap.Game, e.name, snap.Games), snap.Rows)
	}
	if err != nil {
		return "", s.public(err)
	}
	return ChartFile, nil
}

// Games returns stored games of the league name, oldest first, and the
// number of games stored: with last > 0 the most recent last games, else
// those from index start on; at most limit of them (limit ≤ 0 or above
// [MaxGamesPage]: MaxGamesPage), the first of the selection.
func (s *Leagues) Games(name string, last, start int64, limit int) ([]GameRecord, int64, error) {
	if start < 0 {
		return nil, 0, invalidf("start: want 0 or more, got %d", start)
	}
	e, err := s.get(name)
	if err != nil {
		return nil, 0, err
	}
	defer s.release(e)
	n, err := e.l.NumGames()
	if err != nil {
		return nil, 0, s.public(err)
	}
	from := start
	if last > 0 {
		from = max(0, n-last)
	}
	if limit <= 0 || limit > MaxGamesPage {
		limit = MaxGamesPage
	}
	to := min(n, from+int64(limit))
	if from >= to {
		return nil, n, nil
	}
	games, err := e.l.Games(from, to)
	return games, n, s.public(err)
}

// Run plays a run of the league name with o, as [League.RunLive] does, so
// that `botarena league table` in another process shows its progress. Every
// agent of the league must pass allow (nil allows all), which returns the
// spec to play the agent with (its own, or its path resolved) or an error,
// returned as it is before anything is played. o.Registry defaults to the
// Leagues' registry; o.DataDir must be empty (match data would be written
// outside the leagues folder). It waits for the league's other writers
// first, except a run ([ErrRunning]), or until ctx is done.
func (s *Leagues) Run(ctx context.Context, name string, o RunOptions, allow func(Agent) (string, error)) (RunSummary, error) {
	if o.DataDir != "" {
		return RunSummary{}, errors.New("league: Leagues.Run writes no match data (RunOptions.DataDir is set)")
	}
	clean, dir, err := s.resolve(name)
	if err != nil {
		return RunSummary{}, err
	}
	e, _, err := s.use(clean, dir, nil)
	if err != nil {
		return RunSummary{}, s.public(err)
	}
	defer s.release(e)
	if err := checkRequestID(o.RequestID); err != nil {
		return RunSummary{}, err
	}
	if err := s.lockWrite(ctx, e, true, o.RequestID, o.Progress); err != nil {
		return RunSummary{}, err
	}
	defer s.unlockWrite(e)
	ags, err := e.l.Agents()
	if err != nil {
		return RunSummary{}, s.public(err)
	}
	specs := map[string]string{}
	for _, a := range ags {
		if allow == nil {
			break
		}
		spec, err := allow(a)
		if err != nil {
			return RunSummary{}, err
		}
		if spec != a.Spec {
			specs[a.Spec] = spec
		}
	}
	if o.Registry == nil {
		o.Registry = s.reg
	}
	if o.Runner == nil {
		o.Runner = &PoolRunner{Registry: o.Registry}
	}
	if len(specs) > 0 {
		o.Runner = withSpecs(o.Runner, specs)
	}
	progress := o.Progress
	o.Progress = func(p Progress) {
		s.mu.Lock()
		e.progress = p
		if e.changed != nil {
			close(e.changed) // the retries waiting for the run
			e.changed = nil
		}
		s.mu.Unlock()
		if progress != nil {
			progress(p)
		}
	}
	sum, err := e.l.RunLive(ctx, o, nil)
	return sum, s.public(err)
}

// countLeagues counts the leagues in the folder, [MaxLeagueDepth] parts
// deep or less, outside hidden folders, stopping at limit. It looks at
// 100 entries per league of the limit at most (a league's folders hold a
// few), so that a folder the operator filled with other things costs a
// bounded walk.
func (s *Leagues) countLeagues(limit int) int {
	n, seen := 0, 0
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, d := range entries {
			if seen++; n >= limit || seen > 100*limit {
				return
			}
			if !d.IsDir() || strings.HasPrefix(d.Name(), ".") {
				continue // links are not followed: a league is made in folders
			}
			sub := filepath.Join(dir, d.Name())
			if _, err := os.Lstat(filepath.Join(sub, StoreFile)); err == nil {
				n++
			}
			if depth < MaxLeagueDepth {
				walk(sub, depth+1)
			}
		}
	}
	walk(s.root, 1)
	return n
}

// write runs fn on the open league name in its writers' turn.
func (s *Leagues) write(ctx context.Context, name string, fn func(*League) error) error {
	e, err := s.get(name)
	if err != nil {
		return err
	}
	defer s.release(e)
	if err := s.lockWrite(ctx, e, false, "", nil); err != nil {
		return err
	}
	defer s.unlockWrite(e)
	return s.public(fn(e.l))
}

// get resolves name and opens its league, which must exist.
func (s *Leagues) get(name string) (*servedLeague, error) {
	clean, dir, err := s.resolve(name)
	if err != nil {
		return nil, err
	}
	e, _, err := s.use(clean, dir, nil)
	return e, s.public(err)
}

// use returns the league name in dir, opened, with a reference the caller
// gives back with release. When dir holds no league, it makes one with
// create (made reports it), or without create fails with [ErrNoLeague].
func (s *Leagues) use(name, dir string, create func() (*League, error)) (e *servedLeague, made bool, err error) {
	s.mu.Lock()
	e = s.open[name]
	if e == nil {
		e = &servedLeague{name: name, dir: dir}
		s.open[name] = e
	}
	e.refs++
	s.mu.Unlock()

	e.openMu.Lock()
	defer e.openMu.Unlock()
	if e.l != nil {
		return e, false, nil
	}
	if _, serr := os.Stat(filepath.Join(dir, StoreFile)); serr == nil {
		e.l, err = Open(dir, false)
	} else if create != nil {
		e.l, err = create()
		made = err == nil
	} else {
		err = fmt.Errorf("league %q: %w in the leagues folder (make one first)", name, ErrNoLeague)
	}
	if err != nil {
		s.release(e)
		return nil, false, err
	}
	return e, made, nil
}

// release gives back a reference of use; the last closes the league.
func (s *Leagues) release(e *servedLeague) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.refs--; e.refs > 0 {
		return
	}
	delete(s.open, e.name)
	if e.l != nil {
		// Closed before another call can open it again.
		e.l.Close()
		e.l = nil
	}
}

// lockWrite waits for e's writers' turn (until ctx is done); during a run
// (or to start one, when run is set, while one plays) it fails at once
// with an error matching [ErrRunning], except that a run with a request id
// ([RunOptions.RequestID]) that comes while the run of the same request id
// plays waits for that run to end, passing its progress to progress (when
// not nil), and then takes the turn.
func (s *Leagues) lockWrite(ctx context.Context, e *servedLeague, run bool, requestID string, progress func(Progress)) error {
	var shown Progress
	for {
		s.mu.Lock()
		if !e.writing {
			e.writing, e.running, e.requestID = true, run, requestID
			s.mu.Unlock()
			return nil
		}
		p := e.progress
		following := e.running && run && requestID != "" && e.requestID == requestID
		if e.running && !following {
			s.mu.Unlock()
			if p.Total == 0 {
				return fmt.Errorf("league %q: %w; try again when it ends", e.name, ErrRunning)
			}
			return fmt.Errorf("league %q: %w (run %d, %d of %d games stored); try again when it ends", e.name, ErrRunning, p.Run, p.Done, p.Total)
		}
		if e.wake == nil {
			e.wake = make(chan struct{})
		}
		wake := e.wake
		var changed chan struct{}
		if following {
			if e.changed == nil {
				e.changed = make(chan struct{})
			}
			changed = e.changed
		}
		s.mu.Unlock()
		if following && progress != nil && p.Total > 0 && p != shown {
			shown = p
			progress(p)
		}
		select {
		case <-wake:
		case <-changed: // nil unless following
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// unlockWrite ends e's writer's turn.
func (s *Leagues) unlockWrite(e *servedLeague) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e.writing, e.running, e.progress, e.requestID = false, false, Progress{}, ""
	if e.wake != nil {
		close(e.wake)
		e.wake = nil
	}
	if e.changed != nil {
		close(e.changed)
		e.changed = nil
	}
}

// resolve checks a league's name and returns it cleaned (slash-separated)
// and its directory.
func (s *Leagues) resolve(name string) (clean, dir string, err error) {
	if name == "" {
		return "", "", invalidf("league: required, a name in the leagues folder")
	}
	if len(name) > MaxLeagueNameBytes {
		return "", "", invalidf("league %s: %d bytes, over the limit of %d", clipQuote(name), len(name), MaxLeagueNameBytes)
	}
	p := filepath.FromSlash(name)
	if filepath.IsAbs(p) || strings.HasPrefix(name, "/") || !filepath.IsLocal(p) {
		return "", "", invalidf("league %s: want a relative path inside the leagues folder (not absolute, no ..)", clipQuote(name))
	}
	p = filepath.Clean(p)
	if p == "." {
		return "", "", invalidf("league %s: want a folder inside the leagues folder, not the folder itself", clipQuote(name))
	}
	clean = filepath.ToSlash(p)
	parts := strings.Split(clean, "/")
	if len(parts) > MaxLeagueDepth {
		return "", "", invalidf("league %s: %d folders deep, over the limit of %d", clipQuote(name), len(parts), MaxLeagueDepth)
	}
	for _, part := range parts {
		if strings.HasPrefix(part, ".") {
			return "", "", invalidf("league %s: part %s: no hidden .names", clipQuote(name), clipQuote(part))
		}
		if strings.Contains(part, `\`) {
			return "", "", invalidf("league %s: part %s: no backslashes (separate folders with /)", clipQuote(name), clipQuote(part))
		}
		if err := checkText("league "+clipQuote(name)+": part", part, MaxLeagueNameBytes); err != nil {
			return "", "", err
		}
	}
	if err := s.confined(clean, p); err != nil {
		return "", "", err
	}
	return clean, filepath.Join(s.root, p), nil
}

// confined checks that the existing part of the league directory rel (a
// local path) and its store file stay inside the folder: every symbolic
// link on the way resolves inside it.
func (s *Leagues) confined(name, rel string) error {
	cur := s.root
	for _, part := range append(strings.Split(rel, string(filepath.Separator)), StoreFile) {
		cur = filepath.Join(cur, part)
		st, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return nil // the rest is made inside
		}
		if err != nil {
			return invalidf("league %q: %w", name, s.public(err))
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		real, err := filepath.EvalSymlinks(cur)
		if err != nil || !within(s.root, real) {
			return invalidf("league %q: the path leads out of the leagues folder through a symbolic link", name)
		}
	}
	return nil
}

// mkdirs makes the league directory rel (a local path) one folder at a
// time, each checked with confined.
func (s *Leagues) mkdirs(rel string) error {
	parts := strings.Split(filepath.FromSlash(rel), string(filepath.Separator))
	for i := range parts {
		sub := filepath.Join(parts[:i+1]...)
		if err := s.confined(rel, sub); err != nil {
			return err
		}
		if err := os.Mkdir(filepath.Join(s.root, sub), 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	return s.confined(rel, filepath.FromSlash(rel))
}

// within reports whether path is dir or lies inside it; both are clean
// absolute paths.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(rel)
}

// public returns err with the leagues folder's path taken out of its text
// ("/srv/leagues/bb: ..." becomes "bb: ..."), so that callers see league
// names; errors.Is and errors.As see err.
func (s *Leagues) public(err error) error {
	if err == nil {
		return nil
	}
	text := err.Error()
	if !strings.Contains(text, s.root) {
		return err
	}
	text = strings.ReplaceAll(text, s.root+string(filepath.Separator), "")
	text = strings.ReplaceAll(text, s.root, "the leagues folder")
	return &publicError{text: text, err: err}
}

// publicError is an error with another text.
type publicError struct {
	text string
	err  error
}

func (e *publicError) Error() string { return e.text }
func (e *publicError) Unwrap() error { return e.err }

// withSpecs returns r playing each seat's spec as specs maps it.
func withSpecs(r Runner, specs map[string]string) Runner {
	sr := specRunner{r: r, specs: specs}
	if br, ok := r.(BatchRunner); ok {
		return specBatchRunner{sr, br}
	}
	return sr
}

// specRunner plays matches with some specs replaced.
type specRunner struct {
	r     Runner
	specs map[string]string
}

func (r specRunner) fix(m Match) Match {
	m.Seats = slices.Clone(m.Seats)
	for i, st := range m.Seats {
		if spec, ok := r.specs[st.Spec]; ok {
			m.Seats[i].Spec = spec
		}
	}
	return m
}

func (r specRunner) Play(ctx context.Context, m Match) (Result, error) {
	return r.r.Play(ctx, r.fix(m))
}

// specBatchRunner is a specRunner of a BatchRunner.
type specBatchRunner struct {
	specRunner
	b BatchRunner
}

func (r specBatchRunner) PlayBatch(ctx context.Context, matches []Match, workers int, done func(j int, r Result, err error)) {
	fixed := make([]Match, len(matches))
	for j, m := range matches {
		fixed[j] = r.fix(m)
	}
	r.b.PlayBatch(ctx, fixed, workers, done)
}

package league

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/safefile"
	"github.com/botarena/botarena/match"
)

// StoreFile is the name of the store file in a league directory.
const StoreFile = "league.db"

// Buckets of the store and the key of the league's settings.
var (
	metaBucket    = []byte("meta")
	agentsBucket  = []byte("agents")
	gamesBucket   = []byte("games")
	ratingsBucket = []byte("ratings")
	runsBucket    = []byte("runs")
	// requestsBucket maps a run's request ids (RunOptions.RequestID) to
	// the run's id; made by the first run with one.
	requestsBucket = []byte("requests")
	settingsKey    = []byte("settings")
	// ratedKey holds the number of games the stored ratings include: the
	// games of every finished rating period. A league without it (made
	// before rating periods) rated every game as it was stored.
	ratedKey = []byte("rated")
)

// Errors of the store. They are wrapped with the details.
var (
	// ErrNoLeague: the directory holds no league (no store file).
	ErrNoLeague = errors.New("no league")
	// ErrExists: init on a directory that already holds a league.
	ErrExists = errors.New("a league already exists")
	// ErrBusy: another process has the league open.
	ErrBusy = errors.New("the league is in use by another process")
	// ErrUnknownAgent: a name that is not in the league.
	ErrUnknownAgent = errors.New("no such agent in the league")
	// ErrAgentExists: AddAgent with a name the league has already.
	ErrAgentExists = errors.New("the league already has an agent of that name")
	// ErrTooFewAgents: a run of a league with fewer than 2 agents.
	ErrTooFewAgents = errors.New("too few agents")
	// ErrInvalid is matched (errors.Is) by the errors of a request the
	// caller can fix: a bad agent name or spec, a game config, a count out
	// of range, an unknown matchmaking, a missing or misplaced target. Their
	// text is unchanged; a server uses it to tell the client's mistakes
	// from its own faults.
	ErrInvalid = errors.New("league: invalid request")
)

// kindError marks err as of kind (errors.Is matches it: one of the errors
// above, [ErrLimit] or [ErrBadMatch]) without changing its text; err
// itself is unwrapped as usual.
type kindError struct{ kind, err error }

func (e kindError) Error() string        { return e.err.Error() }
func (e kindError) Unwrap() error        { return e.err }
func (e kindError) Is(target error) bool { return target == e.kind }

// invalidf returns an error matching [ErrInvalid] with the formatted text.
func invalidf(format string, args ...any) error {
	return kindError{ErrInvalid, fmt.Errorf(format, args...)}
}

// Settings are a league's game and seed, fixed at [Create].
type Settings struct {
	// Game is the registry name ("battlebots", "bomberman/12p").
	Game string `json:"game"`
	// Config is the game's JSON config over its defaults (empty: the
	// defaults).
	Config json.RawMessage `json:"config,omitempty"`
	// Seed derives every game's seed ([GameSeed]) and the matchmaking's
	// randomness.
	Seed uint64 `json:"seed"`
	// Created is when the league was made.
	Created time.Time `json:"created"`
}

// Agent is one member of the league.
type Agent struct {
	Name  string    `json:"name"`
	Spec  string    `json:"spec"`
	Added time.Time `json:"added"`
	Tag   string    `json:"tag,omitempty"`
}

// GameRecord is one finished game as stored: the [Result] with the run it
// belongs to, the seats' agents and specs, and when it was stored. Its JSON
// form, the store's, is match.Result's (docs/recording-format.md) with
// "index", "run", "seats" and "time" added; the store reads a game stored
// in the form the league kept before it kept match.Result ([GameLine]) as
// the record it describes.
type GameRecord struct {
	Result
	Run   int       `json:"run"`
	Seats []Entrant `json:"seats"`
	Time  time.Time `json:"time"`
}

// readGame reads a stored game in either form: a [GameRecord]'s, or a
// [GameLine]'s (it has "standings"), in which stores kept games before
// they kept match.Result; the game's name, which a GameLine lacks, is
// game.
func readGame(data []byte, game string) (GameRecord, error) {
	var form struct {
		Standings json.RawMessage `json:"standings"`
	}
	if err := json.Unmarshal(data, &form); err != nil {
		return GameRecord{}, err
	}
	if form.Standings == nil {
		var g GameRecord
		err := json.Unmarshal(data, &g)
		return g, err
	}
	var line GameLine
	if err := json.Unmarshal(data, &line); err != nil {
		return GameRecord{}, err
	}
	g := line.Record()
	g.Game = game
	return g, nil
}

// GameLine is a stored game in the league's compact form: what `botarena
// league games --json` prints (and Python's League.games reads from the
// LeagueGames RPC, whose LeagueGame has the same fields), and how the store
// kept games before it kept match.Result:
//
//	{"index","seed","rounds","winner","draw","standings":[StandingLine...],"forfeit","run","seats","time"}
//
// with winner and forfeit -1 for none. It drops what match.Result has
// beyond it (the game, the players' names, the forfeit's round and reason,
// the game's own leaderboard fields, the fingerprint).
type GameLine struct {
	Index     int64          `json:"index"`
	Seed      uint64         `json:"seed"`
	Rounds    int            `json:"rounds"`
	Winner    int            `json:"winner"`
	Draw      bool           `json:"draw"`
	Standings []StandingLine `json:"standings"`
	Forfeit   int            `json:"forfeit"`
	Run       int            `json:"run"`
	Seats     []Entrant      `json:"seats"`
	Time      time.Time      `json:"time"`
}

// StandingLine is one seat's standing in a [GameLine] (and MatchService's
// MatchStanding): match.Standing's seat, agent, rank, score, alive flag,
// death cause (absent when the game does not say) and actions, with the
// seat's faults (match.Result.Faults) beside them, absent when all are 0.
type StandingLine struct {
	Seat    int           `json:"seat"`
	Agent   string        `json:"agent"`
	Rank    int           `json:"rank"`
	Score   float64       `json:"score"`
	Alive   bool          `json:"alive"`
	Death   string        `json:"death,omitempty"`
	Faults  match.Faults  `json:"faults,omitzero"`
	Actions match.Actions `json:"actions,omitzero"`
}

// Line returns g in the league's compact form.
func (g GameRecord) Line() GameLine {
	return GameLine{Index: g.Index, Seed: g.Seed, Rounds: g.Rounds, Winner: int(g.Winner), Draw: g.Draw,
		Standings: g.StandingLines(), Forfeit: g.ForfeitSeat(), Run: g.Run, Seats: g.Seats, Time: g.Time}
}

// StandingLines returns r's leaderboard in the league's compact form, best
// first.
func (r Result) StandingLines() []StandingLine {
	out := make([]StandingLine, len(r.Leaderboard))
	for i, s := range r.Leaderboard {
		out[i] = StandingLine{Seat: s.Seat, Agent: s.Agent, Rank: s.Rank, Score: s.Score, Alive: s.Alive, Death: s.Death,
			Faults: r.SeatFaultsOf(s.Seat), Actions: s.Actions}
	}
	return out
}

// Record returns the record l describes (a MatchService PlayResponse
// describes one too, without run, seats and time): its standings as the
// leaderboard, their faults as the result's (in seat order), its forfeit
// as a match.Forfeit without round or reason, as the league keeps them;
// not the game's name, which l does not hold.
func (l GameLine) Record() GameRecord {
	r := Result{Index: l.Index, Result: match.Result{Seed: l.Seed, Rounds: l.Rounds, Winner: match.Seat(max(l.Winner, -1)), Draw: l.Draw,
		Leaderboard: make([]match.Standing, len(l.Standings))}}
	for i, s := range l.Standings {
		r.Leaderboard[i] = match.Standing{Rank: s.Rank, Seat: s.Seat, Agent: s.Agent, Score: s.Score, Alive: s.Alive, Death: s.Death, Actions: s.Actions}
		if s.Faults != (match.Faults{}) {
			r.Faults = append(r.Faults, match.SeatFaults{Seat: s.Seat, Agent: s.Agent, Faults: s.Faults})
		}
		if s.Seat == l.Forfeit {
			r.Forfeit = &match.Forfeit{Seat: s.Seat, Agent: s.Agent}
		}
	}
	slices.SortFunc(r.Faults, func(a, b match.SeatFaults) int { return cmp.Compare(a.Seat, b.Seat) })
	return GameRecord{Result: r, Run: l.Run, Seats: l.Seats, Time: l.Time}
}

// RunRecord is one `league run`: its games are the indices Start ..
// Start+Games-1. A run with fewer games stored is unfinished and is
// resumed by a run with the same options.
type RunRecord struct {
	ID        int       `json:"id"`
	Start     int64     `json:"start"`
	Games     int       `json:"games"`
	Match     string    `json:"match"`
	Target    string    `json:"target,omitempty"`
	MaxRounds int       `json:"max_rounds,omitempty"`
	Started   time.Time `json:"started"`
	// Abandoned is set when a new run started before this one finished.
	Abandoned bool `json:"abandoned,omitempty"`
	// RequestID is the request id of the call that started the run
	// ([RunOptions.RequestID]), if any; the calls that resumed it with
	// theirs are found by them too.
	RequestID string `json:"request_id,omitempty"`
}

// League is an open league directory: one bbolt store file (league.db)
// holding the settings, the agents, the finished games, the runs and the
// ratings. A League holds an exclusive lock on the file until Close; it is
// safe for concurrent use by goroutines.
type League struct {
	dir      string
	db       *bolt.DB
	settings Settings

	// failCommit, when set (by tests), is the error of storing games,
	// before they are stored: a full disk, for example.
	failCommit func(games []GameRecord) error
}

// Create makes a new league in dir (created if missing) for settings.Game
// of reg (nil: env.Default), checking that the game exists and its config
// is valid (at most [MaxConfigBytes]). Created defaults to now. It returns
// an error wrapping [ErrExists] when dir already holds a league.
func Create(dir string, s Settings, reg *env.Registry) (*League, error) {
	if reg == nil {
		reg = env.Default
	}
	if err := checkSettings(s); err != nil {
		return nil, err
	}
	if _, err := reg.Make(s.Game, s.Config); err != nil {
		return nil, kindError{ErrInvalid, err}
	}
	if len(bytes.TrimSpace(s.Config)) == 0 {
		s.Config = nil
	}
	if s.Created.IsZero() {
		s.Created = time.Now().UTC()
	}
	path := filepath.Join(dir, StoreFile)
	if _, err := os.Stat(path); err == nil {
		return nil, fmt.Errorf("%s: %w", dir, ErrExists)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	l, err := open(dir, false)
	if err != nil {
		return nil, err
	}
	err = l.db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{metaBucket, agentsBucket, gamesBucket, ratingsBucket, runsBucket, requestsBucket} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		if err := tx.Bucket(metaBucket).Put(ratedKey, key(0)); err != nil {
			return err
		}
		return putJSON(tx.Bucket(metaBucket), settingsKey, s)
	})
	if err != nil {
		l.Close()
		return nil, err
	}
	l.settings = s
	return l, nil
}

// Open opens the league in dir. It returns an error wrapping [ErrNoLeague]
// when dir has no store file, [ErrBadStore] when the store file is not a
// regular file (a FIFO, a device: refused before anything blocks on it) and
// [ErrBusy] when another process has it open for writing (a run in
// progress; Open waits a second for it). A read-only league may be opened
// by several processes at once; its writing methods fail.
func Open(dir string, readOnly bool) (*League, error) {
	if _, err := os.Stat(filepath.Join(dir, StoreFile)); err != nil {
		return nil, fmt.Errorf("%s: %w (make one with `botarena league init`)", dir, ErrNoLeague)
	}
	l, err := open(dir, readOnly)
	if err != nil {
		return nil, err
	}
	err = l.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(metaBucket)
		if b == nil {
			return fmt.Errorf("%s: %w (the store has no settings)", dir, ErrNoLeague)
		}
		return getJSON(b, settingsKey, &l.settings)
	})
	if err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

// open opens (or, when missing, makes) dir's store. bbolt opens the file
// itself, so the file is checked first, opened without blocking and
// stat'ed (safefile.Open): a FIFO would block bbolt's open forever. The
// folder is trusted not to change between the check and bbolt's open.
// bbolt waits at most a second for the file's lock.
func open(dir string, readOnly bool) (*League, error) {
	path := filepath.Join(dir, StoreFile)
	f, _, err := safefile.Open(path, StoreFile, 0)
	switch {
	case errors.Is(err, safefile.ErrNotRegular):
		return nil, kindError{ErrBadStore, fmt.Errorf("%s: %s: %w (a FIFO, a device or a folder); remove it", dir, StoreFile, ErrBadStore)}
	case err == nil:
		f.Close()
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	db, err := bolt.Open(path, 0o644, &bolt.Options{Timeout: time.Second, ReadOnly: readOnly})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("%s: %w", dir, ErrBusy)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return &League{dir: dir, db: db}, nil
}

// Close releases the store.
func (l *League) Close() error { return l.db.Close() }

// Dir returns the league directory.
func (l *League) Dir() string { return l.dir }

// Settings returns the league's settings.
func (l *League) Settings() Settings { return l.settings }

// AddAgent adds an agent named name with spec to the league. Name, spec
// and tag must pass [CheckAgent] (the name: letters, digits and _ . + -,
// starting with a letter or digit); the name must be new; the spec must be
// an agent of the league's game (agents.Known), and not the console, which
// needs a person. A league holds at most [MaxAgents] agents (an error
// matching [ErrLimit] beyond). Added defaults to now.
func (l *League) AddAgent(a Agent) error {
	game := l.settings.Game
	if err := CheckAgent(a); err != nil {
		return err
	}
	if a.Spec == "console" {
		return invalidf("agent %s: the console needs a person at the terminal and cannot play in a league", a.Name)
	}
	if !agents.Known(game, a.Spec) {
		_, err := agents.New(game, a.Spec, nil)
		if err == nil {
			err = fmt.Errorf("%w %s", agents.ErrUnknownAgent, clipQuote(a.Spec))
		}
		return invalidf("agent %s: %w", a.Name, err)
	}
	if a.Added.IsZero() {
		a.Added = time.Now().UTC()
	}
	return l.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(agentsBucket)
		if b.Get([]byte(a.Name)) != nil {
			return fmt.Errorf("agent %s: %w (remove it first)", a.Name, ErrAgentExists)
		}
		if n := b.Stats().KeyN; n >= MaxAgents {
			return kindError{ErrLimit, fmt.Errorf("agent %s: the league has %d agents, its limit; remove one first", a.Name, n)}
		}
		return putJSON(b, []byte(a.Name), a)
	})
}

// RemoveAgent removes the agent named name and its rating. Its games stay
// in the history. It returns an error wrapping [ErrUnknownAgent] when there
// is no such agent.
func (l *League) RemoveAgent(name string) error {
	return l.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(agentsBucket)
		if len(name) > bolt.MaxKeySize || b.Get([]byte(name)) == nil {
			return fmt.Errorf("%w: %s", ErrUnknownAgent, clipQuote(name))
		}
		if err := tx.Bucket(ratingsBucket).Delete([]byte(name)); err != nil {
			return err
		}
		return b.Delete([]byte(name))
	})
}

// Agents returns the league's agents in the order they were added (by
// name for equal times): the order matchmaking uses.
func (l *League) Agents() ([]Agent, error) {
	var out []Agent
	err := l.db.View(func(tx *bolt.Tx) (err error) {
		out, err = allJSON[Agent](tx.Bucket(agentsBucket), func(k []byte) string { return "agent " + string(k) })
		return err
	})
	slices.SortFunc(out, func(a, b Agent) int {
		return cmp.Or(a.Added.Compare(b.Added), cmp.Compare(a.Name, b.Name))
	})
	return out, err
}

// NumGames returns the number of finished games: their indices are 0 ..
// NumGames-1, since games are stored in index order.
func (l *League) NumGames() (int64, error) { return l.viewCount(numGames) }

// viewCount returns count(tx) of a read transaction.
func (l *League) viewCount(count func(tx *bolt.Tx) int64) (int64, error) {
	var n int64
	err := l.db.View(func(tx *bolt.Tx) error {
		n = count(tx)
		return nil
	})
	return n, err
}

func numGames(tx *bolt.Tx) int64 {
	k, _ := tx.Bucket(gamesBucket).Cursor().Last()
	if k == nil {
		return 0
	}
	return int64(binary.BigEndian.Uint64(k)) + 1
}

// Games returns the finished games with index from .. to-1, in index order
// (to < 0: to the last).
func (l *League) Games(from, to int64) ([]GameRecord, error) {
	var out []GameRecord
	err := l.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(gamesBucket).Cursor()
		for k, v := c.Seek(key(from)); k != nil; k, v = c.Next() {
			if to >= 0 && int64(binary.BigEndian.Uint64(k)) >= to {
				break
			}
			g, err := readGame(v, l.settings.Game)
			if err != nil {
				return fmt.Errorf("game %d: %w", binary.BigEndian.Uint64(k), err)
			}
			out = append(out, g)
		}
		return nil
	})
	return out, err
}

// Ratings returns the ratings of the league's current agents by name (those
// of removed agents are gone): the stored ratings, which include every
// finished rating period, with the games of the unfinished period after
// them applied as one provisional period (see [RatePeriod]). Agents
// without games have no entry.
func (l *League) Ratings() (map[string]Rating, error) {
	out, rated, err := l.periodRatings()
	if err != nil {
		return nil, err
	}
	pending, err := l.Games(rated, -1)
	if err != nil || len(pending) == 0 {
		return out, err
	}
	ags, err := l.Agents()
	if err != nil {
		return nil, err
	}
	results := make([]Result, len(pending))
	for i, g := range pending {
		results[i] = g.Result
	}
	RatePeriod(out, results)
	current := map[string]bool{}
	for _, a := range ags {
		current[a.Name] = true
	}
	maps.DeleteFunc(out, func(name string, _ Rating) bool { return !current[name] })
	return out, nil
}

// periodRatings returns the stored ratings and the number of games they
// include.
func (l *League) periodRatings() (map[string]Rating, int64, error) {
	out := map[string]Rating{}
	var rated int64
	err := l.db.View(func(tx *bolt.Tx) error {
		rated = ratedGames(tx)
		return tx.Bucket(ratingsBucket).ForEach(func(k, v []byte) error {
			var r Rating
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("rating of %s: %w", k, err)
			}
			out[string(k)] = r
			return nil
		})
	})
	return out, rated, err
}

// rated returns the number of games the stored ratings include.
func (l *League) rated() (int64, error) { return l.viewCount(ratedGames) }

// ratedGames returns the number of games the stored ratings include.
func ratedGames(tx *bolt.Tx) int64 {
	if v := tx.Bucket(metaBucket).Get(ratedKey); len(v) == 8 {
		return int64(binary.BigEndian.Uint64(v))
	}
	return numGames(tx)
}

// Runs returns the run records, oldest first.
func (l *League) Runs() ([]RunRecord, error) {
	var out []RunRecord
	err := l.db.View(func(tx *bolt.Tx) (err error) {
		out, err = allJSON[RunRecord](tx.Bucket(runsBucket), func(k []byte) string {
			return fmt.Sprintf("run %d", binary.BigEndian.Uint64(k))
		})
		return err
	})
	return out, err
}

// putRun stores r and, with a request id, the id as one of r's.
func (l *League) putRun(r RunRecord, requestID string) error {
	return diskFull(l.db.Update(func(tx *bolt.Tx) error {
		if requestID != "" {
			b, err := tx.CreateBucketIfNotExists(requestsBucket)
			if err != nil {
				return err
			}
			if err := b.Put([]byte(requestID), key(int64(r.ID))); err != nil {
				return err
			}
		}
		return putJSON(tx.Bucket(runsBucket), key(int64(r.ID)), r)
	}))
}

// runOfRequest returns the run that a call with request id id started or
// resumed, and found false when there is none.
func (l *League) runOfRequest(id string) (run RunRecord, found bool, err error) {
	err = l.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(requestsBucket)
		if b == nil {
			return nil // no run had a request id yet
		}
		v := b.Get([]byte(id))
		if len(v) != 8 {
			return nil
		}
		found = true
		return getJSON(tx.Bucket(runsBucket), v, &run)
	})
	return run, found, err
}

// commit stores finished games, which must follow the last stored game in
// index order, in one transaction; with ratings (a finished rating period),
// also the ratings the period changed and rated, the number of games the
// ratings now include.
// An error of a full disk matches [ErrDiskFull].
func (l *League) commit(games []GameRecord, ratings map[string]Rating, rated int64) error {
	if l.failCommit != nil {
		if err := l.failCommit(games); err != nil {
			return diskFull(err)
		}
	}
	return diskFull(l.db.Update(func(tx *bolt.Tx) error {
		gb := tx.Bucket(gamesBucket)
		if ratings == nil && tx.Bucket(metaBucket).Get(ratedKey) == nil {
			// From here on the stored ratings lag behind the games: record
			// how far they go.
			if err := tx.Bucket(metaBucket).Put(ratedKey, key(numGames(tx))); err != nil {
				return err
			}
		}
		next := numGames(tx)
		for _, g := range games {
			if g.Index != next {
				return fmt.Errorf("league: game %d committed after game %d", g.Index, next-1)
			}
			if err := putJSON(gb, key(g.Index), g); err != nil {
				return err
			}
			next++
		}
		if ratings == nil {
			return nil
		}
		if err := tx.Bucket(metaBucket).Put(ratedKey, key(rated)); err != nil {
			return err
		}
		rb := tx.Bucket(ratingsBucket)
		ab := tx.Bucket(agentsBucket)
		for name, r := range ratings {
			if ab.Get([]byte(name)) == nil {
				continue // removed meanwhile
			}
			if err := putJSON(rb, []byte(name), r); err != nil {
				return err
			}
		}
		return nil
	}))
}

func key(i int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(i)) }

func putJSON(b *bolt.Bucket, k []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put(k, data)
}

// allJSON returns the values of b decoded from JSON, in key order; an
// error names the value with name(key).
func allJSON[T any](b *bolt.Bucket, name func(k []byte) string) ([]T, error) {
	var out []T
	err := b.ForEach(func(k, v []byte) error {
		var x T
		if err := json.Unmarshal(v, &x); err != nil {
			return fmt.Errorf("%s: %w", name(k), err)
		}
		out = append(out, x)
		return nil
	})
	return out, err
}

func getJSON(b *bolt.Bucket, k []byte, v any) error {
	data := b.Get(k)
	if data == nil {
		return fmt.Errorf("missing %s", k)
	}
	return json.Unmarshal(data, v)
}

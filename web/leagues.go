package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/botarena/botarena/internal/safefile"
	"github.com/botarena/botarena/league"
)

// The league page reads league stores (package league) read-only, for the
// moment of a request: a league run in another process holds its store
// for writing, and a reader holding it would make that run fail to start.
// While a run holds it, the page shows the table the run last wrote
// (liveTableFile, which `botarena league run` rewrites every 2 s).

// liveTableFile is the table a league run keeps in the league directory
// for readers while it holds the store (cmd/botarena's LiveTableFile).
const liveTableFile = "table-live.json"

// maxLiveTableBytes bounds the liveTableFile read (league's own bound).
const maxLiveTableBytes = 16 << 20

// recentGames is how many of a league's last games its page lists.
const recentGames = 20

// LeagueInfo is one entry of GET /api/leagues.
type LeagueInfo struct {
	Name   string `json:"name"` // its folder relative to the leagues folder, slash-separated
	Game   string `json:"game,omitempty"`
	Agents int    `json:"agents"`
	Games  int64  `json:"games"`
	// Busy reports that a league run holds the store (Agents is then 0).
	Busy  bool   `json:"busy,omitempty"`
	Error string `json:"error,omitempty"`
}

// LeaguePage is the answer of GET /api/leagues/table?name=NAME.
type LeaguePage struct {
	Name     string             `json:"name"`
	Settings LeagueSettings     `json:"settings"`
	Games    int64              `json:"games"`
	Rows     []league.Row       `json:"rows"`
	Runs     []league.RunRecord `json:"runs,omitempty"`
	Recent   []RecentGame       `json:"recent,omitempty"`
	// Live reports that a league run holds the store: Rows is the table
	// it last wrote, at Time, and Runs and Recent are empty.
	Live bool      `json:"live"`
	Time time.Time `json:"time"`
	// Initial is a new agent's rating (the chart's base line).
	Initial float64 `json:"initial_rating"`
}

// LeagueSettings are a league's settings as the page gets them: its seed
// as a string (see Seed).
type LeagueSettings struct {
	league.Settings
	Seed Seed `json:"seed"`
}

// RecentGame is one of the last games of a league, with the request that
// watches it again as a live match when every seat is a built-in agent.
type RecentGame struct {
	league.GameRecord
	// Seed is the game's seed as a string (it hides GameRecord's number,
	// which a browser would round; see Seed).
	Seed  Seed           `json:"seed"`
	Watch *createRequest `json:"watch,omitempty"`
}

// admitLeagues admits a request about leagues (see admit): it answers 404
// when there is no leagues folder, 429 when the client's requests are
// full, and then returns false. done ends the request's count.
func (s *Server) admitLeagues(w http.ResponseWriter, r *http.Request) (done func(), ok bool) {
	if s.opt.LeaguesDir == "" {
		httpError(w, http.StatusNotFound, "this server has no leagues folder: start botarena serve with --leagues-dir DIR")
		return nil, false
	}
	return s.admit(w, r, nil, false)
}

// confined returns the path of the folder rel inside root with symbolic
// links resolved, or an error when it does not exist or leads outside
// root.
func confined(root, rel string) (string, error) {
	if !fs.ValidPath(rel) {
		return "", fmt.Errorf("%q: want a clean relative path", rel)
	}
	base, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(filepath.Join(base, filepath.FromSlash(rel)))
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // not the absolute path
		}
		return "", fmt.Errorf("%s: %w", rel, err)
	}
	if real != base && !strings.HasPrefix(real, base+string(filepath.Separator)) {
		return "", fmt.Errorf("%s leads outside its folder", rel)
	}
	return real, nil
}

// leagueDir returns the league folder name of root, checked: inside root,
// with a store file inside it too.
func leagueDir(root, name string) (string, error) {
	dir, err := confined(root, name)
	if err != nil {
		return "", err
	}
	store, err := confined(root, path.Join(name, league.StoreFile))
	if err != nil {
		return "", fmt.Errorf("%s: no league (no %s)", name, league.StoreFile)
	}
	// Refused before the store is opened: a FIFO would block its open.
	if _, err := safefile.Check(store, path.Join(name, league.StoreFile), 0); err != nil {
		return "", err
	}
	return dir, nil
}

func (s *Server) listLeagues(w http.ResponseWriter, r *http.Request) {
	done, ok := s.admitLeagues(w, r)
	if !ok {
		return
	}
	defer done()
	root := s.opt.LeaguesDir
	list := []LeagueInfo{}
	truncated := false
	err := fs.WalkDir(os.DirFS(root), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if len(list) >= s.opt.MaxListed || r.Context().Err() != nil {
			truncated = true
			return fs.SkipAll
		}
		if p != "." && strings.HasPrefix(d.Name(), ".") {
			return fs.SkipDir
		}
		name := p
		if st, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p), league.StoreFile)); err != nil || !st.Mode().IsRegular() {
			if strings.Count(p, "/") >= maxDepth-1 {
				return fs.SkipDir
			}
			return nil
		}
		info := LeagueInfo{Name: name}
		page, err := s.readLeague(name, false)
		switch {
		case err != nil:
			info.Error = s.errText(err)
		default:
			info.Game, info.Games, info.Busy, info.Agents = page.Settings.Game, page.Games, page.Live, len(page.Rows)
		}
		list = append(list, info)
		return fs.SkipDir
	})
	if err != nil {
		httpError(w, http.StatusInternalServerError, s.errText(err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"leagues": list, "truncated": truncated})
}

func (s *Server) leagueTable(w http.ResponseWriter, r *http.Request) {
	done, ok := s.admitLeagues(w, r)
	if !ok {
		return
	}
	defer done()
	name := r.URL.Query().Get("name")
	page, err := s.readLeague(name, true)
	if err != nil {
		code := http.StatusBadRequest
		if errors.Is(err, league.ErrNoLeague) || errors.Is(err, fs.ErrNotExist) {
			code = http.StatusNotFound
		}
		if errors.Is(err, league.ErrBusy) {
			code = http.StatusServiceUnavailable
		}
		httpError(w, code, s.errText(err))
		return
	}
	writeJSON(w, http.StatusOK, page)
}

// readLeague reads the league name of the leagues folder: its settings and
// table, and with details its runs and last games.
func (s *Server) readLeague(name string, details bool) (*LeaguePage, error) {
	dir, err := leagueDir(s.opt.LeaguesDir, name)
	if err != nil {
		return nil, err
	}
	page := &LeaguePage{Name: name, Initial: league.InitialRating}
	l, err := league.Open(dir, true)
	if errors.Is(err, league.ErrBusy) {
		// A run holds the store: the table it last wrote.
		var live struct {
			Time  time.Time    `json:"time"`
			Game  string       `json:"game"`
			Games int64        `json:"games"`
			Rows  []league.Row `json:"rows"`
		}
		data, rerr := safefile.ReadFile(filepath.Join(dir, liveTableFile), liveTableFile, maxLiveTableBytes)
		if rerr != nil || json.Unmarshal(data, &live) != nil {
			return nil, fmt.Errorf("league %s: %w, and it has no live table yet; try again in a few seconds", name, league.ErrBusy)
		}
		page.Settings.Game, page.Games, page.Rows, page.Time, page.Live = live.Game, live.Games, live.Rows, live.Time, true
		return page, nil
	}
	if err != nil {
		if errors.Is(err, league.ErrNoLeague) {
			err = league.ErrNoLeague
		}
		return nil, fmt.Errorf("league %s: %w", name, err)
	}
	defer l.Close()
	page.Settings, page.Time = LeagueSettings{Settings: l.Settings(), Seed: Seed(l.Settings().Seed)}, time.Now().UTC()
	if page.Rows, err = l.Table(); err != nil {
		return nil, err
	}
	if page.Games, err = l.NumGames(); err != nil {
		return nil, err
	}
	if !details {
		return page, nil
	}
	if page.Runs, err = l.Runs(); err != nil {
		return nil, err
	}
	games, err := l.Games(max(0, page.Games-recentGames), page.Games)
	if err != nil {
		return nil, err
	}
	for _, g := range slices.Backward(games) {
		page.Recent = append(page.Recent, RecentGame{GameRecord: g, Seed: Seed(g.Seed), Watch: s.watchLeagueGame(page.Settings.Settings, page.Runs, g)})
	}
	return page, nil
}

// watchLeagueGame returns the request that plays game g of a league with
// settings st again as a live match: its seed, agents, config and
// players' names (and the run's round cap where the config has one); nil
// when a seat's agent is not a built-in the viewer plays.
func (s *Server) watchLeagueGame(st league.Settings, runs []league.RunRecord, g league.GameRecord) *createRequest {
	specs := make([]string, len(g.Seats))
	for i, e := range g.Seats {
		if !watchable(st.Game, e.Spec) {
			return nil
		}
		specs[i] = e.Spec
	}
	m := league.Match{Game: st.Game, Config: st.Config, Seats: g.Seats}
	if i := slices.IndexFunc(runs, func(r league.RunRecord) bool { return r.ID == g.Run }); i >= 0 {
		m.MaxRounds = runs[i].MaxRounds
	}
	config, err := league.MatchConfig(s.opt.Registry, m)
	if err != nil {
		return nil
	}
	if _, err := s.opt.Registry.Make(st.Game, config); err != nil {
		return nil
	}
	return &createRequest{Game: st.Game, Config: config, Agents: specs, Seed: Seed(g.Seed)}
}

// leagueConfig returns the config of the league whose store is in the
// folder of the replays folder's file p or in one of the two above it,
// when that league plays game, and the league's folder; nil and "" when
// there is none.
func (s *Server) leagueConfig(p, game string) (json.RawMessage, string) {
	for dir, i := path.Dir(p), 0; i < 3; dir, i = path.Dir(dir), i+1 {
		store, err := s.replays.Stat(path.Join(dir, league.StoreFile))
		if err == nil && store.Mode().IsRegular() {
			if real, err := leagueDir(s.opt.ReplaysDir, dir); err == nil {
				if l, err := league.Open(real, true); err == nil {
					st := l.Settings()
					l.Close()
					if st.Game == game {
						return st.Config, dir
					}
				}
			}
		}
		if dir == "." {
			break
		}
	}
	return nil, ""
}

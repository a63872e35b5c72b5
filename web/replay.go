package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/botarena/env/replay"
	"github.com/botarena/botarena/internal/bytesize"
	"github.com/botarena/botarena/internal/safefile"
	"github.com/botarena/botarena/match"
)

// Kinds of replays.
const (
	kindRecording = "recording" // a botarena recording (play --record), JSON Lines
	kindFolder    = "folder"    // a match folder of play --replays DIR: DIR/<seed>
	kindMatchData = "matchdata" // a match data file of league run --data (Parquet)
)

// maxDepth is how deep under the replays and leagues folders the page
// looks.
const maxDepth = 4

// ReplayInfo describes a replay: an entry of GET /api/replays, and the
// answer of POST /api/replays.
type ReplayInfo struct {
	Path     string    `json:"path"` // relative to the replays folder, slash-separated
	Kind     string    `json:"kind"` // recording, folder or matchdata
	Game     string    `json:"game,omitempty"`
	Seed     *Seed     `json:"seed,omitempty"` // a string: see Seed
	Agents   []string  `json:"agents,omitempty"`
	Size     int64     `json:"size,omitempty"` // of a file
	Modified time.Time `json:"modified"`
}

// openRequest is the body of POST /api/replays.
type openRequest struct {
	Path string `json:"path"`
	// Game names the game of a replay folder (the registry name); empty
	// finds it from the first state.
	Game string `json:"game,omitempty"`
	// Index is the game of a match data file to open; absent lists them.
	Index *int64 `json:"index,omitempty"`
}

// replayNotServed answers a request about replays when there is no
// replays folder.
func (s *Server) noReplays(w http.ResponseWriter) bool {
	if s.replays == nil {
		httpError(w, http.StatusNotFound, "this server has no replays folder: start botarena serve with --replays-dir DIR")
		return true
	}
	return false
}

func (s *Server) listReplays(w http.ResponseWriter, r *http.Request) {
	if s.noReplays(w) {
		return
	}
	done, ok := s.admit(w, r, nil, false)
	if !ok {
		return
	}
	defer done()
	list, truncated, err := s.walkReplays(r.Context())
	if err != nil {
		httpError(w, http.StatusInternalServerError, s.errText(err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"replays": list, "truncated": truncated})
}

// walkReplays lists the replays of the replays folder, newest first: at
// most MaxListed, looking at most maxDepth folders deep and at 20 times
// MaxListed entries.
func (s *Server) walkReplays(ctx context.Context) ([]ReplayInfo, bool, error) {
	fsys := rootFS{root: s.replays, dir: ".", max: s.stateCap}
	list := []ReplayInfo{}
	visited, truncated := 0, false
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: skip it
		}
		if visited++; visited > 20*s.opt.MaxListed || len(list) >= s.opt.MaxListed || ctx.Err() != nil {
			truncated = true
			return fs.SkipAll
		}
		if p != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p == "." {
				return nil
			}
			if s.isReplayFolder(fsys, p) {
				ri := ReplayInfo{Path: p, Kind: kindFolder, Modified: info.ModTime()}
				if seed, err := strconv.ParseUint(path.Base(p), 10, 64); err == nil {
					ri.Seed = seedPtr(&seed)
				}
				list = append(list, ri)
				return fs.SkipDir
			}
			if strings.Count(p, "/") >= maxDepth-1 {
				return fs.SkipDir
			}
			return nil
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		ri := ReplayInfo{Path: p, Size: info.Size(), Modified: info.ModTime()}
		switch strings.ToLower(path.Ext(p)) {
		case ".parquet":
			ri.Kind = kindMatchData
		case ".jsonl", ".ndjson", ".json":
			h, err := s.peekRecording(p)
			if err != nil {
				return nil
			}
			ri.Kind, ri.Game, ri.Seed, ri.Agents = kindRecording, h.Game, seedPtr(&h.Seed), h.Agents
		default:
			return nil
		}
		list = append(list, ri)
		return nil
	})
	slices.SortStableFunc(list, func(a, b ReplayInfo) int { return b.Modified.Compare(a.Modified) })
	return list, truncated, err
}

// isReplayFolder reports whether the folder p of fsys is a match folder
// of a replay: the generic layout's round folder 0, or a layout a game's
// kit reads (replay.Layout).
func (s *Server) isReplayFolder(fsys rootFS, p string) bool {
	if st, err := fs.Stat(fsys, p+"/0"); err == nil && st.IsDir() {
		return true
	}
	sub := rootFS{root: fsys.root, dir: p, max: fsys.max}
	for _, k := range s.replayKits() {
		if _, err := k.ReplayStates(sub); err == nil {
			return true
		}
	}
	return false
}

// replayKits returns the replay layouts of the distinct kits of the
// registry that read their own.
func (s *Server) replayKits() []replay.Layout {
	var kits []replay.Layout
	for _, name := range s.opt.Registry.Names() {
		e, err := s.opt.Registry.Lookup(name)
		if l, ok := replay.Of(e); err == nil && ok && !slices.Contains(kits, l) {
			kits = append(kits, l)
		}
	}
	return kits
}

// peekRecording reads the header of the recording at p.
func (s *Server) peekRecording(p string) (match.RecordingHeader, error) {
	f, _, err := openIn(s.replays, p, 0, false)
	if err != nil {
		return match.RecordingHeader{}, err
	}
	defer f.Close()
	_, h, err := match.NewRecordingReader(io.LimitReader(f, 1<<16), 1<<16)
	return h, err
}

func (s *Server) openReplay(w http.ResponseWriter, r *http.Request) {
	if s.noReplays(w) {
		return
	}
	var req openRequest
	if !decodeBody(w, r, &req) {
		return
	}
	done, ok := s.admit(w, r, nil, false)
	if !ok {
		return
	}
	defer done()
	p := strings.TrimPrefix(path.Clean("/"+req.Path), "/")
	if p == "" || !fs.ValidPath(p) || p != req.Path {
		httpError(w, http.StatusBadRequest, fmt.Sprintf("path %q: want a clean path relative to the replays folder", req.Path))
		return
	}
	info, err := s.replays.Stat(p)
	if err != nil {
		httpError(w, http.StatusNotFound, fmt.Sprintf("no replay %q in the replays folder", p))
		return
	}
	reserve := s.reserver(clientOf(r), "opening "+p)
	ri := ReplayInfo{Path: p, Modified: info.ModTime()}
	var open replayOpened
	switch {
	case info.IsDir():
		ri.Kind = kindFolder
		open, err = s.openFolder(p, req.Game, reserve)
	case !info.Mode().IsRegular():
		err = &safefile.Error{Name: p, Err: safefile.ErrNotRegular}
	case strings.EqualFold(path.Ext(p), ".parquet"):
		ri.Kind, ri.Size = kindMatchData, info.Size()
		if req.Index == nil {
			games, err := s.matchDataGames(p, info.Size())
			if err != nil {
				s.openError(w, err)
				return
			}
			writeJSON(w, http.StatusOK, map[string]any{"replay": ri, "games": games})
			return
		}
		open, err = s.openMatchData(r.Context(), p, info.Size(), *req.Index)
	default:
		ri.Kind, ri.Size = kindRecording, info.Size()
		if info.Size() > s.opt.MaxReplayBytes {
			err = fmt.Errorf("%s: %d bytes, more than the %d a recording may have here (serve --max-replay-bytes)", p, info.Size(), s.opt.MaxReplayBytes)
			break
		}
		var release func()
		if release, err = reserve(stateCost(min(info.Size(), s.stateCap))); err != nil {
			break
		}
		open, err = s.openRecording(r.Context(), fileBytes{root: s.replays, path: p, n: info.Size(), mod: info.ModTime()})
		release()
	}
	var held func()
	if err == nil {
		held, err = reserve(open.held) // what the replay keeps
	}
	if err != nil {
		s.openError(w, err)
		return
	}
	ri.Game, ri.Seed, ri.Agents = open.game, seedPtr(open.seed), open.agents
	s.answerOpened(w, ri, open, held)
}

// maxUploadName bounds the name of an upload (?name=) echoed back.
const maxUploadName = 255

// uploadReplay opens a recording sent as the body. Before it reads the
// body it checks that a replay may open (MaxReplays), that the body has a
// Content-Length of at most MaxUploadBytes, and charges the budget with
// the body (held while the replay is open) and the work of parsing it
// (stateCost of its longest possible line, until it is opened).
func (s *Server) uploadReplay(w http.ResponseWriter, r *http.Request) {
	// Until the body is read, an answer closes the connection: net/http
	// would otherwise wait for the body it did not read, to discard it.
	w.Header().Set("Connection", "close")
	done, ok := s.admit(w, r, nil, false)
	if !ok {
		return
	}
	defer done()
	s.mu.Lock()
	ok = s.room(w, true, time.Now())
	s.mu.Unlock()
	if !ok {
		return
	}
	n := r.ContentLength
	switch {
	case n < 0:
		httpError(w, http.StatusLengthRequired, "send the recording with a Content-Length")
		return
	case n > s.opt.MaxUploadBytes:
		httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("a recording sent to the viewer may have at most %d bytes (serve --max-upload-bytes), this one has %d; put larger ones in the replays folder", s.opt.MaxUploadBytes, n))
		return
	case n == 0:
		httpError(w, http.StatusBadRequest, "recording: empty")
		return
	}
	cost := stateCost(min(n, s.stateCap))
	if limit := s.mem.Limit(); n+cost > limit {
		httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("a recording of %s sent to the viewer would need %s to be read (its bytes and %d times its longest possible line), more than the server's whole memory budget (%s, serve --max-memory); put it in the replays folder or send a smaller one",
			bytesize.Format(n), bytesize.Format(n+cost), stateParseFactor, bytesize.Format(limit)))
		return
	}
	client := clientOf(r)
	held, ok := s.charge(w, client, "a recording sent to the viewer", n)
	if !ok {
		return
	}
	work, ok := s.charge(w, client, "reading a recording sent to the viewer", cost)
	if !ok {
		held()
		return
	}
	defer work()
	data := make([]byte, n)
	if _, err := io.ReadFull(http.MaxBytesReader(w, r.Body, n), data); err != nil {
		held()
		httpError(w, http.StatusBadRequest, fmt.Sprintf("reading the recording: %v", err))
		return
	}
	w.Header().Del("Connection")
	open, err := s.openRecording(r.Context(), memBytes(data))
	if err != nil {
		held()
		s.openError(w, err)
		return
	}
	if _, states := open.src.(*statesSource); !states {
		// Replayed from its actions, it keeps the state of round 0 at
		// most, not the bytes.
		held()
		if held, err = s.reserver(client, "a recording sent to the viewer")(open.held); err != nil {
			s.openError(w, err)
			return
		}
	}
	name := r.URL.Query().Get("name")
	if len(name) > maxUploadName {
		name = strings.ToValidUTF8(name[:maxUploadName], "")
	}
	ri := ReplayInfo{Path: name, Kind: kindRecording, Size: n, Modified: time.Now(),
		Game: open.game, Seed: seedPtr(open.seed), Agents: open.agents}
	s.answerOpened(w, ri, open, held)
}

// replayOpened is an opened replay, ready to become a session.
type replayOpened struct {
	src    source
	game   string
	seats  int
	rounds int // the last round
	seed   *uint64
	agents []string
	// how it plays: "replayed" (its actions played again by the match
	// runner: every seat's view is exact) or "states" (each round's
	// recorded state loaded into the game), and what to know about it;
	// warning when it did not replay as recorded.
	mode, note string
	warning    bool
	// held is what the replay keeps in memory beyond its indexes: the
	// state of round 0 of a recording played from a loaded state.
	held int64
}

// answerOpened makes open a session and answers with it. held, when not
// nil, gives back the budget charged for what the session keeps; the
// session gives it back when it is forgotten.
func (s *Server) answerOpened(w http.ResponseWriter, ri ReplayInfo, open replayOpened, held func()) {
	m, ok := s.add(w, &session{game: open.game, seats: open.seats, replay: true, src: open.src, held: held})
	if !ok {
		return
	}
	s.stats.replaysOpened.Add(1)
	writeJSON(w, http.StatusCreated, map[string]any{"id": m.id, "replay": ri, "game": open.game, "seats": open.seats,
		"rounds": open.rounds, "mode": open.mode, "note": open.note, "warning": open.warning})
}

// byteSource is where a recording's bytes are: a file of the replays
// folder, or memory.
type byteSource interface {
	open() (readerAt, error)
	size() int64
}

type readerAt interface {
	io.ReaderAt
	io.Closer
}

// fileBytes is a file of the replays folder, opened again by each playing,
// which fails if the file changed since.
type fileBytes struct {
	root *os.Root
	path string
	n    int64 // its size when opened
	mod  time.Time
}

func (f fileBytes) size() int64 { return f.n }
func (f fileBytes) open() (readerAt, error) {
	file, st, err := openIn(f.root, f.path, 0, false)
	if err != nil {
		return nil, err
	}
	if st.Size() != f.n || !st.ModTime().Equal(f.mod) {
		file.Close()
		return nil, fmt.Errorf("%s changed since it was opened: open it again", f.path)
	}
	return file, nil
}

// memBytes is a recording sent by the page.
type memBytes []byte

func (m memBytes) size() int64 { return int64(len(m)) }
func (m memBytes) open() (readerAt, error) {
	return struct {
		*bytes.Reader
		io.Closer
	}{bytes.NewReader(m), io.NopCloser(nil)}, nil
}

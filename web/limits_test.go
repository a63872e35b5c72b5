package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// hangLimit is how long a test waits for an answer that must come at once
// before it calls the request hung: far past any load, and short of the
// test binary's timeout.
const hangLimit = 60 * time.Second

// testMemory is a Memory for tests: a budget of limit bytes whose use the
// test reads, which can be filled (every reservation refused), and which
// can hold reservations of playings (what starting with "playing") until
// the test lets them go.
type testMemory struct {
	Memory
	mu     sync.Mutex
	used   int64
	full   bool
	hold   chan struct{} // closed to let held playings go; nil: none held
	inside chan string   // a held playing's what, as it waits
}

func newTestMemory(limit int64) *testMemory { return &testMemory{Memory: NewMemory(limit)} }

func (m *testMemory) Reserve(client, what string, bytes int64) (func(), error) {
	m.mu.Lock()
	full, hold := m.full, m.hold
	m.mu.Unlock()
	if full {
		return nil, errors.New(what + " would need more of the test's full budget")
	}
	if hold != nil && strings.HasPrefix(what, "playing") {
		m.inside <- what
		<-hold
	}
	release, err := m.Memory.Reserve(client, what, bytes)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	m.used += bytes
	m.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			release()
			m.mu.Lock()
			m.used -= bytes
			m.mu.Unlock()
		})
	}, nil
}

func (m *testMemory) inUse() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.used
}

// holdPlayings makes reservations of playings wait until the returned
// function is called.
func (m *testMemory) holdPlayings() (release func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.hold, m.inside = make(chan struct{}), make(chan string, 16)
	hold := m.hold
	return func() {
		m.mu.Lock()
		m.hold = nil
		m.mu.Unlock()
		close(hold)
	}
}

// answer is a request's status and error text.
type answer struct {
	code int
	msg  string
	id   string
}

// do sends req and returns its answer, failing the test when none comes
// within hangLimit.
func do(t *testing.T, req *http.Request) answer {
	t.Helper()
	ctx, cancel := context.WithTimeout(req.Context(), hangLimit)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var out struct {
		ID    string `json:"id"`
		Error string `json:"error"`
	}
	json.Unmarshal(body, &out)
	return answer{code: resp.StatusCode, msg: out.Error, id: out.ID}
}

func get(t *testing.T, url string) answer {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	return do(t, req)
}

func post(t *testing.T, url string, body []byte) answer {
	t.Helper()
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	return do(t, req)
}

// uploaded is the answer of an upload.
type uploaded struct {
	code int
	mode string
	msg  string
}

func postUpload(t *testing.T, base string, data []byte) uploaded {
	t.Helper()
	var r openedReplay
	code := postJSONRaw(t, base+"/api/replays/upload", data, &r)
	return uploaded{code: code, mode: r.Mode, msg: r.Error}
}

func postJSONRaw(t *testing.T, url string, body []byte, out any) int {
	t.Helper()
	resp, err := http.Post(url, "application/x-ndjson", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	json.NewDecoder(resp.Body).Decode(out)
	return resp.StatusCode
}

// blockedUpload is an upload of n bytes whose body never comes: only a
// server that answers before reading the body answers it (within
// hangLimit, when the body gives up).
func blockedUpload(t *testing.T, base string, n int64) answer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangLimit)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/api/replays/upload", stalled{ctx})
	req.ContentLength = n
	return do(t, req)
}

// stalled is a body that sends nothing until ctx is done.
type stalled struct{ ctx context.Context }

func (s stalled) Read([]byte) (int, error) {
	<-s.ctx.Done()
	return 0, s.ctx.Err()
}

// recording returns a recording of battlebots, seed 8, 5 rounds.
func recording(t *testing.T) []byte {
	t.Helper()
	dir := t.TempDir()
	recordMatch(t, dir, "bb.jsonl", "battlebots", 8, 5)
	data, err := os.ReadFile(filepath.Join(dir, "bb.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// withLine returns the recording data with its line i (0: the header)
// replaced by line.
func withLine(data []byte, i int, line string) []byte {
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	lines[i] = line
	return []byte(strings.Join(lines, "\n") + "\n")
}

// TestWebUploadBoundedBeforeRead: an upload is refused before its body is
// read when no replay may open, when it has no or too large a
// Content-Length, or when the memory budget cannot pay for it; what it
// charges is given back when it ends.
func TestWebUploadBoundedBeforeRead(t *testing.T) {
	data := recording(t)
	for _, c := range []struct {
		name   string
		opt    Options
		limit  int64 // of the budget
		before func(t *testing.T, base string, mem *testMemory)
		n      int64 // Content-Length of the blocked upload
		code   int
		msg    string
	}{
		{name: "replay_cap_first", opt: Options{MaxReplays: 1}, n: 1000,
			before: func(t *testing.T, base string, _ *testMemory) {
				if a := post(t, base+"/api/replays/upload", data); a.code != http.StatusCreated {
					t.Fatalf("first upload: %+v", a)
				}
			},
			code: http.StatusTooManyRequests, msg: "too many open replays: at most 1"},
		{name: "declared_over_max_upload_bytes", opt: Options{MaxUploadBytes: 1000}, n: 1001,
			code: http.StatusRequestEntityTooLarge, msg: "at most 1000 bytes (serve --max-upload-bytes)"},
		{name: "no_content_length", n: -1, code: http.StatusLengthRequired, msg: "Content-Length"},
		{name: "over_the_whole_budget", limit: 1 << 20, n: 512 << 10,
			code: http.StatusRequestEntityTooLarge, msg: "more than the server's whole memory budget"},
		{name: "budget_in_use", n: 1000,
			before: func(t *testing.T, _ string, mem *testMemory) {
				mem.mu.Lock()
				mem.full = true
				mem.mu.Unlock()
			},
			code: http.StatusTooManyRequests, msg: "a recording sent to the viewer would need"},
	} {
		t.Run(c.name, func(t *testing.T) {
			mem := newTestMemory(c.limit)
			c.opt.Memory = mem
			_, ts := newTestServer(t, c.opt)
			if c.before != nil {
				c.before(t, ts.URL, mem)
			}
			used := mem.inUse()
			a := blockedUpload(t, ts.URL, c.n)
			if a.code != c.code || !strings.Contains(a.msg, c.msg) {
				t.Errorf("got %d %q, want %d with %q", a.code, a.msg, c.code, c.msg)
			}
			if got := mem.inUse(); got != used {
				t.Errorf("%d bytes of the budget in use after the refusal, %d before", got, used)
			}
		})
	}
	t.Run("charged_while_open", func(t *testing.T) {
		mem := newTestMemory(0)
		s, ts := newTestServer(t, Options{Memory: mem})
		// A recording of states (a round without its actions) keeps its
		// bytes for as long as it is open.
		var round map[string]any
		json.Unmarshal([]byte(strings.Split(string(data), "\n")[2]), &round)
		delete(round, "actions")
		line, _ := json.Marshal(round)
		states := withLine(data, 2, string(line))
		if r := postUpload(t, ts.URL, states); r.code != http.StatusCreated || r.mode != modeStates {
			t.Fatalf("upload: %+v", r)
		}
		if got := mem.inUse(); got != int64(len(states)) {
			t.Errorf("%d bytes in use while the replay is open, want its %d", got, len(states))
		}
		s.Close()
		if got := mem.inUse(); got != 0 {
			t.Errorf("%d bytes in use once the replay is forgotten", got)
		}
	})
}

// writeFolder writes a battlebots replay folder of 10 rounds in
// dir/bb/3 and returns the path of each round's state file.
func writeFolder(t *testing.T, dir string) []string {
	t.Helper()
	writeReplayFolder(t, filepath.Join(dir, "bb"), "battlebots", 3, 10)
	var files []string
	filepath.WalkDir(filepath.Join(dir, "bb", "3"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 5 {
		t.Fatalf("the folder has %d files", len(files))
	}
	return files
}

// stateFile returns the state file of round of the folder writeFolder
// wrote.
func stateFile(t *testing.T, dir string, round int) string {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, "bb", "3", strconv.Itoa(round), "*"))
	if len(matches) != 1 {
		t.Fatalf("round %d: files %v", round, matches)
	}
	return matches[0]
}

// TestWebFramesChargedAndBounded: a frame of a replay of states is charged
// to the memory budget (429 when it cannot pay, given back after), a
// state file larger than MaxStateBytes or than the budget can parse is
// refused when the folder opens, and frame requests are bounded per
// replay and per client.
func TestWebFramesChargedAndBounded(t *testing.T) {
	t.Run("frame_charged_to_the_budget", func(t *testing.T) {
		dir := t.TempDir()
		writeFolder(t, dir)
		mem := newTestMemory(0)
		_, ts := newTestServer(t, Options{ReplaysDir: dir, Memory: mem})
		r, code := openReplay(t, ts.URL, openRequest{Path: "bb/3"})
		if code != http.StatusCreated {
			t.Fatalf("open: %d %+v", code, r)
		}
		mem.mu.Lock()
		mem.full = true
		mem.mu.Unlock()
		if a := get(t, ts.URL+"/api/matches/"+r.ID+"/frame?round=2"); a.code != http.StatusTooManyRequests || !strings.Contains(a.msg, "playing replay "+r.ID) {
			t.Errorf("a frame with the budget full: %+v, want 429", a)
		}
		mem.mu.Lock()
		mem.full = false
		mem.mu.Unlock()
		if a := get(t, ts.URL+"/api/matches/"+r.ID+"/frame?round=2"); a.code != http.StatusOK {
			t.Errorf("a frame: %+v", a)
		}
		if got := mem.inUse(); got != 0 {
			t.Errorf("%d bytes in use after the frame", got)
		}
	})
	for _, c := range []struct {
		name  string
		opt   Options
		limit int64
		size  int
		msg   string
	}{
		{name: "state_over_max_state_bytes", opt: Options{MaxStateBytes: 64 << 10}, size: 100 << 10, msg: "serve --max-state-bytes"},
		{name: "state_over_what_the_budget_parses", limit: 32 * (64 << 10), size: 100 << 10, msg: "at most --max-memory / 32"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFolder(t, dir)
			f := stateFile(t, dir, 4)
			if err := os.WriteFile(f, bytes.Repeat([]byte("\n"), c.size), 0o644); err != nil {
				t.Fatal(err)
			}
			c.opt.ReplaysDir, c.opt.Memory = dir, newTestMemory(c.limit)
			_, ts := newTestServer(t, c.opt)
			r, code := openReplay(t, ts.URL, openRequest{Path: "bb/3"})
			if code != http.StatusBadRequest || !strings.Contains(r.Error, "bb/3/4/") || !strings.Contains(r.Error, c.msg) {
				t.Errorf("open: %d %q, want 400 naming the file and %q", code, r.Error, c.msg)
			}
		})
	}
	for _, c := range []struct {
		name   string
		opt    Options
		second func(base, id, other string) string // the URL of the request beyond the limit
		msg    string
	}{
		{name: "frames_per_match", opt: Options{MaxFramesPerMatch: 1},
			second: func(base, id, _ string) string { return base + "/api/matches/" + id + "/frame?round=1" },
			msg:    "already has 1 frame or recording requests running"},
		{name: "requests_per_client", opt: Options{MaxClientRequests: 1},
			second: func(base, _, other string) string { return base + "/api/matches/" + other + "/frame" },
			msg:    "viewer requests running"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFolder(t, dir)
			mem := newTestMemory(0)
			c.opt.ReplaysDir, c.opt.Memory = dir, mem
			_, ts := newTestServer(t, c.opt)
			r, code := openReplay(t, ts.URL, openRequest{Path: "bb/3"})
			other, code2 := openReplay(t, ts.URL, openRequest{Path: "bb/3"})
			if code != http.StatusCreated || code2 != http.StatusCreated {
				t.Fatalf("open: %d %d", code, code2)
			}
			let := mem.holdPlayings()
			first := make(chan answer, 1)
			go func() {
				resp, err := http.Get(ts.URL + "/api/matches/" + r.ID + "/frame?round=2")
				if err != nil {
					first <- answer{msg: err.Error()}
					return
				}
				resp.Body.Close()
				first <- answer{code: resp.StatusCode}
			}()
			select {
			case <-mem.inside: // the first frame is running
			case a := <-first:
				let()
				t.Fatalf("the first frame ended (%+v) without being charged to the budget", a)
			}
			a := get(t, c.second(ts.URL, r.ID, other.ID))
			let()
			if a.code != http.StatusTooManyRequests || !strings.Contains(a.msg, c.msg) {
				t.Errorf("beyond the limit: %+v, want 429 with %q", a, c.msg)
			}
			if a := <-first; a.code != http.StatusOK {
				t.Errorf("the first frame: %+v", a)
			}
			if a := get(t, c.second(ts.URL, r.ID, other.ID)); a.code != http.StatusOK {
				t.Errorf("once the first ended: %+v", a)
			}
		})
	}
}

// TestWebNonRegularFilesRefused: a FIFO anywhere a request names a file
// (a recording, match data, a replay folder's state file, a league's
// store or live table) is refused at once with a 4xx (before, the request
// blocked in open forever), and no answer names the server's folders.
func TestWebNonRegularFilesRefused(t *testing.T) {
	var fifos []string
	mkfifo := func(t *testing.T, p string) {
		t.Helper()
		os.Remove(p)
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skip("no FIFOs here:", err)
		}
		fifos = append(fifos, p)
	}
	// unblock opens every FIFO for writing and closes it, which ends a
	// request blocked opening one (a server that blocks, before a failed
	// test stops it).
	unblock := func() {
		for _, p := range fifos {
			if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
		}
	}
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, dir string) // makes the FIFO in the replays folder dir
		path  string                         // opened
		frame string                         // then fetched, when not ""
		code  int
	}{
		{name: "recording", setup: func(t *testing.T, dir string) { mkfifo(t, filepath.Join(dir, "x.jsonl")) },
			path: "x.jsonl", code: http.StatusBadRequest},
		{name: "match_data", setup: func(t *testing.T, dir string) { mkfifo(t, filepath.Join(dir, "x.parquet")) },
			path: "x.parquet", code: http.StatusBadRequest},
		{name: "first_state_of_a_folder", setup: func(t *testing.T, dir string) {
			writeFolder(t, dir)
			mkfifo(t, stateFile(t, dir, 0))
		}, path: "bb/3", code: http.StatusBadRequest},
		{name: "later_state_of_a_folder", setup: func(t *testing.T, dir string) {
			writeFolder(t, dir)
			mkfifo(t, stateFile(t, dir, 3))
		}, path: "bb/3", code: http.StatusBadRequest},
		{name: "state_made_a_fifo_after_opening", setup: func(t *testing.T, dir string) { writeFolder(t, dir) },
			path: "bb/3", frame: "3", code: http.StatusBadRequest},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			c.setup(t, dir)
			_, ts := newTestServer(t, Options{ReplaysDir: dir})
			defer unblock()
			body, _ := json.Marshal(openRequest{Path: c.path})
			a := post(t, ts.URL+"/api/replays", body)
			if c.frame != "" {
				if a.code != http.StatusCreated {
					t.Fatalf("open: %+v", a)
				}
				mkfifo(t, stateFile(t, dir, 3))
				a = get(t, ts.URL+"/api/matches/"+a.id+"/frame?round="+c.frame)
			}
			if a.code != c.code || !strings.Contains(a.msg, "not a regular file") || strings.Contains(a.msg, dir) {
				t.Errorf("got %d %q, want %d saying it is not a regular file, without %s", a.code, a.msg, c.code, dir)
			}
			if a := get(t, ts.URL+"/api/replays"); a.code != http.StatusOK {
				t.Errorf("the listing: %+v", a)
			}
		})
	}
	t.Run("league_store", func(t *testing.T) {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "bb"), 0o755)
		mkfifo(t, filepath.Join(dir, "bb", "league.db"))
		_, ts := newTestServer(t, Options{LeaguesDir: dir})
		defer unblock()
		a := get(t, ts.URL+"/api/leagues/table?name=bb")
		if a.code < 400 || a.code >= 500 || !strings.Contains(a.msg, "not a regular file") || strings.Contains(a.msg, dir) {
			t.Errorf("got %d %q", a.code, a.msg)
		}
		if a := get(t, ts.URL+"/api/leagues"); a.code != http.StatusOK {
			t.Errorf("the listing: %+v", a)
		}
	})
}

// TestWebReplayRoundsMustLoad: a recording of states whose later round
// does not load (a fuzz target's find: the upload was accepted and that
// round's frame was a 500) is refused when it is uploaded, with a 400
// naming the round; a replay folder's later state that does not load is a
// 400 naming the round when it is fetched.
func TestWebReplayRoundsMustLoad(t *testing.T) {
	data := recording(t)
	for _, c := range []struct {
		name, line string
	}{
		{"text_that_does_not_load", `{"round":2,"state":"zzz"}`},
		{"a_number", `{"round":2,"state":5}`},
		{"an_object", `{"round":2,"state":{}}`},
		{"null", `{"round":2,"state":null}`},
		{"with_bad_actions", `{"round":2,"state":"zzz","actions":[1]}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, ts := newTestServer(t, Options{})
			a := post(t, ts.URL+"/api/replays/upload", withLine(data, 3, c.line))
			if a.code != http.StatusBadRequest || !strings.Contains(a.msg, "round 2") {
				t.Errorf("got %d %q, want 400 naming round 2", a.code, a.msg)
			}
		})
	}
	t.Run("folder_state_that_does_not_load", func(t *testing.T) {
		dir := t.TempDir()
		writeFolder(t, dir)
		os.WriteFile(stateFile(t, dir, 3), []byte("zzz"), 0o644)
		_, ts := newTestServer(t, Options{ReplaysDir: dir})
		r, code := openReplay(t, ts.URL, openRequest{Path: "bb/3"})
		if code != http.StatusCreated {
			t.Fatalf("open: %d %+v", code, r)
		}
		if a := get(t, ts.URL+"/api/matches/"+r.ID+"/frame?round=3"); a.code != http.StatusBadRequest || !strings.Contains(a.msg, "round 3") {
			t.Errorf("frame: %+v, want 400 naming round 3", a)
		}
		if a := get(t, ts.URL+"/api/matches/"+r.ID+"/events?speed=0&from=3"); a.code != http.StatusBadRequest || !strings.Contains(a.msg, "round 3") {
			t.Errorf("stream: %+v, want 400 naming round 3", a)
		}
	})
}

// FuzzWebUpload: no upload, and no frame of an uploaded recording, is a
// server error. testdata/fuzz/FuzzWebUpload holds what it found.
func FuzzWebUpload(f *testing.F) {
	s, err := NewServer(Options{})
	if err != nil {
		f.Fatal(err)
	}
	defer s.Close()
	f.Add([]byte(`{"format":"botarena-recording","version":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		w := httptestRecorder()
		req, _ := http.NewRequest("POST", "/api/replays/upload", bytes.NewReader(data))
		req.RemoteAddr = "192.0.2.1:1"
		s.ServeHTTP(w, req)
		if w.code >= 500 {
			t.Fatalf("upload: %d %s", w.code, w.body.String())
		}
		if w.code != http.StatusCreated {
			return
		}
		var r openedReplay
		json.Unmarshal(w.body.Bytes(), &r)
		defer func() { // forgotten, to make room for the next
			s.mu.Lock()
			if m := s.sessions[r.ID]; m != nil {
				delete(s.sessions, r.ID)
				m.forget()
			}
			s.mu.Unlock()
		}()
		for round := 0; round <= r.Rounds; round++ {
			w := httptestRecorder()
			req, _ := http.NewRequest("GET", "/api/matches/"+r.ID+"/frame?seat=0&round="+strconv.Itoa(round), nil)
			req.RemoteAddr = "192.0.2.1:1"
			s.ServeHTTP(w, req)
			if w.code >= 500 {
				t.Fatalf("round %d: %d %s", round, w.code, w.body.String())
			}
		}
	})
}

// recorder is a minimal ResponseWriter (httptest.ResponseRecorder less
// its header snapshot).
type recorder struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func httptestRecorder() *recorder { return &recorder{header: http.Header{}, code: http.StatusOK} }

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(p []byte) (int, error) { return r.body.Write(p) }
func (r *recorder) WriteHeader(code int)        { r.code = code }

// TestWebStalledClientReleased: a client that stops reading a stream
// cannot hold its request: the write deadline ends it, giving back its
// stream slot, its request count and its memory.
func TestWebStalledClientReleased(t *testing.T) {
	mem := newTestMemory(0)
	s, ts := newTestServer(t, Options{WriteTimeout: 200 * time.Millisecond, MaxClientRequests: 1, Memory: mem})
	id, code, msg := createMatch(t, ts.URL, createRequest{Game: "bomberman/12p", Seed: 1})
	if code != http.StatusCreated {
		t.Fatal(code, msg)
	}
	// A raw connection that sends the request and never reads.
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetReadBuffer(4 << 10)
	}
	io.WriteString(conn, "GET /api/matches/"+id+"/events?speed=0&seat=0 HTTP/1.1\r\nHost: x\r\n\r\n")
	deadline := time.Now().Add(hangLimit)
	for s.Stats().Streams == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	for s.Stats().Streams != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if st := s.Stats(); st.Streams != 0 {
		t.Fatalf("the stream of a client that does not read is still open after %v: %+v", hangLimit, st)
	}
	// The stream was cut, not played to its end: the match goes on past
	// what it sent. And the client's request count is back: this frame is
	// the one request it may run.
	sent := int(s.Stats().FramesSent)
	var f Frame
	if code := getJSON(t, ts.URL+"/api/matches/"+id+"/frame?round="+strconv.Itoa(sent+20), &f); code != http.StatusOK || f.Round != sent+20 {
		t.Errorf("a frame after the stalled stream ended: %d, round %d; want round %d (the stream sent %d frames)", code, f.Round, sent+20, sent)
	}
}

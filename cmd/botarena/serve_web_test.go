package main

import (
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeWeb: botarena serve serves the viewer at / and its API, behind
// the token like every other route.
func TestServeWeb(t *testing.T) {
	addr, _, _ := startServe(t, "--auth-token", edgeToken)
	get := func(path, token string) (int, string) {
		req, _ := http.NewRequest("GET", "http://"+addr+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, path := range []string{"/", "/api/catalog", "/viewer/app.js"} {
		if code, _ := get(path, ""); code != http.StatusUnauthorized {
			t.Errorf("GET %s without the token: %d, want 401", path, code)
		}
		if code, _ := get(path, edgeToken); code != http.StatusOK {
			t.Errorf("GET %s with the token: %d, want 200", path, code)
		}
	}
	if _, body := get("/api/catalog", edgeToken); !strings.Contains(body, `"portalbomber"`) || !strings.Contains(body, `"battlecube"`) {
		t.Errorf("catalog lacks games: %.300s", body)
	}
}

// TestServeWebFolders: serve --replays-dir and --leagues-dir give the
// viewer its replays (a recording play --record wrote) and leagues, and
// /metrics its counters; a replays folder that is not one is an error.
func TestServeWebFolders(t *testing.T) {
	replays, leagues := t.TempDir(), filepath.Join(t.TempDir(), "leagues")
	if _, stderr, code := runCLI(t, "", "play", "battlebots", "--seed", "2", "--max-rounds", "20", "--record", filepath.Join(replays, "bb.jsonl")); code != 0 {
		t.Fatal(stderr)
	}
	addr, _, _ := startServe(t, "--replays-dir", replays, "--leagues-dir", leagues)
	get := func(path string) string {
		resp, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %s %s", path, resp.Status, b)
		}
		return string(b)
	}
	if body := get("/api/replays"); !strings.Contains(body, `"path":"bb.jsonl","kind":"recording","game":"battlebots"`) {
		t.Errorf("replays: %s", body)
	}
	resp, err := http.Post("http://"+addr+"/api/replays", "application/json", strings.NewReader(`{"path":"bb.jsonl"}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || !strings.Contains(string(b), `"mode":"replayed"`) {
		t.Errorf("open: %s %s", resp.Status, b)
	}
	if body := get("/api/leagues"); body != `{"leagues":[],"truncated":false}` {
		t.Errorf("leagues: %s", body)
	}
	if body := get("/metrics"); !strings.Contains(body, "botarena_viewer_replays_opened_total 1") || !strings.Contains(body, "botarena_viewer_replays_open 1") {
		t.Errorf("metrics lack the viewer's: %.2000s", body)
	}
	if _, stderr, code := runCLI(t, "", "serve", "--addr", "127.0.0.1:0", "--replays-dir", filepath.Join(replays, "bb.jsonl")); code == 0 || !strings.Contains(stderr, "--replays-dir") {
		t.Errorf("a replays folder that is a file: exit %d, %q", code, stderr)
	}
}

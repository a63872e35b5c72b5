package main

import (
	"io"
	"net/http"
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

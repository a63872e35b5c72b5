package web

import (
	"net/http"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// TestWebGameWithoutCodec: the viewer draws native states, so it does not
// offer a game without a native codec and refuses its matches, naming the
// game.
func TestWebGameWithoutCodec(t *testing.T) {
	reg := &env.Registry{}
	entry, err := env.Default.Lookup("bomberman")
	if err != nil {
		t.Fatal(err)
	}
	reg.Register(testutil.WithoutCodec(entry, "plain"))
	_, ts := newTestServer(t, Options{Registry: reg})
	var cat struct {
		Games []GameInfo `json:"games"`
	}
	if code := getJSON(t, ts.URL+"/api/catalog", &cat); code != http.StatusOK || len(cat.Games) != 0 {
		t.Errorf("catalog: status %d, games %+v; want none", code, cat.Games)
	}
	const want = "game plain has no native codec"
	if _, code, msg := createMatch(t, ts.URL, createRequest{Game: "plain"}); code != http.StatusBadRequest || !strings.Contains(msg, want) {
		t.Errorf("create: status %d, %q; want 400 and %q", code, msg, want)
	}
}

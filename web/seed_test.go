package web

import (
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// bigSeed is a league seed a float64 cannot hold: a browser reading it as
// a JSON number gets 11187937114404514000, another game.
const bigSeed = "11187937114404512942"

func TestSeedJSONRules(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     Seed
		ok       bool
	}{
		{"string_above_2_53", `"` + bigSeed + `"`, 11187937114404512942, true},
		{"number_above_2_53_exact", bigSeed, 11187937114404512942, true},
		{"largest", `"18446744073709551615"`, 1<<64 - 1, true},
		{"zero", `"0"`, 0, true},
		{"too_large", `"18446744073709551616"`, 0, false},
		{"negative", `"-1"`, 0, false},
		{"fraction", `1.5`, 0, false},
		{"exponent", `1e3`, 0, false},
		{"spaces", `" 7"`, 0, false},
		{"empty", `""`, 0, false},
		{"not_a_number", `"seven"`, 0, false},
		{"bool", `true`, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var s Seed
			err := json.Unmarshal([]byte(c.in), &s)
			if (err == nil) != c.ok || (c.ok && s != c.want) {
				t.Fatalf("%s: %d, %v; want %d, ok %v", c.in, s, err, c.want, c.ok)
			}
			if !c.ok {
				return
			}
			out, _ := json.Marshal(s)
			if want := `"` + strings.Trim(strings.Trim(c.in, `"`), " ") + `"`; string(out) != want {
				t.Errorf("written as %s, want %s", out, want)
			}
		})
	}
}

// TestWebSeedsTravelAsStrings: every seed the API writes is a string, and
// a seed above 2^53 starts the match it names, whether sent as a string or
// as a number.
func TestWebSeedsTravelAsStrings(t *testing.T) {
	dir := t.TempDir()
	newLeague(t, filepath.Join(dir, "bb"), 4)
	_, ts := newTestServer(t, Options{LeaguesDir: dir})
	for _, body := range []string{`{"game":"battlebots","seed":"` + bigSeed + `"}`, `{"game":"battlebots","seed":` + bigSeed + `}`} {
		code, out := rawRequest(t, "POST", ts.URL+"/api/matches", body)
		if code != http.StatusCreated || !strings.Contains(string(out), `"seed":"`+bigSeed+`"`) {
			t.Errorf("%s: %d %s, want the seed back as a string", body, code, out)
		}
	}
	// The league's page: every seed a string, the watch request's the row's.
	code, body := rawRequest(t, "GET", ts.URL+"/api/leagues/table?name=bb", "")
	if code != http.StatusOK {
		t.Fatalf("league page: %d %s", code, body)
	}
	if n := regexp.MustCompile(`"seed":\d`).FindAll(body, -1); len(n) > 0 {
		t.Errorf("the league page has %d seeds as numbers: %s", len(n), n)
	}
	var page struct {
		Recent []struct {
			Seed  string `json:"seed"`
			Watch struct {
				Seed string `json:"seed"`
			} `json:"watch"`
		} `json:"recent"`
	}
	if err := json.Unmarshal(body, &page); err != nil || len(page.Recent) != 4 {
		t.Fatalf("%v: %s", err, body)
	}
	for i, g := range page.Recent {
		if g.Seed == "" || g.Watch.Seed != g.Seed {
			t.Errorf("recent game %d: seed %q, watch seed %q", i, g.Seed, g.Watch.Seed)
		}
	}
	for _, bad := range []string{`{"game":"battlebots","seed":"-3"}`, `{"game":"battlebots","seed":"1e3"}`, `{"game":"battlebots","seed":2.5}`} {
		if code, out := rawRequest(t, "POST", ts.URL+"/api/matches", bad); code != http.StatusBadRequest {
			t.Errorf("%s: %d %s, want 400", bad, code, out)
		}
	}
}

// rawRequest sends a request with body (none when empty) and returns the
// answer's status and body.
func rawRequest(t *testing.T, method, url, body string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, out
}

package web

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/picture"
	"github.com/botarena/botarena/match"
)

// TestWebCatalogLegends: every game's entry carries its kit's legend,
// colours as #rrggbb and marks the page knows.
func TestWebCatalogLegends(t *testing.T) {
	_, ts := newTestServer(t, Options{})
	var cat struct {
		Games []GameInfo `json:"games"`
	}
	getJSON(t, ts.URL+"/api/catalog", &cat)
	hex := regexp.MustCompile(`^#[0-9a-f]{6}$`)
	for _, g := range cat.Games {
		entry, err := env.Default.Lookup(g.Name)
		kit, ok := entry.Kit.(legender)
		if err != nil || !ok {
			t.Fatalf("%s: %v, kit %T has no legend", g.Name, err, entry.Kit)
		}
		legend := kit.Legend()
		if len(g.Legend) == 0 || len(g.Legend) != len(legend) {
			t.Errorf("%s: %d legend entries, its kit has %d", g.Name, len(g.Legend), len(legend))
		}
		for i, l := range g.Legend {
			k := legend[i]
			if !hex.MatchString(l.Colour) || !slices.Contains(picture.LegendMarks, l.Mark) || l.Meaning != k.Meaning {
				t.Errorf("%s: legend entry %+v (kit: %+v)", g.Name, l, k)
			}
		}
	}
}

// TestWebReplayFramesCarryTheirActions: each frame of a replayed
// recording after the first shows, per seat, the action of the round
// that led to it (the recording's), named, with its native command.
func TestWebReplayFramesCarryTheirActions(t *testing.T) {
	dir := t.TempDir()
	for _, game := range baseGames {
		t.Run(game, func(t *testing.T) {
			recordMatch(t, dir, game+".jsonl", game, 4, 30)
			var want [][]int32
			f, err := os.Open(filepath.Join(dir, game+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<26)
			for sc.Scan() {
				var r match.RecordedRound
				if json.Unmarshal(sc.Bytes(), &r) == nil && r.Actions != nil {
					want = append(want, r.Actions)
				}
			}
			_, ts := newTestServer(t, Options{ReplaysDir: dir})
			r, code := openReplay(t, ts.URL, openRequest{Path: game + ".jsonl"})
			if code != http.StatusCreated {
				t.Fatalf("open: %d %+v", code, r)
			}
			frames, _ := readFrames(t, ts.URL+"/api/matches/"+r.ID+"/events?speed=0", 1000)
			if len(frames) < 2 || len(frames)-1 > len(want) {
				t.Fatalf("%d frames, %d rounds of actions", len(frames), len(want))
			}
			for _, f := range frames {
				if f.Round == 0 {
					if len(f.Actions) != 0 {
						t.Errorf("round 0 shows actions %+v", f.Actions)
					}
					continue
				}
				if len(f.Actions) != f.Seats {
					t.Fatalf("round %d: %d actions for %d seats", f.Round, len(f.Actions), f.Seats)
				}
				for seat, a := range f.Actions {
					if a.Action != want[f.Round-1][seat] || a.Command+a.Name == "" {
						t.Fatalf("round %d seat %d: %+v, recorded %d", f.Round, seat, a, want[f.Round-1][seat])
					}
				}
			}
		})
	}
}

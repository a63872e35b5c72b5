package web

import (
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// committedPolicies is the repository's policies/ folder.
var committedPolicies = filepath.Join("..", "policies")

// TestWebPolicySeatsAreExplained: the committed policies are offered for
// the games they fit, and a policy seat's frames show its most probable
// actions (legal, most probable first), a finite value estimate and the
// action it then plays, which is the action the next frame shows, for the
// arg-max and for sampling.
func TestWebPolicySeatsAreExplained(t *testing.T) {
	_, ts := newTestServer(t, Options{PolicyDirs: []string{committedPolicies}})
	var cat struct {
		Games []GameInfo `json:"games"`
	}
	getJSON(t, ts.URL+"/api/catalog", &cat)
	offered := map[string][]string{}
	for _, g := range cat.Games {
		offered[g.Name] = g.Agents
	}
	for game, want := range map[string]string{"battlebots": "policy:battlebots-sniper", "battleships/small": "policy:battleships-small?sample"} {
		if !slices.Contains(offered[game], want) {
			t.Errorf("%s: agents %v lack %s", game, offered[game], want)
		}
	}
	if slices.ContainsFunc(offered["battleships"], func(a string) bool { return strings.HasPrefix(a, "policy:") }) {
		t.Errorf("battleships (medium) offers a policy trained on the small map: %v", offered["battleships"])
	}
	for _, c := range []struct {
		game   string
		agents []string
	}{
		{"battlebots", []string{"policy:battlebots-sniper", "sniper"}},
		{"battlebots", []string{"huggy", "policy:battlebots?sample"}},
		{"battleships/small", []string{"policy:battleships-small?sample", "reference"}},
	} {
		t.Run(c.game+"/"+strings.Join(c.agents, "-"), func(t *testing.T) {
			policySeat := slices.IndexFunc(c.agents, func(a string) bool { return strings.HasPrefix(a, "policy:") })
			id, code, msg := createMatch(t, ts.URL, createRequest{Game: c.game, Agents: c.agents, Seed: 11187937114404512942})
			if code != http.StatusCreated {
				t.Fatalf("create: %d %s", code, msg)
			}
			frames, _ := readFrames(t, ts.URL+"/api/matches/"+id+"/events?speed=0", 80)
			if len(frames) < 3 {
				t.Fatalf("%d frames", len(frames))
			}
			for i, f := range frames {
				if f.Done {
					if len(f.Policies) != 0 {
						t.Errorf("round %d: the last frame explains %+v", f.Round, f.Policies)
					}
					break
				}
				if len(f.Policies) != 1 || f.Policies[0].Seat != policySeat || f.Policies[0].Agent != c.agents[policySeat] {
					t.Fatalf("round %d: policies %+v, want seat %d's", f.Round, f.Policies, policySeat)
				}
				st := f.Policies[0]
				if len(st.Top) == 0 || st.Legal < len(st.Top) || math.IsNaN(st.Value) || math.IsInf(st.Value, 0) || st.Chosen.Prob <= 0 || st.Chosen.Command+st.Chosen.Name == "" {
					t.Fatalf("round %d: %+v", f.Round, st)
				}
				for k := 1; k < len(st.Top); k++ {
					if st.Top[k].Prob > st.Top[k-1].Prob {
						t.Fatalf("round %d: top actions not most probable first: %+v", f.Round, st.Top)
					}
				}
				if i+1 < len(frames) {
					next := frames[i+1]
					if len(next.Actions) != 2 || next.Actions[policySeat].Action != st.Chosen.Action || next.Actions[policySeat].Command != st.Chosen.Command {
						t.Fatalf("round %d: the policy was to play %+v; round %d shows %+v", f.Round, st.Chosen, next.Round, next.Actions)
					}
				}
			}
		})
	}
}

// TestWebPolicyAgentsListedOnly: a client names only the policies the
// catalog lists, never a path.
func TestWebPolicyAgentsListedOnly(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join(committedPolicies, "battlebots.policy.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	_, ts := newTestServer(t, Options{PolicyDirs: []string{committedPolicies}})
	_, noPolicies := newTestServer(t, Options{})
	for _, c := range []struct {
		base, agent string
	}{
		{ts.URL, "policy:" + abs},
		{ts.URL, "policy:../policies/battlebots"},
		{ts.URL, "policy:battlebots.policy.safetensors"},
		{ts.URL, "policy:battlebots?temp=0.5"},
		{noPolicies.URL, "policy:battlebots"},
	} {
		if _, code, msg := createMatch(t, c.base, createRequest{Game: "battlebots", Agents: []string{c.agent}}); code != http.StatusBadRequest || (strings.Contains(msg, filepath.Dir(abs)) && !strings.Contains(c.agent, filepath.Dir(abs))) {
			t.Errorf("%s: %d %q, want 400 without the server's paths", c.agent, code, msg)
		}
	}
}

// TestWebPolicyPlayingsCharged: a playing with a policy seat is charged
// (its weights and its explainer) and one of built-in agents is not: with
// the budget full, the first's frames are refused with 429 and the
// second's play.
func TestWebPolicyPlayingsCharged(t *testing.T) {
	mem := newTestMemory(1 << 30)
	_, ts := newTestServer(t, Options{PolicyDirs: []string{committedPolicies}, Memory: mem})
	var ids []string
	for _, agents := range [][]string{{"policy:battlebots", "sniper"}, {"huggy", "sniper"}} {
		id, code, msg := createMatch(t, ts.URL, createRequest{Game: "battlebots", Agents: agents})
		if code != http.StatusCreated {
			t.Fatalf("%v: create: %d %s", agents, code, msg)
		}
		ids = append(ids, id)
	}
	mem.mu.Lock()
	mem.full = true
	mem.mu.Unlock()
	for i, want := range []int{http.StatusTooManyRequests, http.StatusOK} {
		if a := get(t, ts.URL+"/api/matches/"+ids[i]+"/frame?round=3"); a.code != want {
			t.Errorf("match %s: frame: %d %s, want %d", ids[i], a.code, a.msg, want)
		}
	}
}

// TestWebPolicyFilesChecked: a file named like a policy that is not one
// is left out (the others are listed), and a policy whose load the budget
// cannot pay for is not listed.
func TestWebPolicyFilesChecked(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "broken.policy.safetensors"), []byte("not a policy"), 0o644); err != nil {
		t.Fatal(err)
	}
	agentsOf := func(opt Options) []string {
		_, ts := newTestServer(t, opt)
		var cat struct {
			Games []GameInfo `json:"games"`
		}
		for range 2 { // the second time from what the server remembers
			getJSON(t, ts.URL+"/api/catalog", &cat)
		}
		for _, g := range cat.Games {
			if g.Name == "battlebots" {
				return g.Agents
			}
		}
		return nil
	}
	got := agentsOf(Options{PolicyDirs: []string{dir, committedPolicies}})
	if slices.ContainsFunc(got, func(a string) bool { return strings.Contains(a, "broken") }) || !slices.Contains(got, "policy:battlebots") {
		t.Errorf("agents %v: want policy:battlebots and not the broken file", got)
	}
	if got := agentsOf(Options{PolicyDirs: []string{committedPolicies}, Memory: NewMemory(1 << 20)}); slices.ContainsFunc(got, func(a string) bool { return strings.HasPrefix(a, "policy:") }) {
		t.Errorf("on a budget of 1 MiB, policies of 0.9 MB (2.7 MB to load) are listed: %v", got)
	}
}

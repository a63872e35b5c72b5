package web

import (
	"math"
	"net/http"
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
				if len(st.Top) == 0 || st.Legal < len(st.Top) || math.IsNaN(st.Value) || math.IsInf(st.Value, 0) || st.Chosen.Prob <= 0 || st.Chosen.Command == "" {
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
// the policy's weights and its explainer: on a budget of 1 MiB, less
// than the committed BattleBots policy's weights, its frames are refused
// with 413, while a match of built-in agents plays.
func TestWebPolicyPlayingsCharged(t *testing.T) {
	_, ts := newTestServer(t, Options{PolicyDirs: []string{committedPolicies}, Memory: NewMemory(1 << 20)})
	for _, c := range []struct {
		agents []string
		code   int
	}{
		{[]string{"policy:battlebots", "sniper"}, http.StatusRequestEntityTooLarge},
		{[]string{"huggy", "sniper"}, http.StatusOK},
	} {
		id, code, msg := createMatch(t, ts.URL, createRequest{Game: "battlebots", Agents: c.agents})
		if code != http.StatusCreated {
			t.Fatalf("%v: create: %d %s", c.agents, code, msg)
		}
		if a := get(t, ts.URL+"/api/matches/"+id+"/frame?round=3"); a.code != c.code {
			t.Errorf("%v: frame: %d %s, want %d", c.agents, a.code, a.msg, c.code)
		}
	}
}

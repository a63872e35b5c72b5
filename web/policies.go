package web

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/botarena/botarena/agents/policy"
	"github.com/botarena/botarena/env"
)

// Trained policies play in the viewer like built-in agents, and the page
// shows, for each policy seat, what the policy makes of every state (its
// most probable actions, its value estimate and the action it plays:
// policy.Explainer). The policies are the files named *.policy.safetensors
// under [Options.PolicyDirs] (4 folders deep, at most MaxListed), listed
// for the games whose spec they fit (policy.Model.Check) as agents
// "policy:NAME" (the arg-max) and "policy:NAME?sample", NAME being the
// file's path relative to its folder without the suffix; where two
// folders have a NAME, the first one's is played. A client names only
// listed policies, never a path. The folders are the operator's (serve's
// --bots-dir and the repository's policies/): each version of a file is
// loaded once, charged to the budget while it loads (policyModel), and
// kept (policy.Open's cache, for the life of the process; a file that is
// not a policy is remembered as such), and every playing of a match with
// policy seats is charged their weights and its explainers' scratch
// (policyCost).

// policySuffix ends the file names of policies.
const policySuffix = ".policy.safetensors"

// policyFile is a policy the viewer offers: its NAME and its file.
type policyFile struct {
	name string // NAME, as in "policy:NAME"
	path string // absolute, symbolic links resolved
}

// policyFiles lists the policy files of the policy folders: at most
// MaxListed, looking at most maxDepth folders deep and at 20 times
// MaxListed entries in all, as the replays' listing does.
func (s *Server) policyFiles() []policyFile {
	var out []policyFile
	visited := 0
	for _, dir := range s.opt.PolicyDirs {
		base, err := filepath.EvalSymlinks(dir)
		if err != nil {
			continue
		}
		fs.WalkDir(os.DirFS(base), ".", func(p string, d fs.DirEntry, err error) error {
			if visited++; visited > 20*s.opt.MaxListed || len(out) >= s.opt.MaxListed {
				return fs.SkipAll
			}
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if p != "." && (strings.HasPrefix(d.Name(), ".") || strings.Count(p, "/") >= maxDepth-1) {
					return fs.SkipDir
				}
				return nil
			}
			name, ok := strings.CutSuffix(p, policySuffix)
			if !ok || name == "" || strings.Contains(name, "?") || slices.ContainsFunc(out, func(f policyFile) bool { return f.name == name }) {
				return nil
			}
			real, err := confined(base, p)
			if err != nil {
				return nil
			}
			if st, err := os.Stat(real); err != nil || !st.Mode().IsRegular() {
				return nil // a FIFO would block policy.Open
			}
			out = append(out, policyFile{name: name, path: real})
			return nil
		})
	}
	return out
}

// policyModels remembers, per version of a policy file (its size and
// modification time), its model or that it is not one, so that requests
// do not read again a file that failed to load.
type policyModels struct {
	mu sync.Mutex
	m  map[string]policyModel // by path
}

type policyModel struct {
	size  int64
	mod   time.Time
	model *policy.Model // nil: the file is not a policy
}

// policyLoadFactor is what loading a policy file holds per byte of it: the
// file's bytes, and its weights as float64 (twice its float32 ones).
const policyLoadFactor = 3

// policyModel returns the model of f: the one remembered for this version
// of the file, else loaded (policy.Open) with policyLoadFactor times its
// size charged to the budget for client meanwhile. It returns nil for a
// file that is not a policy (remembered) and when the budget refuses the
// load (tried again by a later request).
func (s *Server) policyModel(client string, f policyFile) *policy.Model {
	st, err := os.Stat(f.path)
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	s.models.mu.Lock()
	known, ok := s.models.m[f.path]
	s.models.mu.Unlock()
	if ok && known.size == st.Size() && known.mod.Equal(st.ModTime()) {
		return known.model
	}
	release, err := s.reserver(client, "loading policy "+f.name)(policyLoadFactor * st.Size())
	if err != nil {
		return nil
	}
	defer release()
	m, err := policy.Open(f.path)
	if err != nil {
		m = nil
	}
	s.models.mu.Lock()
	if s.models.m == nil {
		s.models.m = map[string]policyModel{}
	}
	s.models.m[f.path] = policyModel{size: st.Size(), mod: st.ModTime(), model: m}
	s.models.mu.Unlock()
	return m
}

// policyAgents returns the policy agents the viewer offers client for
// envs of spec: "policy:NAME" and "policy:NAME?sample" of every policy
// file that fits it, with the agent specs that play them.
func (s *Server) policyAgents(client string, spec *env.Spec) (names, specs []string) {
	for _, f := range s.policyFiles() {
		m := s.policyModel(client, f)
		if m == nil || m.Check(spec) != nil {
			continue
		}
		for _, opt := range []string{"", policy.SampleSuffix} {
			names = append(names, policy.Prefix+f.name+opt)
			specs = append(specs, policy.Prefix+f.path+opt)
		}
	}
	return names, specs
}

// policyCost returns what a playing of agents (agent specs, as
// policyAgents made them) holds beyond its game: the weights and the
// explainer of each policy seat.
func (s *Server) policyCost(specs []string) int64 {
	var n int64
	s.models.mu.Lock()
	defer s.models.mu.Unlock()
	for _, sp := range specs {
		path, ok := strings.CutPrefix(sp, policy.Prefix)
		if !ok {
			continue
		}
		path, _, _ = strings.Cut(path, "?")
		if m := s.models.m[path].model; m != nil {
			n += 8*int64(m.Parameters()) + m.ExplainBytes()
		}
	}
	return n
}

// explainTop is how many of a policy's most probable actions a frame
// shows: enough to colour the board where actions are cells.
func explainTop(spec *env.Spec) int {
	if spec.Factors != nil {
		return 64
	}
	return 8
}

// PolicyStep is what a policy seat makes of a frame's state: the k most
// probable actions, its value estimate and the action it plays next
// (policy.Explanation), each action with its name and native command.
type PolicyStep struct {
	Seat   int          `json:"seat"`
	Agent  string       `json:"agent"`
	Value  float64      `json:"value"`
	Chosen ActionView   `json:"chosen"`
	Top    []ActionView `json:"top"`
	Legal  int          `json:"legal"` // actions of non-zero probability
}

// ActionView is one action of a seat as the page shows it.
type ActionView struct {
	Action  int32   `json:"action"`
	Name    string  `json:"name"`              // env.Spec.ActionNames
	Command string  `json:"command"`           // the native command (env.Codec.AppendCommand)
	Prob    float64 `json:"p,omitempty"`       // the policy's probability, in a PolicyStep
	Invalid bool    `json:"invalid,omitempty"` // the game counted it invalid (env.Env.Invalid), in a frame's actions
	Reward  float32 `json:"reward,omitempty"`  // the seat's reward for the round, in a frame's actions
}

// actionView returns action of seat in e, named.
func actionView(e env.Env, c env.Codec, seat int, action int32, buf *[]byte) ActionView {
	v := ActionView{Action: action}
	if names := e.Spec().ActionNames; action >= 0 && int(action) < len(names) {
		v.Name = names[action]
	}
	*buf = c.AppendCommand((*buf)[:0], seat, action)
	v.Command = strings.TrimSpace(string(*buf))
	return v
}

// explain returns the policy steps of the explained seats of e.
func explain(e env.Env, c env.Codec, xs []*policy.Explainer, names []string, buf *[]byte) []PolicyStep {
	var out []PolicyStep
	k := explainTop(e.Spec())
	for seat, x := range xs {
		if x == nil {
			continue
		}
		ex := x.Explain(e, seat, k)
		st := PolicyStep{Seat: seat, Value: ex.Value, Legal: ex.Legal, Top: make([]ActionView, len(ex.Top))}
		if seat < len(names) {
			st.Agent = names[seat]
		}
		st.Chosen = actionView(e, c, seat, ex.Chosen, buf)
		st.Chosen.Prob = ex.ChosenProb
		for i, ap := range ex.Top {
			st.Top[i] = actionView(e, c, seat, ap.Action, buf)
			st.Top[i].Prob = ap.Prob
		}
		out = append(out, st)
	}
	return out
}

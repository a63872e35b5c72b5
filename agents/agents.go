package agents

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/botarena/botarena/env"
)

// ErrUnknownAgent is returned (wrapped) by [New] for a name that is not
// registered for the game.
var ErrUnknownAgent = errors.New("unknown agent")

// generic are the agents that play every game, by name.
type generic struct {
	summary string
	factory env.AgentFactory
}

var (
	mu       sync.RWMutex
	generics = map[string]generic{}
)

// BaseGame returns the game a registry name belongs to: the part before the
// first '/' ("bomberman/12p" → "bomberman"), as [env.BaseGame] does.
func BaseGame(game string) string { return env.BaseGame(game) }

// Register adds a generic agent named name, one that plays every game (such
// as "idle" and "random"). A game's own agents are not registered here:
// the game's kit lists them ([Builtins]), where [New] and [Names] find
// them. Register panics if name is empty, factory is
// nil or the name is taken: registration happens in init functions, where a
// mistake is a programming error. It is safe for concurrent use.
func Register(name, summary string, factory env.AgentFactory) {
	if name == "" || factory == nil {
		panic(fmt.Sprintf("agents: Register(%q): name and factory are required", name))
	}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := generics[name]; dup {
		panic(fmt.Sprintf("agents: Register: agent %q registered twice", name))
	}
	generics[name] = generic{summary: summary, factory: factory}
}

// Builtins is implemented by the kit of a game (its [env.Entry] Kit) that
// has built-in agents: the original competition's reference and example
// bots, and scripted players. Their names are distinct, lower case
// ([a-z][a-z0-9-]*), and not those of the generic agents; each has a
// Summary and a New. [New] and [Names] find them here.
type Builtins interface {
	// Agents lists the game's agents; the result is shared and must not
	// be modified.
	Agents() []env.AgentInfo
}

// builtins returns the built-in agents of the registry name game in
// [env.Default], or nil.
func builtins(game string) []env.AgentInfo {
	e, err := env.Default.Lookup(game)
	if err != nil {
		return nil
	}
	if b, ok := e.Kit.(Builtins); ok {
		return b.Agents()
	}
	return nil
}

// lookup finds name for game: the game's own agents ([Builtins]) first,
// then the generic ones.
func lookup(game, name string) (summary string, factory env.AgentFactory, ok bool) {
	for _, a := range builtins(game) {
		if a.Name == name {
			return a.Summary, a.New, true
		}
	}
	mu.RLock()
	defer mu.RUnlock()
	g, ok := generics[name]
	return g.summary, g.factory, ok
}

// Scheme makes agents from specs that start with Prefix, such as
// "dir:PATH" (an Entelect bot folder), "cmd:COMMAND" (a BattleBots command
// line) or "http://HOST/..." (a Battle³ bot URL): the external bots of the
// original competitions.
type Scheme struct {
	// Prefix starts every spec of the scheme ("dir:", "cmd:", "http://").
	Prefix string
	// Games are the base games the scheme plays; empty means every game.
	Games []string
	// Summary is a one-line description for listings and errors.
	Summary string
	// New makes an agent from the whole spec (prefix included) for game.
	New func(game, spec string, envSpec *env.Spec) (env.Agent, error)
	// InProcess reports that the scheme's agents run inside this process
	// and depend on nothing but the env they are handed (neural policies),
	// unlike external bots, which run elsewhere and may read the players'
	// names or per-match settings of the game's config.
	InProcess bool
	// Needs is what the scheme's agents need of the machine (files,
	// commands, requests, listeners), which [Capabilities.Check] grants
	// or refuses. The zero value, [CapUnrestricted], is granted only by
	// Capabilities.Unrestricted.
	Needs Capability
	// Path, for a scheme that needs [CapFiles], splits a spec into the
	// path it reads and what follows the path (spec is Prefix + path +
	// suffix). Nil means the path is all of the spec after Prefix.
	Path func(spec string) (path, suffix string)
}

var schemes []Scheme

// RegisterScheme adds an agent scheme. It panics if the prefix is empty or
// taken: registration happens in init functions. It is safe for concurrent
// use.
func RegisterScheme(s Scheme) {
	mu.Lock()
	defer mu.Unlock()
	if s.Prefix == "" || s.New == nil {
		panic("agents: RegisterScheme: Prefix and New are required")
	}
	for _, o := range schemes {
		if o.Prefix == s.Prefix {
			panic(fmt.Sprintf("agents: RegisterScheme: prefix %q registered twice", s.Prefix))
		}
	}
	schemes = append(schemes, s)
}

// scheme returns the scheme whose prefix starts spec.
func scheme(spec string) (Scheme, bool) {
	mu.RLock()
	defer mu.RUnlock()
	for _, s := range schemes {
		if strings.HasPrefix(spec, s.Prefix) {
			return s, true
		}
	}
	return Scheme{}, false
}

// Schemes returns the prefixes of the schemes that play game, sorted.
func Schemes(game string) []string {
	mu.RLock()
	defer mu.RUnlock()
	var out []string
	for _, s := range schemes {
		if len(s.Games) == 0 || slices.Contains(s.Games, BaseGame(game)) {
			out = append(out, s.Prefix+"...")
		}
	}
	slices.Sort(out)
	return out
}

// Known reports whether spec names an agent for game: a registered name,
// or a spec of a scheme that plays game. It makes nothing.
func Known(game, spec string) bool {
	if _, _, ok := lookup(game, spec); ok {
		return true
	}
	s, ok := scheme(spec)
	return ok && (len(s.Games) == 0 || slices.Contains(s.Games, BaseGame(game)))
}

// InProcess reports whether spec names an agent that plays inside this
// process from the env alone: a registered agent, or a spec of an
// [Scheme.InProcess] scheme such as "policy:PATH". Such agents can share
// one env config across matches (a league's pools); external bots cannot.
// It makes nothing and does not check that the agent exists.
func InProcess(game, spec string) bool {
	if s, ok := scheme(spec); ok {
		return s.InProcess
	}
	_, _, ok := lookup(game, spec)
	return ok
}

// valid lists what New accepts for game, for error messages.
func valid(game string) string {
	return strings.Join(append(Names(game), Schemes(game)...), ", ")
}

// New makes the agent spec names for game (a registry name such as
// "bomberman/12p") for envs of spec: one of the game's own agents (its
// kit's [Builtins] in [env.Default]), a generic agent, or a spec of a registered
// [Scheme] ("dir:PATH", "cmd:...", "http://..."). An unknown name gives an error wrapping [ErrUnknownAgent]
// that lists the valid names and schemes. Agents that hold resources
// (processes, connections) implement io.Closer; their owner closes them.
// It is safe for concurrent use.
func New(game, name string, spec *env.Spec) (env.Agent, error) {
	if s, ok := scheme(name); ok {
		if len(s.Games) > 0 && !slices.Contains(s.Games, BaseGame(game)) {
			return nil, fmt.Errorf("%w %s: %s agents play %s, not %s", ErrUnknownAgent, QuoteSpec(name), s.Prefix, strings.Join(s.Games, ", "), BaseGame(game))
		}
		a, err := s.New(game, name, spec)
		if err != nil {
			return nil, fmt.Errorf("agent %s: %w", QuoteSpec(name), err)
		}
		return a, nil
	}
	_, factory, ok := lookup(game, name)
	if !ok {
		return nil, fmt.Errorf("%w %s for %s (valid: %s)", ErrUnknownAgent, QuoteSpec(name), BaseGame(game), valid(game))
	}
	a, err := factory(spec)
	if err != nil {
		return nil, fmt.Errorf("agent %q: %w", name, err)
	}
	return a, nil
}

// Close closes a if it holds resources (implements io.Closer: external
// bots' processes and connections) and returns its error; other agents
// hold none, and Close returns nil for them. Owners of agents call it once,
// when the agent's games are over.
func Close(a env.Agent) error {
	if c, ok := a.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// Names returns the names of the agents that can play game (generic and
// the game's own), sorted. It is safe for concurrent use.
func Names(game string) []string {
	mu.RLock()
	names := slices.Collect(maps.Keys(generics))
	mu.RUnlock()
	for _, a := range builtins(game) {
		if !slices.Contains(names, a.Name) {
			names = append(names, a.Name)
		}
	}
	slices.Sort(names)
	return names
}

// Summary returns the one-line description of agent name for game, and
// whether it is registered.
func Summary(game, name string) (string, bool) {
	summary, _, ok := lookup(game, name)
	return summary, ok
}

// PlayerNames names the players of a game after the names of their agents,
// one per seat: the name with its first letter upper-cased ("Reference"),
// numbered where one agent plays several seats ("Random 1", "Random 2"), as
// botarena play and leagues show them.
func PlayerNames(agentNames []string) []string {
	count := map[string]int{}
	for _, n := range agentNames {
		count[n]++
	}
	seen := map[string]int{}
	names := make([]string, len(agentNames))
	for i, n := range agentNames {
		title := []rune(n)
		if len(title) > 0 {
			title[0] = unicode.ToUpper(title[0])
		}
		names[i] = string(title)
		if count[n] > 1 {
			seen[n]++
			names[i] += " " + strconv.Itoa(seen[n])
		}
	}
	return names
}

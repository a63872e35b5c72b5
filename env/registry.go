package env

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Config is a game's configuration. Configs are plain structs decoded from
// JSON (field names as the struct's json tags); Validate reports the first
// invalid field as a [*ConfigError]. Every field carries a doc tag (one
// line) and, where the game restricts its values, an allowed tag, which
// [ConfigSchema] reports.
type Config interface {
	Validate() error
}

// Entry registers one game, or one preset of a game ("bomberman/12p"), under
// a name.
type Entry struct {
	// Name is the registry name: lower case, with an optional "/preset"
	// suffix.
	Name string
	// Summary is a one-line description for listings.
	Summary string
	// Rules returns the rules as implemented, in Markdown, for the given
	// config (the original's --rules printout, plus botarena's decisions).
	Rules func(Config) string
	// NewConfig returns a new default config (a pointer to the game's
	// config struct) for this name.
	NewConfig func() Config
	// New makes an env from a config that has passed Validate.
	New func(Config) (Env, error)
	// Kit is what the game brings besides its envs, for the tools around
	// them: a value of the game's package whose methods each tool finds
	// by a type assertion to an interface the tool declares (package
	// agents asks for built-in agents, the play command for flags and
	// leaderboard fields, the web viewer for a legend ...;
	// docs/add-a-game.md lists them). env names none of those parts.
	// Every registry name of one base game ("bomberman", "bomberman/12p")
	// carries the same Kit, a comparable value (an empty struct or a
	// pointer); nil for all of them means a game without extras.
	Kit any
}

// ErrUnknownGame is returned (wrapped) for a name that is not registered.
var ErrUnknownGame = errors.New("unknown game")

// ConfigError reports an invalid config field.
type ConfigError struct {
	Game   string // registry name
	Field  string // json name of the field
	Value  any    // the offending value
	Reason string // what was expected
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("%s: config %s: %s, got %v", e.Game, e.Field, e.Reason, e.Value)
}

// Registry maps game names to entries. It is safe for concurrent use.
type Registry struct {
	mu      sync.RWMutex
	entries map[string]Entry
}

// Default is the registry games add themselves to from their package init.
var Default = &Registry{}

var nameRE = regexp.MustCompile(`^[a-z][a-z0-9]*(/[a-z0-9][a-z0-9-]*)?$`)

// Register adds e to r. It panics if the name is malformed, already taken, or
// a constructor is missing, if e's Kit is not comparable, or if another name
// of the same base game carries another Kit: registration happens in init
// functions, where a mistake is a programming error. What a Kit brings is
// checked by the tools that ask for it.
func (r *Registry) Register(e Entry) {
	if !nameRE.MatchString(e.Name) {
		panic(fmt.Sprintf("env: Register: malformed game name %q", e.Name))
	}
	if e.NewConfig == nil || e.New == nil || e.Rules == nil {
		panic(fmt.Sprintf("env: Register %q: NewConfig, New and Rules are required", e.Name))
	}
	if e.Kit != nil && !reflect.TypeOf(e.Kit).Comparable() {
		panic(fmt.Sprintf("env: Register %q: its Kit, a %T, is not comparable", e.Name, e.Kit))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.entries == nil {
		r.entries = make(map[string]Entry)
	}
	if _, dup := r.entries[e.Name]; dup {
		panic(fmt.Sprintf("env: Register: game %q registered twice", e.Name))
	}
	// Check against the others in name order, so that a conflict with
	// several of them always names the same one.
	for _, name := range slices.Sorted(maps.Keys(r.entries)) {
		o := r.entries[name]
		if BaseGame(o.Name) == BaseGame(e.Name) && o.Kit != e.Kit {
			panic(fmt.Sprintf("env: Register %q: its Kit is not the one %q registered (every name of a game shares one Kit)", e.Name, o.Name))
		}
	}
	r.entries[e.Name] = e
}

// Register adds each entry to the [Default] registry, in order.
func Register(entries ...Entry) {
	for _, e := range entries {
		Default.Register(e)
	}
}

// Preset is one registry name of a game ("bomberman/12p"): the name, its
// one-line summary and its default config ([Entry.NewConfig]).
type Preset[C Config] struct {
	Name    string
	Summary string
	// Config returns a new default config for the name.
	Config func() C
}

// Presets returns one [Entry] per preset of a game whose registry names
// differ only in name, summary and default config: every entry takes its
// rules from rules and its envs from newGame (given the registry name, for
// the env's Spec), and carries kit. The entries' Rules and New panic on a
// config of another type than C, as a game's own would; newGame's error
// is returned as it is, its env as an [Env] (nil with an error).
func Presets[C Config, E Env](presets []Preset[C], rules func(C) string, newGame func(name string, cfg C) (E, error), kit any) []Entry {
	entries := make([]Entry, len(presets))
	for i, p := range presets {
		entries[i] = Entry{
			Name:      p.Name,
			Summary:   p.Summary,
			Rules:     func(c Config) string { return rules(c.(C)) },
			NewConfig: func() Config { return p.Config() },
			New: func(c Config) (Env, error) {
				e, err := newGame(p.Name, c.(C))
				if err != nil {
					return nil, err
				}
				return e, nil
			},
			Kit: kit,
		}
	}
	return entries
}

// BaseGame returns the game a registry name belongs to: the part before
// the first '/' ("bomberman/12p" → "bomberman").
func BaseGame(name string) string {
	base, _, _ := strings.Cut(name, "/")
	return base
}

// Names returns the registered names, sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.entries))
	for n := range r.entries {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Lookup returns the entry registered under name. The error wraps
// [ErrUnknownGame] and lists the valid names.
func (r *Registry) Lookup(name string) (Entry, error) {
	r.mu.RLock()
	e, ok := r.entries[name]
	r.mu.RUnlock()
	if !ok {
		return Entry{}, fmt.Errorf("%w %q (valid: %s)", ErrUnknownGame, name, strings.Join(r.Names(), ", "))
	}
	return e, nil
}

// Config returns name's default config with the JSON object config applied
// over it, validated. An empty or "null" config means the defaults. Unknown
// fields are errors, which list the valid fields.
func (r *Registry) Config(name string, config []byte) (Config, error) {
	e, err := r.Lookup(name)
	if err != nil {
		return nil, err
	}
	cfg := e.NewConfig()
	config = bytes.TrimSpace(config)
	if len(config) > 0 && !bytes.Equal(config, []byte("null")) {
		if err := DecodeJSON(config, cfg); err != nil {
			msg := strings.TrimPrefix(err.Error(), "json: ")
			return nil, fmt.Errorf("%s: config: %s%s", name, msg, unknownFieldHint(cfg, config, msg))
		}
	}
	if err := cfg.Validate(); err != nil {
		var ce *ConfigError
		if errors.As(err, &ce) && ce.Game != name {
			// Report the name the user asked for, not the base game.
			c := *ce
			c.Game = name
			return nil, &c
		}
		return nil, err
	}
	return cfg, nil
}

// Make returns a new env of the named game with the JSON object config
// applied over the game's defaults (see [Registry.Config]).
func (r *Registry) Make(name string, config []byte) (Env, error) {
	cfg, err := r.Config(name, config)
	if err != nil {
		return nil, err
	}
	e, _ := r.Lookup(name)
	return e.New(cfg)
}

// Make makes an env from the [Default] registry.
func Make(name string, config []byte) (Env, error) { return Default.Make(name, config) }

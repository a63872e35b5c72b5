package env

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"regexp"
	"slices"
	"strings"
)

// Kit is what a game brings to botarena besides its envs: its built-in
// agents and reference bot, its training defaults, its console keys, and
// what `botarena play` adds for it (flags, leaderboard fields, replay
// layout). A game's package fills one Kit and sets it on the [Entry] of
// every one of its registry names, so that nothing outside the package
// keeps a table keyed by the game's name. Every field is optional; the zero
// Kit is a game with only the generic agents and no extras. The rest of
// what a game brings is on its [Entry] (Rules, NewConfig, New) and its env
// (the native codec, and its picture through [Painter]).
//
// [Registry.Register] checks the Kit and panics on a mistake (an unknown
// reference bot, a flag for a field the config lacks, a preset with another
// Kit than its base game), so that a missing piece fails at start-up, not
// silently in a table lookup. A Kit must not be modified once registered.
type Kit struct {
	// Agents are the game's built-in agents: the original competition's
	// reference and example bots, and scripted players. Their names are
	// distinct, lower case ([a-z][a-z0-9-]*), and not those of the generic
	// agents every game has (package agents: idle, random, console).
	Agents []AgentInfo

	// Reference names the agent of Agents that training plays against by
	// default: the original competition's reference or example bot, or,
	// where that bot is too weak for a win against it to mean anything
	// (one that random or idle beat), a stronger built-in agent. It is
	// required when Agents is not empty.
	Reference string

	// Opponents are the fixed, scripted members of a self-play league
	// (training opponents), strongest first: names of Agents or of the
	// generic agents. Empty means the reference bot alone.
	Opponents []string

	// Gauntlet lists the agents of the game's gauntlet, the ones
	// `botarena tournament GAME --gauntlet` plays against each other
	// (every pairing, every seating): agent specs, each a name of Agents
	// or of a generic agent, or a committed trained policy as
	// "policy:PATH[?OPTIONS]" with PATH relative to the repository's root
	// (policies/...). A policy plays only the presets whose observations
	// it was trained on; the tournament leaves out, with a note, an entry
	// that cannot be made for the registry name it plays. Empty means
	// Opponents.
	Gauntlet []string

	// Training holds the defaults a trainer uses for the game.
	Training Training

	// ConsoleKeys are the original's console controls, where it had
	// console players: a key typed on a line of its own (lower case; the
	// console lower-cases what the player types) and the action it stands
	// for. A line that is not a key is read as a native command.
	ConsoleKeys map[string]int32

	// ConsoleHelp describes the commands a console player may type, on
	// one line (keys and native commands); empty means the generic
	// "type a native command". It is required with ConsoleKeys.
	ConsoleHelp string

	// Flags are the `botarena play` flags that set a field of the game's
	// config. A flag name may be shared by several games with the same
	// type; each maps it to its own field.
	Flags []Flag

	// Leaderboard returns the fields `botarena play` adds to seat's entry
	// of the leaderboard, after the common ones (rank, seat, agent, name,
	// score, alive), in order; nil for a seat out of range or an env of
	// another game. Nil means none. It reads e and does not modify it.
	Leaderboard func(e Env, seat int) []Field

	// Replay makes the writer of the original's replay layout for one
	// match: dir is the match's folder (DIR/<seed>), seats the agents in
	// seat order (see [BotDescriber]). `botarena play --replays` calls the
	// writer with the state at the start of every round and a last time
	// with the final state once the env is Done; it may keep what it needs
	// between calls. Nil means the generic layout,
	// DIR/<seed>/<round>/<native format files>.
	Replay func(dir string, seats []Agent) func(e Env, round int) error

	// Legend lists the marks of the game's picture ([Painter]) and what
	// they stand for, in the order a key lists them (seat colours apart:
	// every game draws seat k in [SeatColor](k)); nil means none. Viewers
	// draw it as the game's key.
	Legend []LegendEntry

	// ReplayStates reads a match folder written by Replay back: it returns
	// the paths in fsys (the match's folder, DIR/<seed>) of the files that
	// hold the full state in the canonical native format, one per state,
	// in the order of the match. It is required with Replay, for the
	// viewer's replays; the generic layout is read by [ReplayStates].
	ReplayStates func(fsys fs.FS) ([]string, error)
}

// AgentInfo is one built-in agent of a game (see [Kit.Agents]).
type AgentInfo struct {
	// Name is the name agents are asked for by ("reference").
	Name string
	// Summary is a one-line description for listings.
	Summary string
	// New makes the agent for envs of spec; it returns an error for a spec
	// of another game.
	New AgentFactory
}

// Training is a game's defaults for a trainer (botarena.train): the
// network, the config fields that shape its reward, and the PPO
// hyperparameters the game needs other values of. The zero value means the
// trainer's own defaults, and so does the zero value of each field.
type Training struct {
	// Channels are the output channels of the convolution layers, in
	// order.
	Channels []int `json:"channels"`
	// Strides are the convolution strides, one per layer of Channels.
	Strides []int `json:"strides"`
	// Hidden is the width of the fully connected trunk.
	Hidden int `json:"hidden"`
	// Config holds config fields (JSON names and values) applied over the
	// game's defaults for training, such as reward shaping; evaluation
	// plays the unshaped game.
	Config map[string]any `json:"config"`
	// Gamma is the discount, in (0, 1]; 0 means the trainer's default
	// (0.99). The trainer's --gamma flag overrides it.
	Gamma float64 `json:"gamma"`
	// EntCoef is the coefficient of the entropy bonus in the PPO loss, 0
	// or more; 0 means the trainer's default (0.01), so a game cannot
	// turn the bonus off here (the trainer's --ent-coef 0 can). The
	// trainer's --ent-coef flag overrides it.
	EntCoef float64 `json:"ent_coef"`
}

// IsZero reports whether t is the zero Training: a game without training
// defaults, for which the trainer uses its own.
func (t *Training) IsZero() bool {
	return len(t.Channels) == 0 && len(t.Strides) == 0 && t.Hidden == 0 && len(t.Config) == 0 && t.Gamma == 0 && t.EntCoef == 0
}

// Flag is a `botarena play` flag that sets one field of a game's config,
// such as --edge for Battle³ (see [Kit.Flags]).
type Flag struct {
	// Name is the flag's name without dashes ("max-ticks").
	Name string
	// Field is the JSON name of the config field it sets ("max_ticks"):
	// an integer field for an Int flag, else a string field.
	Field string
	// Usage is the flag's one-line help.
	Usage string
	// Int makes it an integer flag; otherwise it takes a string.
	Int bool
}

// Field is one extra field of a leaderboard entry (see [Kit.Leaderboard]):
// its JSON name and a value encoding/json can write.
type Field struct {
	Name  string
	Value any
}

// BotDescriber is implemented by agents that stand for a competition bot
// with a description of its own (an Entelect bot folder's bot.json), so
// that a game's replay can describe the player as the original harness
// did. Seats played by other agents have no such description.
type BotDescriber interface {
	DescribeBot() BotDescription
}

// BotDescription describes a competition bot as its metadata does. A nil
// string is a field the metadata leaves out.
type BotDescription struct {
	Author, NickName, Email *string
	BotType                 string // the bot's language or runtime, as the metadata names it ("Python3")
}

// agentNameRE and flagNameRE are the forms of agent and flag names.
var (
	agentNameRE = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	flagNameRE  = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
)

// Agent returns the built-in agent named name, and whether there is one.
// It is safe to call on a nil Kit.
func (k *Kit) Agent(name string) (AgentInfo, bool) {
	if k == nil {
		return AgentInfo{}, false
	}
	for _, a := range k.Agents {
		if a.Name == name {
			return a, true
		}
	}
	return AgentInfo{}, false
}

// GauntletAgents returns the agent specs of the game's gauntlet: Gauntlet,
// or Opponents when it is empty, or the Reference bot alone when both are.
// It is safe to call on a nil Kit (nil).
func (k *Kit) GauntletAgents() []string {
	switch {
	case k == nil:
		return nil
	case len(k.Gauntlet) > 0:
		return k.Gauntlet
	case len(k.Opponents) > 0:
		return k.Opponents
	case k.Reference != "":
		return []string{k.Reference}
	}
	return nil
}

// check returns what is wrong with k as the kit of e, or nil. Only the
// parts that depend on nothing else are checked here; the registry checks
// that presets share their base game's kit and that flag names keep one
// type across games.
func (k *Kit) check(e Entry) error {
	var names []string
	for _, a := range k.Agents {
		switch {
		case !agentNameRE.MatchString(a.Name):
			return fmt.Errorf("agent name %q: want lower case letters, digits and '-'", a.Name)
		case slices.Contains(names, a.Name):
			return fmt.Errorf("agent %q listed twice", a.Name)
		case a.New == nil:
			return fmt.Errorf("agent %q has no New", a.Name)
		case strings.TrimSpace(a.Summary) == "":
			return fmt.Errorf("agent %q has no Summary", a.Name)
		}
		names = append(names, a.Name)
	}
	if len(k.Agents) > 0 && k.Reference == "" {
		return fmt.Errorf("no Reference among the Agents")
	}
	if k.Reference != "" && !slices.Contains(names, k.Reference) {
		return fmt.Errorf("reference %q is not one of the Agents (%s)", k.Reference, strings.Join(names, ", "))
	}
	for i, o := range k.Opponents {
		if !agentNameRE.MatchString(o) || slices.Contains(k.Opponents[:i], o) {
			return fmt.Errorf("opponent %q is malformed or listed twice", o)
		}
	}
	for i, g := range k.Gauntlet {
		if slices.Contains(k.Gauntlet[:i], g) {
			return fmt.Errorf("gauntlet entry %q listed twice", g)
		}
		if path, ok := strings.CutPrefix(g, "policy:"); ok {
			if path, _, _ = strings.Cut(path, "?"); path == "" || strings.HasPrefix(path, "/") {
				return fmt.Errorf("gauntlet entry %q: want policy:PATH with PATH relative to the repository's root", g)
			}
			continue
		}
		if !agentNameRE.MatchString(g) {
			return fmt.Errorf("gauntlet entry %q: want an agent name or policy:PATH", g)
		}
	}
	if err := k.Training.check(e); err != nil {
		return fmt.Errorf("training: %w", err)
	}
	if len(k.ConsoleKeys) > 0 && strings.TrimSpace(k.ConsoleHelp) == "" {
		return fmt.Errorf("no ConsoleHelp for the ConsoleKeys")
	}
	for _, l := range k.Legend {
		if !slices.Contains(LegendMarks, l.Mark) || strings.TrimSpace(l.Meaning) == "" {
			return fmt.Errorf("legend entry %q: want a mark of %v and a meaning", l.Meaning, LegendMarks)
		}
	}
	if (k.Replay == nil) != (k.ReplayStates == nil) {
		return fmt.Errorf("a Replay writer needs its ReplayStates reader, and the other way round")
	}
	if strings.ContainsAny(k.ConsoleHelp, "\n\r") {
		return fmt.Errorf("console help: want one line")
	}
	for key, a := range k.ConsoleKeys {
		if key == "" || key != strings.ToLower(strings.TrimSpace(key)) || key == "?" || key == "help" || a < 0 {
			return fmt.Errorf("console key %q (action %d): want a trimmed lower-case key other than ? and help, and an action >= 0", key, a)
		}
	}
	fields, err := ConfigSchema(e.NewConfig())
	if err != nil {
		return err
	}
	for i, f := range k.Flags {
		if !flagNameRE.MatchString(f.Name) || slices.ContainsFunc(k.Flags[:i], func(g Flag) bool { return g.Name == f.Name }) {
			return fmt.Errorf("flag --%s: malformed or listed twice", f.Name)
		}
		want := "string"
		if f.Int {
			want = "integer"
		}
		j := slices.IndexFunc(fields, func(c ConfigField) bool { return c.Name == f.Field })
		if j < 0 || fields[j].Type != want {
			return fmt.Errorf("flag --%s: the config has no %s field %q", f.Name, want, f.Field)
		}
	}
	return nil
}

// check returns what is wrong with t for the game of e: layers without a
// stride each, sizes below 1, a discount outside (0, 1], a negative (or
// not finite) entropy coefficient, or config fields the game's config
// rejects.
func (t *Training) check(e Entry) error {
	if len(t.Channels) != len(t.Strides) {
		return fmt.Errorf("%d Channels but %d Strides", len(t.Channels), len(t.Strides))
	}
	for i := range t.Channels {
		if t.Channels[i] < 1 || t.Strides[i] < 1 {
			return fmt.Errorf("layer %d: channels %d, stride %d: want 1 or more", i, t.Channels[i], t.Strides[i])
		}
	}
	if t.Hidden < 0 || (t.Hidden == 0) != (len(t.Channels) == 0) {
		return fmt.Errorf("hidden %d: want 1 or more with Channels, 0 without", t.Hidden)
	}
	if !(t.Gamma >= 0 && t.Gamma <= 1) { // also rejects NaN
		return fmt.Errorf("gamma %v: want a discount in (0, 1], or 0 for the trainer's default", t.Gamma)
	}
	if !(t.EntCoef >= 0 && t.EntCoef <= math.MaxFloat64) { // also rejects NaN and +Inf
		return fmt.Errorf("ent_coef %v: want a finite coefficient >= 0 (0 for the trainer's default)", t.EntCoef)
	}
	if len(t.Config) == 0 {
		return nil
	}
	data, err := json.Marshal(t.Config)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	cfg := e.NewConfig()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(cfg); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return nil
}

// Package training is what a game tells a trainer (botarena.train) by
// default: the bot to train against, the fixed members of a self-play
// league, the network and the hyperparameters the game needs other values
// of. A game's kit implements [Game]; the env service sends the defaults
// to trainers with the game's description (ListGames), and the tournament
// falls back to the opponents for a game without a gauntlet.
package training

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/botarena/botarena/env"
)

// Game is implemented by the kit of a game (its [env.Entry] Kit) that has
// training defaults. [Of] asks a registry entry for them.
type Game interface {
	// Training returns the game's defaults; the result is shared and must
	// not be modified.
	Training() Defaults
}

// Of returns the training defaults of the game whose registry entry is e;
// a game whose kit does not implement [Game] has the zero Defaults.
func Of(e env.Entry) Defaults {
	if g, ok := e.Kit.(Game); ok {
		return g.Training()
	}
	return Defaults{}
}

// Defaults are a game's defaults for a trainer. The zero value means the
// trainer's own defaults, and so does the zero value of each field.
type Defaults struct {
	// Reference names the agent training plays against by default: the
	// original competition's reference or example bot, or, where that bot
	// is too weak for a win against it to mean anything (one that random
	// or idle beat), a stronger built-in agent. It is required when the
	// game has built-in agents, and must be one of them.
	Reference string

	// Opponents are the fixed, scripted members of a self-play league
	// (training opponents), strongest first: names of the game's agents
	// or of the generic agents. Empty means the reference bot alone.
	Opponents []string

	// Channels are the output channels of the convolution layers, in
	// order.
	Channels []int
	// Strides are the convolution strides, one per layer of Channels.
	Strides []int
	// Hidden is the width of the fully connected trunk.
	Hidden int
	// Config holds config fields (JSON names and values) applied over the
	// game's defaults for training, such as reward shaping; evaluation
	// plays the unshaped game.
	Config map[string]any
	// Gamma is the discount, in (0, 1]; 0 means the trainer's default
	// (0.99). The trainer's --gamma flag overrides it.
	Gamma float64
	// EntCoef is the coefficient of the entropy bonus in the PPO loss, 0
	// or more; 0 means the trainer's default (0.01), so a game cannot
	// turn the bonus off here (the trainer's --ent-coef 0 can). The
	// trainer's --ent-coef flag overrides it.
	EntCoef float64
}

// Tuned reports whether d sets any of the network, the training config or
// the hyperparameters; a game whose defaults are not tuned gets the
// trainer's own, whatever its Reference and Opponents.
func (d *Defaults) Tuned() bool {
	return len(d.Channels) > 0 || len(d.Strides) > 0 || d.Hidden != 0 || len(d.Config) > 0 || d.Gamma != 0 || d.EntCoef != 0
}

// agentNameRE is the form of an agent name.
var agentNameRE = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

// Check returns what is wrong with d as the defaults of the game whose
// registry entry is e and whose built-in agents are named agents: a
// Reference missing or not among agents, an opponent malformed or listed
// twice, layers without a stride each, sizes below 1, a discount outside
// (0, 1], a negative (or not finite) entropy coefficient, or config fields
// the game's config rejects.
func Check(d Defaults, e env.Entry, agents []string) error {
	if len(agents) > 0 && d.Reference == "" {
		return fmt.Errorf("no Reference among the agents")
	}
	if d.Reference != "" && !slices.Contains(agents, d.Reference) {
		return fmt.Errorf("reference %q is not one of the agents (%s)", d.Reference, strings.Join(agents, ", "))
	}
	for i, o := range d.Opponents {
		if !agentNameRE.MatchString(o) || slices.Contains(d.Opponents[:i], o) {
			return fmt.Errorf("opponent %q is malformed or listed twice", o)
		}
	}
	if len(d.Channels) != len(d.Strides) {
		return fmt.Errorf("%d Channels but %d Strides", len(d.Channels), len(d.Strides))
	}
	for i := range d.Channels {
		if d.Channels[i] < 1 || d.Strides[i] < 1 {
			return fmt.Errorf("layer %d: channels %d, stride %d: want 1 or more", i, d.Channels[i], d.Strides[i])
		}
	}
	if d.Hidden < 0 || (d.Hidden == 0) != (len(d.Channels) == 0) {
		return fmt.Errorf("hidden %d: want 1 or more with Channels, 0 without", d.Hidden)
	}
	if !(d.Gamma >= 0 && d.Gamma <= 1) { // also rejects NaN
		return fmt.Errorf("gamma %v: want a discount in (0, 1], or 0 for the trainer's default", d.Gamma)
	}
	if !(d.EntCoef >= 0 && d.EntCoef <= math.MaxFloat64) { // also rejects NaN and +Inf
		return fmt.Errorf("ent_coef %v: want a finite coefficient >= 0 (0 for the trainer's default)", d.EntCoef)
	}
	if len(d.Config) == 0 {
		return nil
	}
	data, err := json.Marshal(d.Config)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	cfg := e.NewConfig()
	if err := env.DecodeJSON(data, cfg); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return nil
}

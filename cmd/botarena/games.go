package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
)

func newGamesCmd(c *cli) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "games [GAME]",
		Short: "List the games with their seats, observations, actions and config fields",
		Long: "games lists every registered game (and preset) with its default configuration:\n" +
			"seats, observation tensors (dtype and shape), number of actions, step cap and summary.\n" +
			"With GAME it prints that game alone, with a table of its config fields (name, JSON type,\n" +
			"default, allowed values, meaning), the fields --config and CreatePool's config take.\n" +
			"With --json it prints one JSON object per game (JSON Lines), config fields included.",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return fmt.Errorf("games: want at most one GAME argument, got %d", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				return c.game(args[0], asJSON)
			}
			return c.games(asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON Lines, one object per game")
	return cmd
}

// gameInfo is one line of `games --json`.
type gameInfo struct {
	Name         string       `json:"name"`
	Summary      string       `json:"summary"`
	Seats        int          `json:"seats"`
	Observations []tensorInfo `json:"observations"`
	Actions      int          `json:"actions"`
	ActionNames  []string     `json:"action_names"`
	MaxSteps     int          `json:"max_steps"`
	Reward       string       `json:"reward"`
	Agents       []string     `json:"agents"`
	// AgentSummaries describes each of Agents in one line.
	AgentSummaries map[string]string `json:"agent_summaries"`
	// Reference is the game's reference bot, the default training
	// opponent ("" for a game without built-in agents).
	Reference string `json:"reference"`
	// Opponents are the fixed members of a self-play league.
	Opponents []string `json:"opponents"`
	// Training is the game's training defaults; null for none.
	Training *env.Training `json:"training"`
	Config   []configField `json:"config"`
}

type tensorInfo struct {
	Name   string `json:"name"`
	DType  string `json:"dtype"`
	Shape  []int  `json:"shape"`
	Layout string `json:"layout"`
}

// configField is one field of a game's config (see [env.ConfigField]).
type configField struct {
	Name    string          `json:"name"`
	Type    string          `json:"type"`
	Default json.RawMessage `json:"default"`
	Allowed string          `json:"allowed"`
	Doc     string          `json:"doc"`
}

// gameInfo describes the registered game name with its default config.
func (c *cli) gameInfo(name string) (gameInfo, error) {
	entry, err := c.reg.Lookup(name)
	if err != nil {
		return gameInfo{}, err
	}
	e, err := c.reg.Make(name, nil)
	if err != nil {
		return gameInfo{}, fmt.Errorf("games: %s: %w", name, err)
	}
	fields, err := c.reg.ConfigFields(name)
	if err != nil {
		return gameInfo{}, fmt.Errorf("games: %s: %w", name, err)
	}
	spec := e.Spec()
	kit := gameKit(c.reg, name)
	info := gameInfo{
		Name: name, Summary: entry.Summary, Seats: spec.Seats, Actions: spec.Actions,
		ActionNames: spec.ActionNames, MaxSteps: spec.MaxSteps, Reward: spec.Reward,
		Agents: agents.Names(name), AgentSummaries: map[string]string{},
		Reference: kit.Reference, Opponents: kit.Opponents, Config: []configField{},
	}
	for _, a := range info.Agents {
		info.AgentSummaries[a], _ = agents.Summary(name, a)
	}
	if info.Opponents == nil {
		info.Opponents = []string{}
	}
	if t := kit.Training; !t.IsZero() {
		info.Training = &t
	}
	for _, t := range spec.Obs {
		info.Observations = append(info.Observations, tensorInfo{t.Name, t.DType.String(), t.Shape, t.Layout})
	}
	for _, f := range fields {
		info.Config = append(info.Config, configField{f.Name, f.Type, f.Default, f.Allowed, f.Doc})
	}
	return info, nil
}

// observations formats info's tensors as "name dtype[shape], ...".
func (info *gameInfo) observations() string {
	var obs []string
	for _, t := range info.Observations {
		obs = append(obs, fmt.Sprintf("%s %s%s", t.Name, t.DType, env.Tensor{Shape: t.Shape}.ShapeString()))
	}
	return strings.Join(obs, ", ")
}

func (c *cli) games(asJSON bool) error {
	var infos []gameInfo
	for _, name := range c.reg.Names() {
		info, err := c.gameInfo(name)
		if err != nil {
			return err
		}
		infos = append(infos, info)
	}
	if asJSON {
		enc := json.NewEncoder(c.stdout)
		for _, info := range infos {
			if err := enc.Encode(info); err != nil {
				return err
			}
		}
		return nil
	}
	w := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "GAME\tSEATS\tOBSERVATIONS\tACTIONS\tMAX STEPS\tSUMMARY")
	for _, info := range infos {
		fmt.Fprintf(w, "%s\t%d\t%s\t%d\t%d\t%s\n", info.Name, info.Seats, info.observations(), info.Actions, info.MaxSteps, info.Summary)
	}
	return w.Flush()
}

// maxActionNames is how many action names `games GAME` prints before it
// abbreviates the list.
const maxActionNames = 16

// hyperparameters is the end of the training line for the PPO
// hyperparameters t sets (", gamma 0.95, ent_coef 0.02"); those it leaves
// at 0 are the trainer's defaults and are not shown.
func hyperparameters(t *env.Training) string {
	var s string
	if t.Gamma != 0 {
		s += fmt.Sprintf(", gamma %g", t.Gamma)
	}
	if t.EntCoef != 0 {
		s += fmt.Sprintf(", ent_coef %g", t.EntCoef)
	}
	return s
}

// game prints one game: its info, then a table of its config fields.
func (c *cli) game(name string, asJSON bool) error {
	info, err := c.gameInfo(name)
	if err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(c.stdout).Encode(info)
	}
	actions := fmt.Sprint(info.Actions)
	if names := info.ActionNames; len(names) > 0 {
		if len(names) > maxActionNames {
			names = append(names[:maxActionNames:maxActionNames], "...")
		}
		actions += " (" + strings.Join(names, ", ") + ")"
	}
	agentNames := strings.Join(info.Agents, ", ")
	if agentNames == "" {
		agentNames = "none"
	}
	w := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "game\t%s\n", info.Name)
	fmt.Fprintf(w, "summary\t%s\n", info.Summary)
	fmt.Fprintf(w, "seats\t%d\n", info.Seats)
	fmt.Fprintf(w, "observations\t%s\n", info.observations())
	fmt.Fprintf(w, "actions\t%s\n", actions)
	fmt.Fprintf(w, "max steps\t%d\n", info.MaxSteps)
	fmt.Fprintf(w, "reward\t%s\n", oneLine(info.Reward))
	fmt.Fprintf(w, "agents\t%s\n", agentNames)
	if info.Reference != "" {
		fmt.Fprintf(w, "reference\t%s\n", info.Reference)
	}
	if len(info.Opponents) > 0 {
		fmt.Fprintf(w, "opponents\t%s\n", strings.Join(info.Opponents, ", "))
	}
	if t := info.Training; t != nil {
		config, _ := json.Marshal(t.Config)
		fmt.Fprintf(w, "training\tconv channels %v, strides %v, hidden %d, config %s%s\n", t.Channels, t.Strides, t.Hidden, config, hyperparameters(t))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(c.stdout)
	fmt.Fprintln(c.stdout, "agents:")
	w = tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "AGENT\tSUMMARY")
	for _, a := range info.Agents {
		fmt.Fprintf(w, "%s\t%s\n", a, info.AgentSummaries[a])
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(c.stdout)
	if len(info.Config) == 0 {
		_, err := fmt.Fprintln(c.stdout, "config: no fields")
		return err
	}
	fmt.Fprintf(c.stdout, "config fields (the --config JSON object; defaults of %s):\n", info.Name)
	w = tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "FIELD\tTYPE\tDEFAULT\tALLOWED\tMEANING")
	for _, f := range info.Config {
		allowed := f.Allowed
		if allowed == "" {
			allowed = "any " + f.Type
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", f.Name, f.Type, f.Default, allowed, f.Doc)
	}
	return w.Flush()
}

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/rpc/envproto"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
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
			"With --json it prints one JSON object per game (JSON Lines): ListGames' GameInfo message\n" +
			"(rpc/proto/botarena/v1/env.proto) as protojson with the proto's field names, every field present:\n" +
			"name, summary, spec (seats, observations, actions, ...), agents, agent_summaries, reference_agent,\n" +
			"training_opponents, training, default_config_json and config_fields.",
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

// gameInfo describes the registered game name with its default config:
// ListGames' message (see [envproto.GameInfo]).
func (c *cli) gameInfo(name string) (*botarenav1.GameInfo, error) {
	info, err := envproto.GameInfo(c.reg, name)
	if err != nil && !errors.Is(err, env.ErrUnknownGame) {
		return nil, fmt.Errorf("games: %w", err)
	}
	return info, err
}

// writeJSON prints info as one line of protojson with the proto's field
// names, every field included: the JSON form of ListGames' GameInfo.
func (c *cli) writeJSON(info *botarenav1.GameInfo) error {
	b, err := protojson.MarshalOptions{UseProtoNames: true, EmitUnpopulated: true}.Marshal(info)
	if err != nil {
		return err
	}
	var line bytes.Buffer
	if err := json.Compact(&line, b); err != nil { // protojson's spacing is not stable
		return err
	}
	line.WriteByte('\n')
	_, err = c.stdout.Write(line.Bytes())
	return err
}

// observations formats spec's tensors as "name dtype[shape], ...".
func observations(spec *botarenav1.GameSpec) string {
	var obs []string
	for _, t := range spec.GetObservations() {
		shape := make([]int, len(t.GetShape()))
		for i, d := range t.GetShape() {
			shape[i] = int(d)
		}
		obs = append(obs, fmt.Sprintf("%s %s%s", t.GetName(), t.GetDtype(), env.Tensor{Shape: shape}.ShapeString()))
	}
	return strings.Join(obs, ", ")
}

func (c *cli) games(asJSON bool) error {
	var infos []*botarenav1.GameInfo
	for _, name := range c.reg.Names() {
		info, err := c.gameInfo(name)
		if err != nil {
			return err
		}
		infos = append(infos, info)
	}
	if asJSON {
		for _, info := range infos {
			if err := c.writeJSON(info); err != nil {
				return err
			}
		}
		return nil
	}
	w := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "GAME\tSEATS\tOBSERVATIONS\tACTIONS\tMAX STEPS\tSUMMARY")
	for _, info := range infos {
		spec := info.GetSpec()
		fmt.Fprintf(w, "%s\t%d\t%s\t%d\t%d\t%s\n", info.GetName(), spec.GetSeats(), observations(spec), spec.GetActions(), spec.GetMaxSteps(), info.GetSummary())
	}
	return w.Flush()
}

// maxActionNames is how many action names `games GAME` prints before it
// abbreviates the list.
const maxActionNames = 16

// hyperparameters is the end of the training line for the PPO
// hyperparameters t sets (", gamma 0.95, ent_coef 0.02"); those it leaves
// at 0 are the trainer's defaults and are not shown.
func hyperparameters(t *botarenav1.TrainingDefaults) string {
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
		return c.writeJSON(info)
	}
	spec := info.GetSpec()
	actions := fmt.Sprint(spec.GetActions())
	if names := spec.GetActionNames(); len(names) > 0 {
		if len(names) > maxActionNames {
			names = append(names[:maxActionNames:maxActionNames], "...")
		}
		actions += " (" + strings.Join(names, ", ") + ")"
	}
	agentNames := strings.Join(info.GetAgents(), ", ")
	if agentNames == "" {
		agentNames = "none"
	}
	w := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "game\t%s\n", info.GetName())
	fmt.Fprintf(w, "summary\t%s\n", info.GetSummary())
	fmt.Fprintf(w, "seats\t%d\n", spec.GetSeats())
	fmt.Fprintf(w, "observations\t%s\n", observations(spec))
	fmt.Fprintf(w, "actions\t%s\n", actions)
	fmt.Fprintf(w, "max steps\t%d\n", spec.GetMaxSteps())
	fmt.Fprintf(w, "reward\t%s\n", oneLine(spec.GetReward()))
	fmt.Fprintf(w, "agents\t%s\n", agentNames)
	if ref := info.GetReferenceAgent(); ref != "" {
		fmt.Fprintf(w, "reference\t%s\n", ref)
	}
	if opps := info.GetTrainingOpponents(); len(opps) > 0 {
		fmt.Fprintf(w, "opponents\t%s\n", strings.Join(opps, ", "))
	}
	if t := info.GetTraining(); t != nil {
		fmt.Fprintf(w, "training\tconv channels %v, strides %v, hidden %d, config %s%s\n", t.GetChannels(), t.GetStrides(), t.GetHidden(), t.GetConfigJson(), hyperparameters(t))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(c.stdout)
	fmt.Fprintln(c.stdout, "agents:")
	w = tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "AGENT\tSUMMARY")
	for _, a := range info.GetAgents() {
		fmt.Fprintf(w, "%s\t%s\n", a, info.GetAgentSummaries()[a])
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(c.stdout)
	if len(info.GetConfigFields()) == 0 {
		_, err := fmt.Fprintln(c.stdout, "config: no fields")
		return err
	}
	fmt.Fprintf(c.stdout, "config fields (the --config JSON object; defaults of %s):\n", info.GetName())
	w = tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "FIELD\tTYPE\tDEFAULT\tALLOWED\tMEANING")
	for _, f := range info.GetConfigFields() {
		allowed := f.GetAllowed()
		if allowed == "" {
			allowed = "any " + f.GetType()
		}
		meaning := f.GetDoc()
		if t := f.GetAppends(); t != "" {
			meaning += " (only appends to " + t + ")"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", f.GetName(), f.GetType(), f.GetDefaultJson(), allowed, meaning)
	}
	return w.Flush()
}

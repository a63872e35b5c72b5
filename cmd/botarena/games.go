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
		Use:   "games",
		Short: "List the games with their seats, observations and actions",
		Long: "games lists every registered game (and preset) with its default configuration:\n" +
			"seats, observation tensors (dtype and shape), number of actions, step cap and summary.\n" +
			"With --json it prints one JSON object per game (JSON Lines).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return c.games(asJSON) },
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
}

type tensorInfo struct {
	Name   string `json:"name"`
	DType  string `json:"dtype"`
	Shape  []int  `json:"shape"`
	Layout string `json:"layout"`
}

func (c *cli) games(asJSON bool) error {
	var infos []gameInfo
	for _, name := range c.reg.Names() {
		entry, err := c.reg.Lookup(name)
		if err != nil {
			return err
		}
		e, err := c.reg.Make(name, nil)
		if err != nil {
			return fmt.Errorf("games: %s: %w", name, err)
		}
		spec := e.Spec()
		info := gameInfo{
			Name: name, Summary: entry.Summary, Seats: spec.Seats, Actions: spec.Actions,
			ActionNames: spec.ActionNames, MaxSteps: spec.MaxSteps, Reward: spec.Reward,
			Agents: agents.Names(name),
		}
		for _, t := range spec.Obs {
			info.Observations = append(info.Observations, tensorInfo{t.Name, t.DType.String(), t.Shape, t.Layout})
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
		var obs []string
		for _, t := range info.Observations {
			obs = append(obs, fmt.Sprintf("%s %s%s", t.Name, t.DType, env.Tensor{Shape: t.Shape}.ShapeString()))
		}
		fmt.Fprintf(w, "%s\t%d\t%s\t%d\t%d\t%s\n", info.Name, info.Seats, strings.Join(obs, ", "), info.Actions, info.MaxSteps, info.Summary)
	}
	return w.Flush()
}

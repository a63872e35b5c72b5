package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

func newRulesCmd(c *cli) *cobra.Command {
	var o configFlags
	cmd := &cobra.Command{
		Use:   "rules GAME",
		Short: "Print a game's rules as implemented",
		Long: "rules prints the rules of GAME as botarena implements them, in Markdown, for the\n" +
			"default configuration (or the one given with --players and --config): the original's\n" +
			"--rules printout plus botarena's decisions where the original crashes or is ambiguous.",
		Args: c.gameArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			game := args[0]
			entry, err := c.reg.Lookup(game)
			if err != nil {
				return err
			}
			set := map[string]any{}
			if cmd.Flags().Changed("players") {
				set["players"] = o.players
			}
			data, err := o.json(set)
			if err != nil {
				return err
			}
			cfg, err := c.reg.Config(game, data)
			if err != nil {
				return err
			}
			text := entry.Rules(cfg)
			if !strings.HasSuffix(text, "\n") {
				text += "\n"
			}
			_, err = fmt.Fprint(c.stdout, text)
			return err
		},
	}
	o.add(cmd)
	return cmd
}

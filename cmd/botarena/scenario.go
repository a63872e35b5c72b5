package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/botarena/botarena/env"
)

func newScenarioCmd(c *cli) *cobra.Command {
	return &cobra.Command{
		Use:   "scenario FILE.json",
		Short: "Replay a scenario: a native state and rounds of native commands",
		Long: "scenario reads a scenario file (- for stdin):\n\n" +
			`  {"game": "bomberman", "config": {...}, "seed": 0, "state": <native state>, "rounds": [["1","5"], ...]}` + "\n\n" +
			"and prints, after each round, the native state as seat 0 sees it: one JSON value per\n" +
			"line (a JSON string when the game's native format is text).",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return fmt.Errorf("scenario: want one FILE argument (- for stdin), got %d", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			var data []byte
			var err error
			if name == "-" {
				name = "stdin"
				data, err = io.ReadAll(c.stdin)
			} else {
				data, err = os.ReadFile(name)
			}
			if err != nil {
				return fmt.Errorf("scenario: %w", err)
			}
			s, err := env.ParseScenario(data)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			err = c.reg.RunScenario(s, func(state []byte) error {
				if _, err := c.stdout.Write(state); err != nil {
					return err
				}
				_, err := c.stdout.Write([]byte{'\n'})
				return err
			})
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			return nil
		},
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/botarena/botarena/env"
)

// configFlags are the flags that build a game config: --players and
// --config.
type configFlags struct {
	players int
	config  string
}

func (o *configFlags) add(cmd *cobra.Command) {
	cmd.Flags().IntVar(&o.players, "players", 0, "number of players (seats); the game's default if absent")
	cmd.Flags().StringVar(&o.config, "config", "", `game config as a JSON object, e.g. '{"powerups":"random"}'`)
}

// json returns the --config object with the fields of set put over it.
func (o *configFlags) json(set map[string]any) ([]byte, error) {
	fields := map[string]json.RawMessage{}
	if s := bytes.TrimSpace([]byte(o.config)); len(s) > 0 {
		if err := json.Unmarshal(s, &fields); err != nil {
			return nil, fmt.Errorf("--config: want a JSON object: %v", err)
		}
	}
	for k, v := range set {
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		fields[k] = raw
	}
	if len(fields) == 0 {
		return nil, nil
	}
	return json.Marshal(fields)
}

// hasConfigField reports whether game's config has the JSON field name.
func hasConfigField(reg *env.Registry, game, name string) bool {
	entry, err := reg.Lookup(game)
	if err != nil {
		return false
	}
	data, err := json.Marshal(entry.NewConfig())
	if err != nil {
		return false
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil {
		return false
	}
	_, ok := fields[name]
	return ok
}

package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/botarena/botarena/agents/policy" // also registers the policy: agent scheme
)

func init() {
	extraCommands = append(extraCommands, newPolicyCmd)
}

func newPolicyCmd(c *cli) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "policy",
		Short: "Inspect trained policy files (policy:PATH agents)",
		Long: "policy works with trained policy files (docs/policy-format.md), which play anywhere an agent\n" +
			"is accepted as policy:PATH (arg-max) or policy:PATH?sample.",
	}
	var asJSON bool
	info := &cobra.Command{
		Use:   "info PATH",
		Short: "Print a policy file's architecture and provenance",
		Long: "info loads a policy file, checks it as play would, and prints its game, inputs, layers,\n" +
			"parameter count and provenance (the architecture's trained field). With --json it prints\n" +
			`one object: {"file", "parameters", "architecture"}.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return fmt.Errorf("policy info: want one PATH argument, got %d", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return c.policyInfo(args[0], asJSON) },
	}
	info.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	cmd.AddCommand(info)
	return cmd
}

func (c *cli) policyInfo(path string, asJSON bool) error {
	m, err := policy.Load(path)
	if err != nil {
		return err
	}
	a := m.Architecture()
	if asJSON {
		out, err := json.Marshal(struct {
			File         string              `json:"file"`
			Parameters   int                 `json:"parameters"`
			Architecture policy.Architecture `json:"architecture"`
		}{path, m.Parameters(), a})
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "%s\n", out)
		return nil
	}
	config := "default"
	if len(a.Config) > 0 && string(a.Config) != "null" {
		config = string(a.Config)
	}
	trained := "(none)"
	if len(a.Trained) > 0 && string(a.Trained) != "null" && string(a.Trained) != "{}" {
		trained = string(a.Trained)
	}
	pin, sin := a.Inputs["planes"], a.Inputs["scalars"]
	fmt.Fprintf(c.stdout, "file        %s\n", path)
	fmt.Fprintf(c.stdout, "game        %s (config: %s)\n", a.Game, config)
	fmt.Fprintf(c.stdout, "actions     %d\n", a.Actions)
	fmt.Fprintf(c.stdout, "planes      uint8%s, scale %s\n", shapeList(pin.Shape), floatList(pin.Scale))
	fmt.Fprintf(c.stdout, "scalars     float32%s, scale %s\n", shapeList(sin.Shape), floatList(sin.Scale))
	fmt.Fprintf(c.stdout, "net planes  %s → %d features with the scalars\n", layerList(a.Planes), m.Features())
	fmt.Fprintf(c.stdout, "net trunk   %s\n", layerList(a.Trunk))
	fmt.Fprintf(c.stdout, "net policy  %s\n", layerList(a.Policy))
	fmt.Fprintf(c.stdout, "net value   %s\n", layerList(a.Value))
	fmt.Fprintf(c.stdout, "parameters  %d\n", m.Parameters())
	fmt.Fprintf(c.stdout, "trained     %s\n", trained)
	return nil
}

func layerList(layers []policy.Layer) string {
	parts := make([]string, len(layers))
	for i, l := range layers {
		switch l.Op {
		case policy.OpConv2d, policy.OpConv3d:
			k, s, p := l.Geometry()
			parts[i] = fmt.Sprintf("%s(%d, kernel %d, stride %d, padding %d)", l.Op, l.Out, k, s, p)
		case policy.OpLinear:
			parts[i] = fmt.Sprintf("linear(%d)", l.Out)
		default:
			parts[i] = l.Op
		}
	}
	return strings.Join(parts, ", ")
}

func shapeList(s []int) string {
	return strings.ReplaceAll(fmt.Sprint(s), " ", ",")
}

func floatList(s []float64) string {
	parts := make([]string, len(s))
	for i, v := range s {
		parts[i] = fmt.Sprint(v)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// Command botarena runs botarena's games from the command line: list them
// (games), print their rules (rules), play a match between built-in agents
// (play), replay a scenario file (scenario), measure throughput (bench), rate
// populations of agents (league), serve pools of envs over Connect/gRPC
// to remote trainers (serve), and print its build (version, --version).
//
// Errors are reported on stderr as one line starting with "botarena: ", and
// the exit status is non-zero.
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/cobra"

	_ "github.com/botarena/botarena/agents/all" // links every agent scheme
	"github.com/botarena/botarena/env"
	_ "github.com/botarena/botarena/games" // links every game
	"github.com/botarena/botarena/league"
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// run executes the command line args and returns the exit status: 0 on
// success, 1 on an error (reported on stderr as one line), 2 on an internal
// error (a panic, reported the same way).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdin, stdout, stderr)
}

// runContext is run with a context whose cancellation stops long-running
// commands (serve) as SIGINT and SIGTERM do.
func runContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "botarena: internal error: %s\n", oneLine(fmt.Sprint(r)))
			code = 2
		}
	}()
	root := newRootCmd(&cli{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, reg: env.Default})
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		fmt.Fprintf(stderr, "botarena: %s\n", oneLine(err.Error()))
		return 1
	}
	return 0
}

// extraCommands are subcommands that belong to one game (`tournament` for
// BattleBots ...), added from an init function in that game's file of this
// package so that games do not edit this one.
var extraCommands []func(c *cli) *cobra.Command

// cli holds what every subcommand writes to and reads from.
type cli struct {
	ctx            context.Context // cancelled to stop serve
	stdin          io.Reader
	stdout, stderr io.Writer
	reg            *env.Registry
}

func newRootCmd(c *cli) *cobra.Command {
	root := &cobra.Command{
		Use:           "botarena",
		Short:         "Environments for bot-competition games",
		Long:          "botarena runs bot-competition games (Entelect 2016 Bomberman, ...) as the original engines do:\nlist them, read their rules, play matches between built-in agents, replay scenarios,\nmeasure throughput and serve pools of envs to trainers over Connect/gRPC.",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version().String(), // --version, as `botarena version` prints it
	}
	root.SetVersionTemplate("botarena {{.Version}}\n")
	root.SetIn(c.stdin)
	root.SetOut(c.stdout)
	root.SetErr(c.stderr)
	root.CompletionOptions.HiddenDefaultCmd = true
	root.AddCommand(newGamesCmd(c), newRulesCmd(c), newPlayCmd(c), newScenarioCmd(c), newBenchCmd(c), newServeCmd(c), newVersionCmd(c))
	for _, cmd := range extraCommands {
		root.AddCommand(cmd(c))
	}
	return root
}

// durationsAsText is a slog ReplaceAttr that writes durations as text
// ("1m30s") rather than, in JSON, as nanoseconds.
func durationsAsText(_ []string, a slog.Attr) slog.Attr {
	if a.Value.Kind() == slog.KindDuration {
		a.Value = slog.StringValue(a.Value.Duration().String())
	}
	return a
}

// oneLine folds s onto one line.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}

// drawSeed sets *seed, cmd's --seed, to a random seed below 2³¹
// (league.NewSeed: easy to print and type) when --seed was not given.
func drawSeed(cmd *cobra.Command, seed *uint64) {
	if !cmd.Flags().Changed("seed") {
		*seed = league.NewSeed()
	}
}

// gameArg is a cobra Args check for commands that take one GAME.
func (c *cli) gameArg(cmd *cobra.Command, args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("%s: want one GAME argument, got %d (games: %s)", cmd.Name(), len(args), strings.Join(c.reg.Names(), ", "))
	}
	return nil
}

package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/botarena/botarena/agents/entelect"
	"github.com/botarena/botarena/bots"
	"github.com/botarena/botarena/env"
)

func init() { extraCommands = append(extraCommands, newBotsCmd) }

// botsFlags are the flags bots build and bots list share.
type botsFlags struct {
	cache     string
	recipes   string
	overrides []string
	force     bool
}

func (o *botsFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&o.cache, "cache", "", "where built bots live (default: the user cache folder's botarena/bots, e.g. ~/.cache/botarena/bots)")
	cmd.Flags().StringVar(&o.recipes, "recipes", "", "a folder of more recipes (NAME.json), replacing built-in ones of the same name")
}

// load returns the recipes (built-in and --recipes) and the builder.
func (o *botsFlags) load(c *cli) ([]bots.Recipe, *bots.Builder, error) {
	all, err := bots.Builtin()
	if err != nil {
		return nil, nil, err
	}
	if o.recipes != "" {
		extra, err := bots.LoadDir(o.recipes)
		if err != nil {
			return nil, nil, err
		}
		all = bots.Merge(all, extra)
	}
	cache := o.cache
	if cache == "" {
		if cache, err = bots.DefaultCache(); err != nil {
			return nil, nil, err
		}
	}
	b := &bots.Builder{Cache: cache, Force: o.force, Log: c.stderr, Overrides: map[string]string{}}
	for _, kv := range o.overrides {
		name, repo, ok := strings.Cut(kv, "=")
		if !ok || name == "" || repo == "" {
			return nil, nil, fmt.Errorf("--repo-override: want NAME=REPOSITORY, got %q", kv)
		}
		b.Overrides[name] = repo
	}
	for name := range b.Overrides {
		if _, err := bots.Select(all, []string{name}); err != nil {
			return nil, nil, fmt.Errorf("--repo-override: %w", err)
		}
	}
	return all, b, nil
}

func newBotsCmd(c *cli) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bots",
		Short: "Build public competition bots from recipes, to play them as dir: agents",
		Long: "bots builds public competition bots from recipes (a repository, a pinned commit, a toolchain and\n" +
			"build steps): build clones each at its commit into the cache, builds it and prints the dir: spec\n" +
			"that plays it; list shows the recipes and which are built. No bot's code is in botarena.",
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newBotsBuildCmd(c), newBotsListCmd(c))
	return cmd
}

func newBotsBuildCmd(c *cli) *cobra.Command {
	var o botsFlags
	cmd := &cobra.Command{
		Use:   "build [NAME...]",
		Short: "Clone and build the named recipes' bots (all of them without names) and print their dir: specs",
		Long: "build checks each recipe's toolchain by running it, clones the repository at the recipe's commit\n" +
			"into the cache (git on PATH), runs the build steps there and prints NAME and the bot's dir: spec.\n" +
			"A bot built from the same recipe is not built again unless --force. A failed recipe does not\n" +
			"stop the others; the command fails at the end if any did.",
		Example: "  botarena bots build kabousvlieg-2016-bomberman\n" +
			"  botarena tournament bomberman/2p --agents $(botarena bots build -q kabousvlieg-2016-bomberman),reference --games 10",
		RunE: func(cmd *cobra.Command, names []string) error {
			all, b, err := o.load(c)
			if err != nil {
				return err
			}
			sel, err := bots.Select(all, names)
			if err != nil {
				return err
			}
			quiet, _ := cmd.Flags().GetBool("quiet")
			var failed []string
			for _, r := range sel {
				res, err := b.Build(c.ctx, r)
				if err == nil {
					// The bot folder must be one botarena plays.
					var bot *entelect.Bot
					if bot, err = entelect.NewBot(r.Game, res.Dir); err == nil {
						bot.Close()
					} else {
						err = fmt.Errorf("%s: built, but %w", r.Name, err)
					}
				}
				if err != nil {
					fmt.Fprintf(c.stderr, "botarena: %s\n", err)
					failed = append(failed, r.Name)
					continue
				}
				if quiet {
					fmt.Fprintln(c.stdout, res.Spec())
				} else {
					state := "built"
					if res.Cached {
						state = "cached"
					}
					fmt.Fprintf(c.stdout, "%s\t%s\t%s\n", r.Name, state, res.Spec())
				}
			}
			if len(failed) > 0 {
				return fmt.Errorf("%d of %d recipes failed: %s", len(failed), len(sel), strings.Join(failed, ", "))
			}
			return nil
		},
	}
	o.add(cmd)
	cmd.Flags().StringArrayVar(&o.overrides, "repo-override", nil, "NAME=REPOSITORY: clone recipe NAME from REPOSITORY (a local clone) instead of its URL, at the same commit (repeatable)")
	cmd.Flags().BoolVar(&o.force, "force", false, "build again even where the cache holds a build of the same recipe")
	cmd.Flags().BoolP("quiet", "q", false, "print only the dir: specs, one a line")
	return cmd
}

func newBotsListCmd(c *cli) *cobra.Command {
	var o botsFlags
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the recipes: name, game, toolchain, commit, and the dir: spec of those built",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			all, b, err := o.load(c)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tGAME\tTOOLCHAIN\tCOMMIT\tBUILT\tDESCRIPTION")
			for _, r := range all {
				built := "no"
				if b.Built(r) {
					built = "dir:" + b.BotDir(r)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Name, r.Game, r.Toolchain, r.Commit[:12], built, r.Description)
			}
			return tw.Flush()
		},
	}
	o.add(cmd)
	return cmd
}

// builtPublicBots returns the public bots of game (its base name: a recipe
// for "bomberman" plays every Bomberman preset) among o's recipes (the
// built-in ones and --recipes) that are built in o's cache, as entrants
// named after their recipes, and writes a line on stderr for each one not
// built, with the command that builds it. tournament --public adds them to
// the agents.
func (c *cli) builtPublicBots(game string, o *botsFlags) ([]entrant, error) {
	all, b, err := o.load(c)
	if err != nil {
		return nil, err
	}
	var out []entrant
	for _, r := range all {
		if r.Game != env.BaseGame(game) {
			continue
		}
		if !b.Built(r) {
			fmt.Fprintf(c.stderr, "botarena: --public: leaving out %s: not built in %s (botarena bots build %s)\n", r.Name, b.Cache, r.Name)
			continue
		}
		out = append(out, entrant{name: r.Name, spec: "dir:" + b.BotDir(r)})
	}
	return out, nil
}

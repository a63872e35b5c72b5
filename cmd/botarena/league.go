package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/botarena/botarena/league"
	"github.com/botarena/botarena/rpc/client"
	"github.com/botarena/botarena/rpc/matchservice"
)

func init() { extraCommands = append(extraCommands, newLeagueCmd) }

func newLeagueCmd(c *cli) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "league",
		Short: "Rate a population of bots by playing them against each other",
		Long: "league keeps a population of agents of one game in a directory (one store file, league.db),\n" +
			"plays games between them in parallel, rates them (Glicko-2 with a deviation, and Elo), and\n" +
			"optionally records every step as Parquet for training. Typical use:\n\n" +
			"  botarena league init L --game battlebots --seed 1\n" +
			"  botarena league add L huggy huggy\n" +
			"  botarena league add L pybot 'cmd:python3 bot.py'\n" +
			"  botarena league run L --games 200\n" +
			"  botarena league table L",
	}
	cmd.AddCommand(newLeagueInitCmd(c), newLeagueAddCmd(c), newLeagueRemoveCmd(c), newLeagueRunCmd(c), newLeagueTableCmd(c), newLeagueGamesCmd(c))
	return cmd
}

func newLeagueInitCmd(c *cli) *cobra.Command {
	var game, config string
	var seed uint64
	cmd := &cobra.Command{
		Use:   "init DIR --game GAME [--config JSON] [--seed S]",
		Short: "Make a new league in DIR",
		Long: "init makes a league of GAME in DIR (created if missing): the game, its config (a JSON object over\n" +
			"the game's defaults) and the league seed, from which every game's seed is derived. Without --seed\n" +
			"the seed is random; it is printed.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if game == "" {
				return fmt.Errorf("--game: required (games: %s)", strings.Join(c.reg.Names(), ", "))
			}
			drawSeed(cmd, &seed)
			l, err := league.Create(args[0], league.Settings{Game: game, Config: json.RawMessage(config), Seed: seed}, c.reg)
			if err != nil {
				return err
			}
			defer l.Close()
			fmt.Fprintf(c.stdout, "league %s: game %s, seed %d\n", args[0], game, seed)
			return nil
		},
	}
	cmd.Flags().StringVar(&game, "game", "", "the league's game (botarena games)")
	cmd.Flags().StringVar(&config, "config", "", `game config as a JSON object, e.g. '{"max_rounds":300}'`)
	cmd.Flags().Uint64Var(&seed, "seed", 0, "league seed (random if absent; printed)")
	return cmd
}

func newLeagueAddCmd(c *cli) *cobra.Command {
	var tag string
	cmd := &cobra.Command{
		Use:   "add DIR NAME SPEC",
		Short: "Add an agent to a league",
		Long: "add adds the agent SPEC under NAME: a built-in agent of the league's game (botarena games --json),\n" +
			"or an external bot's spec (cmd:COMMAND, dir:PATH, http://..., and any scheme the agents package\n" +
			"knows, such as policy:PATH for neural snapshots where available). NAME is 1 to 128 letters, digits\n" +
			"and _.+- (starting with a letter or digit); SPEC (at most 4096 bytes) and --tag (at most 128) are\n" +
			"printable characters, without control characters, tabs or line breaks. A league holds at most 1000 agents.",
		Args: cobra.ExactArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			// Checked before the league is opened, as a server checks it.
			if err := league.CheckAgent(league.Agent{Name: args[1], Spec: args[2], Tag: tag}); err != nil {
				return err
			}
			l, err := league.Open(args[0], false)
			if err != nil {
				return err
			}
			defer l.Close()
			return l.AddAgent(league.Agent{Name: args[1], Spec: args[2], Tag: tag})
		},
	}
	cmd.Flags().StringVar(&tag, "tag", "", "a free-form label shown in the table (a training step, a version)")
	return cmd
}

func newLeagueRemoveCmd(c *cli) *cobra.Command {
	return &cobra.Command{
		Use:   "remove DIR NAME",
		Short: "Remove an agent from a league (its games stay in the history)",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			l, err := league.Open(args[0], false)
			if err != nil {
				return err
			}
			defer l.Close()
			return l.RemoveAgent(args[1])
		},
	}
}

type leagueRunFlags struct {
	games     int
	match     string
	target    string
	workers   int
	envsPer   int
	maxRounds int
	data      string
	png       string
	fresh     bool
	asJSON    bool
	servers   []string
	batch     int
	window    int
	externalBotFlags
}

func newLeagueRunCmd(c *cli) *cobra.Command {
	var o leagueRunFlags
	cmd := &cobra.Command{
		Use:   "run DIR --games N [--match round-robin|uniform|pfsp] [--target NAME] [--workers W] [--max-rounds K] [--data DIR] [--servers HOST:PORT,...] [--json]",
		Short: "Play games between the league's agents and update the ratings",
		Long: "run plays N games between the league's agents and stores each finished\n" +
			"game, in game order; ratings (Glicko-2 with rating periods of 64 games, and Elo) are updated as each\n" +
			"period's last game is stored, the unfinished period's games counted provisionally. Game i\n" +
			"has a seed derived from the league seed and i, so results do not depend on --workers, and a run that\n" +
			"was killed (or stopped with Ctrl-C) resumes when started again with the same flags: it plays only the\n" +
			"missing games, with the seeds the whole run would have used.\n\n" +
			"Games of built-in agents and policy files run on vecenv pools: W worker goroutines (--workers),\n" +
			"each with a pool of --envs-per-worker games at once, and a policy's decisions in a worker's games are\n" +
			"computed in one batch. Games with an external bot (cmd:, dir:, http://...) are played one per\n" +
			"goroutine, since the bot may read the players' names from the game's config.\n\n" +
			"--match picks each game's agents: round-robin cycles through every ordered pair (more seats are\n" +
			"filled by cycling through the others); uniform draws them at random; pfsp (prioritised fictitious\n" +
			"self-play) seats --target in every game and draws its opponents with weight (1-p)^2, p being the\n" +
			"target's win rate against them so far (unplayed: 0.5).\n\n" +
			"Afterwards it prints the table and draws DIR/ratings.png (--png elsewhere, --png '' for none).\n" +
			"A progress bar goes to stderr on a terminal, a line every few seconds otherwise; with --json\n" +
			"stdout has only JSON Lines: the table rows, then {\"summary\": true, ...}.\n\n" +
			"--data DIR records every step as Parquet files DIR/games-FIRST-LAST.parquet (one per block of 64\n" +
			"game indices, each written atomically), one row per (game, step, seat), in that order:\n" +
			"  game int64, seed uint64, step int32, seat int32, agent string, action int32, reward float32,\n" +
			"  terminated bool, truncated bool (after the step), label int32 (the action the seat's teacher\n" +
			"  would have taken, for a dagger:TEACHER:STUDENT agent, else the action), then one fixed_size_list column per\n" +
			"  observation tensor (the seat's view before the step; BattleBots: planes uint8 [19,10,10],\n" +
			"  scalars float32 [4]) and mask fixed_size_list<uint8>[actions]; tensor fields carry shape,\n" +
			"  dtype and layout metadata, the schema the game's (see the league package doc).\n\n" +
			"--servers HOST:PORT,... plays the games on those `botarena serve` processes (botarena.v1.MatchService)\n" +
			"instead of in this process; the league store stays here. Each server gets up to --server-window calls\n" +
			"at once, each with up to --server-batch games; a server that fails is dropped and its games are played\n" +
			"on the others (a game is deterministic from its seed, so the results are those of a local run). The\n" +
			"servers must allow agents that are not built in: --bots-dir DIR for dir: and policy: under DIR,\n" +
			"--allow-cmd-bots for cmd:, --allow-http-bots for http:// (docs/operations.md).\n" +
			"With --data the servers send each game's steps back (the same files as a local run); a call then carries\n" +
			"fewer games when their data could pass the 256 MiB message limit. --workers defaults to 64 (a block of\n" +
			"games) with --servers. The coordinator sends the token in BOTARENA_AUTH_TOKEN to the servers, if set;\n" +
			"give https://HOST:PORT for servers that serve TLS.\n" +
			"See docs/scale-out.md for Kubernetes and Ray.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("png") {
				o.png = filepath.Join(args[0], "ratings.png")
			}
			if err := o.externalBotFlags.apply(c.stderr); err != nil {
				return err
			}
			return c.leagueRun(args[0], &o)
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.games, "games", 0, "number of games to play (required)")
	f.StringVar(&o.match, "match", string(league.RoundRobin), "matchmaking: round-robin, uniform or pfsp")
	f.StringVar(&o.target, "target", "", "with --match pfsp: the agent to find opponents for")
	f.IntVar(&o.workers, "workers", 0, "worker goroutines (default GOMAXPROCS; with --servers: games in flight, default 64)")
	f.IntVar(&o.envsPer, "envs-per-worker", league.DefaultEnvsPerWorker, "games each worker plays at once (their policies' decisions are batched)")
	f.IntVar(&o.maxRounds, "max-rounds", 0, "end every game after K rounds (0: play to the end)")
	f.StringVar(&o.data, "data", "", "write per-step match data as Parquet files into this directory")
	f.StringVar(&o.png, "png", "", "ratings chart to write after the run (default DIR/ratings.png; '' for none)")
	f.BoolVar(&o.fresh, "fresh", false, "abandon an unfinished run with other flags instead of refusing")
	f.BoolVar(&o.asJSON, "json", false, "print JSON Lines: the table rows, then a summary line")
	f.StringSliceVar(&o.servers, "servers", nil, "play the games on these botarena serve processes (HOST:PORT or URL, comma-separated)")
	f.IntVar(&o.batch, "server-batch", matchservice.DefaultRemoteBatch, "with --servers: most games per call")
	f.IntVar(&o.window, "server-window", matchservice.DefaultRemoteWindow, "with --servers: calls in flight per server")
	o.externalBotFlags.add(f)
	return cmd
}

// syncWriter serialises writes from several goroutines (external bots'
// fault lines from the workers).
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func (c *cli) leagueRun(dir string, o *leagueRunFlags) error {
	if o.games < 1 {
		return fmt.Errorf("--games: want 1 or more, got %d", o.games)
	}
	l, err := league.Open(dir, false)
	if err != nil {
		return err
	}
	defer l.Close()
	if o.envsPer < 1 {
		return fmt.Errorf("--envs-per-worker: want 1 or more, got %d", o.envsPer)
	}
	var runner league.Runner = &league.PoolRunner{Registry: c.reg, Log: &syncWriter{w: c.stderr}, EnvsPerWorker: o.envsPer}
	workers := o.workers
	var remote *matchservice.RemoteRunner
	if len(o.servers) > 0 {
		remote, err = matchservice.NewRemoteRunner(o.servers, matchservice.WithRemoteBatch(o.batch), matchservice.WithRemoteWindow(o.window), matchservice.WithRemoteRegistry(c.reg),
			matchservice.WithRemoteClientOptions(client.WithToken(strings.TrimSpace(os.Getenv(authTokenEnv))))) // the servers' token (serve.go)
		if err != nil {
			return fmt.Errorf("--servers: %w", err)
		}
		defer remote.Close()
		runner = remote
		if workers <= 0 {
			workers = league.BatchGames // enough games in flight to fill the servers' batches
		}
	}
	ctx, stop := signal.NotifyContext(c.ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	prog := newProgress(c.stderr)
	// RunLive keeps a table for `league table` while this run holds the
	// store.
	sum, err := l.RunLive(ctx, league.RunOptions{
		Games:     o.games,
		Match:     league.Matchmaking(o.match),
		Target:    o.target,
		Workers:   workers,
		MaxRounds: o.maxRounds,
		DataDir:   o.data,
		Runner:    runner,
		Registry:  c.reg,
		Fresh:     o.fresh,
		Progress:  prog.update,
	}, func(err error) {
		fmt.Fprintf(c.stderr, "botarena: %s: %v (league table cannot show this run's progress)\n", league.LiveTableFile, err)
	})
	prog.finish()
	var servers []map[string]any
	if remote != nil {
		for _, s := range remote.Servers() {
			entry := map[string]any{"addr": s.Addr, "games": s.Games}
			if s.Err != nil {
				entry["error"] = s.Err.Error()
				fmt.Fprintf(c.stderr, "botarena: server %s was dropped after %d games: %v\n", s.Addr, s.Games, s.Err)
			}
			servers = append(servers, entry)
		}
	}
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, context.Canceled) {
			return fmt.Errorf("run %d interrupted after %d of %d games (all stored); run the same command again to finish it",
				sum.Run.ID, sum.Skipped+sum.Played, sum.Run.Games)
		}
		if errors.Is(err, league.ErrDiskFull) {
			// The error says how many games are stored and the cause.
			return fmt.Errorf("%w; free some space, then run the same command again to finish the run", err)
		}
		return err
	}
	rows, err := l.Table()
	if err != nil {
		return err
	}
	if o.png != "" {
		if err := writeRatingsPNG(o.png, league.ChartTitle(l.Settings().Game, filepath.Base(dir), sum.Run.Start+int64(sum.Run.Games)), rows); err != nil {
			return err
		}
	}
	rate := 0.0
	if s := sum.Elapsed.Seconds(); s > 0 {
		rate = float64(sum.Played) / s
	}
	if o.asJSON {
		if err := writeTableJSON(c.stdout, rows); err != nil {
			return err
		}
		return json.NewEncoder(c.stdout).Encode(map[string]any{
			"summary": true, "run": sum.Run.ID, "match": sum.Run.Match, "start": sum.Run.Start, "games": sum.Run.Games,
			"resumed": sum.Resumed, "skipped": sum.Skipped, "played": sum.Played,
			"seconds": sum.Elapsed.Seconds(), "games_per_second": rate, "data_files": sum.DataFiles, "png": o.png,
			"servers": servers,
		})
	}
	resumed := ""
	if sum.Resumed {
		resumed = fmt.Sprintf(" (resumed: %d played before)", sum.Skipped)
	}
	fmt.Fprintf(c.stdout, "run %d: %d games of %s, %s%s in %.1fs (%.1f games/s)\n\n",
		sum.Run.ID, sum.Played, l.Settings().Game, sum.Run.Match, resumed, sum.Elapsed.Seconds(), rate)
	if err := league.WriteTable(c.stdout, rows); err != nil {
		return err
	}
	if remote != nil {
		var played []string
		for _, s := range remote.Servers() {
			played = append(played, fmt.Sprintf("%s %d", s.Addr, s.Games))
		}
		fmt.Fprintf(c.stdout, "games per server: %s\n", strings.Join(played, ", "))
	}
	for _, f := range sum.DataFiles {
		fmt.Fprintf(c.stdout, "match data: %s\n", f)
	}
	if o.png != "" {
		fmt.Fprintf(c.stdout, "ratings chart: %s\n", o.png)
	}
	return nil
}

// progress shows a run's progress on stderr: a bar redrawn in place on a
// terminal, a plain line every few seconds otherwise.
type progress struct {
	w        io.Writer
	terminal bool
	last     time.Time
	shown    bool
	p        league.Progress
	drawn    league.Progress // what was drawn last
}

func newProgress(w io.Writer) *progress {
	pr := &progress{w: w}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			pr.terminal = true
		}
	}
	return pr
}

// update is called after games are stored.
func (pr *progress) update(p league.Progress) {
	pr.p = p
	every := 5 * time.Second
	if pr.terminal {
		every = 100 * time.Millisecond
	}
	if now := time.Now(); now.Sub(pr.last) >= every || p.Done == p.Total {
		pr.last = now
		pr.draw()
	}
}

func (pr *progress) draw() {
	p := pr.p
	pr.drawn = p
	rate := 0.0
	if s := p.Elapsed.Seconds(); s > 0 {
		rate = float64(p.Played) / s
	}
	eta := "?"
	if rate > 0 {
		eta = (time.Duration(float64(p.Total-p.Done)/rate) * time.Second).Round(time.Second).String()
	}
	if !pr.terminal {
		if p.Played == 0 && p.Done < p.Total {
			fmt.Fprintf(pr.w, "botarena: league run %d: %d/%d games\n", p.Run, p.Done, p.Total)
		} else {
			fmt.Fprintf(pr.w, "botarena: league run %d: %d/%d games, %.1f games/s, ETA %s\n", p.Run, p.Done, p.Total, rate, eta)
		}
		return
	}
	const width = 30
	filled := 0
	if p.Total > 0 {
		filled = width * p.Done / p.Total
	}
	bar := strings.Repeat("█", filled) + strings.Repeat("░", width-filled)
	fmt.Fprintf(pr.w, "\r\x1b[Krun %d %s %d/%d games  %.1f games/s  ETA %s", p.Run, bar, p.Done, p.Total, rate, eta)
	pr.shown = true
}

// finish ends the bar's line; without a terminal it prints the last
// progress when it was not printed, so that the last line counts every
// game stored, also when the run stopped on an error.
func (pr *progress) finish() {
	switch {
	case pr.terminal && pr.shown:
		pr.draw()
		fmt.Fprintln(pr.w)
	case !pr.terminal && pr.p.Total > 0 && pr.p != pr.drawn:
		pr.draw()
	}
}

func newLeagueTableCmd(c *cli) *cobra.Command {
	var png string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "table DIR [--json] [--png FILE]",
		Short: "Print a league's leaderboard",
		Long: "table prints the leaderboard of the league's agents, best first: rank, agent, Glicko-2 rating\n" +
			"± 2·RD (a 95% interval), Elo, games, wins/draws/losses and win rate (draws count half).\n" +
			"--json prints one JSON object per agent (JSON Lines); --png draws the ratings chart. While a league\n" +
			"run holds the store, table shows the table that run last wrote (every 2 s, DIR/" + league.LiveTableFile + "),\n" +
			"saying so on stderr.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			snap, err := league.ReadTable(args[0])
			if err != nil {
				return err
			}
			if snap.Live {
				// A run holds the store: this is the table it last wrote.
				fmt.Fprintf(c.stderr, "botarena: %s is in use by a league run; its table as of %s, after %d games:\n",
					args[0], snap.Time.Local().Format(time.TimeOnly), snap.Games)
			}
			if png != "" {
				if err := writeRatingsPNG(png, league.ChartTitle(snap.Game, filepath.Base(args[0]), snap.Games), snap.Rows); err != nil {
					return err
				}
			}
			if asJSON {
				return writeTableJSON(c.stdout, snap.Rows)
			}
			return league.WriteTable(c.stdout, snap.Rows)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON Lines, one object per agent")
	cmd.Flags().StringVar(&png, "png", "", "also draw the ratings chart (rating ± 2·RD per agent) into this PNG file")
	return cmd
}

// writeTableJSON prints one JSON object per row.
func writeTableJSON(w io.Writer, rows []league.Row) error {
	return writeJSONLines(w, rows, func(r league.Row) league.Row { return r })
}

// writeJSONLines prints line(item) of each item as one JSON object per
// line (JSON Lines).
func writeJSONLines[T, L any](w io.Writer, items []T, line func(T) L) error {
	enc := json.NewEncoder(w)
	for _, it := range items {
		if err := enc.Encode(line(it)); err != nil {
			return err
		}
	}
	return nil
}

func newLeagueGamesCmd(c *cli) *cobra.Command {
	var last int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "games DIR [--last N] [--json]",
		Short: "List a league's most recent games",
		Long: "games lists the last N finished games, oldest first: index, seed, rounds, the agents by seat and\n" +
			"the result. --json prints each game as one JSON object (JSON Lines) in the league's compact form:\n" +
			"index, seed, rounds, winner, draw, standings (seat, agent, rank, score, alive, faults, actions),\n" +
			"forfeit, run, seats, time; winner and forfeit are -1 for none (docs/recording-format.md).",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if last < 1 {
				return fmt.Errorf("--last: want 1 or more, got %d", last)
			}
			l, err := league.Open(args[0], true)
			if err != nil {
				return err
			}
			defer l.Close()
			n, err := l.NumGames()
			if err != nil {
				return err
			}
			games, err := l.Games(max(0, n-int64(last)), -1)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSONLines(c.stdout, games, league.GameRecord.Line)
			}
			tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "GAME\tSEED\tROUNDS\tSEATS\tRESULT")
			for _, g := range games {
				seats := make([]string, len(g.Seats))
				for i, s := range g.Seats {
					seats[i] = s.Name
				}
				fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%s\n", g.Index, g.Seed, g.Rounds, strings.Join(seats, " vs "), gameOutcome(g))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().IntVar(&last, "last", 20, "how many of the most recent games")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON Lines, one game per line in the league's compact form")
	return cmd
}

// gameOutcome describes a game's result in words, with the rounds each
// seat's external bot lost to faults, if any.
func gameOutcome(g league.GameRecord) string {
	out := gameWinner(g)
	for _, f := range g.Faults {
		if n := f.Total(); n > 0 {
			out += fmt.Sprintf("; %s lost %d rounds (%v)", seatName(g, f.Seat, f.Agent), n, f.Faults)
		}
	}
	return out
}

// seatName returns the league name of the agent in seat, or name when the
// record has no such seat.
func seatName(g league.GameRecord, seat int, name string) string {
	if seat >= 0 && seat < len(g.Seats) {
		return g.Seats[seat].Name
	}
	return name
}

// gameWinner describes who won a game.
func gameWinner(g league.GameRecord) string {
	w := int(g.Winner)
	switch {
	case g.Forfeit != nil && w >= 0:
		return fmt.Sprintf("%s wins (%s forfeits)", seatName(g, w, ""), seatName(g, g.Forfeit.Seat, g.Forfeit.Agent))
	case g.Draw:
		return "draw"
	case w >= 0 && w < len(g.Seats):
		return g.Seats[w].Name + " wins"
	}
	return "no winner"
}

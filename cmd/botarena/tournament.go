package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/agents/cmdbot"
	"github.com/botarena/botarena/agents/policy"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/battlebots"
	"github.com/botarena/botarena/env/training"
	"github.com/botarena/botarena/league"
	"github.com/botarena/botarena/match"
)

// tournament runs gauntlets of every game, and BattleBots' own round robin.
func init() { extraCommands = append(extraCommands, newTournamentCmd) }

type tournamentFlags struct {
	agents    string
	gauntlet  bool
	public    bool      // add the game's public bots built by recipe
	bots      botsFlags // their recipes and cache
	focus     string
	lone      bool
	games     int
	workers   int
	png       string
	original  bool
	bouts     int
	seed      uint64
	maxRounds int
	timeout   time.Duration
	asJSON    bool
	externalBotFlags
	configFlags
	// game holds the values of the game-specific flags (see gameFlags).
	game map[string]*gameFlagValue
}

// defaultOriginalAgents are the bots of the original round robin without
// --agents: the original's own registration.
const defaultOriginalAgents = "huggy,nop"

func newTournamentCmd(c *cli) *cobra.Command {
	var o tournamentFlags
	cmd := &cobra.Command{
		Use:   "tournament GAME (--agents A,B,... | --gauntlet) [--focus NAME] [--games N] [--seed S] [--workers W] [--json] [--png FILE]",
		Short: "Play every pairing of agents, seats rotated, N games each, and print W/D/L, win rates and more per pair",
		Long: "tournament plays a gauntlet of any game: every pairing of two of the agents, in every seating of\n" +
			"the pair, --games games each (100 by default). With 2 seats a pairing plays both orders, A,B and\n" +
			"B,A; with more, the pair fills every seat, alternately, and plays the distinct rotations of\n" +
			"A,B,A,B,... and B,A,B,A,... (2 seatings for an even number of seats); with --lone, one agent of\n" +
			"the pair (the --focus one, else the first) plays one seat and the other all the rest, the lone\n" +
			"agent in every seat in turn (first places against a full table). A game goes to the agent\n" +
			"of the winning seat, or of every seat tied at the top; else it is a draw. Game i of the tournament\n" +
			"(pairing by pairing, seating by seating) has a fresh seed derived from --seed and i as a league's\n" +
			"games have, so the same --seed gives the same table for any --workers. Games of built-in agents\n" +
			"and policy files run on vecenv pools (--workers worker goroutines, GOMAXPROCS by default), games\n" +
			"with an external bot one per goroutine.\n\n" +
			"It prints a table per pair: W/D/L, the win rate (wins/games; a draw is not a win) with its 95%\n" +
			"Wilson interval, the mean points (the game's own score per seat: points, HP, coins), faults\n" +
			"(rounds an external bot timed out, crashed or answered garbage and did nothing, as the original's\n" +
			"penalty; 0 for built-in agents), forfeits, the number of distinct endings (distinct final states:\n" +
			"1 when every game went the same way, as between deterministic bots on a fixed map), the mean\n" +
			"game length in rounds, and each seating's wins; then the matrix of win rates. --json prints it as\n" +
			"one JSON object; --png FILE draws the win-rate matrix. Interrupted (Ctrl-C, SIGTERM), it prints the\n" +
			"table of the games finished so far, marked partial (\"partial\": true in --json), and fails.\n\n" +
			"--agents lists agent specs as everywhere (`botarena games --json`): built-in agents, policy:PATH,\n" +
			"external bots (cmd:COMMAND, dir:PATH, http://...), NAME=SPEC to name one in the tables, and for\n" +
			"BattleBots NAME=COMMAND for a command-line bot. --gauntlet plays the game's own gauntlet (its\n" +
			"built-in bots, idle and random, and the committed policies under policies/ that fit the game, found\n" +
			"from the working directory or a folder above it), plus any --agents. --public adds the game's public\n" +
			"competition bots built by recipe (`botarena bots list`), named after their recipes. --focus NAME,... plays only the\n" +
			"pairings that involve an agent it names (one agent against the rest, as `--gauntlet --agents\n" +
			"mine=policy:PATH --focus mine` does); each game keeps its index and seed in the whole tournament.\n\n" +
			"tournament battlebots --original (or with --bouts) runs the original control program's round\n" +
			"robin instead: every pair of bots once, the one listed first always bot1, --bouts bouts per match\n" +
			"(5 in the original); the higher HP wins a bout, the most bout wins a match. It prints the\n" +
			"original's output (\"a vs b\", the bout numbers, then the Results table of matches and bouts won\n" +
			"per bot, in the order given; --agents defaults to huggy,nop); --json prints the same as one JSON\n" +
			"object with every bout.\n\n" +
			"A command-line bot runs as the original runs it: once per round, the command split on whitespace\n" +
			"(quotes group words), no shell, the arena string appended as the last argument, the action read\n" +
			"from stdout. Unlike the original, which panics on a bot that cannot start or exits non-zero\n" +
			"and waits forever on one that hangs, a bot that crashes, exits non-zero, prints garbage or\n" +
			"runs past --timeout (killed with its children) does nothing (NO) that round; each fault is\n" +
			"logged on stderr and counted (\"faults\"). A built-in agent that panics loses the game\n" +
			"(\"forfeit\").",
		Args: c.gameArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			drawSeed(cmd, &o.seed)
			if o.timeout <= 0 {
				return fmt.Errorf("--timeout: want a positive duration, got %v", o.timeout)
			}
			if o.original || cmd.Flags().Changed("bouts") {
				for _, name := range []string{"gauntlet", "public", "focus", "lone", "games", "workers", "png", "players", "config"} {
					if cmd.Flags().Changed(name) {
						return fmt.Errorf("--%s is for the gauntlet, not the original round robin (--original, --bouts)", name)
					}
				}
				if agents.BaseGame(args[0]) != "battlebots" {
					return fmt.Errorf("tournament: only battlebots has the original's round robin (--original, --bouts), not %q", args[0])
				}
				if o.bouts < 1 {
					return fmt.Errorf("--bouts: want 1 or more, got %d", o.bouts)
				}
				if o.maxRounds < 0 {
					return fmt.Errorf("--max-rounds: want 0 (the original's 1000) or more, got %d", o.maxRounds)
				}
				if !cmd.Flags().Changed("agents") {
					o.agents = defaultOriginalAgents
				}
				return c.tournament(args[0], &o)
			}
			if o.games < 1 {
				return fmt.Errorf("--games: want 1 or more, got %d", o.games)
			}
			if o.maxRounds < 0 {
				return fmt.Errorf("--max-rounds: want 0 (play to the end) or more, got %d", o.maxRounds)
			}
			if o.workers < 0 {
				return fmt.Errorf("--workers: want 1 or more (0: GOMAXPROCS), got %d", o.workers)
			}
			if strings.TrimSpace(o.agents) == "" && !o.gauntlet && !o.public {
				return fmt.Errorf("tournament %s: name the agents (--agents A,B,...) or play the game's gauntlet (--gauntlet)", args[0])
			}
			for name, v := range o.game {
				v.changed = cmd.Flags().Changed(name)
			}
			if err := o.externalBotFlags.apply(c.stderr); err != nil {
				return err
			}
			return c.gauntlet(args[0], &o, cmd.Flags().Changed("players"))
		},
	}
	f := cmd.Flags()
	o.externalBotFlags.add(f)
	f.StringVar(&o.agents, "agents", "", "comma-separated agent specs (NAME=SPEC names one; BattleBots: NAME=COMMAND for a command-line bot); --original: huggy,nop if absent")
	f.BoolVar(&o.gauntlet, "gauntlet", false, "play the game's gauntlet: its built-in bots, baselines and committed policies (plus any --agents)")
	f.BoolVar(&o.public, "public", false, "add the game's public competition bots built by recipe (botarena bots build; those not built are named on stderr); they start a process every round, so give --nolimit or a larger --time-limit on a loaded machine")
	f.StringVar(&o.bots.cache, "bots-cache", "", "with --public: where the bots are built (default: botarena bots build's default cache)")
	f.StringVar(&o.bots.recipes, "recipes", "", "with --public: a folder of more recipes (NAME.json), as botarena bots build takes")
	f.StringVar(&o.focus, "focus", "", "comma-separated agent names (as in the tables): play only the pairings that involve one of them")
	f.BoolVar(&o.lone, "lone", false, "with more than 2 seats: one agent of each pairing (the --focus one, else the first) plays one seat and the other every other seat, the lone agent in each seat in turn; its wins are its first places against a full table")
	f.IntVar(&o.games, "games", 100, "games per pairing and seating")
	f.IntVar(&o.workers, "workers", 0, "worker goroutines (default GOMAXPROCS)")
	f.StringVar(&o.png, "png", "", "also draw the win-rate matrix into this PNG file")
	f.BoolVar(&o.original, "original", false, "battlebots: run the original control program's round robin and print its table")
	f.IntVar(&o.bouts, "bouts", battlebots.BoutsPerMatch, "battlebots --original: bouts per match (implies --original)")
	f.Uint64Var(&o.seed, "seed", 0, "tournament seed (random if absent; always printed on stderr)")
	f.IntVar(&o.maxRounds, "max-rounds", 0, "round cap per game (0: play to the end; --original: the original's 1000)")
	f.DurationVar(&o.timeout, "timeout", cmdbot.Timeout, "time limit per round for a command-line bot (cmd:timeout=D:COMMAND overrides it)")
	f.BoolVar(&o.asJSON, "json", false, "print the results as one JSON object")
	o.configFlags.add(cmd)
	o.game = addGameFlags(f, c.reg)
	return cmd
}

// entrant is one bot of a tournament.
type entrant struct {
	name string // display name
	spec string // agent spec: a built-in name, cmd:COMMAND, ...
	kit  bool   // an entry of the game's own gauntlet, left out with a note when it cannot play
}

// parseEntrant reads one --agents entry: an agent spec (a built-in name or
// a scheme's spec such as cmd:COMMAND or policy:PATH), named after itself;
// NAME=SPEC, the agent spec SPEC named NAME; or NAME=COMMAND, the
// command-line bot COMMAND named NAME (NAME=cmd:... is the same with the
// scheme's options).
func parseEntrant(game, entry string) (entrant, error) {
	if agents.Known(game, entry) {
		return entrant{name: entry, spec: entry}, nil
	}
	name, command, ok := strings.Cut(entry, "=")
	if !ok {
		_, err := agents.New(game, entry, nil)
		return entrant{}, err
	}
	name, command = strings.TrimSpace(name), strings.TrimSpace(command)
	if name == "" || command == "" {
		return entrant{}, fmt.Errorf("%q: want NAME=COMMAND", entry)
	}
	if !strings.HasPrefix(command, cmdbot.Prefix) && agents.Known(game, command) {
		return entrant{name: name, spec: command}, nil // NAME=SPEC
	}
	if !strings.HasPrefix(command, cmdbot.Prefix) {
		command = cmdbot.Prefix + command
	}
	if _, err := cmdbot.Parse(command); err != nil {
		return entrant{}, fmt.Errorf("%q: %w", entry, err)
	}
	return entrant{name: name, spec: command}, nil
}

// parseEntrants reads the --agents list after the entrants before, naming
// a repeated name NAME2, NAME3, ...
func parseEntrants(game, list string, before []entrant) ([]entrant, error) {
	ents := before
	seen := map[string]int{}
	for _, e := range before {
		seen[e.name]++
	}
	for _, spec := range strings.Split(list, ",") {
		spec = strings.TrimSpace(spec)
		if spec == "" {
			continue
		}
		e, err := parseEntrant(game, spec)
		if err != nil {
			return nil, fmt.Errorf("--agents: %w", err)
		}
		if seen[e.name]++; seen[e.name] > 1 {
			e.name += strconv.Itoa(seen[e.name])
		}
		ents = append(ents, e)
	}
	return ents, nil
}

type tBout struct {
	Bout    int     `json:"bout"`
	Seed    uint64  `json:"seed"`
	Rounds  int     `json:"rounds"`
	HP      [2]int  `json:"hp"`
	Winner  *string `json:"winner"`
	Forfeit string  `json:"forfeit,omitempty"`
	// Faults counts, per bot, the rounds in which a command-line bot
	// faulted and did nothing; FaultKinds splits them by kind (timed out,
	// crashed, invalid).
	Faults     map[string]int          `json:"faults,omitempty"`
	FaultKinds map[string]match.Faults `json:"fault_kinds,omitempty"`
}

type tMatch struct {
	Bot1      string  `json:"bot1"`
	Bot2      string  `json:"bot2"`
	Bouts     []tBout `json:"bouts"`
	Bot1Bouts int     `json:"bot1_bouts"`
	Bot2Bouts int     `json:"bot2_bouts"`
	Winner    *string `json:"winner"`
}

type tResult struct {
	Bot     string `json:"bot"`
	Matches int    `json:"matches"`
	Bouts   int    `json:"bouts"`
}

func (c *cli) tournament(game string, o *tournamentFlags) error {
	ents, err := parseEntrants(game, o.agents, nil)
	if err != nil {
		return err
	}
	if len(ents) < 2 {
		return fmt.Errorf("--agents: a tournament needs at least 2 bots, got %d", len(ents))
	}
	fmt.Fprintf(c.stderr, "botarena: tournament %s seed %d\n", game, o.seed)
	results := make([]tResult, len(ents))
	for i, e := range ents {
		results[i].Bot = e.name
	}
	var matches []tMatch
	for i := 0; i < len(ents)-1; i++ {
		for j := i + 1; j < len(ents); j++ {
			m := tMatch{Bot1: ents[i].name, Bot2: ents[j].name}
			if !o.asJSON {
				fmt.Fprintf(c.stdout, "%s vs %s\n", m.Bot1, m.Bot2)
			}
			for k := range o.bouts {
				if !o.asJSON {
					fmt.Fprintf(c.stdout, "%d ", k)
				}
				seed := env.MixSeed(o.seed, uint64((i*len(ents)+j)*o.bouts+k))
				b, err := c.tournamentBout(game, o, [2]entrant{ents[i], ents[j]}, seed)
				if err != nil {
					return err
				}
				b.Bout = k
				switch {
				case b.Winner == nil:
				case *b.Winner == m.Bot1:
					m.Bot1Bouts++
					results[i].Bouts++
				default:
					m.Bot2Bouts++
					results[j].Bouts++
				}
				if b.Forfeit != "" {
					fmt.Fprintf(c.stderr, "botarena: %s vs %s, bout %d: %s\n", m.Bot1, m.Bot2, k, b.Forfeit)
				}
				m.Bouts = append(m.Bouts, b)
			}
			switch {
			case m.Bot1Bouts > m.Bot2Bouts:
				m.Winner = &m.Bot1
				results[i].Matches++
			case m.Bot2Bouts > m.Bot1Bouts:
				m.Winner = &m.Bot2
				results[j].Matches++
			}
			if !o.asJSON {
				fmt.Fprintln(c.stdout)
			}
			matches = append(matches, m)
		}
	}
	if o.asJSON {
		return json.NewEncoder(c.stdout).Encode(struct {
			Game          string    `json:"game"`
			Seed          uint64    `json:"seed"`
			BoutsPerMatch int       `json:"bouts_per_match"`
			Matches       []tMatch  `json:"matches"`
			Results       []tResult `json:"results"`
		}{game, o.seed, o.bouts, matches, results})
	}
	fmt.Fprint(c.stdout, "\nResults:\nBot\tMatches\tBouts\n")
	for _, r := range results {
		fmt.Fprintf(c.stdout, "%s\t%d\t%d\n", r.Bot, r.Matches, r.Bouts)
	}
	return nil
}

// tournamentBout plays one bout between ents (bot1, bot2) with the match
// runner, whose failure policy makes a built-in agent that panics lose the
// bout.
func (c *cli) tournamentBout(game string, o *tournamentFlags, ents [2]entrant, seed uint64) (tBout, error) {
	cfg, _ := json.Marshal(map[string]any{"names": []string{ents[0].name, ents[1].name}, "max_rounds": o.maxRounds})
	e, err := c.reg.Make(game, cfg)
	if err != nil {
		return tBout{}, err
	}
	g, ok := e.(*battlebots.Game)
	if !ok {
		return tBout{}, fmt.Errorf("tournament: %s is not a battlebots game", game)
	}
	b := tBout{Seed: seed}
	ags, err := match.NewAgents(game, []string{ents[0].spec, ents[1].spec}, g.Spec(), c.stdin, c.stderr)
	if err != nil {
		return tBout{}, err
	}
	m := &match.Match{Env: g, Agents: ags, Seed: seed}
	defer m.Close()
	for seat, ent := range ents {
		if bot, ok := ags[seat].(*cmdbot.Bot); ok {
			bot.Name = ent.name
			if bot.Timeout == 0 {
				bot.Timeout = o.timeout
			}
		}
	}
	res, err := m.Run(context.Background())
	if err != nil {
		return tBout{}, err
	}
	b.Rounds, b.HP = res.Rounds, [2]int{g.Bot(0).HP, g.Bot(1).HP}
	for _, f := range res.Faults {
		if f.Total() == 0 {
			continue
		}
		if b.Faults == nil {
			b.Faults, b.FaultKinds = map[string]int{}, map[string]match.Faults{}
		}
		name := ents[f.Seat].name
		b.Faults[name] += f.Total()
		b.FaultKinds[name] = b.FaultKinds[name].Add(f.Faults)
	}
	if res.Winner >= 0 {
		b.Winner = &ents[res.Winner].name
	}
	if f := res.Forfeit; f != nil {
		b.Forfeit = fmt.Sprintf("%s loses in round %d: %v", ents[f.Seat].name, f.Round, f.Err)
	}
	return b, nil
}

// gauntlet plays the gauntlet of o (see the command's help) and prints its
// table.
func (c *cli) gauntlet(game string, o *tournamentFlags, setPlayers bool) error {
	entry, err := c.reg.Lookup(game)
	if err != nil {
		return err
	}
	set := map[string]any{}
	if setPlayers {
		set["players"] = o.players
	}
	if err := applyGameFlags(c.reg, game, o.game, set); err != nil {
		return err
	}
	cfg, err := o.configFlags.json(set)
	if err != nil {
		return err
	}
	if _, err := c.reg.Make(game, cfg); err != nil {
		return err
	}
	var ents []entrant
	if o.gauntlet {
		specs := gauntletOf(entry)
		if err := checkGauntlet(specs); err != nil {
			return fmt.Errorf("%s: %w", game, err)
		}
		ents = c.kitGauntlet(specs)
	}
	if o.public {
		pub, err := c.builtPublicBots(game, &o.bots)
		if err != nil {
			return fmt.Errorf("--public: %w", err)
		}
		ents = append(ents, pub...)
	}
	if ents, err = parseEntrants(game, o.agents, ents); err != nil {
		return err
	}
	cfg, raised, err := unionConfig(c.reg, game, cfg, ents)
	if err != nil {
		return err
	}
	probe, err := c.reg.Make(game, cfg)
	if err != nil {
		return err
	}
	spec := probe.Spec()
	if len(raised) > 0 {
		fmt.Fprintf(c.stderr, "botarena: tournament %s: playing config %s: %s\n", game, cfg, raisedText(raised))
	}
	g := league.Gauntlet{Game: game, Config: cfg, Games: o.games, Seed: o.seed, MaxRounds: o.maxRounds}
	for _, e := range ents {
		if strings.HasPrefix(e.spec, cmdbot.Prefix) {
			e.spec = withTimeout(e.spec, o.timeout)
		}
		if err := checkAgent(game, e.spec, spec); err != nil {
			if e.kit {
				// A gauntlet entry that cannot play this config, such
				// as a policy trained for another preset, is left out.
				fmt.Fprintf(c.stderr, "botarena: gauntlet: leaving out %s: %v\n", e.name, oneLine(err.Error()))
				continue
			}
			if e.name == e.spec {
				return fmt.Errorf("--agents: %w", err) // the error names the spec
			}
			return fmt.Errorf("--agents: %s: %w", e.name, err)
		}
		g.Agents = append(g.Agents, league.Entrant{Name: e.name, Spec: e.spec})
	}
	if len(g.Agents) < 2 {
		return fmt.Errorf("tournament %s: a gauntlet needs at least 2 agents, got %d", game, len(g.Agents))
	}
	pairs := len(g.Agents) * (len(g.Agents) - 1) / 2
	if strings.TrimSpace(o.focus) != "" {
		names := make([]string, len(g.Agents))
		for i, a := range g.Agents {
			names[i] = a.Name
		}
		for _, name := range strings.Split(o.focus, ",") {
			if name = strings.TrimSpace(name); name == "" {
				continue
			}
			if !slices.Contains(names, name) {
				return fmt.Errorf("--focus: %q is not one of the agents (%s)", name, strings.Join(names, ", "))
			}
			g.Focus = append(g.Focus, name)
		}
		pairs = 0
		for a := range names {
			for b := a + 1; b < len(names); b++ {
				if slices.Contains(g.Focus, names[a]) || slices.Contains(g.Focus, names[b]) {
					pairs++
				}
			}
		}
	}
	workers := o.workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	g.Lone = o.lone
	seatings := len(g.Seatings(spec.Seats, [2]int{0, 1}))
	total := pairs * seatings * o.games
	fmt.Fprintf(c.stderr, "botarena: tournament %s seed %d: %d agents, %d pairings × %d seatings × %d games = %d games on %d workers\n",
		game, o.seed, len(g.Agents), pairs, seatings, o.games, total, workers)
	ctx, stop := signal.NotifyContext(c.ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	last := start
	progress := func(done, total int) {
		if now := time.Now(); now.Sub(last) >= 10*time.Second && done < total {
			last = now
			fmt.Fprintf(c.stderr, "botarena: tournament: %d/%d games\n", done, total)
		}
	}
	runner := &league.PoolRunner{Registry: c.reg, Log: &syncWriter{w: c.stderr}}
	table, err := league.PlayGauntlet(ctx, g, runner, c.reg, workers, progress)
	if err != nil && table == nil {
		return err
	}
	played := 0
	for _, p := range table.Pairs {
		played += p.Games
	}
	elapsed := time.Since(start)
	fmt.Fprintf(c.stderr, "botarena: tournament: %d games in %s (%.1f games/s)\n", played, elapsed.Round(time.Millisecond), float64(played)/max(elapsed.Seconds(), 1e-9))
	interrupted := err
	if interrupted != nil {
		// Interrupted: the games finished so far are kept and printed as
		// a partial table; the command still fails, with ctx's error.
		fmt.Fprintf(c.stderr, "botarena: tournament: interrupted after %d of %d games; the table holds the %d finished (\"partial\": true in --json)\n", played, total, played)
	}
	if err := writeGauntlet(c, o, table, game, seatings, cfg, raised); err != nil {
		return err
	}
	return interrupted
}

// writeGauntlet writes table as --png, --json or text ask. When the
// tournament raised append-only fields (raised), the text starts with the
// config it played, and the JSON has it as "config" and the raised fields
// as "raised".
func writeGauntlet(c *cli, o *tournamentFlags, table *league.GauntletTable, game string, seatings int, cfg []byte, raised []raisedField) error {
	if o.png != "" {
		title := fmt.Sprintf("%s: win rate, row against column (%d games per pairing, seed %d)", game, seatings*o.games, o.seed)
		if err := league.WriteChart(o.png, func(w io.Writer, title string, _ []league.Row) error { return gauntletPNG(w, title, table) }, title, nil); err != nil {
			return fmt.Errorf("--png: %w", err)
		}
	}
	if o.asJSON {
		if len(raised) > 0 {
			return json.NewEncoder(c.stdout).Encode(struct {
				*league.GauntletTable
				Config json.RawMessage `json:"config"`
				Raised []raisedField   `json:"raised"`
			}{table, cfg, raised})
		}
		return json.NewEncoder(c.stdout).Encode(table)
	}
	if len(raised) > 0 {
		fmt.Fprintf(c.stdout, "config %s: %s\n\n", cfg, raisedText(raised))
	}
	return table.WriteText(c.stdout)
}

// raisedField is an append-only config field (env.AppendField) a gauntlet
// raised above the config it was asked to play, so that policies trained
// with it play beside those trained without.
type raisedField struct {
	// Field is the field's JSON name.
	Field string `json:"field"`
	// Value is the value played: the largest any entrant needs.
	Value any `json:"value"`
	// For names the entrants trained with the field above the asked value.
	For []string `json:"for"`
}

// raisedText says what raised holds, for the text table and stderr.
func raisedText(raised []raisedField) string {
	var parts []string
	for _, r := range raised {
		parts = append(parts, fmt.Sprintf("%s %v for %s", r.Field, r.Value, strings.Join(r.For, ", ")))
	}
	return "append-only fields raised (" + strings.Join(parts, "; ") + "); the agents trained with less read the first elements of the observations"
}

// unionConfig returns the config a gauntlet of ents plays instead of cfg,
// config JSON of game: each append-only field of the game
// (env.AppendField) at the largest value a policy entrant was trained
// with, where that is larger than cfg's and cfg's JSON does not set the
// field; and the fields it raised. A policy counts when it fits cfg with
// its own values of those fields (policy.Model.Check), so that one
// trained for another preset raises nothing. The entrants the caller
// named (--agents) count first; a kit entry raises a field only where
// every named policy still fits the result, so the kit's policies never
// make a named one unplayable (that kit entry is left out instead). A
// policy that does not fit the raised config is left out later, as one
// that does not fit cfg is.
func unionConfig(reg *env.Registry, game string, cfg []byte, ents []entrant) ([]byte, []raisedField, error) {
	base, err := reg.Config(game, cfg)
	if err != nil {
		return nil, nil, err
	}
	fields, err := env.AppendFields(base)
	if err != nil || len(fields) == 0 {
		return cfg, nil, err
	}
	obj := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(cfg)) > 0 {
		if err := json.Unmarshal(cfg, &obj); err != nil {
			return nil, nil, fmt.Errorf("config %s: %w", cfg, err)
		}
	}
	entry, err := reg.Lookup(game)
	if err != nil {
		return nil, nil, err
	}
	// with returns base with the append-only fields at vals.
	with := func(vals []int64) env.Config {
		c := base
		for i, f := range fields {
			c = f.With(c, vals[i])
		}
		return c
	}
	// fits reports whether every model plays envs of config c.
	fits := func(c env.Config, models []*policy.Model) bool {
		ev, err := entry.New(c)
		if err != nil {
			return false
		}
		for _, m := range models {
			if m.Check(ev.Spec()) != nil {
				return false
			}
		}
		return true
	}
	union := make([]int64, len(fields))
	for i, f := range fields {
		union[i] = f.Value(base)
	}
	needs := make([][]string, len(fields))
	var named []*policy.Model
	for _, kit := range []bool{false, true} {
		for _, e := range ents {
			if e.kit != kit {
				continue
			}
			m, own, ok := policyNeeds(reg, game, base, obj, fields, e, fits)
			if !ok {
				continue
			}
			if !kit {
				named = append(named, m)
			}
			cand := slices.Clone(union)
			for i := range fields {
				cand[i] = max(cand[i], own[i])
			}
			if kit && !slices.Equal(cand, union) && !fits(with(cand), named) {
				continue
			}
			union = cand
			for i, f := range fields {
				if own[i] > f.Value(base) {
					needs[i] = append(needs[i], e.name)
				}
			}
		}
	}
	var raised []raisedField
	for i, f := range fields {
		if union[i] == f.Value(base) {
			continue
		}
		v := f.JSON(union[i])
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, nil, err
		}
		obj[f.Name] = raw
		raised = append(raised, raisedField{Field: f.Name, Value: v, For: needs[i]})
	}
	if len(raised) == 0 {
		return cfg, nil, nil
	}
	out, err := json.Marshal(obj)
	return out, raised, err
}

// policyNeeds returns the policy model of entrant e and the values of
// fields it plays with (its own where larger than base's and JSON obj does
// not set the field, else base's), where e is a policy of game's base game
// that fits those values; ok is false otherwise (not a policy, another game or preset, a file that does
// not open: named when the entrant is made).
func policyNeeds(reg *env.Registry, game string, base env.Config, obj map[string]json.RawMessage, fields []env.AppendField,
	e entrant, fits func(env.Config, []*policy.Model) bool) (m *policy.Model, vals []int64, ok bool) {
	path, isPolicy := strings.CutPrefix(e.spec, policy.Prefix)
	if !isPolicy {
		return nil, nil, false
	}
	path, _, _ = strings.Cut(path, "?")
	m, err := policy.Open(path)
	if err != nil {
		return nil, nil, false
	}
	arch := m.Architecture()
	if env.BaseGame(arch.Game) != env.BaseGame(game) {
		return nil, nil, false
	}
	trained, err := reg.Config(arch.Game, arch.Config)
	if err != nil {
		return nil, nil, false
	}
	own := base
	for _, f := range fields {
		if _, set := obj[f.Name]; !set && f.Value(trained) > f.Value(own) {
			own = f.With(own, f.Value(trained))
		}
	}
	if own.Validate() != nil || !fits(own, []*policy.Model{m}) {
		return nil, nil, false
	}
	vals = make([]int64, len(fields))
	for i, f := range fields {
		vals[i] = f.Value(own)
	}
	return m, vals, true
}

// gauntleter is implemented by the kit of a game with a gauntlet of its
// own.
type gauntleter interface {
	// Gauntlet lists the agents `botarena tournament GAME --gauntlet`
	// plays against each other (every pairing, every seating), each
	// listed once: names of the game's agents or of generic agents, or
	// committed trained policies as "policy:PATH[?OPTIONS]" with PATH
	// relative to the repository's root (policies/...). A policy plays
	// only the presets whose observations it was trained on; the
	// tournament leaves out, with a note, an entry that cannot be made for
	// the registry name it plays.
	Gauntlet() []string
}

// gauntletOf returns the agent specs of the gauntlet of the game whose
// registry entry is e: its kit's Gauntlet, or else its training
// opponents, or else its reference bot alone (see training.Defaults).
func gauntletOf(e env.Entry) []string {
	if g, ok := e.Kit.(gauntleter); ok && len(g.Gauntlet()) > 0 {
		return g.Gauntlet()
	}
	switch d := training.Of(e); {
	case len(d.Opponents) > 0:
		return d.Opponents
	case d.Reference != "":
		return []string{d.Reference}
	}
	return nil
}

// checkGauntlet returns what is wrong with the agent specs of a gauntlet:
// an entry listed twice, one that is neither an agent name nor
// policy:PATH, or a policy whose PATH is empty or absolute.
func checkGauntlet(specs []string) error {
	for i, g := range specs {
		if slices.Contains(specs[:i], g) {
			return fmt.Errorf("gauntlet entry %q listed twice", g)
		}
		if path, ok := strings.CutPrefix(g, policy.Prefix); ok {
			if path, _, _ = strings.Cut(path, "?"); path == "" || strings.HasPrefix(path, "/") {
				return fmt.Errorf("gauntlet entry %q: want policy:PATH with PATH relative to the repository's root", g)
			}
			continue
		}
		if !agentNameRE.MatchString(g) {
			return fmt.Errorf("gauntlet entry %q: want an agent name or policy:PATH", g)
		}
	}
	return nil
}

// agentNameRE is the form of an agent name.
var agentNameRE = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

// kitGauntlet returns the entrants of the gauntlet specs (see
// gauntletOf), marked kit: the gauntlet leaves out, with a note, one that
// cannot play its config. A policy's relative PATH is looked up from the
// working directory and the folders above it (the repository's root holds
// policies/); one not found is left out here with a note on stderr.
func (c *cli) kitGauntlet(specs []string) []entrant {
	var out []entrant
	for _, s := range specs {
		name := s
		if path, ok := strings.CutPrefix(s, policy.Prefix); ok {
			path, opts, _ := strings.Cut(path, "?")
			stem := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".safetensors"), ".policy")
			name = policy.Prefix + stem
			if opts != "" {
				name += "?" + opts
			}
			found, err := findUp(path)
			if err != nil {
				fmt.Fprintf(c.stderr, "botarena: gauntlet: leaving out %s: %v\n", s, err)
				continue
			}
			s = policy.Prefix + found
			if opts != "" {
				s += "?" + opts
			}
		}
		out = append(out, entrant{name: name, spec: s, kit: true})
	}
	return out
}

// findUp returns the absolute path of the relative path rel in the working
// directory or the nearest folder above it that has it.
func findUp(rel string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, rel)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("%s is not in the working directory or a folder above it (run from the botarena repository)", rel)
		}
		dir = parent
	}
}

// checkAgent makes the agent spec names for envs of spec, and closes it:
// an error says why it cannot play.
func checkAgent(game, name string, spec *env.Spec) error {
	a, err := agents.New(game, name, spec)
	if err != nil {
		return err
	}
	if cl, ok := a.(io.Closer); ok {
		cl.Close()
	}
	return nil
}

// withTimeout gives the command-line bot spec (cmd:COMMAND) the time limit
// d, unless it has its own (cmd:timeout=D:COMMAND).
func withTimeout(spec string, d time.Duration) string {
	rest := strings.TrimSpace(strings.TrimPrefix(spec, cmdbot.Prefix))
	if strings.HasPrefix(rest, "timeout=") {
		return spec
	}
	return cmdbot.Prefix + "timeout=" + d.String() + ":" + rest
}

// winRateGrid is a gauntlet's win-rate matrix as a plotter.GridXYZ: column
// c, row r is the win rate of agent r against agent c, the first agent's
// row on top.
type winRateGrid [][]float64

func (g winRateGrid) Dims() (c, r int)   { return len(g), len(g) }
func (g winRateGrid) Z(c, r int) float64 { return g[len(g)-1-r][c] }
func (g winRateGrid) X(c int) float64    { return float64(c) }
func (g winRateGrid) Y(r int) float64    { return float64(r) }

// gauntletPNG draws the gauntlet's table as a PNG: the matrix of win
// rates, row against column, each cell coloured from blue (0) to red (1)
// and labelled with the win rate and its 95% Wilson interval.
func gauntletPNG(w io.Writer, title string, t *league.GauntletTable) error {
	n := len(t.Agents)
	if n < 2 {
		return fmt.Errorf("the tournament has fewer than 2 agents")
	}
	names := make([]string, n)
	idx := map[string]int{}
	for i, a := range t.Agents {
		names[i] = a.Name
		idx[a.Name] = i
	}
	rates := t.WinRates()
	cm := moreland.SmoothBlueRed()
	cm.SetMin(0)
	cm.SetMax(1)
	heat := plotter.NewHeatMap(winRateGrid(rates), cm.Palette(255))
	heat.Min, heat.Max = 0, 1
	heat.NaN = color.Gray{Y: 90} // the diagonal; the palette's middle (50%) is light grey
	var labels plotter.XYLabels
	for _, p := range t.Pairs {
		a, b := idx[p.Agents[0]], idx[p.Agents[1]]
		for k, rc := range [][2]int{{a, b}, {b, a}} {
			s := p.Sides[k]
			labels.XYs = append(labels.XYs, plotter.XY{X: float64(rc[1]), Y: float64(n - 1 - rc[0])})
			labels.Labels = append(labels.Labels, fmt.Sprintf("%.0f%%\n[%.0f, %.0f]\n%d/%d/%d", 100*s.WinRate, 100*s.WinRate95[0], 100*s.WinRate95[1], s.Wins, s.Draws, s.Losses))
		}
	}
	text, err := plotter.NewLabels(labels)
	if err != nil {
		return err
	}
	for i := range text.TextStyle {
		text.TextStyle[i].XAlign = draw.XCenter
		text.TextStyle[i].YAlign = draw.YCenter
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "against"
	p.Y.Label.Text = "agent"
	p.Add(heat, text)
	p.NominalX(names...)
	p.X.Tick.Label.Rotation = math.Pi / 6
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YTop
	rows := slices.Clone(names)
	slices.Reverse(rows)
	p.NominalY(rows...)
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	side := max(4*vg.Inch, vg.Length(n)*1.3*vg.Inch)
	wt, err := p.WriterTo(side+2*vg.Inch, side, "png")
	if err != nil {
		return err
	}
	_, err = wt.WriteTo(w)
	return err
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/battlebots"
	"github.com/botarena/botarena/match"
)

// tournament is BattleBots' own command.
func init() { extraCommands = append(extraCommands, newTournamentCmd) }

type tournamentFlags struct {
	agents    string
	bouts     int
	seed      uint64
	maxRounds int
	timeout   time.Duration
	asJSON    bool
}

func newTournamentCmd(c *cli) *cobra.Command {
	var o tournamentFlags
	cmd := &cobra.Command{
		Use:   "tournament battlebots",
		Short: "Run the BattleBots round robin and print the original's results table",
		Long: "tournament runs the original control program's round robin: every pair of bots once, the one\n" +
			"listed first always bot1, --bouts bouts per match (5 in the original); the higher HP wins a\n" +
			"bout, the most bout wins a match. It prints the original's output (\"a vs b\", the bout numbers,\n" +
			"then the Results table of matches and bouts won per bot, in the order given); --json prints\n" +
			"the same as one JSON object with every bout.\n\n" +
			"--agents lists agent specs as everywhere (`botarena games --json`): built-in agents, and\n" +
			"command-line bots as cmd:COMMAND or NAME=COMMAND (NAME names it in the table). A command-line\n" +
			"bot runs as the original runs it: once per round, the command split on whitespace (quotes\n" +
			"group words), no shell, the arena string appended as the last argument, the action read\n" +
			"from stdout. Unlike the original, which panics on a bot that cannot start or exits non-zero\n" +
			"and waits forever on one that hangs, a bot that crashes, exits non-zero, prints garbage or\n" +
			"runs past --timeout (killed with its children) does nothing (NO) that round; each fault is\n" +
			"logged on stderr and counted per bout in the JSON (\"faults\"). A built-in agent that panics\n" +
			"loses the bout (\"forfeit\").",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if agents.BaseGame(args[0]) != "battlebots" {
				return fmt.Errorf("tournament: only battlebots has a tournament, not %q", args[0])
			}
			if !cmd.Flags().Changed("seed") {
				o.seed = uint64(time.Now().UnixNano()) % (1 << 31)
			}
			if o.bouts < 1 {
				return fmt.Errorf("--bouts: want 1 or more, got %d", o.bouts)
			}
			if o.maxRounds < 0 {
				return fmt.Errorf("--max-rounds: want 0 (the original's 1000) or more, got %d", o.maxRounds)
			}
			if o.timeout <= 0 {
				return fmt.Errorf("--timeout: want a positive duration, got %v", o.timeout)
			}
			return c.tournament(args[0], &o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.agents, "agents", "huggy,nop", "comma-separated bots: built-in agent names, cmd:COMMAND, or NAME=COMMAND for command-line bots")
	f.IntVar(&o.bouts, "bouts", battlebots.BoutsPerMatch, "bouts per match")
	f.Uint64Var(&o.seed, "seed", 0, "tournament seed for random agents (random if absent; always printed on stderr)")
	f.IntVar(&o.maxRounds, "max-rounds", 0, "round cap per bout (0: the original's 1000)")
	f.DurationVar(&o.timeout, "timeout", agents.CommandTimeout, "time limit per round for a command-line bot (cmd:timeout=D:COMMAND overrides it)")
	f.BoolVar(&o.asJSON, "json", false, "print the results as one JSON object")
	return cmd
}

// entrant is one bot of a tournament.
type entrant struct {
	name string // display name
	spec string // agent spec: a built-in name, cmd:COMMAND, ...
}

// parseEntrant reads one --agents entry: an agent spec (a built-in name or
// a scheme's spec such as cmd:COMMAND), named after itself, or
// NAME=COMMAND, the command-line bot COMMAND named NAME (NAME=cmd:... is
// the same with the scheme's options).
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
	if !strings.HasPrefix(command, agents.CommandPrefix) {
		command = agents.CommandPrefix + command
	}
	if _, err := agents.ParseCommandSpec(command); err != nil {
		return entrant{}, fmt.Errorf("%q: %w", entry, err)
	}
	return entrant{name: name, spec: command}, nil
}

type tBout struct {
	Bout    int     `json:"bout"`
	Seed    uint64  `json:"seed"`
	Rounds  int     `json:"rounds"`
	HP      [2]int  `json:"hp"`
	Winner  *string `json:"winner"`
	Forfeit string  `json:"forfeit,omitempty"`
	// Faults counts, per bot, the rounds in which a command-line bot
	// faulted and did nothing.
	Faults map[string]int `json:"faults,omitempty"`
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
	var ents []entrant
	seen := map[string]int{}
	for _, spec := range strings.Split(o.agents, ",") {
		spec = strings.TrimSpace(spec)
		if spec == "" {
			continue
		}
		e, err := parseEntrant(game, spec)
		if err != nil {
			return fmt.Errorf("--agents: %w", err)
		}
		if seen[e.name]++; seen[e.name] > 1 {
			e.name += strconv.Itoa(seen[e.name])
		}
		ents = append(ents, e)
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
		if bot, ok := ags[seat].(*agents.CmdBot); ok {
			bot.Name = ent.name
			if bot.Timeout == 0 {
				bot.Timeout = o.timeout
			}
			bot.OnFault = func(int, error) {
				if b.Faults == nil {
					b.Faults = map[string]int{}
				}
				b.Faults[ent.name]++
			}
		}
	}
	res, err := m.Run(context.Background())
	if err != nil {
		return tBout{}, err
	}
	b.Rounds, b.HP = res.Rounds, [2]int{g.Bot(0).HP, g.Bot(1).HP}
	if res.Winner >= 0 {
		b.Winner = &ents[res.Winner].name
	}
	if res.Forfeit >= 0 {
		b.Forfeit = fmt.Sprintf("%s loses in round %d: %v", ents[res.Forfeit].name, res.Rounds, res.Err)
	}
	return b, nil
}

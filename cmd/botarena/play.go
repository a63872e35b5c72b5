package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/agents/httpbot"
	"github.com/botarena/botarena/agents/upe"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/replay"
	"github.com/botarena/botarena/match"
	"github.com/botarena/botarena/rpc/server"
)

type playFlags struct {
	configFlags
	agents    string
	seed      uint64
	maxRounds int
	games     int
	replays   string
	record    string          // --record FILE (record.go)
	recordMax server.ByteSize // --record-max-bytes
	state     string
	pretty    bool
	events    bool
	delay     time.Duration
	asJSON    bool
	// listen serves the UPE routes for the "listen" seats (upe.go).
	listen        string
	listenTimeout time.Duration
	externalBotFlags
	// game holds the values of the game-specific flags (see gameFlags).
	game map[string]*gameFlagValue
}

func newPlayCmd(c *cli) *cobra.Command {
	var o playFlags
	cmd := &cobra.Command{
		Use:   "play GAME",
		Short: "Play one match between built-in agents",
		Long: "play runs one match of GAME between built-in agents, one per seat, and prints the result.\n\n" +
			"--agents takes one agent name per seat, or one name for every seat; the default is the\n" +
			"game's reference bot where it has one, else random. Agents of a game: " + "`botarena games --json`.\n" +
			"An agent may also be console (you: the seat's view on stderr, one native command per line on\n" +
			"stdin), an external bot's spec, such as cmd:COMMAND for a BattleBots command-line bot, or a\n" +
			"trained policy file, policy:PATH (arg-max) or policy:PATH?sample (docs/policy-format.md).\n" +
			"Without --seed the seed is random (below 2^31, so that it is a valid seed of the original\n" +
			"engines); it is always printed. --replays writes the original's replay layout,\n" +
			"DIR/<seed>/<round>/<native files>, for the initial state and after every round.\n" +
			"--record FILE writes the match as a botarena recording, JSON Lines (docs/recording-format.md):\n" +
			"a header {\"format\": \"botarena-recording\", \"version\": 1, \"game\", \"config\", \"seed\", \"seats\",\n" +
			"\"agents\", \"state_format\"}, one line per state {\"round\", \"state\" (the canonical native state, full\n" +
			"view), \"actions\", \"commands\", \"rewards\", \"terminated\", \"truncated\" (the round's; absent on the\n" +
			"final state)}, and {\"result\": ...} (the --json result). It stops the game with an error at\n" +
			"--record-max-bytes; `botarena serve --replays-dir` plays recordings in the browser.\n" +
			"An agent that panics forfeits: the game ends there, its seat drops to last place, and the\n" +
			"result names it (\"forfeit\" in --json).",
		Args: c.gameArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			drawSeed(cmd, &o.seed)
			if !cmd.Flags().Changed("max-rounds") {
				o.maxRounds = -1
			} else if o.maxRounds < 0 {
				return fmt.Errorf("--max-rounds: want 0 or more, got %d", o.maxRounds)
			}
			if o.games < 1 {
				return fmt.Errorf("--games: want 1 or more, got %d", o.games)
			}
			if o.record != "" && o.games > 1 {
				return fmt.Errorf("--record: records one game; leave out --games %d (or use --replays DIR)", o.games)
			}
			if o.recordMax < 1 {
				return fmt.Errorf("--record-max-bytes: want 1 or more, got %d", o.recordMax)
			}
			if err := o.externalBotFlags.apply(c.stderr); err != nil {
				return err
			}
			for name, v := range o.game {
				v.changed = cmd.Flags().Changed(name)
			}
			return c.playGames(args[0], &o, cmd.Flags().Changed("players"))
		},
	}
	o.configFlags.add(cmd)
	f := cmd.Flags()
	o.game = addGameFlags(f, c.reg)
	f.IntVar(&o.games, "games", 1, "play a batch of N games, game i with seed S+i; prints each result and a summary")
	f.BoolVar(&o.events, "events", false, `print the game's event stream (its native format "events") as JSON Lines after every round`)
	f.StringVar(&o.agents, "agents", "", "comma-separated agent names, one per seat, or one for every seat")
	f.Uint64Var(&o.seed, "seed", 0, "match seed (random if absent)")
	f.IntVar(&o.maxRounds, "max-rounds", 0, "stop after this many rounds; 0 stops after the initial state (default: play to the end)")
	f.StringVar(&o.replays, "replays", "", "write the original's replay layout under this directory")
	f.StringVar(&o.record, "record", "", "write the match as a botarena recording (JSON Lines) to this file")
	o.recordMax = match.DefaultRecordingLimit
	f.Var(&o.recordMax, "record-max-bytes", "most bytes --record may write (with a unit: 64MiB, 1GiB); the game stops with an error past it")
	f.StringVar(&o.state, "state", "", "start from this native state file (the game's canonical format) instead of the seed's")
	f.BoolVar(&o.pretty, "pretty", false, "redraw the board in the terminal every round")
	f.DurationVar(&o.delay, "delay", 100*time.Millisecond, "pause between rounds with --pretty")
	f.BoolVar(&o.asJSON, "json", false, "print the result as one JSON line")
	f.StringVar(&o.listen, "listen", "", "portalbomber: serve the UPE routes (/api/games/search, practice, submit) on HOST:PORT; UPE clients play the seats named \"listen\" in --agents")
	f.DurationVar(&o.listenTimeout, "listen-timeout", upe.DefaultTimeout, "with --listen: a UPE client's time limit per move (the original's 15 s)")
	o.externalBotFlags.add(f)
	return cmd
}

// playView is what play shows of one game in progress: its replays, its
// board with --pretty, its events, and its result.
type playView struct {
	game   string
	seed   uint64
	codec  env.Codec // the env's, when the match shows or loads native states
	names  []string  // agent name per seat
	buf    []byte
	replay func(e env.Env, round int) error // the game's replay writer, if --replays and it has one
}

// playGames plays o.games games of game (one unless --games), printing each
// result and, for a batch, a summary.
func (c *cli) playGames(game string, o *playFlags, setPlayers bool) error {
	if _, err := c.reg.Lookup(game); err != nil {
		return err
	}
	stopUPE, err := c.listenUPE(game, o)
	if err != nil {
		return err
	}
	defer stopUPE()
	set := map[string]any{}
	if setPlayers {
		set["players"] = o.players
	}
	if o.maxRounds > 0 && hasConfigField(c.reg, game, "max_rounds") {
		set["max_rounds"] = o.maxRounds
	}
	if err := applyGameFlags(c.reg, game, o.game, set); err != nil {
		return err
	}
	var sum summary
	for i := range o.games {
		res, err := c.play(game, o, set, o.seed+uint64(i))
		if err != nil {
			if o.games > 1 {
				return fmt.Errorf("game %d of %d (seed %d): %w", i+1, o.games, o.seed+uint64(i), err)
			}
			return err
		}
		if err := c.report(res, o.asJSON); err != nil {
			return err
		}
		sum.add(res)
	}
	if o.games > 1 {
		return sum.print(c, o.asJSON)
	}
	return nil
}

// play plays one game with seed and returns its result.
func (c *cli) play(game string, o *playFlags, set map[string]any, seed uint64) (match.Result, error) {
	cfg, err := o.json(set)
	if err != nil {
		return match.Result{}, err
	}
	e, err := c.reg.Make(game, cfg)
	if err != nil {
		return match.Result{}, err
	}
	names, err := agentNames(game, o.agents, e.Spec().Seats)
	if err != nil {
		return match.Result{}, err
	}
	// The console reads the player's commands from our stdin; command-line
	// bots log their faults on our stderr.
	ags, err := match.NewAgents(game, names, e.Spec(), c.stdin, c.stderr)
	if err != nil {
		return match.Result{}, err
	}
	g := &match.Match{Env: e, Agents: ags, Seed: seed, Names: names}
	defer g.Close()
	v := &playView{game: game, seed: seed, names: names}
	named, remake := maps.Clone(set), false
	if hasConfigField(c.reg, game, "names") {
		pn := agents.PlayerNames(names)
		for i, a := range ags {
			if n, ok := a.(agents.PlayerNamer); ok && n.PlayerName() != "" {
				pn[i] = n.PlayerName()
			}
		}
		named["names"], remake = pn, true
		if urls := agentURLs(names); urls != nil && hasConfigField(c.reg, game, "urls") {
			named["urls"] = urls // Battle³ sends each bot its url
		}
	}
	// Seats played by a person are the original's console players (exempt
	// from Bomberman's do-nothing rule).
	if cs := consoleSeats(names); len(cs) > 0 && hasConfigField(c.reg, game, "console_seats") {
		named["console_seats"], remake = cs, true
	}
	if remake {
		if cfg, err = o.json(named); err != nil {
			return match.Result{}, err
		}
		if e, err = c.reg.Make(game, cfg); err != nil {
			return match.Result{}, err
		}
		g.Env = e
	}
	// Native views, native states and human players need the game's codec.
	if o.events || o.state != "" || o.replays != "" || o.pretty || len(consoleSeats(names)) > 0 {
		if v.codec, err = env.CodecOf(e); err != nil {
			return match.Result{}, err
		}
	}
	if o.replays != "" {
		dir := filepath.Join(o.replays, strconv.FormatUint(seed, 10))
		for _, a := range ags {
			if r, ok := a.(agents.ReplayDirSetter); ok {
				r.SetReplayDir(dir)
			}
		}
		entry, _ := c.reg.Lookup(game)
		if layout, ok := replay.Of(entry); ok {
			v.replay = layout.ReplayWriter(dir, ags)
		}
	}
	if o.events && !slices.Contains(v.codec.NativeFormats(), eventsFormat) {
		return match.Result{}, fmt.Errorf("--events: %s has no event stream (native formats: %s)", game, strings.Join(v.codec.NativeFormats(), ", "))
	}
	if o.state != "" {
		g.Load = func(e env.Env) error {
			data, err := os.ReadFile(o.state)
			if err != nil {
				return fmt.Errorf("--state: %w", err)
			}
			if err := v.codec.LoadNative(data); err != nil {
				return fmt.Errorf("--state %s: %w", o.state, err)
			}
			return nil
		}
	}
	if o.maxRounds > 0 {
		g.MaxRounds = o.maxRounds
	}
	g.Hooks.State = func(e env.Env, round int) error {
		if o.pretty && o.delay > 0 && round > 0 {
			time.Sleep(o.delay)
		}
		if err := v.show(c, o, e, round); err != nil {
			return err
		}
		if o.maxRounds == 0 {
			return match.ErrStop // --max-rounds 0: the initial state only
		}
		return nil
	}
	var rec *recordFile
	if o.record != "" {
		if rec, err = startRecording(o.record, int64(o.recordMax), g, game, cfg, names, o.state != ""); err != nil {
			return match.Result{}, err
		}
	}
	res, err := g.Run(context.Background())
	if err != nil {
		if rec != nil {
			rec.abort()
			if errors.Is(err, match.ErrRecordingTooLarge) {
				return match.Result{}, fmt.Errorf("--record %s: %w; raise --record-max-bytes or play fewer rounds (--max-rounds)", o.record, err)
			}
		}
		return match.Result{}, err
	}
	out := v.result(e, res)
	if rec != nil {
		if err := rec.finish(out); err != nil {
			return match.Result{}, err
		}
	}
	return out, nil
}

// show writes the replay files of the state of e at the start of round
// and redraws the board.
func (m *playView) show(c *cli, o *playFlags, e env.Env, round int) error {
	if o.events {
		if err := m.native(e, eventsFormat); err != nil {
			return err
		}
		c.stdout.Write(m.buf)
	}
	if m.replay != nil {
		if err := m.replay(e, round); err != nil {
			return fmt.Errorf("--replays: %w", err)
		}
	} else if o.replays != "" {
		var err error
		if m.buf, err = replay.WriteRound(filepath.Join(o.replays, strconv.FormatUint(m.seed, 10)), round, m.codec, m.buf); err != nil {
			return fmt.Errorf("--replays: %s: %w", m.game, err)
		}
	}
	if o.pretty {
		formats := m.codec.NativeFormats()
		f := formats[0]
		for _, g := range formats {
			if !env.IsJSONFormat(g) {
				f = g
				break
			}
		}
		if err := m.native(e, f); err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "\x1b[H\x1b[2J%s %s  seed %d  round %d\n", m.game, strings.Join(m.names, " vs "), m.seed, round)
		c.stdout.Write(m.buf)
		if len(m.buf) > 0 && m.buf[len(m.buf)-1] != '\n' {
			fmt.Fprintln(c.stdout)
		}
	}
	return nil
}

// native renders the state of e in format into m.buf: the full (referee's)
// view where the format has one, else seat 0's.
func (m *playView) native(e env.Env, format string) error {
	var err error
	if m.buf, err = replay.AppendState(m.buf[:0], m.codec, format); err != nil {
		return fmt.Errorf("%s: %w", m.game, err)
	}
	return nil
}

// agentNames expands --agents to one name per seat.
func agentNames(game, flag string, seats int) ([]string, error) {
	var names []string
	for _, n := range strings.Split(flag, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	switch len(names) {
	case 0:
		def := "random"
		for _, n := range agents.Names(game) {
			if n == "reference" {
				def = n
			}
		}
		names = []string{def}
		fallthrough
	case 1:
		for len(names) < seats {
			names = append(names, names[0])
		}
	case seats:
	default:
		return nil, fmt.Errorf("--agents: got %d names, want %d (one per seat) or 1 (for every seat)", len(names), seats)
	}
	for _, n := range names {
		if !agents.Known(game, n) {
			_, err := agents.New(game, n, nil)
			return nil, err
		}
	}
	return names, nil
}

// agentURLs returns the url of each HTTP bot among the agents ("" for the
// others), or nil when there is none.
func agentURLs(agentNames []string) []string {
	var urls []string
	for i, n := range agentNames {
		if u := httpbot.URL(n); u != "" {
			if urls == nil {
				urls = make([]string, len(agentNames))
			}
			urls[i] = u
		}
	}
	return urls
}

// consoleSeats returns the seats played by the console agent.
func consoleSeats(agentNames []string) []int {
	var seats []int
	for seat, n := range agentNames {
		if n == "console" {
			seats = append(seats, seat)
		}
	}
	return seats
}

// result is the result of the game of e as the match runner judged it,
// with the game's extra leaderboard fields.
func (m *playView) result(e env.Env, res match.Result) match.Result {
	res.Game = m.game // the registry name as asked for
	for i, s := range res.Leaderboard {
		res.Leaderboard[i].Extra = extraFields(m.game, e, s.Seat)
	}
	return res
}

// report prints one game's result: a JSON line, or a short summary.
func (c *cli) report(res match.Result, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(c.stdout).Encode(res)
	}
	winner := "none"
	if res.Winner >= 0 {
		w := int(res.Winner)
		for _, s := range res.Leaderboard {
			if s.Seat == w {
				winner = fmt.Sprintf("seat %d (%s)", w, s.Agent)
				if s.Name != "" {
					winner = fmt.Sprintf("seat %d, %s (%s)", w, s.Name, s.Agent)
				}
			}
		}
	}
	if res.Draw {
		winner += ", a draw at the top"
	}
	fmt.Fprintf(c.stdout, "game %s  seed %d  rounds %d  winner %s\n", res.Game, res.Seed, res.Rounds, winner)
	if f := res.Forfeit; f != nil {
		fmt.Fprintf(c.stdout, "seat %d (%s) forfeits in round %d: %s\n", f.Seat, f.Agent, f.Round, f.Reason)
	}
	for _, f := range res.Faults {
		if f.Total() > 0 {
			fmt.Fprintf(c.stdout, "seat %d (%s) lost %d rounds: %v\n", f.Seat, f.Agent, f.Total(), f.Faults)
		}
	}
	for _, s := range res.Leaderboard {
		if !s.Actions.IsZero() {
			fmt.Fprintf(c.stdout, "seat %d (%s) actions: %s\n", s.Seat, s.Agent, s.Actions)
		}
		if s.Death != "" && s.Death != "alive" {
			fmt.Fprintf(c.stdout, "seat %d (%s) died: %s\n", s.Seat, s.Agent, s.Death)
		}
	}
	fmt.Fprintln(c.stdout)
	w := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	header := "RANK\tSEAT\tAGENT\tNAME\tSCORE\tALIVE"
	if len(res.Leaderboard) > 0 {
		for _, f := range res.Leaderboard[0].Extra {
			header += "\t" + strings.ToUpper(f.Name)
		}
	}
	fmt.Fprintln(w, header)
	for _, s := range res.Leaderboard {
		line := fmt.Sprintf("%d\t%d\t%s\t%s\t%g\t%v", s.Rank, s.Seat, s.Agent, s.Name, s.Score, s.Alive)
		for _, f := range s.Extra {
			line += fmt.Sprintf("\t%v", f.Value)
		}
		fmt.Fprintln(w, line)
	}
	return w.Flush()
}

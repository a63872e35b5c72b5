package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/replay"
	"github.com/botarena/botarena/internal/bytesize"
	"github.com/botarena/botarena/internal/safefile"
	"github.com/botarena/botarena/league"
	"github.com/botarena/botarena/match"
	"github.com/botarena/botarena/observations/matchdata"
)

// Replays play one of two ways. A replay with every round's actions (a
// recording, league match data) is replayed: its actions are played again
// by the match runner from its seed, which gives every seat's view and the
// results exactly as in the match; the recorded states and outcomes are
// checked against the replayed ones when it is opened. A replay of states
// only (a replay folder, or a recording whose actions do not lead to its
// states) loads each round's state into the game (env.Codec.LoadNative),
// so its views and results are what the state holds (an original's state
// file may not keep everything, such as the order in which players died).

const (
	modeReplayed = "replayed"
	modeStates   = "states"
)

// actionsSource is a replay played again from its seed and actions.
type actionsSource struct {
	reg     *env.Registry
	game    string
	config  json.RawMessage
	seed    uint64
	actions [][]int32 // by round, one per seat
	load    []byte    // the state of round 0, loaded over the seed's (play --state), or nil
	header  match.RecordingHeader
	final   *recordedResult
}

func (a *actionsSource) cost() int64 { return 0 }
func (l *liveSource) cost() int64    { return l.held }

func (a *actionsSource) start() (playing, error) {
	e, err := a.reg.Make(a.game, a.config)
	if err != nil {
		return nil, err
	}
	p, err := newSimPlay(a.game, e, scriptedAgents(e.Spec().Seats, a.actions), a.seed, len(a.actions), a.header, a.final)
	if err != nil {
		return nil, err
	}
	if a.load != nil {
		p.g.Load = func(env.Env) error { return p.codec.LoadNative(a.load) }
	}
	return p, nil
}

// statesSource is a replay of recorded states.
type statesSource struct {
	reg     *env.Registry
	game    string
	config  json.RawMessage
	n       int // states
	actions [][]int32
	header  match.RecordingHeader
	final   *recordedResult
	// maxState is the largest state's size in bytes (a line of a
	// recording, a file of a folder); the reader refuses a larger one.
	maxState int64
	// open returns the reader of the states, native as the codec writes
	// them, and its closer.
	open func() (read func(round int) ([]byte, error), close func(), err error)
}

func (s *statesSource) cost() int64 { return stateCost(s.maxState) }

// errStateTooLarge is wrapped by the error of a state larger than
// stateCap.
var errStateTooLarge = errors.New("more than a state may have here")

// badRound is the error of a round of a replay that cannot be shown: its
// state is missing, larger than it was, or does not load into the game.
// The replay is at fault, not the server: the viewer answers 400.
type badRound struct {
	round int
	err   error
}

func (e *badRound) Error() string { return fmt.Sprintf("round %d of this replay: %v", e.round, e.err) }
func (e *badRound) Unwrap() error { return e.err }

func (s *statesSource) start() (playing, error) {
	e, err := s.reg.Make(s.game, s.config)
	if err != nil {
		return nil, err
	}
	codec, err := env.CodecOf(e)
	if err != nil {
		return nil, err
	}
	read, closer, err := s.open()
	if err != nil {
		return nil, err
	}
	return &statePlay{src: s, e: e, codec: codec, format: codec.NativeFormats()[0], read: read, closer: closer}, nil
}

// statePlay plays a statesSource: each round's state loaded into e.
type statePlay struct {
	src    *statesSource
	e      env.Env
	codec  env.Codec
	format string
	read   func(round int) ([]byte, error)
	closer func()
	round  int
	cur    []byte // the native state of round
	buf    []byte
	cmd    []byte
}

func (p *statePlay) limit() int { return p.src.n - 1 }
func (p *statePlay) over() bool { return p.round >= p.src.n-1 }
func (p *statePlay) close()     { p.closer() }

// goTo loads the state of round.
func (p *statePlay) goTo(round int) error {
	data, err := p.read(round)
	if err != nil {
		return &badRound{round, err}
	}
	if err := p.codec.LoadNative(data); err != nil {
		return &badRound{round, fmt.Errorf("the state does not load into %s: %w", p.src.game, err)}
	}
	p.round, p.cur = round, data
	return nil
}

func (p *statePlay) run(ctx context.Context, from int, fn func(round int) error) error {
	for round := min(from, p.src.n-1); round < p.src.n; round++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := p.goTo(round); err != nil {
			return err
		}
		if err := fn(round); err != nil {
			if errors.Is(err, match.ErrStop) {
				return nil
			}
			return err
		}
	}
	return nil
}

func (p *statePlay) frame(seat int) (*Frame, error) {
	state, err := match.NativeJSON(p.cur, p.format)
	if err != nil {
		return nil, err
	}
	f := &Frame{Game: p.src.game, Seats: p.e.Spec().Seats, Round: p.round, Format: p.format, State: state, Seat: seat,
		Result: match.ResultOf(p.e, p.src.header.Seed, p.src.header.Agents, nil), Done: p.over()}
	f.Result.Game = p.src.game
	if f.Done && p.src.final != nil {
		p.src.final.apply(f)
	}
	if r := p.round - 1; r >= 0 && r < len(p.src.actions) {
		for seat, a := range p.src.actions[r] {
			f.Actions = append(f.Actions, actionView(p.e, p.codec, seat, a, &p.cmd))
		}
	}
	if seat >= 0 {
		if p.buf, err = p.codec.AppendNative(p.buf[:0], p.format, seat); err != nil {
			return nil, err
		}
		if f.View, err = match.NativeJSON(p.buf, p.format); err != nil {
			return nil, err
		}
	}
	return f, nil
}

func (p *statePlay) record(ctx context.Context, rw *recordWriter, last int) error {
	h := p.src.header
	h.Format, h.Version, h.StateFormat, h.Seats = match.RecordingFormat, match.RecordingVersion, p.format, p.e.Spec().Seats
	enc := json.NewEncoder(rw)
	if err := enc.Encode(h); err != nil {
		return err
	}
	var f *Frame
	err := p.run(ctx, 0, func(round int) error {
		var err error
		if f, err = p.frame(-1); err != nil {
			return err
		}
		line := match.RecordedRound{Round: round, State: f.State}
		if round < len(p.src.actions) && !p.over() {
			line.Actions = p.src.actions[round]
		}
		if err := enc.Encode(line); err != nil {
			return err
		}
		if round >= last {
			return match.ErrStop
		}
		return nil
	})
	if err != nil || f == nil {
		return err
	}
	if f.Done && p.src.final != nil {
		return enc.Encode(map[string]json.RawMessage{"result": p.src.final.raw})
	}
	return enc.Encode(map[string]any{"result": resultOf(p.src.game, h.Seed, p.round, f)})
}

// sameNative reports whether two native states in format are the same:
// byte for byte, or for a JSON format, once compacted.
func sameNative(format string, a, b []byte) bool {
	if !env.IsJSONFormat(format) {
		return bytes.Equal(a, b)
	}
	var ca, cb bytes.Buffer
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}

// lineRef locates a line of a recording.
type lineRef struct {
	offset int64
	n      int
}

// lineState returns the native state of the round line at ref in ra.
func lineState(ra io.ReaderAt, ref lineRef, format string) ([]byte, error) {
	buf := make([]byte, ref.n)
	if _, err := ra.ReadAt(buf, ref.offset); err != nil {
		return nil, err
	}
	var line struct {
		State json.RawMessage `json:"state"`
	}
	if err := json.Unmarshal(buf, &line); err != nil {
		return nil, err
	}
	if env.IsJSONFormat(format) {
		return line.State, nil
	}
	var text string
	if err := json.Unmarshal(line.State, &text); err != nil {
		return nil, fmt.Errorf("the state of a %s recording is not a JSON string: %w", format, err)
	}
	return []byte(text), nil
}

// openRecording reads the recording of b and makes its source: replayed
// when it has every round's actions and they lead to its states and
// outcomes, else its states, each of which must load into the game. No
// line may be longer than stateCap; reading it costs stateCost of its
// longest line (the caller charges it).
func (s *Server) openRecording(ctx context.Context, b byteSource) (replayOpened, error) {
	ra, err := b.open()
	if err != nil {
		return replayOpened{}, err
	}
	defer ra.Close()
	rr, h, err := match.NewRecordingReader(io.NewSectionReader(ra, 0, b.size()), int(s.stateCap))
	if err != nil {
		return replayOpened{}, err
	}
	if _, err := s.opt.Registry.Lookup(h.Game); err != nil {
		return replayOpened{}, fmt.Errorf("recording: %w", err)
	}
	e, err := s.opt.Registry.Make(h.Game, h.Config)
	if err != nil {
		return replayOpened{}, fmt.Errorf("recording: %w", err)
	}
	codec, err := env.CodecOf(e)
	if err != nil {
		return replayOpened{}, fmt.Errorf("recording: %w", err)
	}
	format, seats := codec.NativeFormats()[0], e.Spec().Seats
	if h.StateFormat != format || h.Seats != seats {
		return replayOpened{}, fmt.Errorf("recording: %d seats of %s states; %s has %d seats and the canonical format %s", h.Seats, h.StateFormat, h.Game, seats, format)
	}
	var lines []lineRef
	var actions [][]int32
	var outcomes []*match.RecordedRound
	var result json.RawMessage
	for {
		l, err := rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return replayOpened{}, err
		}
		if l.Round == nil {
			result = l.Result
			continue
		}
		if l.Round.Round != len(lines) {
			return replayOpened{}, fmt.Errorf("recording: round %d where round %d was expected", l.Round.Round, len(lines))
		}
		if len(lines) > s.opt.MaxRounds {
			return replayOpened{}, fmt.Errorf("recording: more than %d rounds, the most the viewer plays", s.opt.MaxRounds)
		}
		lines = append(lines, lineRef{l.Offset, l.Len})
		var acts []int32
		if len(l.Round.Actions) == seats {
			acts = l.Round.Actions
		}
		actions = append(actions, acts)
		l.Round.State, l.Round.Actions, l.Round.Commands = nil, nil, nil
		outcomes = append(outcomes, l.Round)
	}
	if len(lines) == 0 {
		return replayOpened{}, errors.New("recording: no rounds")
	}
	n := len(lines)
	actions = actions[:n-1]
	var maxLine int64
	for _, l := range lines {
		maxLine = max(maxLine, int64(l.n))
	}
	final := parseResult(result, seats)
	read := func(ra io.ReaderAt) func(int) ([]byte, error) {
		return func(round int) ([]byte, error) { return lineState(ra, lines[round], format) }
	}
	open := replayOpened{game: h.Game, seats: seats, rounds: n - 1, seed: &h.Seed, agents: h.Agents, mode: modeStates}
	if !slices.ContainsFunc(actions, func(a []int32) bool { return a == nil }) {
		var load []byte
		if h.Loaded {
			if load, err = read(ra)(0); err != nil {
				return replayOpened{}, err
			}
		}
		err := replayed(ctx, e, h.Seed, actions, load,
			func(round int, got []byte) bool {
				want, err := read(ra)(round)
				return err == nil && sameNative(format, got, want)
			},
			func(round int, st match.Step) bool {
				o := outcomes[round]
				return (o.Rewards == nil || slices.Equal(o.Rewards, st.Rewards)) && (o.Terminated == nil || slices.Equal(o.Terminated, st.Terminated)) &&
					(o.Truncated == nil || slices.Equal(o.Truncated, st.Truncated))
			})
		switch {
		case err == nil:
			open.mode, open.held = modeReplayed, int64(len(load))
			open.src = &actionsSource{reg: s.opt.Registry, game: h.Game, config: h.Config, seed: h.Seed, actions: actions, load: load, header: h, final: final}
			return open, nil
		case errors.Is(err, errNotReplayed):
			open.note, open.warning = err.Error()+"; playing the recorded states", true
		default:
			return replayOpened{}, err
		}
	} else {
		open.note = "the recording lacks some rounds' actions; playing the recorded states"
	}
	// Played as states, every state must load: a round that cannot be
	// shown is refused now rather than failing a frame later.
	for round := range n {
		if round%64 == 0 && ctx.Err() != nil {
			return replayOpened{}, ctx.Err()
		}
		state, err := read(ra)(round)
		if err == nil {
			err = codec.LoadNative(state)
		}
		if err != nil {
			return replayOpened{}, fmt.Errorf("recording: round %d: the state does not load into %s: %w", round, h.Game, err)
		}
	}
	open.src = &statesSource{reg: s.opt.Registry, game: h.Game, config: h.Config, n: n, actions: actions, header: h, final: final, maxState: maxLine,
		open: func() (func(int) ([]byte, error), func(), error) {
			ra, err := b.open()
			if err != nil {
				return nil, nil, err
			}
			return read(ra), func() { ra.Close() }, nil
		}}
	return open, nil
}

// openFolder opens the match folder p of the replays folder as a replay of
// game, or of the first game whose replay layout it has and whose
// canonical state loads its first state. Each state it reads is charged
// to the budget with reserve while it loads. No state file may be larger
// than stateCap.
func (s *Server) openFolder(p, game string, reserve func(bytes int64) (func(), error)) (replayOpened, error) {
	fsys := rootFS{root: s.replays, dir: ".", max: s.stateCap}
	sub := rootFS{root: s.replays, dir: p, max: s.stateCap}
	names := s.opt.Registry.Names()
	if game != "" {
		if _, err := s.opt.Registry.Lookup(game); err != nil {
			return replayOpened{}, err
		}
		names = []string{game}
	}
	// size returns the size of the state file name of the folder, refused
	// beyond stateCap.
	size := func(name string) (int64, error) {
		fi, err := fsys.Stat(path.Join(p, name))
		if err != nil {
			return 0, err
		}
		if !fi.Mode().IsRegular() {
			return 0, &safefile.Error{Name: path.Join(p, name), Err: safefile.ErrNotRegular}
		}
		if fi.Size() > s.stateCap {
			return 0, fmt.Errorf("%s: %s, %w: %s (serve --max-state-bytes, at most --max-memory / %d)",
				path.Join(p, name), bytesize.Format(fi.Size()), errStateTooLarge, bytesize.Format(s.stateCap), stateParseFactor)
		}
		return fi.Size(), nil
	}
	// load reads the state file name and loads it into codec, its cost
	// charged meanwhile.
	load := func(name string, codec env.Codec) ([]byte, error) {
		n, err := size(name)
		if err != nil {
			return nil, err
		}
		release, err := reserve(stateCost(max(n, 1)))
		if err != nil {
			return nil, err
		}
		defer release()
		data, err := readIn(s.replays, path.Join(p, name), max(n, 1))
		if err != nil {
			return nil, err
		}
		return data, codec.LoadNative(data)
	}
	var (
		found   string
		paths   []string
		exact   bool
		lastErr error
	)
	for _, name := range names {
		e, err := s.opt.Registry.Make(name, nil)
		if err != nil {
			continue
		}
		codec, err := env.CodecOf(e)
		if err != nil {
			lastErr = err
			continue
		}
		format := codec.NativeFormats()[0]
		var ps []string
		entry, _ := s.opt.Registry.Lookup(name)
		if layout, ok := replay.Of(entry); ok {
			ps, err = layout.ReplayStates(sub)
		} else {
			ps, err = replay.States(sub, format, s.opt.MaxRounds+1)
		}
		if err == nil && len(ps) > s.opt.MaxRounds+1 {
			err = fmt.Errorf("more than %d rounds, the most the viewer plays", s.opt.MaxRounds)
		}
		if err != nil {
			lastErr = err
			continue
		}
		first, err := load(ps[0], codec)
		var budget *budgetError
		var file *safefile.Error
		if errors.As(err, &budget) || errors.As(err, &file) || errors.Is(err, errStateTooLarge) {
			return replayOpened{}, err // not the layout's fault
		}
		if err != nil {
			lastErr = fmt.Errorf("%s: %w", ps[0], err)
			continue
		}
		// Where several games load it (a preset's state in its base game),
		// take the first that writes it back as it was.
		again, _ := codec.AppendNative(nil, format, -1)
		if same := sameNative(format, again, first); found == "" || (same && !exact) {
			found, paths, exact = name, ps, same
		}
	}
	if found == "" {
		if game != "" {
			return replayOpened{}, fmt.Errorf("%s: not a replay of %s: %v", p, game, lastErr)
		}
		return replayOpened{}, fmt.Errorf("%s: not a replay folder of any game (the layout of play --replays DIR: DIR/<seed>/<round>/<native files>)", p)
	}
	// Every state file is bounded now; a frame is charged for the largest.
	var maxState int64 = 1
	for _, name := range paths {
		n, err := size(name)
		if err != nil {
			return replayOpened{}, err
		}
		maxState = max(maxState, n)
	}
	e, _ := s.opt.Registry.Make(found, nil)
	open := replayOpened{game: found, seats: e.Spec().Seats, rounds: len(paths) - 1, mode: modeStates}
	h := match.RecordingHeader{Game: found}
	if seed, err := strconv.ParseUint(path.Base(p), 10, 64); err == nil {
		open.seed, h.Seed = &seed, seed
	}
	open.src = &statesSource{reg: s.opt.Registry, game: found, n: len(paths), header: h, maxState: maxState,
		open: func() (func(int) ([]byte, error), func(), error) {
			return func(round int) ([]byte, error) {
				return readIn(s.replays, path.Join(p, paths[round]), maxState)
			}, func() {}, nil
		}}
	return open, nil
}

// matchDataGame is a game of a match data file, as listed.
type matchDataGame struct {
	Index  int64    `json:"index"`
	Seed   Seed     `json:"seed"` // a string: see Seed
	Steps  int      `json:"steps"`
	Agents []string `json:"agents"`
}

// readMatchData reads the match data file p of size bytes, with the game
// want's actions (none when negative).
func (s *Server) readMatchData(p string, size, want int64) (*matchdata.File, error) {
	if size > s.opt.MaxReplayBytes {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d a match data file may have here (serve --max-replay-bytes)", p, size, s.opt.MaxReplayBytes)
	}
	f, _, err := openIn(s.replays, p, s.opt.MaxReplayBytes, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := matchdata.ReadFile(f, size, want)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return data, nil
}

// matchDataGames lists the games of the match data file p.
func (s *Server) matchDataGames(p string, size int64) ([]matchDataGame, error) {
	data, err := s.readMatchData(p, size, -1)
	if err != nil {
		return nil, err
	}
	games := make([]matchDataGame, 0, len(data.Games))
	for _, g := range data.Games {
		games = append(games, matchDataGame{Index: g.Game, Seed: Seed(g.Seed), Steps: g.Steps, Agents: g.Agents})
	}
	return games, nil
}

// openMatchData opens game index of the match data file p as a replay of
// its actions, in the config of the league it sits in (see leagueConfig).
func (s *Server) openMatchData(ctx context.Context, p string, size, index int64) (replayOpened, error) {
	data, err := s.readMatchData(p, size, index)
	if err != nil {
		return replayOpened{}, err
	}
	i := slices.IndexFunc(data.Games, func(g matchdata.Rows) bool { return g.Game == index })
	if i < 0 {
		return replayOpened{}, fmt.Errorf("%s has no game %d", p, index)
	}
	g := data.Games[i]
	if g.Steps > s.opt.MaxRounds {
		return replayOpened{}, fmt.Errorf("game %d: %d rounds, more than the %d the viewer plays", index, g.Steps, s.opt.MaxRounds)
	}
	if _, err := s.opt.Registry.Lookup(data.Game); err != nil {
		return replayOpened{}, err
	}
	config, from := s.leagueConfig(p, data.Game)
	players := make([]league.Entrant, len(g.Agents))
	for i, name := range g.Agents {
		players[i].Name = name
	}
	config, err = league.MatchConfig(s.opt.Registry, league.Match{Game: data.Game, Config: config, Seats: players})
	if err != nil {
		return replayOpened{}, err
	}
	e, err := s.opt.Registry.Make(data.Game, config)
	if err != nil {
		return replayOpened{}, err
	}
	seats := e.Spec().Seats
	if seats != data.Seats {
		return replayOpened{}, fmt.Errorf("%s: %d seats, %s has %d", p, data.Seats, data.Game, seats)
	}
	actions := make([][]int32, g.Steps)
	for st := range actions {
		actions[st] = g.Action[st*seats : (st+1)*seats]
	}
	open := replayOpened{game: data.Game, seats: seats, rounds: g.Steps, seed: &g.Seed, agents: g.Agents, mode: modeReplayed}
	where := "the config of the league in " + from
	if from == "" {
		where = "no league store beside the data, so the game's default config"
		open.note = where
	}
	err = replayed(ctx, e, g.Seed, actions, nil, nil, func(round int, st match.Step) bool {
		rows := round * seats
		return slices.Equal(st.Rewards, g.Reward[rows:rows+seats]) && slices.Equal(st.Terminated, g.Terminated[rows:rows+seats]) &&
			(round == len(actions)-1 || slices.Equal(st.Truncated, g.Truncated[rows:rows+seats]))
	})
	if errors.Is(err, errNotReplayed) {
		open.note, open.warning = err.Error()+" (played with "+where+")", true
	} else if err != nil {
		return replayOpened{}, err
	}
	open.src = &actionsSource{reg: s.opt.Registry, game: data.Game, config: config, seed: g.Seed, actions: actions,
		header: match.RecordingHeader{Game: data.Game, Config: config, Seed: g.Seed, Agents: g.Agents}}
	return open, nil
}

package envproto

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strings"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/picture"
	"github.com/botarena/botarena/env/training"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/vecenv"
)

// ErrInvalid is the kind of the errors of a request field the client can
// fix; the error's text names the field, the value and what was expected.
var ErrInvalid = errors.New("invalid argument")

// invalidError is an error of kind ErrInvalid.
type invalidError struct{ err error }

func (e *invalidError) Error() string        { return e.err.Error() }
func (e *invalidError) Unwrap() error        { return errors.Unwrap(e.err) }
func (e *invalidError) Is(target error) bool { return target == ErrInvalid }

func invalidf(format string, args ...any) error {
	return &invalidError{fmt.Errorf(format, args...)}
}

// GameSpec returns spec as its message.
func GameSpec(spec *env.Spec) *botarenav1.GameSpec {
	gs := &botarenav1.GameSpec{
		Game:        spec.Game,
		Seats:       int32(spec.Seats),
		Actions:     int32(spec.Actions),
		ActionNames: slices.Clone(spec.ActionNames),
		MaxSteps:    int32(spec.MaxSteps),
		Reward:      spec.Reward,
	}
	for _, t := range spec.Obs {
		gs.Observations = append(gs.Observations, TensorSpec(t.Name, t.DType.String(), t.Shape, t.Layout, t.Shared))
	}
	if f := spec.Factors; f != nil {
		gs.ActionFactors = &botarenav1.ActionFactors{
			Commands: slices.Clone(f.Commands),
			Cells:    int32(f.Cells),
			Command:  slices.Clone(f.Command),
			Cell:     slices.Clone(f.Cell),
		}
	}
	return gs
}

// TensorSpec returns a tensor's message: its name, numpy dtype, per-row
// shape, layout text and shared channels (nil for none).
func TensorSpec(name, dtype string, shape []int, layout string, shared []int) *botarenav1.TensorSpec {
	return &botarenav1.TensorSpec{Name: name, Dtype: dtype, Shape: int32s(shape), Layout: layout, Shared: int32s(shared)}
}

func int32s(s []int) []int32 {
	if len(s) == 0 {
		return nil
	}
	out := make([]int32, len(s))
	for i, v := range s {
		out[i] = int32(v)
	}
	return out
}

// GameInfo describes game name of reg with the spec of its default config
// (made from one env), the agents that can play it with their summaries,
// its reference bot and training defaults ([training.Of]), its default
// config as JSON and the fields of its config (see [env.ConfigSchema]).
// An unknown name is env.ErrUnknownGame; a game whose default config
// cannot be made or described gives an error of no kind (the game's
// fault, not the caller's), naming the game.
func GameInfo(reg *env.Registry, name string) (*botarenav1.GameInfo, error) {
	entry, err := reg.Lookup(name)
	if err != nil {
		return nil, err
	}
	hide := func(what string, err error) error { return fmt.Errorf("%s of %s: %s", what, name, err.Error()) }
	e, err := reg.Make(name, nil)
	if err != nil {
		return nil, hide("default config", err)
	}
	cfg, err := json.Marshal(entry.NewConfig())
	if err != nil {
		return nil, hide("default config", err)
	}
	fields, err := reg.ConfigFields(name)
	if err != nil {
		return nil, hide("config fields", err)
	}
	info := &botarenav1.GameInfo{
		Name:              name,
		Summary:           entry.Summary,
		Spec:              GameSpec(e.Spec()),
		Agents:            agents.Names(name),
		DefaultConfigJson: string(cfg),
	}
	for _, f := range fields {
		info.ConfigFields = append(info.ConfigFields, &botarenav1.ConfigField{
			Name: f.Name, Type: f.Type, DefaultJson: string(f.Default), Allowed: f.Allowed, Doc: f.Doc, Appends: f.Appends,
		})
	}
	info.AgentSummaries = make(map[string]string, len(info.Agents))
	for _, a := range info.Agents {
		info.AgentSummaries[a], _ = agents.Summary(name, a)
	}
	d := training.Of(entry)
	var own []string // the game's built-in agents
	if b, ok := entry.Kit.(agents.Builtins); ok {
		for _, a := range b.Agents() {
			own = append(own, a.Name)
		}
	}
	if err := training.Check(d, entry, own); err != nil {
		return nil, hide("training defaults", err)
	}
	info.ReferenceAgent, info.TrainingOpponents = d.Reference, d.Opponents
	if d.Tuned() {
		if info.Training, err = trainingDefaults(d); err != nil {
			return nil, hide("training defaults", err)
		}
	}
	return info, nil
}

// trainingDefaults is the message of a game's training defaults.
func trainingDefaults(t training.Defaults) (*botarenav1.TrainingDefaults, error) {
	cfg, err := json.Marshal(t.Config)
	if err != nil {
		return nil, err
	}
	if t.Config == nil {
		cfg = []byte("{}")
	}
	return &botarenav1.TrainingDefaults{
		Channels: int32s(t.Channels), Strides: int32s(t.Strides), Hidden: int32(t.Hidden),
		ConfigJson: string(cfg), Gamma: t.Gamma, EntCoef: t.EntCoef,
	}, nil
}

// PoolOptions are what a face of the env API decides itself when it turns
// a CreatePoolRequest into a pool.
type PoolOptions struct {
	// Registry is where the game is looked up; nil means env.Default.
	Registry *env.Registry
	// Opponent returns the factory of agent spec playing a seat of game
	// (field names it in errors: "opponents[2]"); it decides which agents
	// this face allows.
	Opponent func(game, field, spec string) (env.AgentFactory, error)
	// MaxWorkers caps the request's workers, and is what 0 asks for; 0
	// means no cap. A request's 0 under a cap of exactly GOMAXPROCS (a
	// server's default) gets vecenv's default: the same GOMAXPROCS
	// goroutines (capped at num_envs), of which each step wakes as many as
	// pay.
	MaxWorkers int
	// Clip shortens a string of the request before an error quotes it,
	// so that an error never echoes unbounded input; nil quotes it whole.
	Clip func(string) string
}

// clip is o.Clip(s), or s without one.
func (o PoolOptions) clip(s string) string {
	if o.Clip == nil {
		return s
	}
	return o.Clip(s)
}

// Pool is a checked CreatePoolRequest.
type Pool struct {
	// Config makes the pool (vecenv.New); Config.Seed is the request's,
	// or drawn at random when it has none.
	Config vecenv.Config
	// Spec is the spec of the requested config (one env made to check it).
	Spec *env.Spec
	// BatchSize is the envs of an async batch; 0 for a synchronous pool.
	BatchSize int
}

// PoolConfig checks req and turns it into a pool config, the same way
// for every face: the game must exist (env.ErrUnknownGame) and its config
// be valid (*env.ConfigError, or ErrInvalid for JSON that does not
// parse); num_envs must be at least 1, batch_size in 0..num_envs, the
// learner seats no more than the game has, workers at least 0, auto_reset
// and compression known values (ErrInvalid). Every seat that is neither a
// learner seat nor in opponents is played by default_opponent when it is
// set and learner_seats is not empty. The agents are checked by
// opts.Opponent; the learner seats themselves by vecenv.New.
func PoolConfig(req *botarenav1.CreatePoolRequest, opts PoolOptions) (Pool, error) {
	reg := opts.Registry
	if reg == nil {
		reg = env.Default
	}
	game := req.GetGame()
	if game == "" {
		return Pool{}, invalidf("game: required (games: %s)", strings.Join(reg.Names(), ", "))
	}
	if _, err := reg.Lookup(game); err != nil {
		return Pool{}, err
	}
	cfgJSON := []byte(req.GetConfigJson())
	if len(cfgJSON) == 0 {
		cfgJSON = nil
	}
	first, err := reg.Make(game, cfgJSON)
	if err != nil {
		var ce *env.ConfigError
		if errors.As(err, &ce) {
			return Pool{}, err
		}
		return Pool{}, invalidf("config_json: %w", err)
	}
	spec := first.Spec()
	n := req.GetNumEnvs()
	if n < 1 {
		return Pool{}, invalidf("num_envs: got %d, want at least 1", n)
	}
	if b := req.GetBatchSize(); b < 0 || b > n {
		return Pool{}, invalidf("batch_size: got %d, want 0 (a synchronous pool) or 1..%d (num_envs) for async stepping", b, n)
	}
	// The seats are counted before they size anything: more learner seats
	// than the game has is the client's mistake, not a batch too large.
	if got := len(req.GetLearnerSeats()); got > spec.Seats {
		return Pool{}, invalidf("learner_seats: %d seats given, but %s has %d (seats 0..%d, each at most once)", got, game, spec.Seats, spec.Seats-1)
	}
	if w := req.GetWorkers(); w < 0 {
		return Pool{}, invalidf("workers: got %d, want 0 (the default) or more", w)
	}
	workers := opts.MaxWorkers
	if w := int(req.GetWorkers()); w > 0 && (workers == 0 || w < workers) {
		workers = w
	} else if w == 0 && workers == runtime.GOMAXPROCS(0) {
		workers = 0 // the same goroutines, vecenv's default: as many woken per step as pay
	}
	var mode vecenv.AutoReset
	switch req.GetAutoReset() {
	case botarenav1.AutoReset_AUTO_RESET_UNSPECIFIED, botarenav1.AutoReset_AUTO_RESET_NEXT_STEP:
		mode = vecenv.NextStep
	case botarenav1.AutoReset_AUTO_RESET_SAME_STEP:
		mode = vecenv.SameStep
	default:
		return Pool{}, invalidf("auto_reset: got %d, want AUTO_RESET_NEXT_STEP or AUTO_RESET_SAME_STEP", req.GetAutoReset())
	}
	switch req.GetCompression() {
	case botarenav1.Compression_COMPRESSION_UNSPECIFIED, botarenav1.Compression_COMPRESSION_NONE, botarenav1.Compression_COMPRESSION_ZSTD:
	default:
		return Pool{}, invalidf("compression: got %d, want COMPRESSION_NONE or COMPRESSION_ZSTD", req.GetCompression())
	}
	var learners []int
	for _, seat := range req.GetLearnerSeats() {
		learners = append(learners, int(seat))
	}
	specs := map[int]string{}
	for seat, name := range req.GetOpponents() {
		specs[int(seat)] = name
	}
	if def := req.GetDefaultOpponent(); def != "" && learners != nil {
		for seat := range spec.Seats {
			if _, ok := specs[seat]; !ok && !slices.Contains(learners, seat) {
				specs[seat] = def
			}
		}
	}
	var opps map[int]env.AgentFactory
	var names map[int]string
	if len(specs) > 0 {
		opps, names = make(map[int]env.AgentFactory, len(specs)), make(map[int]string, len(specs))
		for _, seat := range slices.Sorted(maps.Keys(specs)) {
			f, err := opts.Opponent(game, fmt.Sprintf("opponents[%d]", seat), specs[seat])
			if err != nil {
				return Pool{}, err
			}
			opps[seat], names[seat] = f, specs[seat]
		}
	}
	var seed uint64
	if req.Seed != nil {
		seed = req.GetSeed()
	} else {
		var b [8]byte
		rand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:])
	}
	return Pool{
		Config: vecenv.Config{
			Game:          game,
			GameConfig:    cfgJSON,
			Registry:      reg,
			NumEnvs:       int(n),
			Seed:          seed,
			Workers:       workers,
			LearnerSeats:  learners,
			Opponents:     opps,
			OpponentNames: names,
			AutoReset:     mode,
		},
		Spec:      spec,
		BatchSize: int(req.GetBatchSize()),
	}, nil
}

// AutoReset returns mode as its enum value.
func AutoReset(mode vecenv.AutoReset) botarenav1.AutoReset {
	if mode == vecenv.SameStep {
		return botarenav1.AutoReset_AUTO_RESET_SAME_STEP
	}
	return botarenav1.AutoReset_AUTO_RESET_NEXT_STEP
}

// Opponents returns names (seat → agent) as the message's map.
func Opponents(names map[int]string) map[int32]string {
	if len(names) == 0 {
		return nil
	}
	out := make(map[int32]string, len(names))
	for seat, name := range names {
		out[int32(seat)] = name
	}
	return out
}

// Stats returns a pool's statistics as their message; steps is the number
// of Step (or Send) calls the pool served.
func Stats(st vecenv.Stats, steps int64) *botarenav1.StatsResponse {
	resp := &botarenav1.StatsResponse{Steps: steps, Invalid: st.Invalid}
	for _, s := range st.Seats {
		resp.Seats = append(resp.Seats, &botarenav1.SeatStats{
			Seat: int32(s.Seat), Episodes: s.Episodes, Steps: s.Steps, ReturnSum: s.Return,
			Wins: s.Wins, Draws: s.Draws, Losses: s.Losses,
		})
	}
	for _, o := range st.Opponents {
		resp.Opponents = append(resp.Opponents, &botarenav1.OpponentStats{
			Seat: int32(o.Seat), Name: o.Name, Weight: o.Weight, Episodes: o.Episodes,
			Wins: o.Wins, Draws: o.Draws, Losses: o.Losses, Invalid: o.Invalid,
		})
	}
	return resp
}

// Mixture is one opponent seat's checked mixture (see [Mixtures]).
type Mixture struct {
	Seat    int
	Choices []vecenv.OpponentChoice
}

// Mixtures checks a SetOpponentsRequest's mixtures for pool poolID of
// game, whose spec has seats seats of which learners learn, and turns
// them into vecenv choices, in seat order, before any seat changes: a
// seat out of range, a learner seat, an empty mixture, a repeated name, a
// negative or non-finite weight and weights without a positive, finite
// sum are ErrInvalid; opts.Opponent makes each choice's factory (its
// errors keep their kinds), and opts.Clip shortens the names errors quote.
func Mixtures(req map[int32]*botarenav1.OpponentMix, game, poolID string, seats int, learners []int, opts PoolOptions) ([]Mixture, error) {
	if len(req) == 0 {
		return nil, invalidf("opponents: required (a mixture per opponent seat to change)")
	}
	var out []Mixture
	for _, seat := range slices.Sorted(maps.Keys(req)) {
		field := fmt.Sprintf("opponents[%d]", seat)
		switch {
		case seat < 0 || int(seat) >= seats:
			return nil, invalidf("%s: seat %d is not a seat of %s (0..%d)", field, seat, game, seats-1)
		case slices.Contains(learners, int(seat)):
			return nil, invalidf("%s: seat %d is a learner seat of pool %q; only opponent seats have mixtures", field, seat, opts.clip(poolID))
		case len(req[seat].GetChoices()) == 0:
			return nil, invalidf("%s: the mixture needs at least one choice", field)
		}
		m := Mixture{Seat: int(seat)}
		seen := map[string]bool{}
		sum := 0.0
		for k, c := range req[seat].GetChoices() {
			cf := fmt.Sprintf("%s.choices[%d]", field, k)
			w := c.GetWeight()
			if w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
				return nil, invalidf("%s.weight: got %v, want a finite weight of at least 0", cf, w)
			}
			name := c.GetName()
			if name == "" {
				name = c.GetSpec()
			}
			if seen[name] {
				return nil, invalidf("%s.name: %q repeats a name of the seat's mixture", cf, opts.clip(name))
			}
			seen[name] = true
			f, err := opts.Opponent(game, cf+".spec", c.GetSpec())
			if err != nil {
				return nil, err
			}
			sum += w
			m.Choices = append(m.Choices, vecenv.OpponentChoice{Name: name, Factory: f, Weight: w})
		}
		if !(sum > 0) || math.IsInf(sum, 0) {
			return nil, invalidf("%s: the weights sum to %v, want a positive, finite sum", field, sum)
		}
		out = append(out, m)
	}
	return out, nil
}

// PictureFormat is the render format of pictures: RGB pixels of the
// game's [picture.Painter] picture, named after Gymnasium's render mode.
const PictureFormat = "rgb_array"

// Render returns env i of p as seat sees it (-1: the full state) in format:
// one of the game's native formats ("" means its first text format, or
// its first format when all are JSON) or [PictureFormat], the picture's
// RGB pixels row by row with its size. An env or seat out of range, a
// format the game lacks and a game without pictures or codec are
// ErrInvalid. The caller keeps p's envs still during the call (no step
// in progress) and checks that p was reset.
func Render(p *vecenv.Pool, i, seat int, format string) (*botarenav1.RenderResponse, error) {
	spec := p.Spec()
	switch {
	case i < 0 || i >= p.NumEnvs():
		return nil, invalidf("env: got %d, want 0..%d", i, p.NumEnvs()-1)
	case seat < -1 || seat >= spec.Seats:
		return nil, invalidf("seat: got %d, want -1 (the full state) or 0..%d", seat, spec.Seats-1)
	}
	e := p.Env(i)
	if format == PictureFormat {
		painter, ok := e.(picture.Painter)
		if !ok {
			return nil, invalidf("format: %s draws no pictures", spec.Game)
		}
		img := painter.Paint(seat)
		return &botarenav1.RenderResponse{Format: format, Data: picture.RGB(img), Width: int32(img.Rect.Dx()), Height: int32(img.Rect.Dy())}, nil
	}
	codec, err := env.CodecOf(e)
	if err != nil {
		return nil, invalidf("render: %w", err)
	}
	formats := codec.NativeFormats()
	if format == "" {
		format = defaultFormat(formats)
	} else if !slices.Contains(formats, format) {
		return nil, invalidf("format: got %q, want one of %s, %s", format, strings.Join(formats, ", "), PictureFormat)
	}
	data, err := codec.AppendNative(nil, format, seat)
	if err != nil {
		return nil, invalidf("render env %d as %s for seat %d: %w", i, format, seat, err)
	}
	return &botarenav1.RenderResponse{Format: format, Data: data}, nil
}

// defaultFormat returns the first text format of formats, or the first
// format when all are JSON.
func defaultFormat(formats []string) string {
	for _, f := range formats {
		if !env.IsJSONFormat(f) {
			return f
		}
	}
	if len(formats) > 0 {
		return formats[0]
	}
	return ""
}

package native

import (
	"encoding/json"
	"fmt"
	"maps"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/vecenv"
)

// Stats are a pool's statistics, as the remote backend's StatsResponse.
type Stats struct {
	Seats     []SeatStats     `json:"seats"`
	Steps     int64           `json:"steps"` // Step (or Send) calls
	Opponents []OpponentStats `json:"opponents"`
	Invalid   int64           `json:"invalid"`
}

// SeatStats are one learner seat's statistics (see [vecenv.SeatStats]).
type SeatStats struct {
	Seat      int     `json:"seat"`
	Episodes  int64   `json:"episodes"`
	Steps     int64   `json:"steps"`
	ReturnSum float64 `json:"return_sum"`
	Wins      int64   `json:"wins"`
	Draws     int64   `json:"draws"`
	Losses    int64   `json:"losses"`
}

// OpponentStats are the results against one opponent choice (see
// [vecenv.OpponentStats]).
type OpponentStats struct {
	Seat     int     `json:"seat"`
	Name     string  `json:"name"`
	Weight   float64 `json:"weight"`
	Episodes int64   `json:"episodes"`
	Wins     int64   `json:"wins"`
	Draws    int64   `json:"draws"`
	Losses   int64   `json:"losses"`
	Invalid  int64   `json:"invalid"`
}

// PoolStats returns pool h's statistics, clearing them (not the step
// count) after reading when reset is set. An async pool waits for its
// envs in flight first.
func PoolStats(h int64, reset bool) (Stats, error) {
	var out Stats
	err := with(h, func(p *pool) error {
		p.quiet()
		st := p.p.Stats()
		if reset {
			p.p.ResetStats()
		}
		out = Stats{Steps: p.steps, Invalid: st.Invalid, Seats: []SeatStats{}, Opponents: []OpponentStats{}}
		for _, s := range st.Seats {
			out.Seats = append(out.Seats, SeatStats{s.Seat, s.Episodes, s.Steps, s.Return, s.Wins, s.Draws, s.Losses})
		}
		for _, o := range st.Opponents {
			out.Opponents = append(out.Opponents, OpponentStats{o.Seat, o.Name, o.Weight, o.Episodes, o.Wins, o.Draws, o.Losses, o.Invalid})
		}
		return nil
	})
	return out, err
}

// Choice is one weighted choice of an opponent mixture (see
// [vecenv.OpponentChoice]); an empty Name means Spec.
type Choice struct {
	Spec   string  `json:"spec"`
	Weight float64 `json:"weight"`
	Name   string  `json:"name"`
}

// SetOpponents replaces the mixtures of the given opponent seats of pool
// h, in seat order (see [vecenv.Pool.SetOpponents]); every agent is
// checked before any seat changes. An async pool waits for its envs in
// flight first.
func SetOpponents(h int64, mixes map[int][]Choice) error {
	return with(h, func(p *pool) error {
		if len(mixes) == 0 {
			return errorf(InvalidArgument, "opponents: required (a mixture per opponent seat to change)")
		}
		seats := slices.Sorted(maps.Keys(mixes))
		choices := make(map[int][]vecenv.OpponentChoice, len(seats))
		for _, seat := range seats {
			for k, c := range mixes[seat] {
				f, err := factory(p.game, fmt.Sprintf("opponents[%d].choices[%d].spec", seat, k), c.Spec)
				if err != nil {
					return err
				}
				name := c.Name
				if name == "" {
					name = c.Spec
				}
				choices[seat] = append(choices[seat], vecenv.OpponentChoice{Name: name, Factory: f, Weight: c.Weight})
			}
		}
		p.quiet()
		for _, seat := range seats {
			if err := p.p.SetOpponents(seat, choices[seat]); err != nil {
				return err
			}
		}
		return nil
	})
}

// PictureFormat is the render format of pictures, named after
// Gymnasium's render mode: RGB pixels of the game's [env.Painter].
const PictureFormat = "rgb_array"

// Rendered is one env's state in a native format, or its picture.
type Rendered struct {
	Format string `json:"format"`
	Data   []byte `json:"data"`
	Width  int    `json:"width"`  // pictures only
	Height int    `json:"height"` // pictures only
}

// Render returns env i of pool h as seat sees it (-1: the full state) in
// format: one of the game's native formats ("" means its first text
// format) or [PictureFormat], RGB pixels row by row. An async pool waits
// for its envs in flight first.
func Render(h int64, i, seat int, format string) (Rendered, error) {
	var out Rendered
	err := with(h, func(p *pool) error {
		spec := p.p.Spec()
		switch {
		case i < 0 || i >= p.p.NumEnvs():
			return errorf(InvalidArgument, "env: got %d, want 0..%d", i, p.p.NumEnvs()-1)
		case seat < -1 || seat >= spec.Seats:
			return errorf(InvalidArgument, "seat: got %d, want -1 (the full state) or 0..%d", seat, spec.Seats-1)
		case !p.wasReset:
			return errorf(FailedPrecondition, "render before the first reset; reset first")
		}
		p.quiet()
		e := p.p.Env(i)
		if format == PictureFormat {
			painter, ok := e.(env.Painter)
			if !ok {
				return errorf(InvalidArgument, "format: %s draws no pictures", spec.Game)
			}
			img := painter.Paint(seat)
			out = Rendered{Format: format, Data: env.RGB(img), Width: img.Rect.Dx(), Height: img.Rect.Dy()}
			return nil
		}
		codec, err := env.CodecOf(e)
		if err != nil {
			return err
		}
		formats := codec.NativeFormats()
		if len(formats) == 0 {
			return errorf(InvalidArgument, "format: %s has no native formats; use %s", spec.Game, PictureFormat)
		}
		if format == "" {
			format = formats[0]
			if i := slices.IndexFunc(formats, func(f string) bool { return !env.IsJSONFormat(f) }); i >= 0 {
				format = formats[i]
			}
		} else if !slices.Contains(formats, format) {
			return errorf(InvalidArgument, "format: got %q, want one of %s, %s", format, strings.Join(formats, ", "), PictureFormat)
		}
		data, err := codec.AppendNative(nil, format, seat)
		if err != nil {
			return err
		}
		out = Rendered{Format: format, Data: data}
		return nil
	})
	return out, err
}

// Version describes the library.
type Version struct {
	ABI     int    `json:"abi"`
	Version string `json:"version"` // the main module's version, "(devel)" from a checkout
	Go      string `json:"go"`
}

// LibraryVersion returns the library's version.
func LibraryVersion() Version {
	v := Version{ABI: ABI, Version: "(devel)", Go: runtime.Version()}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	return v
}

// Call runs a method that is not on the step path with JSON arguments and
// returns a JSON reply, {"result": ...} or {"error": {"code": C,
// "message": M}}; it is what the shared library exports for everything
// but the step calls. Methods and their arguments:
//
//	version                                  → Version
//	create         CreateRequest             → Info
//	stats          {"reset": bool}           → Stats
//	set_opponents  {"opponents": {seat: [Choice, ...]}}
//	render         {"env", "seat", "format"} → Rendered (data in base64)
//	close
func Call(method string, h int64, args []byte) []byte {
	result, err := call(method, h, args)
	if err != nil {
		e := classify(err)
		b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": e.Code, "message": e.Msg}})
		return b
	}
	b, err := json.Marshal(map[string]any{"result": result})
	if err != nil {
		b, _ = json.Marshal(map[string]any{"error": map[string]any{"code": Internal, "message": "native: " + err.Error()}})
	}
	return b
}

func call(method string, h int64, args []byte) (any, error) {
	decode := func(v any) error {
		if len(args) == 0 {
			return nil
		}
		if err := json.Unmarshal(args, v); err != nil {
			return errorf(InvalidArgument, "native: %s: arguments: %v", method, err)
		}
		return nil
	}
	switch method {
	case "version":
		return LibraryVersion(), nil
	case "create":
		var req CreateRequest
		if err := decode(&req); err != nil {
			return nil, err
		}
		return Create(req)
	case "stats":
		var req struct {
			Reset bool `json:"reset"`
		}
		if err := decode(&req); err != nil {
			return nil, err
		}
		return PoolStats(h, req.Reset)
	case "set_opponents":
		var req struct {
			Opponents map[int][]Choice `json:"opponents"`
		}
		if err := decode(&req); err != nil {
			return nil, err
		}
		return struct{}{}, SetOpponents(h, req.Opponents)
	case "render":
		var req struct {
			Env    int    `json:"env"`
			Seat   int    `json:"seat"`
			Format string `json:"format"`
		}
		if err := decode(&req); err != nil {
			return nil, err
		}
		return Render(h, req.Env, req.Seat, req.Format)
	case "close":
		return struct{}{}, Close(h)
	}
	return nil, errorf(InvalidArgument, "native: unknown method %q", method)
}

package env

import (
	"errors"
	"fmt"
)

// Env is one game in progress. Implementations are plain values with
// fixed-size state; an Env is not safe for concurrent use, and a pool gives
// each worker goroutine a disjoint range of envs.
type Env interface {
	// Spec describes the env. The returned value is shared and must not be
	// modified.
	Spec() *Spec

	// Reset starts a new game from seed. The same seed gives the same game.
	// An env must be Reset (or loaded with [Codec.LoadNative]) before Step.
	Reset(seed uint64)

	// Step applies one action per seat, simultaneously, and writes each
	// seat's reward, terminated flag (out of the game: eliminated, or the
	// game is over) and truncated flag (the step cap ended the game) for
	// this step. All four slices have one element per seat; a wrong length
	// panics. Actions outside 0..Spec().Actions-1, actions of seats that are
	// out of the game, and illegal actions do what the original engine does
	// with them (usually nothing). Stepping an env that is Done does nothing
	// and writes zero rewards.
	//
	// Step never allocates.
	Step(actions []int32, rewards []float32, terminated, truncated []bool)

	// Done reports whether the game is over.
	Done() bool

	// Steps returns the number of steps taken since the last Reset (or the
	// game's own round counter after LoadNative).
	Steps() int

	// WriteObs writes seat's observation into dst, one byte slice per tensor
	// of Spec().Obs, each exactly Tensor.Bytes() long (a wrong length
	// panics). Every byte of dst is overwritten. It never allocates.
	WriteObs(seat int, dst [][]byte)

	// WriteMask writes seat's legal actions into dst (len Spec().Actions):
	// 1 where the action is legal, 0 where not. Some action is always
	// legal, and action 0 is, unless a config opts out (Bomberman's
	// safe_mask_strict masks a wait that is certain death while another
	// action is safe).
	// It never allocates.
	WriteMask(seat int, dst []uint8)

	// Result returns the standings by the original's leaderboard rules. It
	// is meaningful at any time; once Done it is final. It may allocate.
	Result() Result

	// Outcome returns Result's Winner and Draw without allocating, for
	// pools that keep win/draw/loss statistics on every episode end.
	Outcome() (winner int, draw bool)

	// Invalid returns how many of seat's actions in the current episode
	// (the Steps since the last Reset) the original would have treated as
	// invalid or illegal and Step therefore carried out as the original does
	// (usually as nothing): actions out of range, and those the game's Step
	// doc names (commands the engine rejects, actions WriteMask marks 0).
	// Reset sets it to 0; what [Codec.LoadNative] does to it is the game's
	// own. Pools report it in their episode statistics. seat is in
	// 0..Spec().Seats-1. It never allocates.
	Invalid(seat int) int
}

// Codec is the optional part of an env that speaks the original
// competition's formats: all five games implement it. External bots,
// replays, scenarios and native renders use it, through [CodecOf]; pools
// and built-in agents do not need it, and none of it is on the hot path.
type Codec interface {
	// NativeFormats lists the names of the native state formats the env can
	// write ("state.json", "map.txt", ...). The first is the canonical one:
	// what LoadNative reads and what scenarios print.
	NativeFormats() []string

	// AppendNative appends the state in the named format, as seat sees it,
	// to dst. Seat -1 asks for the full (referee's) state where the format
	// has one. Unknown formats and seats are errors.
	AppendNative(dst []byte, format string, seat int) ([]byte, error)

	// LoadNative replaces the whole game state with one read from the
	// canonical native format. On error the env is left as it was.
	LoadNative(data []byte) error

	// ParseCommand reads a native bot command (the contents of move.txt, a
	// command line, ...) exactly as the original harness reads it and
	// returns the action it stands for. ok is false when the original would
	// treat the input as malformed; action is then what the original does
	// with malformed input (usually the do-nothing action 0).
	ParseCommand(seat int, text []byte) (action int32, ok bool)

	// AppendCommand appends the native command for action to dst.
	AppendCommand(dst []byte, seat int, action int32) []byte
}

// ErrNoCodec is returned (wrapped) by [CodecOf] for an env whose game has
// no native codec.
var ErrNoCodec = errors.New("no native codec")

// CodecOf returns e's native [Codec], or, when e's game has none, an error
// wrapping [ErrNoCodec] that names the game.
func CodecOf(e Env) (Codec, error) {
	if c, ok := e.(Codec); ok {
		return c, nil
	}
	return nil, fmt.Errorf("game %s has %w: external bots, scenarios and native renders need one", e.Spec().Game, ErrNoCodec)
}

// Result is the standing of every seat by the original's leaderboard rules.
type Result struct {
	// Rounds is the number of rounds (steps) played.
	Rounds int
	// Winner is the winning seat, or -1 when the game has no winner (a draw
	// where the original declares none).
	Winner int
	// Draw reports that the top of the leaderboard is tied on every ranking
	// key, even where the original still names a winner by registration
	// order. Terminal rewards treat a draw as 0 for the tied seats.
	Draw bool
	// Standings lists every seat, best first.
	Standings []Standing
}

// Standing is one seat's place in a [Result].
type Standing struct {
	Seat  int
	Rank  int // 1 for the first entry; tied entries still get distinct ranks in leaderboard order
	Name  string
	Score float64 // the game's own points
	Alive bool
}

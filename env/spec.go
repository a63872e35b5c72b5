package env

import (
	"fmt"
	"strings"
)

// DType is the element type of an observation tensor. The zero value is
// [Uint8].
type DType uint8

// The element types observation tensors use.
const (
	Uint8 DType = iota
	Float32
	Int32
)

// Size returns the number of bytes of one element.
func (d DType) Size() int {
	switch d {
	case Uint8:
		return 1
	case Float32, Int32:
		return 4
	}
	panic(fmt.Sprintf("env: unknown dtype %d", d))
}

// String returns the numpy name of the dtype ("uint8", "float32", "int32").
func (d DType) String() string {
	switch d {
	case Uint8:
		return "uint8"
	case Float32:
		return "float32"
	case Int32:
		return "int32"
	}
	return fmt.Sprintf("DType(%d)", d)
}

// Tensor describes one named observation tensor of a seat.
//
// Values are stored densely in row-major (C) order in the byte slice a caller
// passes to [Env.WriteObs]; multi-byte dtypes are little-endian. Layout states
// the meaning of each axis and the index formula, for example
// "[C,H,W]: index = c*H*W + y*W + x".
//
// Shared lists the channels, indices along the first axis in ascending
// order, whose values are the same for every seat of an env at every step:
// planes of the board that do not depend on the observer, such as a map's
// walls. A transport may send them once per env instead of once per seat
// and rebuild the rows (package observations, the shared_planes option of
// the env service). A game declares only what holds for every config and
// state, including the observations of a seat that is out of the game;
// games.TestSharedChannelsAreTheSameForEverySeat checks it. Nil for most
// tensors.
type Tensor struct {
	Name   string
	DType  DType
	Shape  []int
	Layout string
	Shared []int
}

// SharedLen returns the number of elements of the shared channels: the
// product of Shape[1:] times len(Shared).
func (t Tensor) SharedLen() int {
	if len(t.Shared) == 0 {
		return 0
	}
	return t.Len() / t.Shape[0] * len(t.Shared)
}

// Len returns the number of elements of the tensor (the product of Shape).
func (t Tensor) Len() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// Bytes returns the size of the tensor in bytes.
func (t Tensor) Bytes() int { return t.Len() * t.DType.Size() }

// ShapeString formats the shape as "[11,21,21]".
func (t Tensor) ShapeString() string {
	parts := make([]string, len(t.Shape))
	for i, d := range t.Shape {
		parts[i] = fmt.Sprint(d)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// Spec describes a configured game: what each seat sees and may do.
//
// A Spec returned by [Env.Spec] is shared by every env made with the same
// config; callers must not modify it.
type Spec struct {
	// Game is the registry name the env was made with, such as "bomberman".
	Game string
	// Seats is the number of players of one env.
	Seats int
	// Obs lists the observation tensors of one seat, in the order
	// [Env.WriteObs] expects their destination slices.
	Obs []Tensor
	// Actions is the number of discrete actions of a seat; actions are
	// 0..Actions-1 and action 0 is always the "do nothing" action.
	Actions int
	// ActionNames names each action, len(ActionNames) == Actions.
	ActionNames []string
	// MaxSteps is the most steps an episode can last.
	MaxSteps int
	// Reward states the reward definition in words.
	Reward string
	// Factors, for a game whose actions are commands aimed at cells (such
	// as Battleships' weapons and their centres), splits every action into
	// a command and a cell, for policies that choose the command first and
	// the cell second (docs/policy-format.md, factored heads). Nil for a
	// flat action space.
	Factors *ActionFactors
}

// ActionFactors splits each action a of a spec into the pair (Command[a],
// Cell[a]): command Command[a], one of len(Commands), aimed at cell
// Cell[a], one of Cells. No two actions have the same pair; a command
// with no target (do nothing) has one action, at cell 0. Not every pair
// needs an action. Check validates it.
type ActionFactors struct {
	// Commands names the commands; their order is the command index.
	Commands []string
	// Cells is the number of cells.
	Cells int
	// Command holds each action's command, len(Command) == Spec.Actions.
	Command []int32
	// Cell holds each action's cell, len(Cell) == Spec.Actions.
	Cell []int32
}

// Check returns an error unless f factors a space of actions actions:
// one command and one cell per action, in range, no pair twice, and every
// command with at least one action.
func (f *ActionFactors) Check(actions int) error {
	k, c := len(f.Commands), f.Cells
	if k < 1 || c < 1 {
		return fmt.Errorf("action factors: %d commands and %d cells, want at least 1 of each", k, c)
	}
	if len(f.Command) != actions || len(f.Cell) != actions {
		return fmt.Errorf("action factors: %d commands and %d cells listed for %d actions", len(f.Command), len(f.Cell), actions)
	}
	if k > actions || c > 1<<24 {
		return fmt.Errorf("action factors: %d commands and %d cells for %d actions", k, c, actions)
	}
	seen := make(map[int64]int, actions)
	used := make([]bool, k)
	for a := range actions {
		cmd, cell := f.Command[a], f.Cell[a]
		if cmd < 0 || int(cmd) >= k || cell < 0 || int(cell) >= c {
			return fmt.Errorf("action factors: action %d is command %d, cell %d: out of range (%d commands, %d cells)", a, cmd, cell, k, c)
		}
		key := int64(cmd)*int64(c) + int64(cell)
		if b, ok := seen[key]; ok {
			return fmt.Errorf("action factors: actions %d and %d are both command %d, cell %d", b, a, cmd, cell)
		}
		seen[key] = a
		used[cmd] = true
	}
	for i, u := range used {
		if !u {
			return fmt.Errorf("action factors: command %d (%s) has no action", i, f.Commands[i])
		}
	}
	return nil
}

// ObsBytes returns the total size in bytes of one seat's observation tensors.
func (s *Spec) ObsBytes() int {
	n := 0
	for _, t := range s.Obs {
		n += t.Bytes()
	}
	return n
}

// Tensor returns the observation tensor named name.
func (s *Spec) Tensor(name string) (Tensor, bool) {
	for _, t := range s.Obs {
		if t.Name == name {
			return t, true
		}
	}
	return Tensor{}, false
}

// NewObsBuffers allocates destination slices for one seat's observation, one
// per tensor of s.Obs, suitable for [Env.WriteObs].
func (s *Spec) NewObsBuffers() [][]byte {
	dst := make([][]byte, len(s.Obs))
	for i, t := range s.Obs {
		dst[i] = make([]byte, t.Bytes())
	}
	return dst
}

// CheckObs panics unless dst holds one slice per tensor of s.Obs, each of the
// tensor's size. Games call it at the top of WriteObs.
func (s *Spec) CheckObs(dst [][]byte) {
	// Games call it for every row they write: the sizes are compared
	// without copying the tensors, and the message is made only on failure.
	if len(dst) != len(s.Obs) {
		s.badObs(dst)
	}
	for i := range s.Obs {
		t := &s.Obs[i]
		n := t.DType.Size()
		for _, d := range t.Shape {
			n *= d
		}
		if len(dst[i]) != n {
			s.badObs(dst)
		}
	}
}

// badObs panics with what is wrong with dst (see [Spec.CheckObs]).
//
//go:noinline
func (s *Spec) badObs(dst [][]byte) {
	if len(dst) != len(s.Obs) {
		panic(fmt.Sprintf("%s: WriteObs: got %d destination tensors, want %d", s.Game, len(dst), len(s.Obs)))
	}
	for i, t := range s.Obs {
		if len(dst[i]) != t.Bytes() {
			panic(fmt.Sprintf("%s: WriteObs: tensor %q: got %d bytes, want %d", s.Game, t.Name, len(dst[i]), t.Bytes()))
		}
	}
}

// CheckStep panics unless the slices passed to [Env.Step] have one element
// per seat. Games call it at the top of Step.
func (s *Spec) CheckStep(actions []int32, rewards []float32, terminated, truncated []bool) {
	if len(actions) != s.Seats || len(rewards) != s.Seats || len(terminated) != s.Seats || len(truncated) != s.Seats {
		panic(fmt.Sprintf("%s: Step: got %d actions, %d rewards, %d terminated, %d truncated; want %d of each (one per seat)",
			s.Game, len(actions), len(rewards), len(terminated), len(truncated), s.Seats))
	}
}

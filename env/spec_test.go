package env_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
)

func TestActionFactorsCheck(t *testing.T) {
	good := func() *env.ActionFactors {
		// nothing; fire at cells 0..2; move to cells 1 and 2.
		return &env.ActionFactors{Commands: []string{"nothing", "fire", "move"}, Cells: 3, Command: []int32{0, 1, 1, 1, 2, 2}, Cell: []int32{0, 0, 1, 2, 1, 2}}
	}
	if err := good().Check(6); err != nil {
		t.Fatalf("valid factors: %v", err)
	}
	for _, c := range []struct {
		name   string
		change func(f *env.ActionFactors)
		want   string
	}{
		{"no_commands", func(f *env.ActionFactors) { f.Commands = nil }, "0 commands"},
		{"no_cells", func(f *env.ActionFactors) { f.Cells = 0 }, "0 cells"},
		{"short_lists", func(f *env.ActionFactors) { f.Cell = f.Cell[:5] }, "6 commands and 5 cells listed for 6 actions"},
		{"command_out_of_range", func(f *env.ActionFactors) { f.Command[3] = 3 }, "action 3 is command 3, cell 2: out of range"},
		{"cell_out_of_range", func(f *env.ActionFactors) { f.Cell[1] = -1 }, "action 1 is command 1, cell -1: out of range"},
		{"pair_twice", func(f *env.ActionFactors) { f.Cell[5] = 1 }, "actions 4 and 5 are both command 2, cell 1"},
		{"command_without_action", func(f *env.ActionFactors) { f.Commands = append(f.Commands, "wait") }, "command 3 (wait) has no action"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := good()
			c.change(f)
			err := f.Check(6)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}

// TestKeepSafeNeverEmptiesTheMask: the unsafe actions are cleared, action 0
// always stays, and a mask with no safe legal action is left as it is.
func TestKeepSafeNeverEmptiesTheMask(t *testing.T) {
	for _, tc := range []struct {
		name string
		mask []uint8
		safe []bool
		want []uint8
		kept bool
	}{
		{"unsafe_actions_cleared", []uint8{1, 1, 1, 0}, []bool{true, false, true, true}, []uint8{1, 0, 1, 0}, true},
		{"action_0_stays_though_unsafe", []uint8{1, 1, 1}, []bool{false, true, false}, []uint8{1, 1, 0}, true},
		{"none_safe_left_as_is", []uint8{1, 1, 1}, []bool{false, false, false}, []uint8{1, 1, 1}, false},
		{"safe_only_where_illegal_left_as_is", []uint8{1, 0, 1}, []bool{false, true, false}, []uint8{1, 0, 1}, false},
		{"actions_past_safe_untouched", []uint8{1, 1, 1}, []bool{true, false}, []uint8{1, 0, 1}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mask := slices.Clone(tc.mask)
			if kept := env.KeepSafe(mask, tc.safe); kept != tc.kept || !slices.Equal(mask, tc.want) {
				t.Errorf("KeepSafe(%v, %v) = %v, mask %v; want %v, %v", tc.mask, tc.safe, kept, mask, tc.kept, tc.want)
			}
		})
	}
}

package battleships

import (
	"strings"
	"testing"
)

// TestMapTxtPlayerInfo checks the player-info lines of map.txt against
// the original's GameMapRender.RenderPlayerInfo: "Shield: (Status:
// Activated|Deactivated, Charges: N), Center Point: X:x,Y:y" with "No
// Shield" as the center point while the shield is down; and "Arsenal:" as
// BattleshipPlayer.PrintAvailableWeapons, the distinct weapons of the
// ships afloat, "[]" when none is (the original's replay
// GameVisualizer/.../Phase 2 - Round 77/A - map.txt shows it).
func TestMapTxtPlayerInfo(t *testing.T) {
	all := []placed{{Carrier, 0, 0, North}, {Cruiser, 1, 0, North}, {Battleship, 2, 0, North}, {Submarine, 3, 0, North}, {Destroyer, 4, 0, North}}
	tests := []struct {
		name    string
		legacy  bool
		shield  Shield
		sunk    []ShipType
		arsenal string
		shieldL string // "" for no shield line (v1.1)
	}{
		{"shield_never_raised", false, Shield{}, nil,
			"Arsenal: [SingleShot,SeekerMissile,DoubleShot,DiagonalCrossShot,CornerShot,CrossShot]",
			"Shield: (Status: Deactivated, Charges: 0), Center Point: No Shield"},
		{"shield_down_with_charges", false, Shield{Charges: 3, Radius: 1}, nil,
			"", "Shield: (Status: Deactivated, Charges: 3), Center Point: No Shield"},
		{"shield_up", false, Shield{Active: true, Charges: 2, Radius: 1, CX: 4, CY: 5}, nil,
			"", "Shield: (Status: Activated, Charges: 2), Center Point: X:4,Y:5"},
		{"one_ship_afloat", false, Shield{}, []ShipType{Carrier, Cruiser, Battleship, Submarine},
			"Arsenal: [SingleShot,DoubleShot]", ""},
		{"no_ship_afloat", false, Shield{Charges: 1}, []ShipType{Carrier, Cruiser, Battleship, Submarine, Destroyer},
			"Arsenal: []", "Shield: (Status: Deactivated, Charges: 1), Center Point: No Shield"},
		{"no_ship_afloat_v1_1", true, Shield{}, []ShipType{Carrier, Cruiser, Battleship, Submarine, Destroyer},
			"Arsenal: []", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := New(&Config{Placement: PlacementLearn})
			if err != nil {
				t.Fatal(err)
			}
			g.phase, g.round, g.legacy = 2, 1, tt.legacy
			setFleet(g, 0, all...)
			setFleet(g, 1, all...)
			for _, k := range tt.sunk {
				g.players[0].Ships[k].Destroyed = true
			}
			g.players[0].Shield = tt.shield
			out, err := g.AppendNative(nil, FormatMapTxt, 0)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(out), "\r\n")
			find := func(prefix string) string {
				for _, l := range lines {
					if strings.HasPrefix(l, prefix) {
						return l
					}
				}
				return ""
			}
			if tt.arsenal != "" {
				if got := find("Arsenal: "); got != tt.arsenal {
					t.Errorf("got  %q\nwant %q", got, tt.arsenal)
				}
			}
			if got := find("Shield: "); got != tt.shieldL && (tt.shieldL != "" || tt.legacy) {
				t.Errorf("got  %q\nwant %q", got, tt.shieldL)
			}
		})
	}
}

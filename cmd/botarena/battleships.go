package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/battleships"
)

func init() {
	registerGameFlag(gameFlag{Game: "battleships", Name: "size", Field: "size", Usage: "map size: small (7), medium (10) or large (14)"})

	// The original's replay layout (spec §8.2): DIR/<seed>/Phase P - Round R/
	// holds the round's full state.json, "A - map.txt", "B - map.txt",
	// roundInfo.json and roundCommand.json; its A/ and B/ folders hold each player's state.json and map.txt.
	replayWriters["battleships"] = writeBattleshipsReplay

	// The leaderboard also shows each player's key and the counters the
	// original's state.json shows.
	extraFields["battleships"] = func(e env.Env, seat int) []field {
		g, ok := e.(*battleships.Game)
		if !ok || seat < 0 || seat >= battleships.Seats {
			return nil
		}
		p := g.Player(seat)
		return []field{{"key", string(rune('A' + seat))}, {"points", p.Points}, {"shots_fired", p.ShotsFired},
			{"shots_hit", p.ShotsHit}, {"ships_remaining", p.ShipsRemaining()}, {"failed_placements", p.Failed}}
	}
}

func writeBattleshipsReplay(e env.Env, root string, seed uint64, _ int) error {
	g, ok := e.(*battleships.Game)
	if !ok {
		return fmt.Errorf("battleships replay: got %T", e)
	}
	dir := filepath.Join(root, strconv.FormatUint(seed, 10), fmt.Sprintf("Phase %d - Round %d", g.Phase(), g.Round()))
	write := func(path string, format string, seat int) error {
		b, err := g.AppendNative(nil, format, seat)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		return os.WriteFile(path, b, 0o644)
	}
	for _, format := range []string{battleships.FormatStateJSON, battleships.FormatRoundInfo, battleships.FormatRoundCommand} {
		if err := write(filepath.Join(dir, format), format, -1); err != nil {
			return err
		}
	}
	for seat, key := range []string{"A", "B"} {
		if err := write(filepath.Join(dir, key+" - map.txt"), battleships.FormatMapTxt, seat); err != nil {
			return err
		}
		if err := write(filepath.Join(dir, key, "state.json"), battleships.FormatStateJSON, seat); err != nil {
			return err
		}
		if err := write(filepath.Join(dir, key, "map.txt"), battleships.FormatMapTxt, seat); err != nil {
			return err
		}
	}
	return nil
}

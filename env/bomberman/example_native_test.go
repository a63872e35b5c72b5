package bomberman_test

import (
	"bytes"
	"fmt"

	"github.com/botarena/botarena/env/bomberman"
)

func ExampleGame_AppendNative() {
	g, err := bomberman.New(&bomberman.Config{Players: 2})
	if err != nil {
		panic(err)
	}
	g.Reset(2)
	mapTxt, err := g.AppendNative(nil, "map.txt", 0)
	if err != nil {
		panic(err)
	}
	header, _, _ := bytes.Cut(mapTxt, []byte("\n"))
	fmt.Println(string(header))

	// The state.json a bot reads loads back into an equal game.
	state, _ := g.AppendNative(nil, "state.json", 0)
	h, _ := bomberman.New(&bomberman.Config{Players: 2})
	if err := h.LoadNative(state); err != nil {
		panic(err)
	}
	again, _ := h.AppendNative(nil, "state.json", 0)
	fmt.Println(bytes.Equal(state, again))
	// Output:
	// Map Width: 21, Map Height: 21, Current Round: 0, Seed: 2, PlayerBounty: 630
	// true
}

func ExampleGame_ParseCommand() {
	g, _ := bomberman.New(bomberman.DefaultConfig())
	for _, move := range []string{"1", "10", "5\n", "7", "-1", ""} {
		action, ok := g.ParseCommand(0, []byte(move))
		fmt.Printf("%q: %v %t\n", move, bomberman.Action(action), ok)
	}
	// Output:
	// "1": up true
	// "10": up true
	// "5\n": bomb true
	// "7": nothing true
	// "-1": nothing false
	// "": nothing false
}

// Package games links botarena's games into a program: importing it for
// its side effects registers every game's package in env.Default, as
// image/png registers a format. It is the one list of the games; the
// botarena command imports it, and so do tests that want every game.
//
// Adding a game is one line here (docs/add-a-game.md).
package games

import (
	_ "github.com/botarena/botarena/env/battlebots"   // registers battlebots
	_ "github.com/botarena/botarena/env/battlecube"   // registers battlecube
	_ "github.com/botarena/botarena/env/battleships"  // registers battleships
	_ "github.com/botarena/botarena/env/bomberman"    // registers bomberman
	_ "github.com/botarena/botarena/env/portalbomber" // registers portalbomber
)

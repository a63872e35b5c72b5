// Package testgame is a tiny game that exists to prove the path a new game
// takes into botarena (docs/add-a-game.md): it lives in its own folder,
// imports only env, env/training and the standard library, registers its
// Kit from init, and is linked into a program by one blank import.
// Only tests link it (cmd/botarena's tests); the product's list of games
// (package games) does not.
//
// # Rules
//
// Every seat adds its action (0, 1 or 2) to its score each round; the game
// lasts 5 rounds, or max_rounds if fewer. Reset(seed) starts every score at
// seed mod 3. The highest score wins; a tie at the top is a draw.
//
// # Observation
//
// One tensor, "scores", int32 [players]: index = seat, the scores in seat
// order.
//
// # Native formats
//
// "state.json" (canonical: {"round":R,"scores":[...]}) and "board.txt"
// ("round R: [s0 s1 ...]"). A command is one digit, 0 to 2.
package testgame

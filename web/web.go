// Package web is the browser viewer that botarena serve offers at /: a
// list of the games and their built-in agents, and live matches between
// built-in agents drawn on a canvas, round by round, from each game's
// canonical native state.
//
// # Model
//
// A match is a recipe: a game, one built-in agent per seat and a seed.
// The games and the built-in agents are deterministic given the seed, so
// the server keeps no frames: each stream of rounds (server-sent events)
// plays the match from the start in its own goroutine, with the match
// runner (package match: the seed and agent seeds of `botarena play --seed`,
// its failure policy), and sends every round
// from the one asked for, paced by the client's speed; a single frame
// (GET .../frame?round=N) or the record of the rounds played so far
// (GET .../record, JSON Lines) is played again the same way. A client
// pauses by closing its stream and resumes by opening one from the next
// round.
//
// # Limits
//
// At most [Options.MaxMatches] matches exist at once (creating one more is
// refused with 429 Too Many Requests), each lasts at most
// [Options.MaxDuration] from its creation and is forgotten after
// [Options.IdleTimeout] without a request, and no match plays past
// [Options.MaxRounds] rounds. Each match has at most
// [Options.MaxStreamsPerMatch] streams open at once.
//
// # Routes
//
//	GET  /                          the page (index.html, app.js, style.css under /viewer/)
//	GET  /api/catalog               the games: name, seats, native formats, built-in agents
//	POST /api/matches               {"game", "agents": [one per seat], "seed"} → {"id", ...}
//	GET  /api/matches/{id}/events   text/event-stream of frames; ?from=ROUND&speed=ROUNDS_PER_SECOND&seat=SEAT
//	GET  /api/matches/{id}/frame    one frame; ?round=ROUND&seat=SEAT
//	GET  /api/matches/{id}/record   the frames played so far, JSON Lines
//
// A frame is the JSON object
//
//	{"game", "seats", "round", "format", "state", "seat", "view", "result", "done", "forfeit"}
//
// where state is the canonical native state as the full view (seat -1):
// JSON formats embedded as JSON, text formats as a string; view is the same
// format as seat sees it when a seat was asked for; result is env.Result.
// When an agent panics it forfeits (package match): the match ends, a last
// frame with done true names the seat in forfeit (absent otherwise) and
// its result ranks that seat last.
package web

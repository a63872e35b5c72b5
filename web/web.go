// Package web is the browser viewer that botarena serve offers at /: the
// games and their built-in agents, live matches between built-in agents
// and trained policies, replays (recordings, replay folders, league match
// data) and league pages, drawn on a canvas round by round from each
// game's canonical native state, with the game's key (its kit's Legend),
// the last round's actions, trails, an event log, what each policy seat
// makes of the state (policies.go), and two matches side by side.
//
// # Model
//
// The viewer plays sessions: live matches and opened replays. Every
// request about a session (a stream of its rounds, one frame, its
// recording) plays it again from its start, in its own goroutine, so the
// server keeps no frames.
//
// A live match is a recipe: a game (and a config), one built-in agent or
// listed policy (see policies.go) per seat and a seed. The games and the built-in agents are deterministic
// given the seed, and every playing uses the match runner (package match:
// the seed and agent seeds of `botarena play --seed`, its failure policy).
//
// A replay with every round's actions (a recording of `botarena play
// --record`, a game of league match data) is played again by the match
// runner from its seed, each seat playing its recorded actions, which
// gives every seat's view and the results exactly; its recorded states
// (recordings) or outcomes (match data) are checked against the replayed
// ones when it is opened. A replay of states only (a match folder of
// `play --replays`, in the generic layout or a game's own, replay.Layout's
// ReplayStates; or a recording whose actions do not lead to its states)
// loads each round's state into the game (env.Codec.LoadNative), so its
// views and results are what the states hold. Match data is played in the
// config of the league whose store is in its folder or the two above it,
// else in the game's defaults.
//
// A stream sends every round from the one asked for, paced by the client's
// speed. A client pauses by closing its stream and resumes by opening one
// from the next round.
//
// # Leagues
//
// The league page reads the league stores under [Options.LeaguesDir]
// (package league) read-only, for the moment of a request, so that a run
// in another process never waits for the viewer; while a run holds a
// store, the page shows the table the run last wrote (table-live.json).
//
// # Limits and confinement
//
// At most [Options.MaxMatches] live matches and [Options.MaxReplays]
// replays exist at once (one more is refused with 429 Too Many Requests),
// each lasts at most [Options.MaxDuration] from its creation and is
// forgotten after [Options.IdleTimeout] without a request, and none plays
// past [Options.MaxRounds] rounds. Each has at most
// [Options.MaxStreamsPerMatch] streams open at once and
// [Options.MaxFramesPerMatch] frame and recording requests running; a
// client (an IP address) has at most [Options.MaxClientRequests] requests
// running. Files read from [Options.ReplaysDir] have at most
// [Options.MaxReplayBytes] bytes, one state (a state file, a recording's
// line) [Options.MaxStateBytes], a recording sent by the page
// [Options.MaxUploadBytes] (by its Content-Length, checked before it is
// read); listings hold at most [Options.MaxListed] entries, 4 folders
// deep. A client that takes no part of a response for
// [Options.WriteTimeout] loses its request.
//
// What the viewer reads and parses is charged to [Options.Memory] before
// it is read (see memory.go): an upload's bytes, the work of parsing a
// recording or a state (32 times the state), and every playing of a
// replay of states. Beyond the budget a request is 429 (413 when it could
// never fit).
//
// Nothing outside the replays and leagues folders is read: request paths
// are clean relative paths, replays are read through an os.Root of their
// folder, and a league store is opened only when its real path, symbolic
// links resolved, is inside the leagues folder. Files are opened without
// blocking (O_NONBLOCK, then fstat): anything but a regular file (a FIFO)
// is refused, never waited for. Error texts name paths relative to the
// folders.
//
// # Routes
//
//	GET  /                          the page (index.html, app.js, style.css under /viewer/)
//	GET  /api/catalog               the games: name, seats, native formats, agents (built-in, policies), legend; limits
//	POST /api/matches               {"game", "config", "agents": [one per seat], "seed"} → {"id", ...}
//	GET  /api/matches/{id}/events   text/event-stream of frames; ?from=ROUND&speed=ROUNDS_PER_SECOND&seat=SEAT
//	GET  /api/matches/{id}/frame    one frame; ?round=ROUND&seat=SEAT
//	GET  /api/matches/{id}/record   the rounds played so far as a recording (docs/recording-format.md)
//	GET  /api/replays               the replays of the replays folder, newest first
//	POST /api/replays               {"path", "game" (a folder's), "index" (a match data game)} → {"id", ...},
//	                                or, for match data without an index, its games
//	POST /api/replays/upload        a recording as the body → {"id", ...}
//	GET  /api/leagues               the leagues of the leagues folder
//	GET  /api/leagues/table         ?name=NAME: settings, table, runs, last games
//
// The ids of live matches and replays share the /api/matches/{id} routes.
// Every seed the API reads or writes is a JSON string of decimal digits
// ([Seed]): a browser rounds JSON numbers above 2^53 to other seeds. A
// frame is the JSON object
//
//	{"game", "seats", "round", "format", "state", "seat", "view", "result", "done", "forfeit",
//	 "actions", "policies"}
//
// where state is the canonical native state as the full view (seat -1):
// JSON formats embedded as JSON, text formats as a string; view is the same
// format as seat sees it when a seat was asked for; result is env.Result.
// When an agent panics it forfeits (package match): the match ends, a last
// frame with done true names the seat in forfeit (absent otherwise) and
// its result ranks that seat last. The last frame of a replay shows the
// recorded result, when the recording has one. actions are the actions of
// the round that led to the state, one per seat ([ActionView]: the
// action, its name, its native command, whether the game counted it
// invalid, its reward); policies, for the policy seats of a live match,
// what each makes of the state ([PolicyStep]: its most probable actions,
// its value estimate and the action it plays next).
package web

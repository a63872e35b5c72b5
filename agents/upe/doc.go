// Package upe serves the UPE AI competition's HTTP routes (the Fall 2016
// UPE portal Bomberman server, dubwub/F2016-UPE-AI; spec §9 of
// docs/specs/upe_bomberman.md) so that an original UPE client can play
// botarena's portalbomber over HTTP:
//
//	POST /api/games/search          {devkey, username}            → the state JSON, when it is your turn
//	POST /api/games/practice        {devkey, username}            → the state JSON (you are player 0)
//	POST /api/games/submit/<gameID> {devkey, playerID, move}      → held until your turn again or the end
//
// Bodies are read as the original's Express 4.13 with body-parser 1.15.2
// read them (urlencoded({extended: true}) with qs 6.2.0, then json()):
//
//   - form-encoded (application/x-www-form-urlencoded, charset utf-8
//     only): qs's reading, so a repeated key is an array (move=b&move=op
//     is an invalid move), only '&' separates pairs (move=b;x=1 is the
//     move "b;x=1", invalid), a part whose percent escapes do not decode
//     is kept as sent (move=b%zz is "b%zz", invalid), '+' is a space,
//     brackets nest (move[a]=b is an object) and a byte-order mark is
//     dropped;
//   - JSON (application/json, a utf-8 or utf-16 charset): a byte-order
//     mark is dropped, the first character must be '{' or '[' (an array
//     gives no fields), an empty body gives no fields;
//   - any other Content-Type, or none, or a Content-Type that does not
//     parse (application/json; charset): no fields, so no move (an
//     invalid move);
//   - bodies compressed with gzip or deflate (Content-Encoding) are
//     inflated; a body over 100 KiB (inflated) is refused.
//
// The only fields read are devkey, playerID and move; a move that is not
// one of the engine's strings (a string the engine does not know, or an
// array, an object, a number, ...) is an invalid move. The table test in
// body_table_test.go holds 100 body shapes and what the original made of
// each. The reply is the state object the original sends player i
// ([portalbomber.Game.AppendNative], "state.json"), with state "in
// progress", "complete" or "aborted".
//
// # Two ways to serve
//
// [NewHandler] hosts games, as the original server did (`botarena serve`
// mounts it under /api/games/): practice pairs the client (player 0) with
// the built-in practice bot (AI.js, [portalbomber.Practice]), which moves
// [Options.PracticeDelay] after its turn comes (1 s in the original);
// search holds the first searcher's request until a client with another
// devkey searches, then starts a game with the first searcher as player 0,
// answering player 0 at once and player 1 after player 0's first move. A
// second search with the same devkey replaces the held one.
//
// [Listen] serves the same routes for seats of matches that botarena runs
// itself (`botarena play portalbomber --listen ADDR --agents listen,greedy`):
// each seat played by a [Seat] (agent spec "upe://ADDR") waits, on its
// first turn, for a client to POST search or practice, and then plays that
// client's moves. Clients take waiting seats in the order they ask (the
// first searcher gets the first seat to wait, normally seat 0); a request
// made while no seat waits is held until one does. The devkey is not
// checked against the other seat's.
//
// # Clients with a hard-coded server URL
//
// A client that calls the original's URL (http://aicomp.io/api/...) plays
// through botarena as its HTTP proxy (HTTP_PROXY and http_proxy set to
// http://ADDR): a proxied request carries the absolute URL in its request
// line, and the routes are served whatever host it names (TestThroughProxy).
// `botarena serve` checks host names: it needs --allowed-hosts aicomp.io.
//
// # The original's rules kept
//
//   - One move per submit, applied at once; the reply is held until the
//     submitter's turn comes again (moves alternate 0,1,1,0,…) or the game
//     ends, and is then the state as that player sees it.
//   - Timeout ([Options.Timeout], 15 s as in Handler.js): if the player to
//     move sends no move within it after its state was sent, the game ends
//     ([portalbomber.Game.TimeOut]): "aborted" (no winner) if fewer than 3
//     moves were made, else "complete" with the player to move the loser
//     (both still alive). Held requests are answered with the final state.
//   - A move string the engine does not know is an invalid move: the turn
//     is used up and nothing happens (logged). A missing move is one too.
//   - A submit to a game that is over or never existed gets the JSON string
//     "Game ID is undefined, maybe the game ended or does not exist!"; an id
//     that is not 24 hex digits gets 400 {"message":"Game is invalid"}.
//
// # Departures (documented, so that nothing hangs)
//
//   - There are no accounts: any non-empty devkey is accepted (an empty one
//     gets 400 {"message":"Account ID is invalid"}), the username is ignored
//     and no Elo is kept.
//   - An out-of-turn submit gets {"err":"Not your turn."} and changes
//     nothing (the original's wrapper threw, spec §10.7).
//   - A submit whose playerID and devkey match no player of the game gets
//     400 {"message":...} (the original never answered it).
//   - A search replaced by a newer one with the same devkey gets 409
//     {"message":...} (the original never answered it).
//   - A body the original's body-parser refused (bad JSON, a charset or
//     Content-Encoding it does not support, over 100 KiB, 1000 or more
//     '&') gets that error's status, 400, 415 or 413, with a JSON
//     {"message":...}; the original redirected to /server-error, a page
//     of its web site. Two bodies it read are refused too: JSON in a
//     UTF-7 charset (415), and JSON nested more than 10000 deep (400).
//   - A request whose client goes away is dropped; a seated client that
//     goes away times out as above. Closing the server answers held
//     requests with 503.
//
// Games are kept by id until they end; a finished or abandoned game is
// forgotten at once, and the server goes on serving other clients.
package upe

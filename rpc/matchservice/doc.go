// Package matchservice plays whole league games over Connect: the server
// of botarena.v1.MatchService (rpc/proto/botarena/v1/match.proto, whose
// comments are the wire contract) and [RemoteRunner], its client for a
// league coordinator.
//
// # Server
//
// A [Server] is one service of a server.Host, which holds what the
// services share (the registry, the message limit, the memory budget, the
// agent capabilities, metrics, the error table). Play plays one game with
// league.LocalRunner and PlayBatch a batch with league.PoolRunner (vecenv
// pools, several games per worker), the code paths of a local league run,
// on at most [WithMaxMatches] goroutines at once (further calls wait for a
// slot). A recorded game's data (record) must fit the message limit and
// the memory budget: a game that would not is ResourceExhausted before it
// is played (budget.go). Agents that the host's capabilities do not cover
// are PermissionDenied; a game whose call is cancelled stops at its next
// round; Close stops running games with Unavailable.
//
//	h := server.New(server.WithLogger(log))
//	matches := matchservice.New(h, matchservice.WithMaxMatches(8))
//	defer h.Close()
//	hs := server.NewHTTPServer("127.0.0.1:50051", h.Handler(matches))
//
// `botarena serve` serves it beside envservice on one port.
//
// # Leagues
//
// With [WithLeagues] the MatchService also keeps leagues (leagues.go):
// CreateLeague, GetLeague, AddLeagueAgent, RemoveLeagueAgent,
// ListLeagueAgents, LeagueTable, LeagueGames and the server-streaming
// RunLeague are thin handlers over league.Leagues, which confines the
// leagues to one folder and takes writers in turns; the handlers add the
// host's agent capabilities, the match slots and the host's memory budget
// for a run's games, and the error codes: league's errors are marked with
// the kinds of the host's error table (server.ErrNotFound, server.ErrExists,
// server.ErrInvalid, server.ErrNotReady) before server.ConnectError maps
// them, so that package server need not import league. `botarena serve
// --leagues-dir DIR` serves the leagues of DIR.
//
// # Remote runner
//
// [RemoteRunner] is the other side: a league.Runner that spreads a
// league's games over several servers in batches, and plays the games of
// a server that fails on the others (a game is deterministic from its
// seed); `botarena league run --servers` uses it. Its clients take the
// options of package client (protocol, TLS, token, message limit).
//
// # Dependencies
//
// matchservice imports league (and so bbolt, gonum and Parquet through
// observations/matchdata): it is the only service that does. league never
// imports it: a remote runner plugs into league.RunOptions.Runner.
package matchservice

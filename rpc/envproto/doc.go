// Package envproto turns botarena's Go values into the messages of
// botarena.v1 (rpc/proto/botarena/v1/env.proto) and requests into pools:
// the one conversion every face of the env API uses, so that a field of
// the game spec or of CreatePoolRequest is written once. The env service
// (rpc/envservice) serves these messages over Connect, the in-process
// backend (native) over the C ABI, and `botarena games --json` prints
// [GameInfo] as protojson.
//
// It imports the generated messages (protobuf only), never Connect, so
// that the shared library stays free of it.
//
// Errors a client can fix (a missing game, a bad num_envs, batch_size,
// workers, auto_reset or compression, a config that is not JSON) match
// [ErrInvalid] with [errors.Is]; the errors of the registry, vecenv and
// agents keep their own kinds (env.ErrUnknownGame, *env.ConfigError,
// agents.ErrUnknownAgent).
package envproto

// Package native is botarena's in-process backend: [vecenv] pools made,
// stepped and read through the env service's own messages and integer
// handles, so that a C ABI (the shared library cmd/libbotarena, which the
// Python package loads with ctypes as its "native" backend) can expose
// them in a few functions. It holds no cgo itself and is tested as plain
// Go.
//
// # Messages
//
// The calls off the step path ([ListGames], [CreatePool], [Stats],
// [SetOpponents], [Render], [ClosePool]) take and return the request and
// response messages of botarena.v1.EnvService (rpc/proto), checked as the
// env service checks them ([envproto.PoolConfig]); [Call] dispatches them
// by method name in binary protobuf, which is how the shared library
// exports them. A pool's id is its handle in decimal. The step path
// ([Bind], [Reset], [Step], [AsyncReset], [Send], [Recv], [SendRecv]) takes the
// handle and plain values, and encodes nothing.
//
// # Memory
//
// A pool's rows live in memory its caller owns. [Bind] takes the
// addresses of the caller's arrays (numpy arrays, for Python) and hands
// them to the pool as a [vecenv.Output] ([vecenv.Pool.SetOutput]) or, for
// a pool made with a batch_size, as the batch ring of a [vecenv.Async]:
// the pool's workers write observations, masks, rewards and flags there,
// and nothing is copied afterwards. The memory is not Go's, so the cgo
// pointer rules allow Go to keep the addresses across calls; the caller
// must keep the arrays alive, at their sizes
// (CreatePoolResponse.output_arrays), until [Close]. Actions are read
// only during the call that takes them.
//
// # Concurrency
//
// Every function is safe for concurrent use. Calls on one pool are
// serialised by the pool's mutex; a pool's workers run only inside its
// calls, except in async mode, where they step the envs sent between
// calls.
//
// # Errors
//
// Functions return an [*Error] carrying a [Code] (the gRPC status codes
// the remote backend uses for the same mistakes) and one line of text.
// Bad input is never a crash: handles, sizes, env ids and actions are
// checked, and a panic of a game or opponent is recovered into an
// [Internal] error, after which the pool (in an undefined state) is
// closed.
//
// # Agents
//
// Opponents are made with [agents.New], with the trust of the local
// command line: the process that loads the library is its user's, so
// "policy:PATH", "cmd:..." and the other schemes are allowed, as in
// botarena play (the console agent, which would read the terminal, is
// not).
package native

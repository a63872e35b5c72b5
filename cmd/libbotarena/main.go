// Command libbotarena is botarena's in-process backend as a C shared
// library, which the Python package loads with ctypes (botarena.native):
//
//	go build -buildmode=c-shared -o libbotarena.so ./cmd/libbotarena
//
// It exports package native through a small C ABI (libbotarena.h, written
// by the build): bta_call for everything off the step path (the env
// service's request message in binary protobuf in, its response message
// out, in C memory that bta_free releases) and one function per step call
// (bta_bind, bta_reset, bta_step, bta_async_reset, bta_send, bta_recv),
// which return 0 or a native.Code and write a message into the caller's
// buffer. Pointers are the caller's C memory (numpy arrays): the library
// keeps those bound by bta_bind until the pool is closed and reads the
// others only during the call. Every entry point recovers panics, so no
// input crashes the host process.
//
// Load the library once per process. The Go runtime it starts does not
// survive fork(): a child process forked after the load must not call it
// (the Python package refuses), so use the spawn or forkserver start
// methods, or create native pools after forking. Built without cgo the
// command is an empty program.
package main

func main() {}

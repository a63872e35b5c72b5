// Package client is the Go client of botarena.v1.EnvService
// (rpc/proto/botarena/v1/env.proto), as served by package envservice:
// [Dial] returns a [Client] (the Connect protocol over h2c by default; gRPC
// and gRPC-Web too, TLS and a bearer token with [WithTLSConfig] and
// [WithToken]); [Client.CreatePool] returns a [Pool] whose Reset, Step and
// [Stream] decode the Arrow batches into [env.Buffers] with
// observations.Decoder, into buffers the Pool reuses.
//
// # Memory
//
// With the Connect protocol (and no [WithConnectOptions]), Reset and Step
// are Connect unary calls, and [Pool.Stream] a Connect bidirectional
// stream (over HTTP/1.1 in full duplex with the client's own HTTP client,
// HTTP/2 from a server that answers that with 505), that the client makes
// itself (package rpc/internal/connectwire):
// each response is read into one buffer the Pool reuses, its size checked
// against [WithMaxMessageBytes] before the buffer grows, and decoded in
// place, so that a step allocates nothing of the batch's size once the
// buffer has grown (a 1024-env Bomberman step: a 22 MB batch, under 0.2 MB
// allocated by client and server together, unary or on a stream). Errors
// are the *connect.Error values connect-go would return. The gRPC and
// gRPC-Web protocols and the other calls go through connect-go, which reads
// every message over 8 MiB into a new buffer.
//
//	c, err := client.Dial("127.0.0.1:50051")
//	...
//	p, err := c.CreatePool(ctx, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 8})
//	obs, err := p.Reset(ctx)
//	res, err := p.Step(ctx, actions) // one action per row
//
// Errors are the server's *connect.Error values: connect.CodeOf(err) gives
// the code (package server has the table). [NewEndpoint] resolves an
// address and options for clients of the server's other services
// (matchservice.RemoteRunner).
package client

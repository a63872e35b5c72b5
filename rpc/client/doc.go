// Package client is the Go client of botarena.v1.EnvService
// (rpc/proto/botarena/v1/env.proto), as served by package envservice:
// [Dial] returns a [Client] (gRPC over h2c by default; Connect and
// gRPC-Web too, TLS and a bearer token with [WithTLSConfig] and
// [WithToken]); [Client.CreatePool] returns a [Pool] whose Reset, Step and
// [Stream] decode the Arrow batches into [env.Buffers] with
// observations.Decoder, into buffers the Pool reuses.
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

// Package connectwire makes calls of the Connect protocol (protobuf,
// uncompressed) over net/http, unary calls and bidirectional streams, and
// reads each response message into a buffer its caller reuses. It exists
// for the batch responses of EnvService's Reset, Step and StepStream,
// megabytes each: connect-go reads a message over wire.ConnectRecycleLimit
// into a fresh buffer, grown as it reads, and drops it afterwards (see
// package wire), so a client going through it allocates the whole batch,
// and more, on every step. Package client sends Reset, Step and StepStream
// through a [Caller] when it speaks the Connect protocol, and reads the
// batches out of the message with package wire; the env service's
// benchmarks measure the transport with one.
//
// Messages are marshalled and unmarshalled by the caller: a [Caller] moves
// bytes. (Package wire reads the protobuf wire form of the batch
// responses; this package speaks the Connect protocol around them.)
//
// # Unary calls
//
// A call ([Caller.Call]) is a POST of the marshalled request to the base
// URL followed by the procedure ("/botarena.v1.EnvService/Step"), as
// connect-go sends it: Content-Type application/proto,
// Connect-Protocol-Version 1, Accept-Encoding identity (no compression
// either way), Content-Length, Connect-Timeout-Ms from the context's
// deadline, connect-go's User-Agent, and the caller's headers
// (Authorization). A 200 response's body is the marshalled response
// message.
//
// # Streams
//
// A bidirectional stream ([Caller.Stream]) is one POST over HTTP/2, or
// over HTTP/1.1 in full duplex with both bodies chunked (with
// [Caller.StreamOverHTTP1], falling back to HTTP/2 on a 505 and sending
// the messages the server did not read again), whose request and response
// bodies are sequences of envelopes: a flags byte, the
// message's length as 4 bytes big-endian, the message. The request carries
// the unary call's headers but for Content-Type application/connect+proto
// and Connect-Accept-Encoding identity, and no Content-Length; its body is
// written as [Stream.Send] is called, while the response is read as
// [Stream.Receive] is. A 200 response's envelopes are messages (flags 0)
// followed by one end-of-stream envelope (flags 2) holding a JSON object:
// {"error": {code, message, details}, "metadata": {trailers}}, the error
// absent when the stream ended without one. Any error of Receive ends the
// stream: Receive returns it again and Send fails. (connect-go's client
// goes on reading after a message over the limit; here it ends the
// stream.)
//
// # Errors
//
// Every error is a *connect.Error with the code and message connect-go's
// client gives the same failure (it names the encodings it accepts,
// identity here, in one message):
//
//   - a unary response with another status and a JSON body (Connect's
//     error form: code, message, details) is a wire error
//     (connect.IsWireError) with that code (the status's code when the body
//     names none), message and details, its Meta the response's headers
//     (Trailer- headers unprefixed), as connect-go returns it; a body that
//     is not JSON, or an unreadable one, gives the code of the HTTP status
//     (connect-go's table) and the status text;
//   - a stream's end-of-stream error is a wire error with its code (Unknown
//     for none or an unknown one), message and details, its Meta the
//     response's headers and the end-of-stream metadata; a stream response
//     with another status than 200 gives the code of the status and "HTTP
//     status" and the status text, one over HTTP/1 to the caller's own
//     client Unimplemented;
//   - a response of the wrong Content-Type is Unknown (not a Connect
//     response) or Internal (another codec), one with an encoding other
//     than identity Internal, and so is a compressed envelope;
//   - a message over the limit, sent or received, is ResourceExhausted, with
//     connect-go's messages;
//   - a canceled call is Canceled, one past its deadline DeadlineExceeded,
//     an HTTP/2 stream reset by the server has the code of its reason (as
//     connect-go maps them: REFUSED_STREAM Unavailable, CANCEL Canceled,
//     ...), and any other failure to get a response is Unavailable;
//   - a unary body that fails or ends early is Unknown; a stream body that
//     fails within an envelope's prefix, or ends within an envelope or
//     without an end-of-stream message, is Internal ("protocol error:
//     ..."), one that fails otherwise within a message Unknown.
//
// connect-go's client codes a connection reset by the server (ECONNRESET,
// EPIPE) Canceled, by a rule written for its handlers' writes; here it is
// the code of the failure above.
//
// # Memory
//
// A response's size is checked against the limit before its buffer grows.
// A unary response's Content-Length, when it has one, is checked before
// anything is read; otherwise the body is read into at most limit+1 bytes
// of the buffer (one over: how a message over the limit is told), whatever
// its capacity, and the buffer grows as it fills, doubling from 64 KiB, and
// straight to limit+1 bytes once doubling would reach the limit. The rest
// of a body over the limit is read and discarded, as connect-go does, for
// the size in the error and so that the connection can be reused. A stream
// message's length, in its envelope's prefix, is checked before its bytes
// are read, and a buffer too small for it is replaced by one of exactly
// that length. A buffer large enough for the message is used as it is,
// the message at its start (an 8-aligned address for a buffer of Go's
// allocator), so a caller that passes the previous message's buffer back
// allocates nothing for the message once the buffer has grown to the
// largest one.
package connectwire

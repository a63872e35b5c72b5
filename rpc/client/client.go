package client

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"io"
	"net/http"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/observations"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/gen/botarena/v1/botarenav1connect"
	"github.com/botarena/botarena/rpc/internal/connectwire"
	"github.com/botarena/botarena/rpc/internal/wire"
)

// Client is a Go client of EnvService: it creates pools on a server and
// decodes their batches into [env.Buffers]. A Client is safe for concurrent
// use; the [Pool] values it returns are not.
//
// Errors are the server's *connect.Error values: connect.CodeOf(err) gives
// the code (package server has the table).
type Client struct {
	rpc  botarenav1connect.EnvServiceClient
	wire *connectwire.Caller // Reset, Step and StepStream of the Connect protocol; nil: through rpc
	http *http.Client
	// http1 is the HTTP/1.1 client of the Connect protocol's StepStreams
	// (with the client's own http; nil otherwise).
	http1 *http.Client
	// owned is set when http is the client's own, closed by Close.
	owned bool
}

// Dial returns a client of the server at addr: "host:port" (plain HTTP/2,
// h2c) or a base URL ("http://host:port", "https://host:port/prefix"). It
// does not connect until the first call.
func Dial(addr string, opts ...Option) (*Client, error) {
	e, o, err := newEndpoint(addr, opts)
	if err != nil {
		return nil, err
	}
	c := &Client{
		rpc:   botarenav1connect.NewEnvServiceClient(e.HTTPClient, e.BaseURL, e.Options...),
		http:  e.HTTPClient,
		owned: e.Owned,
	}
	if o.protocol == Connect && len(o.connectOpts) == 0 {
		var h http.Header
		if o.token != "" {
			h = http.Header{"Authorization": {"Bearer " + o.token}}
		}
		if c.wire, err = connectwire.NewCaller(e.HTTPClient, e.BaseURL, h, e.MaxMessageBytes); err != nil {
			return nil, fmt.Errorf("client: %w", err)
		}
		if e.Owned {
			// StepStream over HTTP/1.1, full duplex, where the server
			// offers it: Go's HTTP/2 server copies every DATA frame of a
			// batch into its framer's buffer, its HTTP/1.1 server writes
			// the batch from the pool's buffer.
			c.http1 = newHTTP1Client(o.tlsConfig)
			c.wire.StreamOverHTTP1(c.http1)
		}
	}
	return c, nil
}

// Raw returns the generated EnvService client, for calls this type does not
// wrap.
func (c *Client) Raw() botarenav1connect.EnvServiceClient { return c.rpc }

// Close closes the idle connections of the client's own HTTP client (not of
// one given with [WithHTTPClient]). Pools on the server stay open: close them
// with [Pool.Close]. It always returns nil.
func (c *Client) Close() error {
	if c.owned {
		c.http.CloseIdleConnections()
	}
	if c.http1 != nil {
		c.http1.CloseIdleConnections()
	}
	return nil
}

// ListGames returns the server's games.
func (c *Client) ListGames(ctx context.Context) ([]*botarenav1.GameInfo, error) {
	resp, err := c.rpc.ListGames(ctx, &botarenav1.ListGamesRequest{})
	if err != nil {
		return nil, err
	}
	return resp.GetGames(), nil
}

// CreatePool creates a pool on the server and returns its client-side
// handle, with a decoder of its batches.
func (c *Client) CreatePool(ctx context.Context, req *botarenav1.CreatePoolRequest) (*Pool, error) {
	resp, err := c.rpc.CreatePool(ctx, req)
	if err != nil {
		return nil, err
	}
	dec, err := observations.NewDecoder(resp.GetArrowSchema())
	if err != nil {
		// The server sent a schema this client cannot read: close the pool.
		c.rpc.ClosePool(context.WithoutCancel(ctx), &botarenav1.ClosePoolRequest{PoolId: resp.GetPoolId()})
		return nil, fmt.Errorf("client: pool %s: schema: %w", resp.GetPoolId(), err)
	}
	return &Pool{c: c, info: resp, dec: dec}, nil
}

// Pool is the client side of one pool on a server. Its methods decode each
// batch into buffers the Pool owns and reuses: the [env.Buffers] and
// [StepResult] a call returns are overwritten by the next Reset or Step of
// the same Pool (like csv.Reader's ReuseRecord), so copy what must outlive
// it.
//
// A Pool is not safe for concurrent use.
type Pool struct {
	c     *Client
	info  *botarenav1.CreatePoolResponse
	dec   *observations.Decoder
	bufs  *env.Buffers
	final *env.Buffers
	res   StepResult
	act   []byte
	req   []byte // the marshalled request of a call through connectwire
	msg   []byte // the response message of a call through connectwire, reused
}

// StepResult is what a Step returns, decoded.
type StepResult struct {
	// Buffers is the batch after the step, one row per learner row.
	Buffers *env.Buffers
	// Ended is true for the rows whose episode ended in the step.
	Ended []bool
	// Final, in SAME_STEP mode, holds the final observations of the rows
	// that ended (its other rows and columns are as in Buffers); nil when
	// no row ended or in NEXT_STEP mode.
	Final *env.Buffers
}

// ID returns the server's id of the pool.
func (p *Pool) ID() string { return p.info.GetPoolId() }

// Info returns the server's CreatePool response: spec, schema message, seed,
// rows, learner seats, autoreset mode and workers. Callers must not modify
// it.
func (p *Pool) Info() *botarenav1.CreatePoolResponse { return p.info }

// Spec returns the game's spec as the Arrow schema carries it. It is shared;
// callers must not modify it.
func (p *Pool) Spec() *env.Spec { return p.dec.Spec() }

// Rows returns the number of rows of each batch: one action per row goes
// into Step.
func (p *Pool) Rows() int { return int(p.info.GetRows()) }

// decode decodes msg into dst (allocated on first use).
func (p *Pool) decode(dst **env.Buffers, msg []byte) error {
	if *dst == nil {
		*dst = env.NewBuffers(p.dec.Spec(), p.Rows())
	}
	if err := p.dec.DecodeTo(*dst, msg); err != nil {
		return fmt.Errorf("client: pool %s: batch: %w", p.ID(), err)
	}
	return nil
}

// Reset resets every env of the pool and returns the first batch, valid
// until the next call on p.
func (p *Pool) Reset(ctx context.Context) (*env.Buffers, error) {
	req := &botarenav1.ResetRequest{PoolId: p.ID()}
	var batch []byte
	if p.c.wire != nil {
		var err error
		if batch, _, _, err = p.call(ctx, botarenav1connect.EnvServiceResetProcedure, req); err != nil {
			return nil, err
		}
	} else {
		resp, err := p.c.rpc.Reset(ctx, req)
		if err != nil {
			return nil, err
		}
		batch = resp.GetBatch()
	}
	if err := p.decode(&p.bufs, batch); err != nil {
		return nil, err
	}
	return p.bufs, nil
}

// call calls procedure with req through the client's [connectwire.Caller],
// reading the response into p.msg, and returns the fields of the batch
// response: slices of p.msg, valid until the next call.
func (p *Pool) call(ctx context.Context, procedure string, req proto.Message) (batch, ended, final []byte, err error) {
	if err := p.marshal(req); err != nil {
		return nil, nil, nil, err
	}
	if p.msg, err = p.c.wire.Call(ctx, procedure, p.msg, p.req); err != nil {
		return nil, nil, nil, err
	}
	return parse(p.msg)
}

// marshal marshals req into p.req.
func (p *Pool) marshal(req proto.Message) error {
	var err error
	if p.req, err = (proto.MarshalOptions{}).MarshalAppend(p.req[:0], req); err != nil {
		// As connect-go reports a request it cannot marshal.
		return connect.NewError(connect.CodeInternal, fmt.Errorf("marshal message: %w", err))
	}
	return nil
}

// parse returns the fields of the batch response msg, slices of it.
func parse(msg []byte) (batch, ended, final []byte, err error) {
	if batch, ended, final, err = wire.Parse(msg); err != nil {
		// As connect-go reports a response it cannot unmarshal.
		return nil, nil, nil, connect.NewError(connect.CodeInvalidArgument, fmt.Errorf("unmarshal message: %w", err))
	}
	return batch, ended, final, nil
}

// EncodeActions appends actions as the little-endian int32 bytes of
// StepRequest.actions to dst.
func EncodeActions(dst []byte, actions []int32) []byte {
	for _, a := range actions {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(a))
	}
	return dst
}

// Step sends one action per row and returns the decoded result, valid
// until the next call on p.
func (p *Pool) Step(ctx context.Context, actions []int32) (*StepResult, error) {
	p.act = EncodeActions(p.act[:0], actions)
	req := &botarenav1.StepRequest{PoolId: p.ID(), Actions: p.act}
	if p.c.wire != nil {
		batch, ended, final, err := p.call(ctx, botarenav1connect.EnvServiceStepProcedure, req)
		if err != nil {
			return nil, err
		}
		return p.stepResult(batch, ended, final)
	}
	resp, err := p.c.rpc.Step(ctx, req)
	if err != nil {
		return nil, err
	}
	return p.stepResult(resp.GetBatch(), resp.GetEnded(), resp.GetFinalBatch())
}

func (p *Pool) stepResult(batch, ended, final []byte) (*StepResult, error) {
	if err := p.decode(&p.bufs, batch); err != nil {
		return nil, err
	}
	if len(ended) != p.Rows() {
		return nil, fmt.Errorf("client: pool %s: got %d ended flags, want %d", p.ID(), len(ended), p.Rows())
	}
	if p.res.Ended == nil {
		p.res.Ended = make([]bool, p.Rows())
	}
	for r, e := range ended {
		p.res.Ended[r] = e != 0
	}
	p.res.Buffers, p.res.Final = p.bufs, nil
	if len(final) > 0 {
		if err := p.decode(&p.final, final); err != nil {
			return nil, err
		}
		p.res.Final = p.final
	}
	return &p.res, nil
}

// Render returns env i's state in a native format as seat sees it (-1: the
// full state); format "" asks for the first text format. It returns the
// format used.
func (p *Pool) Render(ctx context.Context, i, seat int, format string) (string, []byte, error) {
	resp, err := p.c.rpc.Render(ctx, &botarenav1.RenderRequest{PoolId: p.ID(), Env: int32(i), Seat: int32(seat), Format: format})
	if err != nil {
		return "", nil, err
	}
	return resp.GetFormat(), resp.GetData(), nil
}

// Paint returns env i's picture as seat sees it (-1: the full state), from
// the game's [picture.Painter].
func (p *Pool) Paint(ctx context.Context, i, seat int) (*image.RGBA, error) {
	resp, err := p.c.rpc.Render(ctx, &botarenav1.RenderRequest{PoolId: p.ID(), Env: int32(i), Seat: int32(seat), Format: PictureFormat})
	if err != nil {
		return nil, err
	}
	w, h, data := int(resp.GetWidth()), int(resp.GetHeight()), resp.GetData()
	if w <= 0 || h <= 0 || len(data) != w*h*3 {
		return nil, fmt.Errorf("client: Render %s: got %d bytes for a %dx%d picture", PictureFormat, len(data), w, h)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range w * h {
		copy(img.Pix[4*i:4*i+3], data[3*i:3*i+3])
		img.Pix[4*i+3] = 0xff
	}
	return img, nil
}

// Stats returns the pool's episode statistics; reset clears them after
// reading.
func (p *Pool) Stats(ctx context.Context, reset bool) (*botarenav1.StatsResponse, error) {
	return p.c.rpc.Stats(ctx, &botarenav1.StatsRequest{PoolId: p.ID(), Reset_: reset})
}

// SetOpponents replaces the mixtures of some of the pool's opponent seats
// (seat → weighted agent specs), from each env's next episode on; see the
// SetOpponents RPC.
func (p *Pool) SetOpponents(ctx context.Context, opponents map[int32]*botarenav1.OpponentMix) error {
	_, err := p.c.rpc.SetOpponents(ctx, &botarenav1.SetOpponentsRequest{PoolId: p.ID(), Opponents: opponents})
	return err
}

// Close closes the pool on the server.
func (p *Pool) Close(ctx context.Context) error {
	_, err := p.c.rpc.ClosePool(ctx, &botarenav1.ClosePoolRequest{PoolId: p.ID()})
	return err
}

// Stream opens a StepStream on the pool: Reset and Step over one
// bidirectional stream, one round trip each without a new request per call.
// Cancel ctx or call [Stream.Close] to end it. With the Connect protocol
// (and no [WithConnectOptions]) the client speaks the stream itself
// (package rpc/internal/connectwire), reading each response into the
// Pool's buffer as Reset and Step do; otherwise through connect-go, over
// HTTP/2. With the Connect protocol and the client's own HTTP client (no
// [WithHTTPClient]) the stream goes over HTTP/1.1 in full duplex, as the
// env service serves it, and over HTTP/2 from a server that answers that
// with 505 (one that streams over HTTP/2 only); with an HTTP client of
// [WithHTTPClient], over that client, which must speak HTTP/2.
func (p *Pool) Stream(ctx context.Context) (*Stream, error) {
	if p.c.wire != nil {
		ws, err := p.c.wire.Stream(ctx, botarenav1connect.EnvServiceStepStreamProcedure)
		if err != nil {
			return nil, err
		}
		return &Stream{p: p, ws: ws}, nil
	}
	s, err := p.c.rpc.StepStream(ctx)
	if err != nil {
		return nil, err
	}
	return &Stream{p: p, s: s}, nil
}

// Stream is a StepStream of a [Pool]. Its results share the Pool's buffers:
// they are overwritten by the next call on the Stream or the Pool. A Stream
// is not safe for concurrent use, nor for use concurrently with its Pool.
type Stream struct {
	p    *Pool
	ws   *connectwire.Stream // the stream of the Connect protocol; nil: s
	s    *connect.BidiStreamForClientSimple[botarenav1.StepStreamRequest, botarenav1.StepStreamResponse]
	sent bool // the pool id has been sent
	req  botarenav1.StepStreamRequest
}

// roundTrip sends a Reset (reset) or Step request and returns the fields
// of the response: slices of the Pool's message buffer on the Connect
// path, valid until the next call.
func (s *Stream) roundTrip(reset bool, actions []int32) (batch, ended, final []byte, err error) {
	s.req.PoolId = ""
	if !s.sent {
		s.req.PoolId = s.p.ID()
	}
	s.req.Reset_ = reset
	s.req.Actions = nil
	if !reset {
		s.p.act = EncodeActions(s.p.act[:0], actions)
		s.req.Actions = s.p.act
	}
	if s.ws != nil {
		return s.wireRoundTrip()
	}
	err = s.s.Send(&s.req)
	if errors.Is(err, io.EOF) {
		// The server ended the stream; Receive has its status.
		_, err = s.s.Receive()
	}
	if err != nil {
		return nil, nil, nil, err
	}
	s.sent = true
	resp, err := s.s.Receive()
	if err != nil {
		return nil, nil, nil, err
	}
	return resp.GetBatch(), resp.GetEnded(), resp.GetFinalBatch(), nil
}

// wireRoundTrip is roundTrip on the Connect path: the request marshalled
// into the Pool's request buffer, the response read into its message
// buffer.
func (s *Stream) wireRoundTrip() (batch, ended, final []byte, err error) {
	p := s.p
	if err := p.marshal(&s.req); err != nil {
		return nil, nil, nil, err
	}
	err = s.ws.Send(p.req)
	if errors.Is(err, io.EOF) {
		// The stream has ended; Receive says why.
		p.msg, err = s.ws.Receive(p.msg)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	s.sent = true
	if p.msg, err = s.ws.Receive(p.msg); err != nil {
		return nil, nil, nil, err
	}
	return parse(p.msg)
}

// Reset resets the pool over the stream and returns the first batch.
func (s *Stream) Reset() (*env.Buffers, error) {
	batch, _, _, err := s.roundTrip(true, nil)
	if err != nil {
		return nil, err
	}
	if err := s.p.decode(&s.p.bufs, batch); err != nil {
		return nil, err
	}
	return s.p.bufs, nil
}

// Step steps the pool over the stream.
func (s *Stream) Step(actions []int32) (*StepResult, error) {
	batch, ended, final, err := s.roundTrip(false, actions)
	if err != nil {
		return nil, err
	}
	return s.p.stepResult(batch, ended, final)
}

// Close closes the stream (both directions). The pool stays open.
func (s *Stream) Close() error {
	if s.ws != nil {
		return s.ws.Close()
	}
	errReq := s.s.CloseRequest()
	errResp := s.s.CloseResponse()
	return errors.Join(errReq, errResp)
}

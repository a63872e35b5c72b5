package matchservice

import (
	"context"
	"fmt"
	"mime"
	"strings"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/bytesize"
	"github.com/botarena/botarena/league"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/server"
)

// This file is a game's cost in the host's memory budget (see package
// server's budget.go), reserved before the game is played: its env and
// agents (measured on probes: server.Budget.EnvSizes and AgentSizes) and,
// when recorded, its data. Recorded games are refused up front when their
// bound (every seat's row for every step up to the game's step cap or
// max_rounds, the bound [RemoteRunner] packs its batches by) exceeds the
// message limit, and their reservation is that bound times the growth of
// the recorder's slices plus the marshalled response. The reservation is
// released when the call ends.
//
// Responses are sized in the encoding of the call ([callEncoding]): binary
// protobuf (gRPC, Connect's application/proto), or protojson (Connect's
// application/json, gRPC's +json), which writes bytes as base64 (4/3) and
// every element of a repeated number or bool as text (a bool's "false, "
// is 7 bytes to binary's 1), so that a recorded game's response is 1.3 to
// 7 times its binary size. A batch admitted by its binary size would fail
// as a whole when marshalled as JSON.

// encoding is the encoding of a call's messages, which the sizes of its
// responses depend on.
type encoding int

const (
	encodingBinary encoding = iota // protobuf's binary format
	encodingJSON                   // protojson, as Connect's JSON codec writes it
)

// callEncoding returns the encoding of the handler's call ctx, from its
// request's content type ("application/json", "application/grpc+json",
// "application/grpc-web+json" are JSON); binary when there is none.
func callEncoding(ctx context.Context) encoding {
	info, ok := connect.CallInfoForHandlerContext(ctx)
	if !ok {
		return encodingBinary
	}
	ct := info.RequestHeader().Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err == nil {
		ct = mt
	}
	if strings.HasSuffix(ct, "/json") || strings.HasSuffix(ct, "+json") {
		return encodingJSON
	}
	return encodingBinary
}

// String names the encoding in errors.
func (e encoding) String() string {
	if e == encodingJSON {
		return "JSON"
	}
	return "binary protobuf"
}

// size returns m's size in the encoding: exact for binary; for JSON, an
// upper bound of what Connect's codec writes, with a recorded game's data
// bounded from its lengths ([jsonDataBytes]) rather than marshalled.
func (e encoding) size(m proto.Message) int {
	if e == encodingBinary {
		return proto.Size(m)
	}
	var resp *botarenav1.PlayResponse
	switch m := m.(type) {
	case *botarenav1.PlayResponse:
		resp = m
	case *botarenav1.PlayOutcome:
		resp = m.GetResult()
	}
	if d := resp.GetData(); d != nil {
		// Measured without its data, which is bounded instead (the
		// message is put back as it was).
		resp.Data = nil
		n := e.size(m)
		resp.Data = d
		return n + len(`,"data":`) + jsonDataBytes(d)
	}
	b, err := protojson.MarshalOptions{}.Marshal(m)
	if err != nil {
		return proto.Size(m) * 8 // not expected: JSON is at most this
	}
	return len(b)
}

// elementSize returns the size of m as one element of a repeated message
// field (PlayBatchResponse.outcomes): its tag and length, or its comma.
func (e encoding) elementSize(m proto.Message) int {
	n := e.size(m)
	if e == encodingJSON {
		return n + 2 // ", " (protojson may add a space after a comma)
	}
	return protowire.SizeTag(1) + protowire.SizeBytes(n)
}

// JSON's worst cases: a number or bool element of a repeated field with
// its ", ", and a string's bytes escaped (\u00XX is 6 bytes for 1).
const (
	jsonInt32Bytes   = len("-2147483648, ")
	jsonFloat32Bytes = len("-1.1754944e-38, ") // and `"-Infinity", `
	jsonBoolBytes    = len("false, ")
	jsonEscape       = 6
)

// base64Len is the length of n bytes in base64 (padded, as protojson
// writes them).
func base64Len(n int) int { return (n + 2) / 3 * 4 }

// jsonDataBytes bounds the protojson size of d from its lengths.
func jsonDataBytes(d *botarenav1.MatchData) int {
	obs := make([]int, len(d.GetObs()))
	for i, o := range d.GetObs() {
		obs[i] = len(o)
	}
	rows := max(len(d.GetAction()), len(d.GetReward()), len(d.GetTerminated()), len(d.GetTruncated()))
	return jsonRowsBytes(obs, len(d.GetMask()), rows, d.GetAgents())
}

// jsonRowsBytes bounds the protojson size of a MatchData with obs[i]
// bytes of observation tensor i, mask bytes of masks, rows rows and the
// agents' names.
func jsonRowsBytes(obs []int, mask, rows int, names []string) int {
	n := 256 // braces, field names, steps
	for _, name := range names {
		n += jsonEscape*len(name) + 4
	}
	for _, b := range obs {
		n += base64Len(b) + 4
	}
	n += base64Len(mask)
	return n + rows*(jsonInt32Bytes+jsonFloat32Bytes+2*jsonBoolBytes)
}

// matchCost returns the cost of playing req (one game, not counting its
// recording): its env and its agents. A game or agent that cannot be made
// costs nothing here: playing it fails with the right error.
func (s *Server) matchCost(req *botarenav1.PlayRequest) int64 {
	b := s.host.Budget()
	game, cfg := req.GetGame(), []byte(req.GetConfigJson())
	probe, err := b.EnvSizes(s.host.Registry(), game, cfg)
	if err != nil {
		return 0
	}
	n := probe.First
	for seat, st := range req.GetSeats() {
		a, err := b.AgentSizes(s.host.Registry(), game, cfg, st.GetSpec(), seat, nil)
		if err == nil {
			n += a.First
		}
	}
	return server.WithMargin(n)
}

// recordBound returns the bound of req's recorded data in a response
// ([dataBound]: every seat's row for every step up to the step cap or
// max_rounds) in binary and, as wire, in the encoding enc, and ok false
// when the game cannot be made (playing it then fails with the right
// error).
func (s *Server) recordBound(req *botarenav1.PlayRequest, enc encoding) (bound, wire int64, spec *env.Spec, ok bool) {
	probe, err := s.host.Budget().EnvSizes(s.host.Registry(), req.GetGame(), []byte(req.GetConfigJson()))
	if err != nil {
		return 0, 0, nil, false
	}
	spec = probe.Spec
	bound = int64(dataBound(spec, int(req.GetMaxRounds())))
	if enc == encodingBinary {
		return bound, bound, spec, true
	}
	rows := int64(spec.Seats) * int64(recordSteps(spec, int(req.GetMaxRounds())))
	obs := make([]int, len(spec.Obs))
	for i, t := range spec.Obs {
		obs[i] = int(rows * int64(t.Bytes()))
	}
	names := make([]string, len(req.GetSeats()))
	for i, st := range req.GetSeats() {
		names[i] = st.GetName()
	}
	wire = int64(jsonRowsBytes(obs, int(rows*int64(spec.Actions)), int(rows), names)) + resultBound(req, enc)
	return bound, wire, spec, true
}

// recordSteps is the most steps a recorded game of spec with max_rounds
// maxRounds records.
func recordSteps(spec *env.Spec, maxRounds int) int {
	steps := spec.MaxSteps
	if maxRounds > 0 {
		steps = min(steps, maxRounds)
	}
	return steps
}

// recordReserve is what the server reserves for a recording of bound
// bytes whose response takes wire bytes in the call's encoding: the
// recorder's slices grow by append (up to 1.25× the data once grown, and
// the old and new arrays while growing), and Connect marshals the
// response, a copy of the data in the call's encoding (2.25 × bound for
// binary).
func recordReserve(bound, wire int64) int64 { return bound*5/4 + wire }

// admitPlay checks a Play request against the message limit and reserves
// its cost, or fails with ResourceExhausted: a recorded game whose data
// could exceed the message limit (its bound, [dataBound]) is refused
// before it is played, as is one that does not fit the memory budget. A
// request that cannot be played (closed server, unknown game, bad seats)
// reserves nothing: play returns its error.
func (s *Server) admitPlay(ctx context.Context, req *botarenav1.PlayRequest, enc encoding) (*server.Reservation, error) {
	if s.isClosed() {
		return nil, nil
	}
	if _, err := s.match(req, ""); err != nil {
		return nil, nil
	}
	cost := s.matchCost(req)
	detail := ""
	if req.GetRecord() {
		bound, wire, spec, ok := s.recordBound(req, enc)
		if ok {
			if limit := int64(s.host.MaxMessageBytes()); limit > 0 && wire > limit {
				return nil, server.Markf(server.ErrLimit, "game %d: its recorded data could make a response of up to %.1f MiB in %s (%s), over the server's message limit of %.1f MiB; cap the rounds (league run --max-rounds) or raise the limit (serve --max-message-bytes)",
					req.GetIndex(), mib(int(wire)), enc, recordShape(spec, req), mib(s.host.MaxMessageBytes()))
			}
			cost += recordReserve(bound, wire)
			detail = "recording up to " + bytesize.Format(wire)
		}
	}
	return s.host.Budget().Reserve(server.ClientKey(ctx), fmt.Sprintf("game %d", req.GetIndex()), detail, cost, false)
}

// recordShape describes the bound of req's recorded data.
func recordShape(spec *env.Spec, req *botarenav1.PlayRequest) string {
	return fmt.Sprintf("%d seats × %d steps × %d bytes", spec.Seats, recordSteps(spec, int(req.GetMaxRounds())), spec.ObsBytes()+spec.Actions+5+4+2)
}

// errorBound bounds the size of a game's error outcome in a PlayBatch
// response in the encoding (a code and a message of a few hundred bytes;
// in JSON, with its quotes escaped).
func (e encoding) errorBound() int64 {
	if e == encodingJSON {
		return 2*512 + 64 // quotes and backslashes escaped
	}
	return 512
}

// resultBound bounds the size of a game's result without data in a
// PlayBatch response in the encoding: the fixed fields and a standing per
// seat.
func resultBound(req *botarenav1.PlayRequest, enc encoding) int64 {
	n := int64(1 << 10)
	for _, st := range req.GetSeats() {
		if enc == encodingJSON {
			n += 160 + jsonEscape*int64(len(st.GetName()))
		} else {
			n += 64 + int64(len(st.GetName()))
		}
	}
	return n
}

// admitBatch checks the valid games of a PlayBatch request (valid[k] is
// ms[at[k]]) against the message limit and the memory budget before any is
// played, in request order, and returns the reservation and the games
// admitted. A game that does not fit gets its ResourceExhausted outcome in
// out (through failed): a recorded game whose data bound in the call's
// encoding enc would take the response over the message limit, or whose
// recording does not fit the budget. The games in flight (as many as the
// PoolRunner plays at once, at the cost of the largest) are reserved
// first; when they do not fit, every game is refused.
func (s *Server) admitBatch(ctx context.Context, enc encoding, ms []*botarenav1.PlayRequest, valid []league.Match, at []int, out []*botarenav1.PlayOutcome,
	failed func(error) *botarenav1.PlayOutcome) (*server.Reservation, []league.Match, []int) {
	if len(valid) == 0 {
		return nil, valid, at
	}
	client := server.ClientKey(ctx)
	var each int64
	for _, i := range at {
		each = max(each, s.matchCost(ms[i]))
	}
	workers := int64(min(len(valid), s.opts.maxMatches))
	inFlight := min(int64(len(valid)), workers*(league.DefaultEnvsPerWorker+1))
	mem, err := s.host.Budget().Reserve(client, fmt.Sprintf("a batch of %d games", len(valid)),
		fmt.Sprintf("%d at once × %s", inFlight, bytesize.Format(each)), inFlight*each, false)
	if err != nil {
		for _, i := range at {
			out[i] = failed(fmt.Errorf("matches[%d]: %w", i, err))
		}
		return nil, nil, nil
	}
	// The response's bound: every game's outcome, at least an error's,
	// and a recorded game's data when it is admitted.
	limit := int64(s.host.MaxMessageBytes())
	size := int64(0)
	for i, o := range out {
		switch {
		case o != nil:
			size += int64(enc.elementSize(o))
		case !ms[i].GetRecord():
			size += resultBound(ms[i], enc)
		default:
			size += enc.errorBound()
		}
	}
	keep := 0
	for k, i := range at {
		req := ms[i]
		if req.GetRecord() {
			bound, wire, _, ok := s.recordBound(req, enc)
			if !ok {
				wire = resultBound(req, enc) // it fails when played
			}
			more := max(wire-enc.errorBound(), 0)
			if limit > 0 && size+more > limit {
				out[i] = failed(server.Markf(server.ErrLimit, "matches[%d]: game %d: its recorded data could make the batch's response up to %.1f MiB in %s, over the server's message limit of %.1f MiB; send fewer recorded games per call (league run --server-batch) or raise the limit (serve --max-message-bytes)",
					i, req.GetIndex(), mib(int(size+more)), enc, mib(int(limit))))
				continue
			}
			if ok {
				if err := mem.Grow(fmt.Sprintf("matches[%d]: game %d", i, req.GetIndex()), "recording up to "+bytesize.Format(wire), recordReserve(bound, wire)); err != nil {
					out[i] = failed(err)
					continue
				}
			}
			size += more
		}
		valid[keep], at[keep] = valid[k], i
		keep++
	}
	return mem, valid[:keep], at[:keep]
}

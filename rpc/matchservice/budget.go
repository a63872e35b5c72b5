package matchservice

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/botarena/botarena/env"
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
// the recorder's slices and the marshalled response. The reservation is
// released when the call ends.

// recordGrowthQuarters is the factor, in quarters, of a recording's bound
// that the server may hold at once: the recorder's slices grow by append
// (up to 1.25× the data once grown, and the old and new arrays while
// growing) and Connect marshals the response, a copy of the data.
const recordGrowthQuarters = 9

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
// max_rounds), and ok false when the game cannot be made (playing it then
// fails with the right error).
func (s *Server) recordBound(req *botarenav1.PlayRequest) (bound int64, spec *env.Spec, ok bool) {
	probe, err := s.host.Budget().EnvSizes(s.host.Registry(), req.GetGame(), []byte(req.GetConfigJson()))
	if err != nil {
		return 0, nil, false
	}
	return int64(dataBound(probe.Spec, int(req.GetMaxRounds()))), probe.Spec, true
}

// recordReserve is what the server reserves for a recording of bound
// bytes.
func recordReserve(bound int64) int64 { return bound * recordGrowthQuarters / 4 }

// admitPlay checks a Play request against the message limit and reserves
// its cost, or fails with ResourceExhausted: a recorded game whose data
// could exceed the message limit (its bound, [dataBound]) is refused
// before it is played, as is one that does not fit the memory budget. A
// request that cannot be played (closed server, unknown game, bad seats)
// reserves nothing: play returns its error.
func (s *Server) admitPlay(ctx context.Context, req *botarenav1.PlayRequest) (*server.Reservation, error) {
	if s.isClosed() {
		return nil, nil
	}
	if _, err := s.match(req, ""); err != nil {
		return nil, nil
	}
	cost := s.matchCost(req)
	detail := ""
	if req.GetRecord() {
		bound, spec, ok := s.recordBound(req)
		if ok {
			if limit := int64(s.host.MaxMessageBytes()); limit > 0 && bound > limit {
				return nil, server.Markf(server.ErrLimit, "game %d: its recorded data could make a response of up to %.1f MiB (%s), over the server's message limit of %.1f MiB; cap the rounds (league run --max-rounds) or raise the limit (serve --max-message-bytes)",
					req.GetIndex(), mib(int(bound)), recordShape(spec, req), mib(s.host.MaxMessageBytes()))
			}
			cost += recordReserve(bound)
			detail = "recording up to " + server.FormatBytes(bound)
		}
	}
	return s.host.Budget().Reserve(server.ClientKey(ctx), fmt.Sprintf("game %d", req.GetIndex()), detail, cost, false)
}

// recordShape describes the bound of req's recorded data.
func recordShape(spec *env.Spec, req *botarenav1.PlayRequest) string {
	steps := spec.MaxSteps
	if n := int(req.GetMaxRounds()); n > 0 {
		steps = min(steps, n)
	}
	return fmt.Sprintf("%d seats × %d steps × %d bytes", spec.Seats, steps, spec.ObsBytes()+spec.Actions+5+4+2)
}

// errorOutcomeBytes bounds the size of a game's error outcome in a
// PlayBatch response (a code and a message of a few hundred bytes).
const errorOutcomeBytes = 512

// resultBound bounds the size of a game's result without data in a
// PlayBatch response: the fixed fields and a standing per seat.
func resultBound(req *botarenav1.PlayRequest) int64 {
	n := int64(1 << 10)
	for _, st := range req.GetSeats() {
		n += 64 + int64(len(st.GetName()))
	}
	return n
}

// admitBatch checks the valid games of a PlayBatch request (valid[k] is
// ms[at[k]]) against the message limit and the memory budget before any is
// played, in request order, and returns the reservation and the games
// admitted. A game that does not fit gets its ResourceExhausted outcome in
// out (through failed): a recorded game whose data bound would take the
// response over the message limit, or whose recording does not fit the
// budget. The games in flight (as many as the PoolRunner plays at once,
// at the cost of the largest) are reserved first; when they do not fit,
// every game is refused.
func (s *Server) admitBatch(ctx context.Context, ms []*botarenav1.PlayRequest, valid []league.Match, at []int, out []*botarenav1.PlayOutcome,
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
		fmt.Sprintf("%d at once × %s", inFlight, server.FormatBytes(each)), inFlight*each, false)
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
			size += int64(proto.Size(o)) + 8
		case !ms[i].GetRecord():
			size += resultBound(ms[i])
		default:
			size += errorOutcomeBytes
		}
	}
	keep := 0
	for k, i := range at {
		req := ms[i]
		if req.GetRecord() {
			bound, _, ok := s.recordBound(req)
			if !ok {
				bound = resultBound(req) // it fails when played
			}
			more := max(bound-errorOutcomeBytes, 0)
			if limit > 0 && size+more > limit {
				out[i] = failed(server.Markf(server.ErrLimit, "matches[%d]: game %d: its recorded data could make the batch's response up to %.1f MiB, over the server's message limit of %.1f MiB; send fewer recorded games per call (league run --server-batch) or raise the limit (serve --max-message-bytes)",
					i, req.GetIndex(), mib(int(size+more)), mib(int(limit))))
				continue
			}
			if ok {
				if err := mem.Grow(fmt.Sprintf("matches[%d]: game %d", i, req.GetIndex()), "recording up to "+server.FormatBytes(bound), recordReserve(bound)); err != nil {
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

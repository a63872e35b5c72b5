package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/botarena/botarena/match"
)

// recordWriter is where a recording goes to the client: buffered, with its
// lines counted.
type recordWriter struct {
	bw    *bufio.Writer
	lines int64
}

func newRecordWriter(w io.Writer) *recordWriter { return &recordWriter{bw: bufio.NewWriter(w)} }

func (rw *recordWriter) Write(p []byte) (int, error) {
	rw.lines += int64(bytes.Count(p, []byte{'\n'}))
	return rw.bw.Write(p)
}

func (rw *recordWriter) flush() { rw.bw.Flush() }

// resultOf returns the result (the recording's result line) of a match of
// game whose last frame is f, after rounds rounds: the frame's result, as
// it stands.
func resultOf(game string, seed uint64, rounds int, f *Frame) match.Result {
	r := f.Result
	r.Game, r.Seed, r.Rounds = game, seed, rounds
	return r
}

// recordedResult is a recording's result line as read back.
type recordedResult struct {
	raw    json.RawMessage
	parsed match.Result
	ok     bool // the line is a match.Result with a leaderboard of every seat
}

// parseResult reads the result line raw of a recording of seats seats;
// nil when there is none.
func parseResult(raw json.RawMessage, seats int) *recordedResult {
	if raw == nil {
		return nil
	}
	r := &recordedResult{raw: raw}
	var err error
	r.parsed, err = match.ParseResult(raw)
	r.ok = err == nil && len(r.parsed.Leaderboard) == seats
	return r
}

// apply shows the recorded result in f, the last frame of a replay, when
// it is a match.Result: the standings, the seat that forfeited, faults and
// actions as recorded.
func (r *recordedResult) apply(f *Frame) {
	if r.ok {
		f.Result = r.parsed
	}
}

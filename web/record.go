package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/botarena/botarena/env"
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

// resultLine is the result line of a recording: what `botarena play
// --json` prints of a match (the game's extra leaderboard fields aside).
type resultLine struct {
	Game        string           `json:"game"`
	Seed        uint64           `json:"seed"`
	Rounds      int              `json:"rounds"`
	Winner      *int             `json:"winner"`
	Draw        bool             `json:"draw"`
	Leaderboard []resultStanding `json:"leaderboard"`
	Forfeit     *resultForfeit   `json:"forfeit,omitempty"`
	Faults      []SeatFaults     `json:"faults,omitempty"`
}

// SeatFaults is the fault count of one seat's external bot, as in play's
// result line: {"seat","agent","timed_out","crashed","invalid"}.
type SeatFaults struct {
	Seat  int    `json:"seat"`
	Agent string `json:"agent,omitempty"`
	match.Faults
}

// faultsOf returns the fault counts of the seats of ags whose agents
// count faults (match.FaultCounter), named by names; nil when none does.
func faultsOf(ags []env.Agent, names []string) []SeatFaults {
	var out []SeatFaults
	for seat, a := range ags {
		if c, ok := a.(match.FaultCounter); ok {
			f := SeatFaults{Seat: seat, Faults: c.Faults()}
			if seat < len(names) {
				f.Agent = names[seat]
			}
			out = append(out, f)
		}
	}
	return out
}

type resultStanding struct {
	Rank  int     `json:"rank"`
	Seat  int     `json:"seat"`
	Agent string  `json:"agent"`
	Name  string  `json:"name"`
	Score float64 `json:"score"`
	Alive bool    `json:"alive"`
}

type resultForfeit struct {
	Seat  int    `json:"seat"`
	Agent string `json:"agent,omitempty"`
}

// resultOf returns the result line of a match of game whose last frame is
// f, after rounds rounds.
func resultOf(game string, seed uint64, rounds int, agentNames []string, f *Frame) resultLine {
	out := resultLine{Game: game, Seed: seed, Rounds: rounds, Draw: f.Result.Draw}
	agent := func(seat int) string {
		if seat >= 0 && seat < len(agentNames) {
			return agentNames[seat]
		}
		return ""
	}
	if f.Result.Winner >= 0 {
		w := f.Result.Winner
		out.Winner = &w
	}
	for _, s := range f.Result.Standings {
		out.Leaderboard = append(out.Leaderboard, resultStanding{Rank: s.Rank, Seat: s.Seat, Agent: agent(s.Seat), Name: s.Name, Score: s.Score, Alive: s.Alive})
	}
	if f.Forfeit != nil {
		out.Forfeit = &resultForfeit{Seat: *f.Forfeit, Agent: agent(*f.Forfeit)}
	}
	out.Faults = f.Faults
	return out
}

// recordedResult is a recording's result line as read back.
type recordedResult struct {
	raw    json.RawMessage
	parsed resultLine
	ok     bool // the line has play's shape: a leaderboard of every seat
}

// parseResult reads the result line raw of a recording of seats seats;
// nil when there is none.
func parseResult(raw json.RawMessage, seats int) *recordedResult {
	if raw == nil {
		return nil
	}
	r := &recordedResult{raw: raw}
	r.ok = json.Unmarshal(raw, &r.parsed) == nil && len(r.parsed.Leaderboard) == seats
	return r
}

// apply shows the recorded result in f, the last frame of a replay, when
// it has play's shape: the standings, and the seat that forfeited.
func (r *recordedResult) apply(f *Frame) {
	if !r.ok {
		return
	}
	res := env.Result{Rounds: r.parsed.Rounds, Winner: -1, Draw: r.parsed.Draw}
	if r.parsed.Winner != nil {
		res.Winner = *r.parsed.Winner
	}
	for _, s := range r.parsed.Leaderboard {
		res.Standings = append(res.Standings, env.Standing{Seat: s.Seat, Rank: s.Rank, Name: s.Name, Score: s.Score, Alive: s.Alive})
	}
	f.Result = res
	if r.parsed.Forfeit != nil {
		seat := r.parsed.Forfeit.Seat
		f.Forfeit = &seat
	}
	f.Faults = r.parsed.Faults
}

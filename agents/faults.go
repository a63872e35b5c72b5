package agents

import "fmt"

// FaultKind is the kind of an external bot's fault: why the bot's move of
// a round was lost and the original competition's penalty (usually doing
// nothing) taken instead. The zero value is no fault.
type FaultKind uint8

const (
	// NoFault: the bot's move was played.
	NoFault FaultKind = iota
	// TimedOut: the bot ran past its time limit (killed, or its answer
	// ignored), or its HTTP or UPE client did not answer in time.
	TimedOut
	// Crashed: the bot could not start, exited non-zero or was killed by
	// a signal without an answer, left no move file, or its HTTP request
	// failed (connection refused, reset).
	Crashed
	// Invalid: the bot answered, but with garbage or a move the game
	// rejects (an illegal or unknown move, a malformed file or reply).
	Invalid
)

var faultKindNames = [...]string{"no fault", "timed out", "crashed", "invalid"}

func (k FaultKind) String() string {
	if int(k) < len(faultKindNames) {
		return faultKindNames[k]
	}
	return fmt.Sprintf("FaultKind(%d)", k)
}

// Faults counts, by kind, the rounds in which an external bot faulted.
// A round counts once, as its first or gravest fault: a time-out before a
// crash before an invalid answer. match.FaultCounter reports it.
type Faults struct {
	TimedOut int `json:"timed_out"`
	Crashed  int `json:"crashed"`
	Invalid  int `json:"invalid"`
}

// Total returns the number of rounds of every kind.
func (f Faults) Total() int { return f.TimedOut + f.Crashed + f.Invalid }

// Add returns the sum of f and g, kind by kind.
func (f Faults) Add(g Faults) Faults {
	return Faults{TimedOut: f.TimedOut + g.TimedOut, Crashed: f.Crashed + g.Crashed, Invalid: f.Invalid + g.Invalid}
}

// Count counts one round of kind k; NoFault counts nothing.
func (f *Faults) Count(k FaultKind) {
	switch k {
	case TimedOut:
		f.TimedOut++
	case Crashed:
		f.Crashed++
	case Invalid:
		f.Invalid++
	}
}

// String writes the counts for a log line or a table: "2 timed out, 1
// crashed", or "none".
func (f Faults) String() string {
	s := ""
	for _, c := range []struct {
		n    int
		kind FaultKind
	}{{f.TimedOut, TimedOut}, {f.Crashed, Crashed}, {f.Invalid, Invalid}} {
		if c.n == 0 {
			continue
		}
		if s != "" {
			s += ", "
		}
		s += fmt.Sprintf("%d %s", c.n, c.kind)
	}
	if s == "" {
		return "none"
	}
	return s
}

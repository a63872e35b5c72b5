package match

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/botarena/botarena/env"
)

// A recording is a match written as JSON Lines (docs/recording-format.md):
// a [RecordingHeader] line, one [RecordedRound] line per state of the
// match, and a last line {"result": R}, R a [Result]. `botarena play
// --record` writes one and the web viewer plays it back.

// RecordingFormat is the "format" of every recording's header line, and
// RecordingVersion the version this package writes and reads.
const (
	RecordingFormat  = "botarena-recording"
	RecordingVersion = 1
)

// DefaultRecordingLimit is the size cap of a recording when none is given:
// 256 MiB, about 4000 rounds of 4-player Bomberman.
const DefaultRecordingLimit = 256 << 20

// ErrRecordingTooLarge is wrapped by a [Recorder]'s error when the
// recording would pass its size limit.
var ErrRecordingTooLarge = errors.New("recording size limit")

// RecordingHeader is the first line of a recording.
type RecordingHeader struct {
	// Format is [RecordingFormat] and Version [RecordingVersion].
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Game is the registry name ("bomberman/12p") and Config the JSON
	// config the env was made with over the game's defaults (absent: the
	// defaults): env.Make(Game, Config) makes the env again.
	Game   string          `json:"game"`
	Config json.RawMessage `json:"config,omitempty"`
	// Seed is the match's seed ([Match.Seed]).
	Seed uint64 `json:"seed"`
	// Seats is the number of seats and Agents the agent of each seat, as
	// named on the command line.
	Seats  int      `json:"seats"`
	Agents []string `json:"agents,omitempty"`
	// StateFormat is the native format of the rounds' states: the game's
	// canonical one, the full (referee's) view.
	StateFormat string `json:"state_format"`
	// Loaded reports that the match did not start from Seed's initial
	// state but from the state of round 0, loaded over it (play --state).
	Loaded bool `json:"loaded,omitempty"`
}

// RecordedRound is one line of a recording per state of the match: the
// state at the start of Round (Round rounds played), and, for every state
// but the last, what happened in the round: each seat's action, its native
// command, reward and flags after the step.
type RecordedRound struct {
	Round int `json:"round"`
	// State is the state in the header's StateFormat as the full view: the
	// JSON value itself for a JSON format, else a JSON string.
	State      json.RawMessage `json:"state"`
	Actions    []int32         `json:"actions,omitempty"`
	Commands   []string        `json:"commands,omitempty"`
	Rewards    []float32       `json:"rewards,omitempty"`
	Terminated []bool          `json:"terminated,omitempty"`
	Truncated  []bool          `json:"truncated,omitempty"`
}

// recordedResult is the last line of a recording.
type recordedResult struct {
	Result Result `json:"result"`
}

// Recorder writes a recording of one match through the match's [Hooks]
// (see [Recorder.Hooks]) and [Recorder.Finish]. It is not safe for
// concurrent use.
type Recorder struct {
	w       io.Writer
	header  RecordingHeader
	limit   int64
	written int64
	codec   env.Codec
	pending *RecordedRound // the state seen last, not yet written
	buf     []byte
	err     error
}

// NewRecorder returns a recorder that writes the recording of a match with
// header h to w, at most limit bytes in all (0: [DefaultRecordingLimit]).
// The header's Format and Version are set; an empty StateFormat is the
// env's canonical format. The header is written with the first state.
func NewRecorder(w io.Writer, h RecordingHeader, limit int64) *Recorder {
	if limit <= 0 {
		limit = DefaultRecordingLimit
	}
	h.Format, h.Version = RecordingFormat, RecordingVersion
	return &Recorder{w: w, header: h, limit: limit}
}

// Written returns the number of bytes written so far.
func (r *Recorder) Written() int64 { return r.written }

// Hooks returns hooks that record the match and then call next's: set
// them as the match's Hooks before [Match.Run]. They fail, ending the
// match, when the env has no native codec, on w's errors and when the
// recording would pass its limit (wrapping [ErrRecordingTooLarge]).
func (r *Recorder) Hooks(next Hooks) Hooks {
	return Hooks{
		State: func(e env.Env, round int) error {
			if err := r.state(e, round); err != nil {
				return err
			}
			return call(next.State, e, round)
		},
		Acted: func(e env.Env, round int, actions []int32) error {
			if err := r.acted(round, actions); err != nil {
				return err
			}
			if next.Acted != nil {
				return next.Acted(e, round, actions)
			}
			return nil
		},
		Stepped: func(e env.Env, round int, s Step) error {
			if err := r.stepped(round, s); err != nil {
				return err
			}
			if next.Stepped != nil {
				return next.Stepped(e, round, s)
			}
			return nil
		},
	}
}

func (r *Recorder) state(e env.Env, round int) error {
	if r.err != nil {
		return r.err
	}
	if r.codec == nil {
		c, err := env.CodecOf(e)
		if err != nil {
			return r.fail(fmt.Errorf("recording: %w", err))
		}
		r.codec = c
		if r.header.StateFormat == "" {
			r.header.StateFormat = c.NativeFormats()[0]
		}
		if r.header.Seats == 0 {
			r.header.Seats = e.Spec().Seats
		}
		if err := r.line(r.header, 0); err != nil {
			return err
		}
	}
	if r.pending != nil { // a round that did not step: cannot happen with Run
		if err := r.line(r.pending, r.pending.Round); err != nil {
			return err
		}
	}
	var err error
	if r.buf, err = r.codec.AppendNative(r.buf[:0], r.header.StateFormat, -1); err != nil {
		return r.fail(fmt.Errorf("recording: round %d: %w", round, err))
	}
	state, err := NativeJSON(r.buf, r.header.StateFormat)
	if err != nil {
		return r.fail(fmt.Errorf("recording: round %d: %w", round, err))
	}
	r.pending = &RecordedRound{Round: round, State: state}
	return nil
}

// acted takes the round's native commands before the env steps: a
// command may name what the state it was chosen in says (Battleships'
// placement line names the seat's next ship, which the step places).
func (r *Recorder) acted(round int, actions []int32) error {
	if r.err != nil {
		return r.err
	}
	p := r.pending
	if p == nil || p.Round != round {
		return r.fail(fmt.Errorf("recording: round %d acted before its state was seen", round))
	}
	p.Commands = make([]string, len(actions))
	for seat, a := range actions {
		p.Commands[seat] = string(r.codec.AppendCommand(nil, seat, a))
	}
	return nil
}

func (r *Recorder) stepped(round int, s Step) error {
	if r.err != nil {
		return r.err
	}
	p := r.pending
	if p == nil || p.Round != round {
		return r.fail(fmt.Errorf("recording: round %d stepped before its state was seen", round))
	}
	p.Actions = slices.Clone(s.Actions)
	p.Rewards = slices.Clone(s.Rewards)
	p.Terminated = slices.Clone(s.Terminated)
	p.Truncated = slices.Clone(s.Truncated)
	r.pending = nil
	return r.line(p, round)
}

// Finish writes the last state seen and the result line, {"result":
// result} (`botarena play` writes the result it prints with --json). It
// returns the recorder's first error, if any: a recording that failed is
// not finished.
func (r *Recorder) Finish(result Result) error {
	if r.err != nil {
		return r.err
	}
	if r.codec == nil {
		return r.fail(errors.New("recording: the match saw no state"))
	}
	if r.pending != nil {
		if err := r.line(r.pending, r.pending.Round); err != nil {
			return err
		}
		r.pending = nil
	}
	return r.line(recordedResult{result}, -1)
}

// line writes v as one JSON line of the recording, refusing to pass the
// limit; round names the round in the error.
func (r *Recorder) line(v any, round int) error {
	data, err := json.Marshal(v)
	if err != nil {
		return r.fail(fmt.Errorf("recording: %w", err))
	}
	data = append(data, '\n')
	if r.written+int64(len(data)) > r.limit {
		at := "the result"
		if round >= 0 {
			at = fmt.Sprintf("round %d", round)
		}
		return r.fail(fmt.Errorf("recording: %s would pass the %w of %d bytes (%d bytes written)", at, ErrRecordingTooLarge, r.limit, r.written))
	}
	n, err := r.w.Write(data)
	r.written += int64(n)
	if err != nil {
		return r.fail(fmt.Errorf("recording: %w", err))
	}
	return nil
}

func (r *Recorder) fail(err error) error {
	r.err = err
	return err
}

// NativeJSON returns a native state in format as a JSON value: the state
// itself for a JSON format (compacted), else a JSON string.
func NativeJSON(state []byte, format string) (json.RawMessage, error) {
	if env.IsJSONFormat(format) {
		var b bytes.Buffer
		if err := json.Compact(&b, state); err != nil {
			return nil, fmt.Errorf("native %s is not JSON: %w", format, err)
		}
		return b.Bytes(), nil
	}
	return json.Marshal(string(state))
}

// RecordingReader reads a recording line by line. It is not safe for
// concurrent use.
type RecordingReader struct {
	r      *bufio.Reader
	max    int
	line   int   // lines read
	offset int64 // of the next line
	done   bool  // the result line was read
}

// RecordingLine is one line after the header: a round, or the result.
type RecordingLine struct {
	// Offset and Len locate the line in the input (without its newline).
	Offset int64
	Len    int
	// Round is the round line, nil for the result line.
	Round *RecordedRound
	// Result is the value of the result line as written, nil for a round
	// line; [ParseResult] reads it.
	Result json.RawMessage
}

// NewRecordingReader reads the header of the recording in r and returns a
// reader of its other lines, none longer than maxLine bytes (0: 64 MiB).
// It returns an error for input that is not a recording of a version it
// reads.
func NewRecordingReader(r io.Reader, maxLine int) (*RecordingReader, RecordingHeader, error) {
	if maxLine <= 0 {
		maxLine = 64 << 20
	}
	rr := &RecordingReader{r: bufio.NewReaderSize(r, 64<<10), max: maxLine}
	var h RecordingHeader
	data, _, err := rr.next()
	if err == io.EOF {
		return nil, h, errors.New("recording: empty")
	}
	if err != nil {
		return nil, h, err
	}
	if err := json.Unmarshal(data, &h); err != nil || h.Format != RecordingFormat {
		return nil, h, fmt.Errorf("recording: line 1 is not a botarena recording header (want {\"format\": %q, ...})", RecordingFormat)
	}
	if h.Version != RecordingVersion {
		return nil, h, fmt.Errorf("recording: version %d; this botarena reads version %d", h.Version, RecordingVersion)
	}
	if h.Game == "" || h.Seats < 1 || h.StateFormat == "" {
		return nil, h, errors.New("recording: the header lacks game, seats or state_format")
	}
	return rr, h, nil
}

// next returns the next non-empty line, without its line end, and its
// offset in the input.
func (rr *RecordingReader) next() ([]byte, int64, error) {
	for {
		start := rr.offset
		var line []byte
		for {
			chunk, err := rr.r.ReadSlice('\n')
			if len(line)+len(chunk) > rr.max+2 {
				return nil, start, fmt.Errorf("recording: line %d is longer than %d bytes", rr.line+1, rr.max)
			}
			line = append(line, chunk...)
			if err == bufio.ErrBufferFull {
				continue
			}
			if err == io.EOF && len(line) == 0 {
				return nil, start, io.EOF
			}
			if err != nil && err != io.EOF {
				return nil, start, fmt.Errorf("recording: %w", err)
			}
			break
		}
		rr.line++
		rr.offset += int64(len(line))
		if len(bytes.TrimSpace(line)) > 0 {
			return bytes.TrimRight(line, "\r\n"), start, nil
		}
	}
}

// lineJSON is any line after the header: a round when it has a state.
type lineJSON struct {
	RecordedRound
	Result json.RawMessage `json:"result"`
}

// Next returns the next line: io.EOF after the result line or at the end
// of the input, an error for a line that is neither a round nor the result.
func (rr *RecordingReader) Next() (RecordingLine, error) {
	if rr.done {
		return RecordingLine{}, io.EOF
	}
	data, offset, err := rr.next()
	if err != nil {
		return RecordingLine{}, err
	}
	l := RecordingLine{Offset: offset, Len: len(data)}
	var v lineJSON
	if err := json.Unmarshal(data, &v); err != nil {
		return l, fmt.Errorf("recording: line %d: %w", rr.line, err)
	}
	switch {
	case v.Result != nil:
		rr.done, l.Result = true, v.Result
	case v.State != nil:
		l.Round = &v.RecordedRound
	default:
		return l, fmt.Errorf("recording: line %d is neither a round (round, state) nor the result", rr.line)
	}
	return l, nil
}

// Recording is a whole recording, as [ReadRecording] reads it.
type Recording struct {
	Header RecordingHeader
	Rounds []RecordedRound
	// Result is the value of the result line as written, nil when there
	// is none; [ParseResult] reads it.
	Result json.RawMessage
}

// ParseResult reads the value of a recording's result line: a [Result].
// Fields it does not know are ignored, but a standing's unknown fields
// are kept in its Extra.
func ParseResult(raw json.RawMessage) (Result, error) {
	var r Result
	if err := json.Unmarshal(raw, &r); err != nil {
		return Result{}, fmt.Errorf("recording: result: %w", err)
	}
	return r, nil
}

// ReadRecording reads the whole recording in r, lines of at most maxLine
// bytes (0: 64 MiB), checking that its rounds are numbered 0, 1, 2, ...
func ReadRecording(r io.Reader, maxLine int) (*Recording, error) {
	rr, h, err := NewRecordingReader(r, maxLine)
	if err != nil {
		return nil, err
	}
	rec := &Recording{Header: h}
	for {
		l, err := rr.Next()
		if err == io.EOF {
			return rec, nil
		}
		if err != nil {
			return nil, err
		}
		if l.Round == nil {
			rec.Result = l.Result
			continue
		}
		if l.Round.Round != len(rec.Rounds) {
			return nil, fmt.Errorf("recording: round %d where round %d was expected", l.Round.Round, len(rec.Rounds))
		}
		rec.Rounds = append(rec.Rounds, *l.Round)
	}
}

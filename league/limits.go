package league

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"syscall"
	"unicode"
	"unicode/utf8"
)

// Limits of what a league stores for its callers. Every name, spec, tag,
// config and request id that a client, a command line or a file gives is
// checked against them before anything is stored, with an error matching
// [ErrInvalid] that names the field, its size and the limit (quoting at
// most the first few dozen characters of the value). The limits also bound
// what a league's table, its games and a server's responses hold.
const (
	// MaxAgentNameBytes bounds an agent's name (letters, digits and _.+-,
	// starting with a letter or digit).
	MaxAgentNameBytes = 128
	// MaxSpecBytes bounds an agent's spec, as given and as stored (a
	// path resolved by a server included).
	MaxSpecBytes = 4096
	// MaxTagBytes bounds an agent's tag, a free-form label of printable
	// characters.
	MaxTagBytes = 128
	// MaxAgents is the most agents a league holds at once; AddAgent
	// beyond it fails with an error matching [ErrLimit].
	MaxAgents = 1000
	// MaxConfigBytes bounds a league's game config (JSON).
	MaxConfigBytes = 64 << 10
	// MaxLeagueNameBytes bounds a league's name in a leagues folder, and
	// MaxLeagueDepth the number of its slash-separated parts: the depth to
	// which the viewer lists leagues.
	MaxLeagueNameBytes = 256
	MaxLeagueDepth     = 4
	// DefaultMaxLeagues is the most leagues a leagues folder holds when
	// LeaguesOptions.MaxLeagues is 0 (`botarena serve --max-leagues`).
	DefaultMaxLeagues = 1000
	// MaxRequestIDBytes bounds a run's request id ([RunOptions.RequestID]):
	// printable ASCII without spaces, a UUID for example.
	MaxRequestIDBytes = 128
)

// maxGameBytes bounds a game's registry name in Settings.
const maxGameBytes = 128

// ErrLimit is matched (errors.Is) by the errors of a request that would
// take a league or a leagues folder over one of its limits (MaxAgents, the
// folder's MaxLeagues) and of a run that stopped because the disk is full
// ([ErrDiskFull]). A server answers them with ResourceExhausted.
var ErrLimit = errors.New("league: over a limit")

// ErrDiskFull is matched (errors.Is) by the error of a run, or any write,
// that stopped because the store's disk (or the user's quota) is full; it
// matches [ErrLimit] too. The games stored before stay stored.
var ErrDiskFull = errors.New("the disk is full")

// ErrBadStore is matched (errors.Is) by the error of opening a league
// whose store file (league.db) is not a regular file: a FIFO, a device or
// a socket there is refused before anything blocks on it.
var ErrBadStore = errors.New("the league's store is not a regular file")

// agentNameRE is an agent's name.
var agentNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.+-]*$`)

// CheckAgent checks what a caller gives to store as an agent before the
// league is touched: the name (1 to [MaxAgentNameBytes] of letters, digits
// and _.+-, starting with a letter or digit), the spec (1 to
// [MaxSpecBytes]) and the tag (at most [MaxTagBytes]), both of printable
// characters (no control characters, tabs or line breaks) in valid UTF-8.
// Its errors match [ErrInvalid]. [League.AddAgent] calls it; the command
// line and a server call it first, to refuse a bad agent without opening
// the league. Whether the spec is an agent of the league's game is
// AddAgent's to check.
func CheckAgent(a Agent) error {
	if err := checkText("agent name", a.Name, MaxAgentNameBytes); err != nil {
		return err
	}
	if !agentNameRE.MatchString(a.Name) {
		return invalidf("agent name %s: want letters, digits and _.+- (starting with a letter or digit)", clipQuote(a.Name))
	}
	if a.Spec == "" {
		return invalidf("agent %s: spec: required", a.Name)
	}
	if err := checkText("agent "+a.Name+": spec", a.Spec, MaxSpecBytes); err != nil {
		return err
	}
	return checkText("agent "+a.Name+": tag", a.Tag, MaxTagBytes)
}

// checkSettings checks the strings of a new league's settings: the game's
// name (printable, at most maxGameBytes) and config (at most
// [MaxConfigBytes]). Whether the game exists and takes the config is
// Create's to check.
func checkSettings(st Settings) error {
	if err := checkText("game", st.Game, maxGameBytes); err != nil {
		return err
	}
	if len(st.Config) > MaxConfigBytes {
		return invalidf("game config: %d bytes, over the limit of %d", len(st.Config), MaxConfigBytes)
	}
	return nil
}

// checkText checks that s is at most max bytes of printable characters in
// valid UTF-8; what names it in the error.
func checkText(what, s string, max int) error {
	if len(s) > max {
		return invalidf("%s %s: %d bytes, over the limit of %d", what, clipQuote(s), len(s), max)
	}
	if !utf8.ValidString(s) {
		return invalidf("%s %s: not valid UTF-8", what, clipQuote(s))
	}
	for i, r := range s {
		if !unicode.IsPrint(r) {
			return invalidf("%s %s: character %U at byte %d is not printable (control characters, tabs and line breaks are refused)", what, clipQuote(s), r, i)
		}
	}
	return nil
}

// checkRequestID checks a run's request id: 1 to [MaxRequestIDBytes] of
// printable ASCII without spaces.
func checkRequestID(id string) error {
	if len(id) > MaxRequestIDBytes {
		return invalidf("request_id %s: %d bytes, over the limit of %d", clipQuote(id), len(id), MaxRequestIDBytes)
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; c <= ' ' || c > '~' {
			return invalidf("request_id %s: byte %d is not printable ASCII (want letters, digits and punctuation, a UUID for example)", clipQuote(id), i)
		}
	}
	return nil
}

// clipLen is how much of a refused value an error quotes.
const clipLen = 40

// clipQuote quotes s for an error, cut to its first clipLen bytes (on a
// character boundary) with "…" when longer, so that an error never
// repeats a huge value.
func clipQuote(s string) string {
	return strconv.Quote(clip(s, clipLen))
}

// clip returns s cut to at most n bytes, on a character boundary, ending
// with "…" when it was cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// diskFull marks err as [ErrDiskFull] when it is a full disk or quota
// (ENOSPC, EDQUOT), naming the cause; the error matches ErrDiskFull
// (through its text's error) and [ErrLimit]. Other errors are returned as
// they are.
func diskFull(err error) error {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return kindError{ErrLimit, fmt.Errorf("%w (%w)", ErrDiskFull, err)}
	}
	return err
}

package agents

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/botarena/botarena/internal/safefile"
)

// Capability is what an agent scheme needs of the machine it plays on,
// beyond the env it is handed: reading files, running commands, making
// requests, listening. [Capabilities] grant them; [Scheme.Needs] declares
// them. The zero value, [CapUnrestricted], is what a scheme that declares
// nothing needs: only [Capabilities.Unrestricted] grants it.
type Capability uint8

const (
	// CapUnrestricted: a scheme that declares no narrower need; only
	// Capabilities.Unrestricted grants it.
	CapUnrestricted Capability = iota
	// CapFiles: the agent reads a file or folder named in its spec, and
	// for a bot folder runs the bot found there ("dir:PATH",
	// "policy:PATH"). Granted for paths inside [Capabilities.BotDirs].
	CapFiles
	// CapCommands: the agent runs any command line its spec names
	// ("cmd:COMMAND"). Granted by [Capabilities.Commands].
	CapCommands
	// CapHTTP: the agent makes requests to any URL its spec names
	// ("http://...", "https://..."). Granted by [Capabilities.HTTP].
	CapHTTP
	// CapListen: the agent listens on any address its spec names
	// ("upe://HOST:PORT"). Granted by [Capabilities.Listen].
	CapListen
)

// String names the capability for messages.
func (c Capability) String() string {
	switch c {
	case CapUnrestricted:
		return "unrestricted access"
	case CapFiles:
		return "files in the bots folders"
	case CapCommands:
		return "running commands"
	case CapHTTP:
		return "outbound HTTP requests"
	case CapListen:
		return "listening on network addresses"
	}
	return fmt.Sprintf("Capability(%d)", uint8(c))
}

// Capabilities say which agents a party that does not own the machine
// (a client of botarena serve) may have it make: the zero value allows
// only the registered agents, which play inside the process from the env
// alone; each field adds a [Capability]. [New] itself checks nothing: the
// local command line (botarena play, tournament, league) runs what its
// user names, and servers call [Capabilities.Check] first.
//
// A Capabilities is a plain value, safe for concurrent use once built.
type Capabilities struct {
	// Unrestricted grants everything, any path included: what the local
	// command line has (its user is the operator), and what serve's
	// deprecated --allow-external-bots gives.
	Unrestricted bool
	// BotDirs are the folders whose files and subfolders "dir:" and
	// "policy:" specs may name (CapFiles). A relative path in a spec is
	// looked up in each folder in order; an absolute one must lie inside
	// one. Paths are resolved with filepath.EvalSymlinks before the check,
	// so a symbolic link cannot lead out. Everything inside is trusted: a
	// bot folder's code runs.
	BotDirs []string
	// Commands grants CapCommands: "cmd:" runs any command line.
	Commands bool
	// HTTP grants CapHTTP: "http://" and "https://" bots make requests to
	// any URL (and follow redirects).
	HTTP bool
	// Listen grants CapListen: "upe://" seats listen on any address.
	Listen bool
}

// ErrDenied is returned (in a [*DeniedError]) by [Capabilities.Check] for
// an agent the capabilities do not allow.
var ErrDenied = errors.New("agent not allowed")

// DeniedError is the error of [Capabilities.Check] for a spec the
// capabilities do not allow: it names the [Capability] that would allow
// it. Its text quotes the spec cut to a bounded length and never anything
// read from a file.
type DeniedError struct {
	// Spec is the agent spec as asked for.
	Spec string
	// Need is the capability the spec needs.
	Need Capability
	// Reason says why it is not granted ("no bots folder is set", "... is
	// outside the bots folders").
	Reason string
}

func (e *DeniedError) Error() string {
	return fmt.Sprintf("agent %s needs %s: %s", QuoteSpec(e.Spec), e.Need, e.Reason)
}

// Is makes errors.Is(err, ErrDenied) true.
func (e *DeniedError) Is(target error) bool { return target == ErrDenied }

// maxQuotedSpec bounds how much of a spec an error message quotes.
const maxQuotedSpec = 200

// QuoteSpec quotes an agent spec for an error message, cut to 200 bytes
// ("..." marks a cut), so that an error never repeats unbounded input.
func QuoteSpec(spec string) string {
	if len(spec) > maxQuotedSpec {
		return fmt.Sprintf("%q...", spec[:maxQuotedSpec])
	}
	return fmt.Sprintf("%q", spec)
}

// Check reports whether c allows the agent spec names for game, and
// returns the spec to make it from: spec itself, or for a [CapFiles]
// scheme under [Capabilities.BotDirs] the spec with its path resolved
// (absolute, symbolic links followed), so that what is made is what was
// checked. A registered agent name, an unknown name (left to [New] to
// refuse) and, with Unrestricted, every spec are returned unchanged. A
// spec c does not allow gives a [*DeniedError]; a path that exists in no
// bots folder an error wrapping [ErrUnknownAgent]. Check reads nothing but
// the file system's names (it resolves paths; it opens no file), and is
// safe for concurrent use.
func (c Capabilities) Check(game, spec string) (string, error) {
	s, ok := scheme(spec)
	if !ok || c.Unrestricted {
		return spec, nil
	}
	deny := func(format string, args ...any) (string, error) {
		return "", &DeniedError{Spec: spec, Need: s.Needs, Reason: fmt.Sprintf(format, args...)}
	}
	switch s.Needs {
	case CapFiles:
		return c.checkPath(s, spec)
	case CapCommands:
		if c.Commands {
			return spec, nil
		}
		return deny("running commands is not allowed")
	case CapHTTP:
		if c.HTTP {
			return spec, nil
		}
		return deny("outbound HTTP requests are not allowed")
	case CapListen:
		if c.Listen {
			return spec, nil
		}
		return deny("listening on network addresses is not allowed")
	}
	return deny("only unrestricted access allows %s agents", s.Prefix)
}

// checkPath checks the path of a CapFiles spec against the bots folders.
func (c Capabilities) checkPath(s Scheme, spec string) (string, error) {
	path, suffix := strings.TrimPrefix(spec, s.Prefix), ""
	if s.Path != nil {
		path, suffix = s.Path(spec)
	}
	deny := func(format string, args ...any) (string, error) {
		return "", &DeniedError{Spec: spec, Need: CapFiles, Reason: fmt.Sprintf(format, args...)}
	}
	if len(c.BotDirs) == 0 {
		return deny("no bots folder is set")
	}
	if path == "" {
		return spec, nil // New says what is missing; nothing is read
	}
	type root struct{ given, real string }
	var roots []root
	for _, d := range c.BotDirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			continue
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			continue // a bots folder that is gone allows nothing
		}
		roots = append(roots, root{abs, real})
	}
	var candidates []string
	if filepath.IsAbs(path) {
		p := filepath.Clean(path)
		for _, r := range roots {
			if within(r.given, p) || within(r.real, p) {
				candidates = append(candidates, p)
				break
			}
		}
		if candidates == nil {
			return deny("the path is outside the bots folders")
		}
	} else {
		if !filepath.IsLocal(path) {
			return deny("the relative path leaves the bots folders")
		}
		for _, r := range roots {
			candidates = append(candidates, filepath.Join(r.real, path))
		}
	}
	escaped := false
	for _, p := range candidates {
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			continue
		}
		for _, r := range roots {
			if within(r.real, real) {
				return s.Prefix + real + suffix, nil
			}
		}
		escaped = true
	}
	if escaped {
		return deny("the path leads out of the bots folders through a symbolic link")
	}
	return "", fmt.Errorf("%w %s: no such file or folder in the bots folders", ErrUnknownAgent, QuoteSpec(spec))
}

// within reports whether path is dir or lies inside it; both are clean
// absolute paths.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(rel)
}

// ResolveBotDirs returns dirs made absolute with symbolic links resolved,
// or an error naming the first that is not an existing folder
// ([safefile.ResolveDir], "bots folder ..."): for a server to check its
// --bots-dir flags at start.
func ResolveBotDirs(dirs []string) ([]string, error) {
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		abs, err := safefile.ResolveDir("bots folder", d)
		if err != nil {
			return nil, err
		}
		out = append(out, abs)
	}
	return out, nil
}

package server

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/botarena/botarena/agents"
)

// WithAgentCapabilities sets which agents beyond the built-in ones clients
// may name as pool opponents (CreatePool, SetOpponents) and match agents
// (MatchService Play, PlayBatch): caps.BotDirs are the folders whose
// "dir:" bot folders and "policy:" files clients may name (a relative path
// is looked up in each; symbolic links may not lead out), caps.Commands
// allows "cmd:" bots (any command, run as the server's user),
// caps.HTTP "http://" and "https://" bots (requests from the server's
// network) and caps.Listen "upe://" seats (listeners on any address).
// Everything else is PermissionDenied, with a message naming the
// `botarena serve` flag that allows it. The default is the zero value:
// built-in agents only. See [agents.Capabilities].
func WithAgentCapabilities(caps agents.Capabilities) Option {
	return func(o *options) { o.agentCaps = caps }
}

// WithExternalAgents(true) lets clients name any external bot and any
// file, as WithAgentCapabilities(agents.Capabilities{Unrestricted: true});
// false allows built-in agents only.
//
// Deprecated: it lets every client run any command and read any file as
// the server's user; use [WithAgentCapabilities] with only what the
// clients need.
func WithExternalAgents(allow bool) Option {
	return WithAgentCapabilities(agents.Capabilities{Unrestricted: allow})
}

// AllowAgent checks the agent spec a client named in field against the
// host's capabilities ([WithAgentCapabilities]) and returns the spec to
// make the agent from: spec, or with its path resolved inside the bots
// folders. A spec the server does not allow is PermissionDenied, with a
// message naming the flag that would allow it; a path in no bots folder is
// NotFound. Messages quote the spec cut short and nothing read from a
// file.
func (h *Host) AllowAgent(game, field, spec string) (string, error) {
	caps := h.opts.agentCaps
	resolved, err := caps.Check(game, spec)
	var d *agents.DeniedError
	switch {
	case errors.As(err, &d):
		return "", Markf(ErrDenied, "%s: %s", field, deniedText(d, len(caps.BotDirs) > 0))
	case err != nil:
		return "", fmt.Errorf("%s: %w", field, err)
	}
	return resolved, nil
}

// deprecatedFlag ends every PermissionDenied message about an agent.
const deprecatedFlag = " (or the deprecated --allow-external-bots, which allows every external bot and any path)"

// deniedText says what the refused agent would have the server do and
// which flag of botarena serve allows it.
func deniedText(d *agents.DeniedError, haveDirs bool) string {
	spec := agents.QuoteSpec(d.Spec)
	switch d.Need {
	case agents.CapFiles:
		what := spec + " is not a built-in agent but a policy file or bot folder, which the server would read (and a bot folder's code run) on its own machine; "
		if !haveDirs {
			return what + "this server reads no files for clients: start it with --bots-dir DIR, a folder holding the file" + deprecatedFlag
		}
		return what + "this server reads only files inside its bots folders (--bots-dir), and " + d.Reason + deprecatedFlag
	case agents.CapCommands:
		return spec + " is not a built-in agent but a command-line bot, whose command the server would run on its own machine; this server runs no commands for clients: start it with --allow-cmd-bots" + deprecatedFlag
	case agents.CapHTTP:
		return spec + " is not a built-in agent but an HTTP bot, to which the server would make requests from its own network; this server makes none for clients: start it with --allow-http-bots" + deprecatedFlag
	case agents.CapListen:
		return spec + " is not a built-in agent but a UPE seat, for which the server would listen on the address it names; this server opens no listeners for clients: start it with --allow-upe-bots" + deprecatedFlag
	}
	return spec + " is not a built-in agent but an external agent that no capability flag covers; only the deprecated --allow-external-bots allows it"
}

// HidePaths returns err with the host's bots folders cut from its text, so
// that an error about a file a client named inside one (a policy file that
// is a FIFO, a bot folder that does not build) names it as the client did,
// relative to the bots folder, and never shows where the server keeps its
// bots. The error returned wraps err (errors.Is and errors.As see
// through it); nil stays nil, and an error without such a path is returned
// as it is.
func (h *Host) HidePaths(err error) error {
	if err == nil || len(h.opts.agentCaps.BotDirs) == 0 {
		return err
	}
	text := err.Error()
	hidden := text
	for _, d := range h.opts.agentCaps.BotDirs {
		for _, root := range botDirForms(d) {
			hidden = strings.ReplaceAll(hidden, root+string(filepath.Separator), "")
			hidden = strings.ReplaceAll(hidden, root, ".")
		}
	}
	if hidden == text {
		return err
	}
	return &rewordedError{text: hidden, err: err}
}

// botDirForms returns the forms in which a bots folder d may appear in an
// error: absolute as given and with its links resolved, longest first.
func botDirForms(d string) []string {
	abs, err := filepath.Abs(d)
	if err != nil {
		return nil
	}
	forms := []string{abs}
	if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
		forms = append(forms, real)
	}
	slices.SortFunc(forms, func(a, b string) int { return len(b) - len(a) })
	return forms
}

// rewordedError is an error with another text (paths hidden, a text
// bounded) that still wraps the original: errors.Is and errors.As see err.
type rewordedError struct {
	text string
	err  error
}

func (e *rewordedError) Error() string { return e.text }
func (e *rewordedError) Unwrap() error { return e.err }

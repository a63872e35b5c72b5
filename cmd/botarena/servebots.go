package main

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/spf13/pflag"

	"github.com/botarena/botarena/agents"
)

// botFlags are serve's flags that let clients name agents that are not
// built in (agents.Capabilities): each grants one capability, so that a
// server gives its clients only what they need. The local commands (play,
// tournament, league) need none of them: their user is the operator.
type botFlags struct {
	dirs     []string // --bots-dir, repeatable
	cmd      bool     // --allow-cmd-bots
	http     bool     // --allow-http-bots
	upe      bool     // --allow-upe-bots
	external bool     // --allow-external-bots, deprecated: all of it, any path
}

func (b *botFlags) add(f *pflag.FlagSet) {
	f.StringArrayVar(&b.dirs, "bots-dir", nil, "a folder whose bot folders (dir:PATH) and policy files (policy:PATH) clients may name as opponents and match agents; repeatable. PATH is relative to a bots dir or absolute inside one; symbolic links may not lead out. Everything inside is trusted: a bot folder's code runs")
	f.BoolVar(&b.cmd, "allow-cmd-bots", false, "let clients name command-line bots (cmd:COMMAND): the server runs any command they give, as its own user; trusted clients only")
	f.BoolVar(&b.http, "allow-http-bots", false, "let clients name HTTP bots (http://..., https://...): the server makes requests to any URL they give, from its own network")
	f.BoolVar(&b.upe, "allow-upe-bots", false, "let clients name UPE seats (upe://HOST:PORT): the server listens on any address they give")
	f.BoolVar(&b.external, "allow-external-bots", false, "deprecated: let clients name every external bot and any file (cmd:, http://, upe://, and dir: and policy: with any path); use --bots-dir and the --allow-*-bots flags instead")
}

// capabilities returns what the flags allow clients, logging what that is;
// it checks that every --bots-dir is a folder.
func (b *botFlags) capabilities(log *slog.Logger) (agents.Capabilities, error) {
	if b.external {
		if len(b.dirs) > 0 || b.cmd || b.http || b.upe {
			return agents.Capabilities{}, errors.New("--allow-external-bots (deprecated) allows every external bot and any path already: use it alone, or better --bots-dir and the --allow-*-bots flags without it")
		}
		log.Warn("--allow-external-bots is deprecated: clients may run any command, read any file, make any request and listen on any address as this server; use --bots-dir DIR, --allow-cmd-bots, --allow-http-bots and --allow-upe-bots for only what they need")
		agents.ExternalOptions.Log = botLog{log}
		return agents.Capabilities{Unrestricted: true}, nil
	}
	dirs, err := agents.ResolveBotDirs(b.dirs)
	if err != nil {
		return agents.Capabilities{}, fmt.Errorf("--bots-dir: %w", err)
	}
	caps := agents.Capabilities{BotDirs: dirs, Commands: b.cmd, HTTP: b.http, Listen: b.upe}
	if len(dirs) > 0 || b.cmd || b.http || b.upe {
		log.Info("clients may name external agents", "bots_dirs", dirs, "cmd_bots", b.cmd, "http_bots", b.http, "upe_bots", b.upe)
		agents.ExternalOptions.Log = botLog{log}
	}
	return caps, nil
}

// botLog passes external bots' problem lines (a fault, a crash, a rejected
// reply) to the server's logger, one warning a line.
type botLog struct{ log *slog.Logger }

func (l botLog) Write(p []byte) (int, error) {
	for line := range strings.Lines(string(p)) {
		if line = strings.TrimSpace(strings.TrimPrefix(line, "botarena: ")); line != "" {
			l.log.Warn("external bot", "problem", line)
		}
	}
	return len(p), nil
}

// Package all links botarena's agent schemes into a program: importing it
// for its side effects registers the external-bot protocols ("dir:",
// "cmd:", "http://" and "https://", "upe://") and trained policies
// ("policy:") with [agents.RegisterScheme], as package games links the
// games. It is the one list of those schemes; the botarena command, the
// shared library (package native) and tests that resolve such specs import
// it.
//
// Linking a scheme grants nothing: what a scheme's agents may do on the
// machine (read files, run commands, make requests, listen on an address)
// is a capability a server grants or refuses per scheme
// ([agents.Capabilities]; `botarena serve --allow-upe-bots` grants
// "upe://" seats their listeners), while the local command line and the
// shared library run what their user names.
//
// Adding a scheme is a package under agents/ that registers it in its init
// function, and one line here.
package all

import (
	_ "github.com/botarena/botarena/agents/cmdbot"   // registers cmd:
	_ "github.com/botarena/botarena/agents/entelect" // registers dir:
	_ "github.com/botarena/botarena/agents/httpbot"  // registers http:// and https://
	_ "github.com/botarena/botarena/agents/policy"   // registers policy:
	_ "github.com/botarena/botarena/agents/upe"      // registers upe://
)

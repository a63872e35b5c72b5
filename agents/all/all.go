// Package all links botarena's agent schemes into a program: importing it
// for its side effects registers the external-bot protocols ("dir:",
// "cmd:", "http://" and "https://") and trained policies ("policy:") with
// [agents.RegisterScheme], as package games links the games. It is the one
// list of those schemes; the botarena command, the shared library
// (package native) and tests that resolve such specs import it.
//
// "upe://" (agents/upe) is not linked here: its seats listen for UPE
// clients, which only the botarena command hosts (play --listen, serve);
// that command imports agents/upe itself.
//
// Adding a scheme is a package under agents/ that registers it in its init
// function, and one line here.
package all

import (
	_ "github.com/botarena/botarena/agents/cmdbot"   // registers cmd:
	_ "github.com/botarena/botarena/agents/entelect" // registers dir:
	_ "github.com/botarena/botarena/agents/httpbot"  // registers http:// and https://
	_ "github.com/botarena/botarena/agents/policy"   // registers policy:
)

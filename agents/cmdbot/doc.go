// Package cmdbot runs BattleBots command-line bots, as the original
// control program runs them: it registers the agent scheme "cmd:COMMAND"
// with [agents.RegisterScheme] ([Bot], [Parse]). Every process a bot's run
// starts is killed when the run ends, whether it stayed in the bot's
// process group or not (setsid, a double fork), and [MaxCommandOutput] of
// a bot's stdout is kept; [Bot] says how.
package cmdbot

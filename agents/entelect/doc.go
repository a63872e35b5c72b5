// Package entelect plays Entelect Challenge bot folders (bot.json;
// Bomberman 2016 and Battleships 2017) in botarena's games: it registers
// the agent scheme "dir:PATH" with [agents.RegisterScheme]. See [Bot] and
// [NewBot] for the commands per BotType, the round folders (the
// round-level files included, with or without a replay folder), the copy
// of the bot folder each match runs from, the time limit, the penalties
// and the problem lines.
//
// Such agents start processes and allocate in Act, hold files (they
// implement io.Closer), and take their harness settings from
// [agents.ExternalOptions]. Every process a bot's run starts is killed
// when the run ends, whether it stayed in the bot's process group or not
// (setsid, a double fork): on Linux through a cgroup of the run's own
// where one can be made, else by walking /proc for the run's processes
// ([proctree.RunEnv]). What is read from a bot is capped, keeping what the
// original harness made of it: [MaxCommandFile] of move.txt, place.txt and
// command.txt, [MaxBotJSON] of bot.json.
package entelect

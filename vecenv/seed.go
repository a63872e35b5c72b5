package vecenv

import "github.com/botarena/botarena/env"

// Seeding. Every random choice of a pool comes from the pool seed through
// these functions, built on env's one seed derivation ([env.MixSeed],
// [env.AgentSeed]), so an env's trajectory depends only on the pool seed,
// its index and the actions of its rows, never on the worker count or
// schedule, and an episode with Reset seed S plays like `botarena play
// --seed S` with the same agents.

// EnvSeed returns the base seed of env index envIndex of a pool seeded with
// poolSeed: env.MixSeed(poolSeed, envIndex).
func EnvSeed(poolSeed uint64, envIndex int) uint64 { return env.MixSeed(poolSeed, uint64(envIndex)) }

// EpisodeSeed returns the seed the pool passes to [env.Env.Reset] for
// episode number episode (0 for the first episode after [Pool.Reset] at
// creation, then counting up) of env index envIndex:
// env.MixSeed(EnvSeed, episode).
func EpisodeSeed(poolSeed uint64, envIndex, episode int) uint64 {
	return env.MixSeed(EnvSeed(poolSeed, envIndex), uint64(episode))
}

// OpponentSeed returns the seed the pool passes to the Reset of the
// opponent playing seat in the given episode of env index envIndex:
// [env.AgentSeed] of the episode's seed, as every match runner seeds its
// agents.
func OpponentSeed(poolSeed uint64, envIndex, episode, seat int) uint64 {
	return env.AgentSeed(EpisodeSeed(poolSeed, envIndex, episode), seat)
}

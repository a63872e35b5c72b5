package vecenv

// Seeding. Every random choice of a pool comes from the pool seed through
// these functions, so an env's trajectory depends only on the pool seed, its
// index and the actions of its rows, never on the worker count or schedule.

// splitmix64 is one step of Vigna's SplitMix64 generator applied to x: a
// bijective 64-bit mix with good avalanche.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// mix derives a seed from a parent seed and an index.
func mix(parent, index uint64) uint64 { return splitmix64(parent ^ splitmix64(index)) }

// opponentSalt separates opponent seeds from env seeds derived from the
// same episode seed.
const opponentSalt = 0x6f70706f6e656e74 // "opponent"

// EnvSeed returns the base seed of env index env of a pool seeded with
// poolSeed: SplitMix64(poolSeed XOR SplitMix64(env)).
func EnvSeed(poolSeed uint64, env int) uint64 { return mix(poolSeed, uint64(env)) }

// EpisodeSeed returns the seed the pool passes to [env.Env.Reset] for
// episode number episode (0 for the first episode after [Pool.Reset] at
// creation, then counting up) of env index env:
// SplitMix64(EnvSeed XOR SplitMix64(episode)).
func EpisodeSeed(poolSeed uint64, env, episode int) uint64 {
	return mix(EnvSeed(poolSeed, env), uint64(episode))
}

// OpponentSeed returns the seed the pool passes to [Opponent.Reset] for the
// opponent playing seat in the given episode of env index env:
// SplitMix64(EpisodeSeed XOR opponentSalt XOR SplitMix64(seat)).
func OpponentSeed(poolSeed uint64, env, episode, seat int) uint64 {
	return mix(EpisodeSeed(poolSeed, env, episode)^opponentSalt, uint64(seat))
}

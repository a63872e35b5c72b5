package env

// Seeding. Every seed of botarena derives from a user's seed through these
// functions, so that one seed means one game wherever it is played: an
// episode of a pool whose Reset seed is S, `botarena play --seed S`, a
// league or match-service game of seed S and the web viewer's match of seed
// S deal the same cards and give the agents the same seeds.

// SplitMix64 is one step of Vigna's SplitMix64 generator applied to x: a
// bijective 64-bit mix with good avalanche.
func SplitMix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// MixSeed derives the seed of child index of a parent seed:
// SplitMix64(parent XOR SplitMix64(index)). Pools derive env and episode
// seeds with it, leagues their games' seeds.
func MixSeed(parent, index uint64) uint64 { return SplitMix64(parent ^ SplitMix64(index)) }

// agentSalt separates agent seeds from the other seeds derived from the
// same game seed.
const agentSalt = 0x6f70706f6e656e74 // "opponent"

// AgentSeed returns the seed given to [Agent.Reset] for the agent playing
// seat in a game whose env was Reset with seed:
// MixSeed(seed XOR agentSalt, seat). Pools seed their opponents with it,
// and play, tournaments, leagues, the match service and the viewer seed
// every agent with it.
func AgentSeed(seed uint64, seat int) uint64 { return MixSeed(seed^agentSalt, uint64(seat)) }

package agents

// SeatSeed derives the seed of seat's agent from a match seed (SplitMix64
// of the seed and the seat), so that agents and the env draw unrelated
// numbers. botarena play, its tournaments and the web viewer seed agents
// with it, so that a match of one seed plays the same everywhere.
func SeatSeed(seed uint64, seat int) uint64 {
	z := seed + uint64(seat+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

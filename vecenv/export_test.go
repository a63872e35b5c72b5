package vecenv

// Chunks returns how many chunks p splits each batch into.
func Chunks(p *Pool) int { return len(p.d.chunks) }

// ForceWorkers makes every later batch of p wake f() workers (clamped to
// 1..Workers), the caller included, instead of the count the pool chooses.
func ForceWorkers(p *Pool, f func() int) { p.d.force = f }

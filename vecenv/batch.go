package vecenv

import "github.com/botarena/botarena/env"

// BatchOpponent is an [env.Agent] whose actions can be computed together
// with those of other opponents, such as a neural policy that evaluates one
// network over many observations at once.
//
// In each Step, the worker that takes a chunk of envs (see the package
// documentation) gathers, for that chunk, the seats of all the
// BatchOpponents that share one [Batcher] (envs that reset in this step
// instead of stepping are left out), computes their actions with one
// [BatchWorker.ActBatch] call, and then steps the chunk's envs with them. The pool
// does not call Act on a BatchOpponent whose Batcher is not nil; it still
// calls Reset at every episode start, as for any opponent.
type BatchOpponent interface {
	env.Agent
	// Batcher returns the batcher this opponent's actions are computed
	// with. Opponents returning the same Batcher (compared with ==, so it
	// must be a comparable value, typically a pointer) are batched
	// together. A nil Batcher means that the opponent plays through Act.
	Batcher() Batcher
}

// Batcher makes the per-worker state for computing [BatchOpponent] actions.
//
// A Batcher may be shared by several pools and must be safe for concurrent
// use.
type Batcher interface {
	// NewBatchWorker returns the state one worker of a pool uses for
	// batches of at most maxSeats seats of envs of spec. A pool calls it
	// once per worker when it first meets an opponent of this batcher.
	NewBatchWorker(spec *env.Spec, maxSeats int) BatchWorker
}

// BatchWorker computes the actions of a batch of [BatchOpponent] seats.
//
// A BatchWorker belongs to one worker goroutine of one pool: the pool never
// calls it concurrently, but successive calls may come from different
// goroutines (with a happens-before edge between them), so it must not
// rely on goroutine identity.
type BatchWorker interface {
	// ActBatch sets dst[k], for every k, to the action of opps[k] (a
	// BatchOpponent of this worker's Batcher) for seat seats[k] of
	// envs[k]: exactly what opps[k].Act(envs[k], seats[k]) returns, calls
	// in order of k, so that results do not depend on how the pool splits
	// its envs into batches. The slices have equal lengths of at most
	// maxSeats; an env may appear once per seat. ActBatch reads the envs
	// and must not modify them, keep the slices, or allocate once warm.
	ActBatch(dst []int32, envs []env.Env, seats []int, opps []env.Agent)
}

// batchGroup is one worker's share of one Batcher: the gather buffers for
// one ActBatch call over the chunk the worker steps. Which opponents a batcher
// plays can change at every episode start (see [Pool.SetOpponents]), so the
// groups are gathered afresh in every Step; the buffers hold every
// opponent seat of the range.
type batchGroup struct {
	bw    BatchWorker
	n     int // seats gathered in this Step
	envs  []env.Env
	seats []int
	opps  []env.Agent
	dst   []int32
	at    []int // for each gathered seat, its index into the worker's oppActs
}

// batchers returns the distinct non-nil Batchers of opps, in order of first
// appearance, and for each opponent its batcher's index or -1.
func batchers(opps []env.Agent) ([]Batcher, []int) {
	var list []Batcher
	group := make([]int, len(opps))
	for o, opp := range opps {
		group[o] = -1
		bo, ok := opp.(BatchOpponent)
		if !ok {
			continue
		}
		b := bo.Batcher()
		if b == nil {
			continue
		}
		g := -1
		for i, x := range list {
			if x == b {
				g = i
				break
			}
		}
		if g < 0 {
			g = len(list)
			list = append(list, b)
		}
		group[o] = g
	}
	return list, group
}

// addBatchGroup gives worker w a batch group for p.batchers[g] unless it
// has one, with room for every opponent seat of w.span envs, and its
// opponent-action buffer. It runs while the workers are idle.
func (p *Pool) addBatchGroup(w *worker, g int) {
	for len(w.groupOf) <= g {
		w.groupOf = append(w.groupOf, -1)
	}
	if w.groupOf[g] >= 0 {
		return
	}
	nOpp := len(p.oppSeats)
	n := w.span * nOpp
	if w.oppActs == nil {
		w.oppActs = make([]int32, n)
	}
	w.groupOf[g] = len(w.groups)
	w.groups = append(w.groups, batchGroup{
		bw:    p.batchers[g].NewBatchWorker(p.spec, n),
		envs:  make([]env.Env, n),
		seats: make([]int, n),
		opps:  make([]env.Agent, n),
		dst:   make([]int32, n),
		at:    make([]int, n),
	})
}

// actBatches computes, on worker w, the actions of every batched opponent
// of envs lo..hi-1 (at most w.span, lo = w.base) that step in this batch,
// into w.oppActs: one ActBatch call per Batcher, over its seats in env
// order.
func (p *Pool) actBatches(w *worker, lo, hi int) {
	p.clearBatches(w)
	for i := lo; i < hi; i++ {
		p.gatherBatches(w, i)
	}
	p.runBatches(w)
}

// clearBatches empties w's batch groups before a gather.
func (p *Pool) clearBatches(w *worker) {
	for gi := range w.groups {
		w.groups[gi].n = 0
	}
}

// gatherBatches adds env i's batched opponent seats to w's batch groups,
// unless the env resets rather than steps in this batch.
func (p *Pool) gatherBatches(w *worker, i int) {
	nOpp := len(p.oppSeats)
	base := w.base * nOpp
	s := &p.slots[i]
	if s.pending {
		return // reset, not stepped, in this batch
	}
	for j, seat := range p.oppSeats {
		o := i*nOpp + j
		gb := p.oppGroup[o]
		if gb < 0 {
			continue
		}
		g := &w.groups[w.groupOf[gb]]
		g.envs[g.n] = s.e
		g.seats[g.n] = seat
		g.opps[g.n] = p.opps[o]
		g.at[g.n] = o - base
		g.n++
	}
}

// runBatches calls ActBatch once per non-empty batch group of w and puts
// the actions in w.oppActs.
func (p *Pool) runBatches(w *worker) {
	for gi := range w.groups {
		g := &w.groups[gi]
		n := g.n
		if n == 0 {
			continue
		}
		g.bw.ActBatch(g.dst[:n], g.envs[:n], g.seats[:n], g.opps[:n])
		for k, a := range g.dst[:n] {
			w.oppActs[g.at[k]] = a
		}
	}
}

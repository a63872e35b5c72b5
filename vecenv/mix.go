package vecenv

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/botarena/botarena/env"
)

// OpponentChoice is one entry of an opponent seat's mixture (see
// [Pool.SetOpponents]): at the start of every episode each env draws one
// choice per opponent seat with probability Weight / (sum of the weights).
type OpponentChoice struct {
	// Name identifies the choice in [Stats] and [Pool.Opponent], and across
	// SetOpponents calls: a choice whose Name the seat already has keeps
	// that choice's opponent instances and statistics. Names of one seat
	// must be unique; "" is a valid name.
	Name string
	// Factory makes the choice's opponent, one instance per env, on first
	// use (see [Pool.SetOpponents]).
	Factory env.AgentFactory
	// Weight is the relative probability of the choice, finite and at
	// least 0; the weights of a seat must have a positive sum.
	Weight float64
}

// choiceSalt separates opponent-choice draws from the other seeds derived
// from an episode seed.
const choiceSalt = 0x63686f6963650a00 // "choice"

// oppChoice is one choice of a seat's mixture and its per-env state.
type oppChoice struct {
	name    string
	factory env.AgentFactory
	weight  float64 // 0 once retired
	retired bool    // removed by SetOpponents; closed once no episode uses it
	inst    []env.Agent
	group   []int // inst[i]'s index in Pool.batchers, or -1
	created int   // non-nil entries of inst
	// acc counts, per env, the finished episodes played against the
	// choice and the invalid actions of the choice's seat in them;
	// written only by the env's worker.
	acc []outcomes
}

// seatMix is the opponent mixture of one opponent seat.
type seatMix struct {
	seat    int
	choices []*oppChoice
	cum     []float64 // cumulative weights, one per choice
	only    int32     // the index of the only choice with a positive weight, or -1
}

// pick returns the index of the choice drawn for the episode seeded with
// episodeSeed. It does not allocate.
func (m *seatMix) pick(episodeSeed uint64) int32 {
	if m.only >= 0 {
		return m.only
	}
	total := m.cum[len(m.cum)-1]
	u := float64(env.MixSeed(episodeSeed^choiceSalt, uint64(m.seat))>>11) / (1 << 53) * total
	for c, x := range m.cum {
		if u < x && (c == 0 || x > m.cum[c-1]) {
			return int32(c)
		}
	}
	// Rounding: the last choice with a positive weight.
	for c := len(m.cum) - 1; c > 0; c-- {
		if m.cum[c] > m.cum[c-1] {
			return int32(c)
		}
	}
	return 0
}

// reweigh recomputes cum and only from the choices' weights.
func (m *seatMix) reweigh() {
	m.cum = m.cum[:0]
	m.only = -1
	sum, positive := 0.0, 0
	for c, ch := range m.choices {
		sum += ch.weight
		m.cum = append(m.cum, sum)
		if ch.weight > 0 {
			positive++
			m.only = int32(c)
		}
	}
	if positive != 1 {
		m.only = -1
	}
}

// initMixes sets up one single-choice mixture per opponent seat from the
// instances New made, named by names.
func (p *Pool) initMixes(opps []env.Agent, names map[int]string, factories map[int]env.AgentFactory) {
	n, nOpp := len(p.slots), len(p.oppSeats)
	p.mixes = make([]seatMix, nOpp)
	p.cur = make([]int32, n*nOpp)
	p.next = make([]int32, n*nOpp)
	for j, seat := range p.oppSeats {
		ch := &oppChoice{
			name: names[seat], factory: factories[seat], weight: 1,
			inst: make([]env.Agent, n), group: make([]int, n), created: n, acc: make([]outcomes, n),
		}
		for i := range n {
			ch.inst[i] = opps[i*nOpp+j]
			ch.group[i] = p.oppGroup[i*nOpp+j]
		}
		p.mixes[j] = seatMix{seat: seat, choices: []*oppChoice{ch}}
		p.mixes[j].reweigh()
	}
}

// SetOpponents replaces the opponent mixture of seat, a seat that is not a
// learner seat: from each env's next episode start on, the env plays that
// seat with one of choices, drawn with probability proportional to Weight
// from the episode's seed. Episodes in progress finish with the opponent
// they started with. Trajectories so depend only on the pool seed, the
// actions and the sequence of SetOpponents calls between Reset and Step
// calls, for any worker count.
//
// A choice named like one the seat already has (still in use or removed
// earlier but not yet closed) keeps that choice's opponent instances and
// statistics, and takes the new Factory and Weight. A new choice's Factory
// is called once now, for the first env that draws it (or env 0), so that
// a factory that fails is reported here; further instances, one per env,
// are made on first use, from the goroutine that calls Reset or Step,
// before any env is stepped (the first use may allocate; once every env
// has an instance of each choice it draws, Step does not). Instances of a
// choice that is no longer listed are closed, if they implement io.Closer,
// once no env plays an episode against them; their statistics stay until
// [Pool.ResetStats].
//
// Errors are [*ConfigError] values naming "SetOpponents[seat]" (an invalid
// seat, no choices, a nil factory, a repeated name, a negative or
// non-finite weight, weights summing to 0) or wrap the factory's error;
// the pool is then unchanged. It returns [ErrClosed] after Close.
func (p *Pool) SetOpponents(seat int, choices []OpponentChoice) error {
	if p.closed {
		return ErrClosed
	}
	field := fmt.Sprintf("SetOpponents[%d]", seat)
	j := -1
	for k, s := range p.oppSeats {
		if s == seat {
			j = k
		}
	}
	if j < 0 {
		return &ConfigError{Field: field, Value: seat, Reason: fmt.Sprintf("must be an opponent seat (not a learner seat) in 0..%d", p.spec.Seats-1)}
	}
	if len(choices) == 0 {
		return &ConfigError{Field: field, Value: "[]", Reason: "must list at least one choice"}
	}
	sum := 0.0
	seen := make(map[string]bool, len(choices))
	for k, c := range choices {
		switch {
		case c.Factory == nil:
			return &ConfigError{Field: fmt.Sprintf("%s[%d].Factory", field, k), Value: "nil", Reason: "must be a factory"}
		case seen[c.Name]:
			return &ConfigError{Field: fmt.Sprintf("%s[%d].Name", field, k), Value: fmt.Sprintf("%q", c.Name), Reason: "must not repeat a name"}
		case c.Weight < 0 || math.IsNaN(c.Weight) || math.IsInf(c.Weight, 0):
			return &ConfigError{Field: fmt.Sprintf("%s[%d].Weight", field, k), Value: c.Weight, Reason: "must be finite and at least 0"}
		}
		seen[c.Name] = true
		sum += c.Weight
	}
	if !(sum > 0) || math.IsInf(sum, 0) {
		return &ConfigError{Field: field, Value: sum, Reason: "weights must have a positive, finite sum"}
	}

	// Make one instance of each new choice first, so that a failing
	// factory leaves the pool unchanged.
	m := &p.mixes[j]
	n := len(p.slots)
	byName := make(map[string]int, len(m.choices))
	for c, ch := range m.choices {
		byName[ch.name] = c
	}
	fresh := make(map[string]*oppChoice)
	var added []*oppChoice
	for _, c := range choices {
		if _, ok := byName[c.Name]; ok {
			continue
		}
		o, err := newOpponent(c.Factory, p)
		if err != nil {
			return fmt.Errorf("vecenv: %s: choice %q: %w", field, c.Name, err)
		}
		ch := &oppChoice{name: c.Name, factory: c.Factory, inst: make([]env.Agent, n), group: make([]int, n), acc: make([]outcomes, n)}
		ch.inst[0], ch.created = o, 1 // moved to the first env that draws it below
		fresh[c.Name] = ch
		added = append(added, ch)
	}

	for _, ch := range m.choices {
		ch.weight, ch.retired = 0, true
	}
	for _, c := range choices {
		if k, ok := byName[c.Name]; ok {
			ch := m.choices[k]
			ch.factory, ch.weight, ch.retired = c.Factory, c.Weight, false
			continue
		}
		ch := fresh[c.Name]
		ch.factory, ch.weight = c.Factory, c.Weight
		m.choices = append(m.choices, ch)
	}
	m.reweigh()

	// Redraw every env's next choice, and place the new choices' first
	// instances with the first env that draws them.
	nOpp := len(p.oppSeats)
	for i := range n {
		o := i*nOpp + j
		if p.slots[i].planOpps && !m.choices[p.next[o]].retired {
			continue // planned, and still a choice
		}
		c := m.pick(env.MixSeed(p.slots[i].seed, uint64(p.slots[i].episode+1)))
		p.next[o] = c
		ch := m.choices[c]
		if fresh[ch.name] == ch && ch.inst[i] == nil {
			ch.inst[i], ch.inst[0] = ch.inst[0], nil
			delete(fresh, ch.name)
		}
	}
	for _, ch := range added {
		for i, o := range ch.inst {
			if o != nil {
				ch.group[i] = p.groupOf(o, i)
			}
		}
	}
	p.mixDirty = true
	return nil
}

// newOpponent calls f for p's spec, turning a nil result into an error.
func newOpponent(f env.AgentFactory, p *Pool) (env.Agent, error) {
	o, err := f(p.spec)
	if err == nil && o == nil {
		err = errors.New("factory returned a nil env.Agent")
	}
	return o, err
}

// groupOf returns the index in p.batchers of o's Batcher (adding it, and
// giving the worker that owns env i its batch group) or -1 when o plays
// through Act. It runs on the caller's goroutine between batches.
func (p *Pool) groupOf(o env.Agent, i int) int {
	bo, ok := o.(BatchOpponent)
	if !ok {
		return -1
	}
	b := bo.Batcher()
	if b == nil {
		return -1
	}
	g := -1
	for k, x := range p.batchers {
		if x == b {
			g = k
			break
		}
	}
	if g < 0 {
		g = len(p.batchers)
		p.batchers = append(p.batchers, b)
	}
	for _, w := range p.d.workers { // any worker may step env i
		p.addBatchGroup(w, g)
	}
	return g
}

// prepare runs on the caller's goroutine before a batch and after
// SetOpponents: it makes the instances of every env's next choice that do
// not exist yet and closes the removed choices that no episode plays
// against any more. It does nothing once no mixture is waiting for either.
func (p *Pool) prepare() error {
	if !p.mixDirty {
		return nil
	}
	nOpp := len(p.oppSeats)
	dirty := false
	for j := range p.mixes {
		m := &p.mixes[j]
		for i := range p.slots {
			o := i*nOpp + j
			ch := m.choices[p.next[o]]
			if ch.inst[i] != nil {
				continue
			}
			op, err := newOpponent(ch.factory, p)
			if err != nil {
				return fmt.Errorf("vecenv: opponent %q of seat %d, env %d: %w", ch.name, m.seat, i, err)
			}
			ch.inst[i] = op
			ch.group[i] = p.groupOf(op, i)
			ch.created++
		}
		for c, ch := range m.choices {
			switch {
			case ch.retired && ch.created > 0:
				if p.inUse(j, c) {
					dirty = true
					continue
				}
				closeAll(ch.inst)
				clear(ch.inst)
				ch.created = 0
			case ch.weight > 0 && ch.created < len(p.slots):
				dirty = true
			}
		}
	}
	p.mixDirty = dirty
	return nil
}

// inUse reports whether an env's current episode plays choice c at
// opponent seat index j.
func (p *Pool) inUse(j, c int) bool {
	nOpp := len(p.oppSeats)
	for i := range p.slots {
		if p.cur[i*nOpp+j] == int32(c) && p.slots[i].episode >= 0 {
			return true
		}
	}
	return false
}

// closeAll closes the opponents that implement io.Closer.
func closeAll(opps []env.Agent) {
	for _, o := range opps {
		if c, ok := o.(io.Closer); ok {
			c.Close()
		}
	}
}

// startOpponents puts the opponents of env i's new episode (drawn before,
// in next) in place and draws those of the episode after. It runs on the
// env's worker and does not allocate. A drawn choice without an instance
// for env i is one with a positive weight and fewer instances than envs,
// which keeps mixDirty set, so prepare makes it before the next batch.
func (p *Pool) startOpponents(s *slot, i int) {
	nOpp := len(p.oppSeats)
	nextSeed := env.MixSeed(s.seed, uint64(s.episode+1))
	for j := range p.mixes {
		m := &p.mixes[j]
		o := i*nOpp + j
		c := p.next[o]
		ch := m.choices[c]
		p.cur[o] = c
		p.opps[o] = ch.inst[i]
		p.oppGroup[o] = ch.group[i]
		p.next[o] = m.pick(nextSeed)
	}
}

// Opponent returns the name of the choice playing seat of env i in the
// current episode ("" for a seat given only by Config.Opponents without
// a name, and for learner seats). Like every method, it must not run
// concurrently with Step.
func (p *Pool) Opponent(i, seat int) string {
	for j, s := range p.oppSeats {
		if s == seat {
			return p.mixes[j].choices[p.cur[i*len(p.oppSeats)+j]].name
		}
	}
	return ""
}

// recordChoices adds env i's ended episode to the statistics of the
// choices its opponents were drawn from. Without learner seats there is
// no side to win or lose: only episodes, draws and invalid actions are
// counted.
func (p *Pool) recordChoices(e env.Env, i int, winner int, draw bool) {
	nOpp := len(p.oppSeats)
	won := false
	for _, seat := range p.learners {
		won = won || seat == winner
	}
	for j := range p.mixes {
		a := &p.mixes[j].choices[p.cur[i*nOpp+j]].acc[i]
		a.episodes++
		a.invalid += int64(e.Invalid(p.mixes[j].seat))
		switch {
		case draw:
			a.draws++
		case won:
			a.wins++
		case len(p.learners) > 0:
			a.losses++
		}
	}
}

// compactChoices drops the choices that are removed, closed and have no
// statistics left, renumbering cur and next. It runs between batches.
func (p *Pool) compactChoices() {
	nOpp := len(p.oppSeats)
	for j := range p.mixes {
		m := &p.mixes[j]
		remap := make([]int32, len(m.choices))
		kept := m.choices[:0]
		for c, ch := range m.choices {
			if ch.retired && ch.created == 0 {
				remap[c] = -1
				continue
			}
			remap[c] = int32(len(kept))
			kept = append(kept, ch)
		}
		clear(m.choices[len(kept):])
		m.choices = kept
		for i := range p.slots {
			o := i*nOpp + j
			if r := remap[p.cur[o]]; r >= 0 {
				p.cur[o] = r
			} else {
				p.cur[o] = p.next[o] // not in use: only read for a started episode
			}
			p.next[o] = remap[p.next[o]]
		}
		m.reweigh()
	}
}

// closeChoices closes every opponent instance of every choice.
func (p *Pool) closeChoices() {
	for j := range p.mixes {
		for _, ch := range p.mixes[j].choices {
			closeAll(ch.inst)
		}
	}
}

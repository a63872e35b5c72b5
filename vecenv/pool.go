package vecenv

import (
	"errors"
	"fmt"
	"slices"

	"github.com/botarena/botarena/env"
)

// Errors returned (wrapped, with details) by [Pool.Step] and [Pool.Reset].
var (
	// ErrClosed: the pool was closed.
	ErrClosed = errors.New("vecenv: pool is closed")
	// ErrNotReset: Step was called before the first Reset.
	ErrNotReset = errors.New("vecenv: Step before the first Reset")
	// ErrActions: the actions passed to Step have the wrong length or a
	// value outside 0..Spec().Actions-1.
	ErrActions = errors.New("vecenv: invalid actions")
)

// Pool steps NumEnvs envs of one game on persistent worker goroutines and
// writes every learner row of its [env.Buffers] in place. See the package
// documentation for the row layout, autoreset and seeding.
//
// A Pool is not safe for concurrent use: one goroutine at a time calls its
// methods (the workers run only inside Reset and Step). Close stops the
// workers; a pool that is not closed keeps its goroutines alive.
//
// If an env or opponent panics inside Step or Reset, the panic is
// re-raised on the caller's goroutine once every worker has stopped; the
// pool is then in an undefined state and should only be closed.
type Pool struct {
	spec      *env.Spec
	mode      AutoReset
	maxSteps  int32 // MaxEpisodeSteps; 0 for none
	observer  Observer
	poolSeed  uint64
	learners  []int
	oppSeats  []int
	tensorLen []int // bytes of one row of each tensor
	rows      int
	// direct: every seat is a learner, in seat order (learners[k] == k for
	// all Spec.Seats seats), so a step passes its rows' rewards and flags
	// to env.Step as they are (see stepEnvs).
	direct bool

	slots []slot
	// opps[env*len(oppSeats)+j] plays oppSeats[j] in env's current
	// episode: an instance of choice cur[...] of mixes[j].
	opps []env.Agent
	// batchers are the distinct Batchers of the BatchOpponents the pool
	// has made (it only grows); oppGroup[o] is opps[o]'s index in
	// batchers, or -1 for an opponent that plays through Act.
	batchers []Batcher
	oppGroup []int
	mixes    []seatMix // one per opponent seat
	cur      []int32   // [env*len(oppSeats)+j]: the choice of mixes[j] playing now
	next     []int32   // [env*len(oppSeats)+j]: the choice drawn for the next episode
	mixDirty bool      // prepare has instances to make or choices to close
	ret      []float64 // episode return so far, [env*len(learners)+k]
	acc      []seatAcc // finished-episode statistics, [env*len(learners)+k]
	out      rows
	envEnded []bool // per env: its episode ended in the last Step

	d       dispatcher
	actions []int32 // the batch being stepped; read by the workers
	started bool
	closed  bool
}

// slot is one env's bookkeeping. Only the worker owning the env touches it
// during a batch.
type slot struct {
	e       env.Env
	upd     ObsUpdater  // e, when it implements ObsUpdater
	mupd    MaskUpdater // e, when it implements MaskUpdater
	seed    uint64      // EnvSeed
	episode int32       // -1 before the first Reset
	steps   int32       // steps of the current episode
	pending bool        // the episode ended; reset at the next Step (unless held)
	hold    bool        // Hold: start no episode until Plan
	// planned: Plan fixed the next episode's seed (planSeed) and, when
	// planOpps, its opponents (in Pool.next) and their seeds (planOppSeeds,
	// when not nil).
	planned      bool
	planOpps     bool
	planSeed     uint64
	planOppSeeds []uint64
}

// rows are the output rows a batch writes: the pool's buffers, and the
// same-step final observations and the Ended flags with the same layout.
// Keeping them apart from the env bookkeeping lets a later async mode write
// a batch of any envs into rows of a smaller buffer.
//
// views has one entry per row (see [rowView]): where the row's
// observation and mask lie and which versions they show. wideObs holds the
// rows' observation views when the spec has more than inlineObs tensors
// (nil otherwise): wideObs[r*T+t] is row r's slice of Buffers.Obs[t].
// finalRows are the same views of final (nil without final).
type rows struct {
	*env.Buffers
	final     [][]byte // SameStep only
	ended     []bool
	views     []rowView
	wideObs   [][]byte
	finalRows [][]byte
}

// inlineObs is how many tensor views a [rowView] holds itself: each game's
// observation has one or two tensors.
const inlineObs = 2

// rowView is one row of [rows]: its views of the buffers, made once so
// that a step does not slice every row's tensors again, and the versions
// of what they show, together in one 88-byte entry that a step reads and
// writes as one.
//
// mask is the row's slice of Buffers.Mask, and tensors its slices of the
// tensors of Buffers.Obs when there are at most inlineObs of them (see
// rows.obs).
//
// ver is the version of its env's state that the row's observation shows
// (see [ObsUpdater]), or 0 when unknown. It may be set only while the row
// keeps its env and seat from step to step and nothing else writes it;
// whoever else writes a row's observation, or gives the row to another
// env, sets it to 0 (see rows.forget). maskVer is the same for the row's
// mask (see [MaskUpdater]), under the same rules.
type rowView struct {
	mask    []uint8
	ver     uint64
	maskVer uint64
	tensors [inlineObs][]byte
}

// obs returns the observation views of row row (its rowView v), T
// tensors, in the form [env.Env.WriteObs] takes.
func (r *rows) obs(v *rowView, row, T int) [][]byte {
	if T <= inlineObs {
		return v.tensors[:T:T]
	}
	return r.wideObs[row*T : (row+1)*T : (row+1)*T]
}

// versioned returns rows over b with every row's observation and mask
// version unknown (0): their next writes are full ones.
func versioned(b *env.Buffers, final [][]byte, ended []bool) rows {
	n := len(b.Env)
	out := rows{Buffers: b, final: final, ended: ended, views: make([]rowView, n)}
	T := len(b.Spec.Obs)
	obs := rowViews(b.Spec, b.Obs, n)
	if T > inlineObs {
		out.wideObs = obs
	}
	for r, a := 0, b.Spec.Actions; r < n; r++ {
		v := &out.views[r]
		v.mask = b.Mask[r*a : (r+1)*a : (r+1)*a]
		if T <= inlineObs {
			copy(v.tensors[:], obs[r*T:(r+1)*T])
		}
	}
	if final != nil {
		out.finalRows = rowViews(b.Spec, final, n)
	}
	return out
}

// rowViews returns the views of n rows of obs, tensors laid out by spec:
// element r*T+t is row r's slice of obs[t].
func rowViews(spec *env.Spec, obs [][]byte, n int) [][]byte {
	T := len(spec.Obs)
	v := make([][]byte, n*T)
	for t, o := range spec.Obs {
		m := o.Bytes()
		for r := range n {
			v[r*T+t] = obs[t][r*m : (r+1)*m : (r+1)*m]
		}
	}
	return v
}

// forget makes the observation and mask versions of rows lo..hi-1
// unknown, when something other than the rows' env wrote them or will.
func (r *rows) forget(lo, hi int) {
	for k := range r.views[lo:hi] {
		v := &r.views[lo+k]
		v.ver, v.maskVer = 0, 0
	}
}

// New makes a pool from cfg: it validates cfg, makes NumEnvs envs and their
// opponents, and starts the worker goroutines. The envs are not reset:
// call [Pool.Reset] before the first Step. Errors name the Config field and
// the value; an unknown game wraps [env.ErrUnknownGame], and invalid fields
// are [*ConfigError] values.
func New(cfg Config) (*Pool, error) {
	v, err := validate(cfg)
	if err != nil {
		return nil, err
	}
	L := len(v.learners)
	p := &Pool{
		spec:     v.spec,
		mode:     v.AutoReset,
		maxSteps: int32(v.MaxEpisodeSteps),
		observer: v.Observer,
		poolSeed: v.Seed,
		learners: v.learners,
		oppSeats: v.oppSeats,
		rows:     v.NumEnvs * L,
		slots:    make([]slot, v.NumEnvs),
		opps:     v.opps,
		ret:      make([]float64, v.NumEnvs*L),
		acc:      make([]seatAcc, v.NumEnvs*L),
		envEnded: make([]bool, v.NumEnvs),
	}
	for _, t := range p.spec.Obs {
		p.tensorLen = append(p.tensorLen, t.Bytes())
	}
	p.direct = L == p.spec.Seats
	for k, seat := range p.learners {
		p.direct = p.direct && seat == k
	}
	for i, e := range v.envs {
		upd, _ := e.(ObsUpdater)
		mupd, _ := e.(MaskUpdater)
		p.slots[i] = slot{e: e, upd: upd, mupd: mupd, seed: EnvSeed(v.Seed, i), episode: -1}
	}
	own := p.NewOutput(p.rows)
	p.out = versioned(own.Buffers, own.FinalObs, own.Ended)
	for r := range p.rows {
		p.out.Env[r] = int32(r / L)
		p.out.Seat[r] = int32(p.learners[r%L])
	}
	p.batchers, p.oppGroup = batchers(p.opps)
	p.initMixes(slices.Clone(p.opps), v.OpponentNames, v.Opponents)
	for i := range p.slots {
		for j := range p.mixes {
			p.next[i*len(p.oppSeats)+j] = p.mixes[j].pick(0)
		}
	}
	p.d.start(p, v.Workers, v.auto)
	return p, nil
}

// Spec returns the game's spec. It is shared and must not be modified.
func (p *Pool) Spec() *env.Spec { return p.spec }

// NumEnvs returns the number of envs.
func (p *Pool) NumEnvs() int { return len(p.slots) }

// Rows returns the number of learner rows, NumEnvs × len(LearnerSeats) (0
// in a pool without learner seats).
func (p *Pool) Rows() int { return p.rows }

// Workers returns the number of workers (the caller's goroutine included).
func (p *Pool) Workers() int { return len(p.d.workers) }

// StepWorkers returns how many workers the last Step woke, the caller's
// goroutine included: Workers, or fewer when the pool chooses (Config.Workers
// 0) or when its workers were too late to help (see [Config]). It is 1
// before the first Step.
func (p *Pool) StepWorkers() int { return p.d.used }

// LearnerSeats returns a copy of the learner seats in row order.
func (p *Pool) LearnerSeats() []int { return append([]int(nil), p.learners...) }

// AutoReset returns the autoreset mode.
func (p *Pool) AutoReset() AutoReset { return p.mode }

// Buffers returns the pool's step buffers: Rows rows, row =
// env*len(LearnerSeats) + k for seat LearnerSeats[k]. Env and Seat are
// fixed; Obs, Mask, Rewards, Terminated, Truncated and Episode are
// overwritten in place by every Reset and Step, so readers must finish with
// them (or copy them) before the next call. The returned pointer and slices
// stay the same for the life of the pool. Callers must not modify them:
// Step rewrites only the bytes of an observation row that changed (see
// [ObsUpdater]), so a modified row stays modified where nothing changed
// until the next Reset.
func (p *Pool) Buffers() *env.Buffers { return p.out.Buffers }

// Ended returns one flag per row: true when the row's env ended an episode
// in the last Step (every row of that env then has Terminated or Truncated
// set). It is all false after Reset and, in [NextStep] mode, on the step
// that resets the env. Like [Pool.Buffers], it is overwritten in place.
//
// Ended tells an episode's end apart from a seat that is out while its env
// plays on: with several learner seats per env, a seat eliminated early keeps
// Terminated set, with reward 0, until the env's episode ends.
func (p *Pool) Ended() []bool { return p.out.ended }

// EnvsEnded returns one flag per env: true when the env ended an episode in
// the last Step, so that [Pool.Env] shows its final state until the next
// Step (in [NextStep] mode; [SameStep] has reset it already). It is all
// false after Reset. Unlike [Pool.Ended] it has an entry per env even in a
// pool without learner seats. Like the buffers, it is overwritten in
// place.
func (p *Pool) EnvsEnded() []bool { return p.envEnded }

// FinalObs returns, in [SameStep] mode, the final observations of the
// episodes that ended in the last Step: one slice per tensor of Spec().Obs
// laid out like Buffers().Obs, valid for the rows where Ended is true (other
// rows hold stale data). It is nil in [NextStep] mode, where the final
// observation is in Buffers().Obs. It is overwritten in place by Step.
func (p *Pool) FinalObs() [][]byte { return p.out.final }

// Env returns env i, for rendering or inspection between steps. The caller
// must not modify it or use it while Step or Reset runs.
func (p *Pool) Env(i int) env.Env { return p.slots[i].e }

// Reset starts a new episode in every env not held by [Pool.Hold] (Episode
// ids count up by one; the first Reset gives episode 0; a [Pool.Plan] sets
// the episode's seed and opponents) and writes every row: the first observation
// and mask, reward 0, Terminated, Truncated and Ended false. Episodes in
// progress are dropped without counting in [Pool.Stats]. It returns
// [ErrClosed] after Close, or the error of an opponent factory making an
// instance of a drawn [OpponentChoice] (see [Pool.SetOpponents]) before
// anything is reset.
func (p *Pool) Reset() error {
	if p.closed {
		return ErrClosed
	}
	if err := p.prepare(); err != nil {
		return err
	}
	p.out.forget(0, len(p.out.views)) // Reset rewrites every row in full
	p.d.run(opReset)
	p.started = true
	return nil
}

// Step applies actions, one per row in row order (Rows of them, each in
// 0..Spec().Actions-1), steps every env with the opponents' actions filled
// in, and writes every row (see [AutoReset] for episode ends). Actions that
// are in range but illegal are passed to the game, which counts them. The
// actions slice is only read during the call.
//
// Step checks its input before stepping anything and returns an error
// wrapping [ErrActions] (naming the row and value), [ErrNotReset] or
// [ErrClosed], or the error of an opponent factory making an instance of
// a drawn [OpponentChoice]; the pool is then unchanged. After warm-up
// (including the first use of each opponent choice by each env) Step does
// not allocate, provided the envs and opponents do not.
func (p *Pool) Step(actions []int32) error {
	if p.closed {
		return ErrClosed
	}
	if !p.started {
		return ErrNotReset
	}
	if len(actions) != p.rows {
		return fmt.Errorf("%w: got %d actions, want %d (one per row: %d envs × %d learner seats)",
			ErrActions, len(actions), p.rows, len(p.slots), len(p.learners))
	}
	n := uint32(p.spec.Actions)
	if maxAction(actions) >= n {
		for r, a := range actions {
			if uint32(a) >= n {
				return fmt.Errorf("%w: action %d at row %d (env %d, seat %d) is outside 0..%d",
					ErrActions, a, r, p.out.Env[r], p.out.Seat[r], n-1)
			}
		}
	}
	if err := p.prepare(); err != nil {
		return err
	}
	p.actions = actions
	p.d.run(opStep)
	p.actions = nil
	return nil
}

// maxAction returns the largest of actions as uint32 values (a negative
// action is larger than any in range), or 0 for none: four running maxima
// without branches, so that checking a batch's actions costs a few
// instructions each.
func maxAction(actions []int32) uint32 {
	var m0, m1, m2, m3 uint32
	for len(actions) >= 4 {
		a := actions[:4:4]
		m0, m1 = max(m0, uint32(a[0])), max(m1, uint32(a[1]))
		m2, m3 = max(m2, uint32(a[2])), max(m3, uint32(a[3]))
		actions = actions[4:]
	}
	for _, a := range actions {
		m0 = max(m0, uint32(a))
	}
	return max(m0, m1, m2, m3)
}

// Close stops the worker goroutines and closes the opponents that
// implement io.Closer. Later calls of Step and Reset return
// [ErrClosed]; the buffers and statistics stay readable. Closing twice is
// fine. It always returns nil.
func (p *Pool) Close() error {
	if !p.closed {
		p.closed = true
		p.d.stopAll()
		// Opponents that hold resources (external bots' processes and
		// connections) are closed with the pool.
		p.closeChoices()
	}
	return nil
}

// stepRange steps envs lo..hi-1 of the current batch on worker w.
func (p *Pool) stepRange(w *worker, lo, hi int) {
	L := len(p.learners)
	w.base = lo
	if len(w.groups) > 0 {
		p.actBatches(w, lo, hi)
	}
	p.stepEnvs(w, &p.out, lo, hi, p.actions[lo*L:hi*L], lo*L)
}

// resetRange resets envs lo..hi-1 on worker w.
func (p *Pool) resetRange(w *worker, lo, hi int) {
	L := len(p.learners)
	for i := lo; i < hi; i++ {
		p.resetRows(w, &p.out, i, i*L)
	}
}

// stepEnvs steps envs lo..hi-1 with acts (their learner seats' actions,
// env by env, each in LearnerSeats order) and writes their rows, row0
// onwards, of out.
//
// Each env's L rows are sliced once; with every seat a learner in seat
// order (Pool.direct) env.Step writes the rewards and flags straight into
// the rows, otherwise into w's scratch, from which the learner seats' are
// copied.
func (p *Pool) stepEnvs(w *worker, out *rows, lo, hi int, acts []int32, row0 int) {
	L := len(p.learners)
	slots := p.slots[lo:hi]
	for j := range slots {
		i, s := lo+j, &slots[j]
		a := acts[:L:L]
		acts = acts[L:]
		if s.pending {
			p.envEnded[i] = false
			if !s.hold {
				p.resetRows(w, out, i, row0)
			}
			row0 += L
			continue
		}
		rewards := out.Rewards[row0 : row0+L : row0+L]
		terminated := out.Terminated[row0 : row0+len(rewards) : row0+len(rewards)]
		truncated := out.Truncated[row0 : row0+len(rewards) : row0+len(rewards)]
		// The calls below could change any field as far as the compiler
		// knows, so what is read after them is held in locals.
		e := s.e
		if p.direct {
			wacts := w.acts[:len(a)]
			copy(wacts, a)
			e.Step(wacts, rewards, terminated, truncated)
			if p.observer != nil {
				p.observer.Stepped(i, e, wacts, rewards, terminated, truncated)
			}
		} else {
			p.stepSeats(w, i, e, a, rewards, terminated, truncated)
		}
		s.steps++

		// The episode ends when the game is over, or the pool's step cap
		// ends it as a game's own round cap would (done), or no learner
		// seat is left in play. A seat in play (neither terminated nor
		// truncated) means that the game is not over (env.Env's Step
		// contract), so Done is asked only when every learner seat is
		// out, or with none.
		allOut := true
		for k, tm := range terminated {
			if !tm && !truncated[k] {
				allOut = false
				break
			}
		}
		done := (allOut && e.Done()) || (p.maxSteps > 0 && s.steps >= p.maxSteps)
		ended := done || (allOut && len(terminated) > 0)
		p.envEnded[i] = ended
		ret := p.ret[i*L : i*L+len(rewards)]
		endedRows := out.ended[row0 : row0+len(rewards)]
		for k, r := range rewards {
			ret[k] += float64(r)
			endedRows[k] = ended
		}
		if !ended {
			p.writeRows(out, s, row0)
		} else {
			p.endEpisode(s, out, i, row0, done)
		}
		row0 += L
	}
}

// stepSeats steps env e (env i) for stepEnvs when the learner seats are not
// every seat in seat order: the learners' actions acts and the opponents'
// in w's scratch, and the learner seats' rewards and flags copied from it
// into the rows' rewards, terminated and truncated.
func (p *Pool) stepSeats(w *worker, i int, e env.Env, acts []int32, rewards []float32, terminated, truncated []bool) {
	learners := p.learners[:len(acts)]
	wacts, rew, term, trunc := w.acts, w.rew, w.term, w.trunc
	for k, seat := range learners {
		wacts[seat] = acts[k]
	}
	if nOpp := len(p.oppSeats); nOpp > 0 {
		for j, seat := range p.oppSeats {
			if o := i*nOpp + j; p.oppGroup[o] >= 0 {
				wacts[seat] = w.oppActs[o-w.base*nOpp] // computed by actBatches
			} else {
				wacts[seat] = p.opps[o].Act(e, seat)
			}
		}
	}
	e.Step(wacts, rew, term, trunc)
	if p.observer != nil {
		p.observer.Stepped(i, e, wacts, rew, term, trunc)
	}
	rewards, terminated, truncated = rewards[:len(learners)], terminated[:len(learners)], truncated[:len(learners)]
	for k, seat := range learners {
		rewards[k], terminated[k], truncated[k] = rew[seat], term[seat], trunc[seat]
	}
}

// endEpisode finishes stepEnvs for env i (slot s) whose episode ended in
// this step: the learner seats still in play are truncated, the episode is
// recorded (done: the game is over or capped), and the rows are written
// as the autoreset mode says.
func (p *Pool) endEpisode(s *slot, out *rows, i, row0 int, done bool) {
	L := len(p.learners)
	terminated, truncated := out.Terminated[row0:row0+L], out.Truncated[row0:row0+L]
	for k, tm := range terminated {
		if !tm {
			truncated[k] = true
		}
	}
	p.record(s, i, done)
	if p.mode == NextStep || s.hold {
		p.writeRows(out, s, row0)
		s.pending = true
		return
	}
	// SameStep: keep the final observation, then start the next episode;
	// the rewards and flags of the final step stay.
	T := len(p.tensorLen)
	p.writeObs(s, out.finalRows[row0*T:(row0+L)*T])
	p.newEpisode(s, i)
	p.writeRows(out, s, row0)
	for k := range L {
		out.Episode[row0+k] = s.episode
	}
}

// resetRows starts env i's next episode and writes its rows as a reset
// does.
func (p *Pool) resetRows(w *worker, out *rows, i, row0 int) {
	s := &p.slots[i]
	p.envEnded[i] = false
	if s.hold {
		s.pending = true // started by the Step after a Plan
		return
	}
	p.newEpisode(s, i)
	p.writeRows(out, s, row0)
	for k := range p.learners {
		r := row0 + k
		out.Rewards[r] = 0
		out.Terminated[r] = false
		out.Truncated[r] = false
		out.ended[r] = false
		out.Episode[r] = s.episode
	}
}

// newEpisode resets env i and its opponents for the next episode, as
// planned by Plan if it was.
func (p *Pool) newEpisode(s *slot, i int) {
	s.episode++
	s.steps = 0
	s.pending = false
	seed := env.MixSeed(s.seed, uint64(s.episode))
	if s.planned {
		seed = s.planSeed
	}
	s.e.Reset(seed)
	p.startOpponents(s, i)
	nOpp := len(p.oppSeats)
	for j, seat := range p.oppSeats {
		oppSeed := env.AgentSeed(seed, seat)
		if s.planned && s.planOppSeeds != nil {
			oppSeed = s.planOppSeeds[j]
		}
		p.opps[i*nOpp+j].Reset(s.e, seat, oppSeed)
	}
	s.planned, s.planOpps = false, false
	L := len(p.learners)
	clear(p.ret[i*L : (i+1)*L])
	if p.observer != nil {
		p.observer.EpisodeStarted(i, s.e)
	}
}

// writeRows writes the observations and masks of s's learner seats
// into out, rows row0 onwards, row by row: with the rows' versions (see
// rowView) through the env's [ObsUpdater] and [MaskUpdater] when it
// implements them, in full otherwise.
func (p *Pool) writeRows(out *rows, s *slot, row0 int) {
	e, upd, mupd := s.e, s.upd, s.mupd
	T := len(p.tensorLen)
	views := out.views[row0 : row0+len(p.learners)]
	learners := p.learners[:len(views)]
	for k := range views {
		v, seat := &views[k], learners[k]
		obs := out.obs(v, row0+k, T)
		if upd != nil {
			v.ver = upd.UpdateObs(seat, obs, v.ver)
		} else {
			e.WriteObs(seat, obs)
			v.ver = 0
		}
		if mupd != nil {
			v.maskVer = mupd.UpdateMask(seat, v.mask, v.maskVer)
		} else {
			e.WriteMask(seat, v.mask)
			v.maskVer = 0
		}
	}
}

// writeObs writes the observations of s's learner seats in full into
// their rows' views, views (T per row, row by row, as rows.finalRows): the
// final observations of SameStep, which keep no versions.
func (p *Pool) writeObs(s *slot, views [][]byte) {
	T := len(p.tensorLen)
	for k, seat := range p.learners {
		s.e.WriteObs(seat, views[k*T:(k+1)*T:(k+1)*T])
	}
}

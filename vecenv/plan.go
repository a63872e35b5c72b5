package vecenv

import (
	"errors"
	"fmt"

	"github.com/botarena/botarena/env"
)

// ErrHoldLearners is returned by [Pool.Hold] on a pool with learner seats,
// whose rows must be written by every Step.
var ErrHoldLearners = errors.New("vecenv: Hold needs a pool without learner seats")

// EpisodePlan fixes the next episode of one env (see [Pool.Plan]): a league
// plays its scheduled games this way, each with its own seed and agents.
type EpisodePlan struct {
	// Seed is passed to env.Reset instead of the env's [EpisodeSeed].
	Seed uint64
	// Opponents names, for every opponent seat in seat order, the choice
	// of that seat's mixture that plays it (an [OpponentChoice] Name the
	// seat has; a choice of weight 0 can be planned). Nil keeps the choices
	// drawn as usual.
	Opponents []string
	// OpponentSeeds are passed to the opponents' Reset, one per opponent
	// seat in seat order. Nil derives them from Seed as the pool derives
	// them from an episode seed ([OpponentSeed]).
	OpponentSeeds []uint64
}

// Plan fixes env i's next episode: the one that starts at the next Reset,
// or, when an episode is in progress, the one after it. A later Plan for
// the same env replaces it; a planned env is no longer held (see
// [Pool.Hold]). With plans, trajectories depend on the plans as well as on
// the pool seed and the actions, still for any worker count.
//
// The planned opponents' instances are made before the episode starts, by
// the next Reset or Step, as for drawn choices (see [Pool.SetOpponents]); a
// later SetOpponents that removes a planned choice drops that part of the
// plan, and the seat's opponent is drawn. Plan returns a [*ConfigError]
// naming the field for an env out of range, a wrong number of opponents or
// seeds, or an unknown choice, leaving the pool unchanged, and [ErrClosed]
// after Close.
func (p *Pool) Plan(i int, plan EpisodePlan) error {
	if p.closed {
		return ErrClosed
	}
	if i < 0 || i >= len(p.slots) {
		return &ConfigError{Field: "Plan", Value: i, Reason: fmt.Sprintf("must be an env in 0..%d", len(p.slots)-1)}
	}
	nOpp := len(p.oppSeats)
	if plan.Opponents != nil && len(plan.Opponents) != nOpp {
		return &ConfigError{Field: "EpisodePlan.Opponents", Value: len(plan.Opponents), Reason: fmt.Sprintf("must name one choice per opponent seat (%d)", nOpp)}
	}
	if plan.OpponentSeeds != nil && len(plan.OpponentSeeds) != nOpp {
		return &ConfigError{Field: "EpisodePlan.OpponentSeeds", Value: len(plan.OpponentSeeds), Reason: fmt.Sprintf("must hold one seed per opponent seat (%d)", nOpp)}
	}
	var picks []int32
	if plan.Opponents != nil {
		picks = make([]int32, nOpp)
		for j, name := range plan.Opponents {
			c := p.mixes[j].choice(name)
			if c < 0 {
				return &ConfigError{Field: fmt.Sprintf("EpisodePlan.Opponents[%d]", j), Value: fmt.Sprintf("%q", name),
					Reason: fmt.Sprintf("must be a choice of seat %d's mixture (see SetOpponents)", p.oppSeats[j])}
			}
			picks[j] = c
		}
	}
	s := &p.slots[i]
	s.hold = false
	s.planned, s.planSeed = true, plan.Seed
	s.planOppSeeds = s.planOppSeeds[:0]
	if plan.OpponentSeeds == nil {
		s.planOppSeeds = nil
	} else {
		s.planOppSeeds = append(s.planOppSeeds, plan.OpponentSeeds...)
	}
	if picks != nil {
		copy(p.next[i*nOpp:(i+1)*nOpp], picks)
		p.mixDirty = true // prepare makes the instances missing
	} else if s.planOpps {
		p.redraw(i)
	}
	s.planOpps = picks != nil
	return nil
}

// redraw draws env i's next opponents from its next episode's seed again,
// replacing the choices of a plan.
func (p *Pool) redraw(i int) {
	s := &p.slots[i]
	nOpp := len(p.oppSeats)
	seed := env.MixSeed(s.seed, uint64(s.episode+1))
	for j := range p.mixes {
		p.next[i*nOpp+j] = p.mixes[j].pick(seed)
	}
	p.mixDirty = true
}

// Hold stops env i from starting episodes: its episode in progress, if
// any, plays to its end, and then the env waits (it is neither reset nor
// stepped, and [Pool.EnvsEnded] stays false for it) until [Pool.Plan]
// gives it its next episode, which starts at the next Step. A held env
// that never started is left out of Reset the same way. A league holds the
// envs it has no more games for.
//
// Hold is only for pools without learner seats, whose callers run a set of
// episodes rather than a stream: elsewhere it returns [ErrHoldLearners].
// It returns a [*ConfigError] for an env out of range and [ErrClosed]
// after Close.
func (p *Pool) Hold(i int) error {
	if p.closed {
		return ErrClosed
	}
	if len(p.learners) > 0 {
		return ErrHoldLearners
	}
	if i < 0 || i >= len(p.slots) {
		return &ConfigError{Field: "Hold", Value: i, Reason: fmt.Sprintf("must be an env in 0..%d", len(p.slots)-1)}
	}
	s := &p.slots[i]
	if s.planOpps {
		p.redraw(i)
	}
	s.hold, s.planned, s.planOpps = true, false, false
	return nil
}

// choice returns the index of the seat's active choice named name, or -1.
func (m *seatMix) choice(name string) int32 {
	for c, ch := range m.choices {
		if ch.name == name && !ch.retired {
			return int32(c)
		}
	}
	return -1
}

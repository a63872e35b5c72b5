package vecenv

import (
	"slices"
	"time"
)

// tuneWindow is how many batches a [tuner] times at one worker count
// before it compares: their median, so that a batch that waited for the
// scheduler or reset many envs does not decide.
const tuneWindow = 16

// wakeCost is about what waking a parked worker costs, on a VM, before it
// steps anything. A batch the caller steps alone in less than twice this
// per extra worker is not split: the tuner's first guess gives each
// worker at least 2 × wakeCost of work.
const wakeCost = 50 * time.Microsecond

// maxBackoff bounds, in windows, how long a tuner waits between probes
// once probing keeps failing: 256 windows of 16 batches, so that a probe
// of a worse count costs at most a few per cent of the batches.
const maxBackoff = 256

// tuner chooses how many workers a pool with Config.Workers 0 wakes for
// each Step, from the measured batch times. It times the pool's first
// Step on the caller alone and moves at once to the count that gives each
// worker 2 × wakeCost of it (the same guess, from the median, after the
// first window when the first Step was cheap); from then on it times
// every window at the chosen count and, now and then, one window at one
// worker more or less (a probe), keeping the probe's count when its median
// batch is at least 5% shorter. Probes that fail are tried less and less
// often (backoff doubles, up to maxBackoff windows), so a count that is
// best, under contention or not, costs little to keep checking, and a
// change of load is found within maxBackoff windows. A probe whose woken
// workers took no chunk of a short batch (shortBatch) fails at once.
//
// The count changes which goroutine steps which env, never what an env
// computes, so trajectories do not depend on it. A tuner is the caller's:
// only the goroutine that calls Step touches it.
type tuner struct {
	max     int // workers the pool has
	active  int // the chosen count
	probe   int // the count being tried, 0 when none
	n       int // batches timed in the window
	win     [tuneWindow]int64
	base    int64 // median ns of the last window at active; 0 before the first
	wait    int   // windows left before the next probe
	backoff int   // windows between probes
	down    bool  // the next probe tries one worker fewer
}

// count returns how many workers the next batch wakes, the caller
// included.
func (t *tuner) count() int {
	if t.probe > 0 {
		return t.probe
	}
	return t.active
}

// observe records a batch of k workers that took ns nanoseconds; batches of
// another count than the tuner asked for are not timed.
func (t *tuner) observe(k int, ns int64) {
	if k != t.count() {
		return
	}
	if t.base == 0 && t.n == 0 && t.active == 1 && t.probe == 0 {
		// The pool's first batch, on the caller alone: a step that costs
		// several wake-ups starts on the workers it would pay for, and the
		// windows and probes that follow correct the guess.
		if guess := min(int(ns/int64(2*wakeCost)), t.max); guess > 1 {
			t.active = guess
			return
		}
	}
	t.win[t.n] = ns
	t.n++
	if t.n < tuneWindow {
		return
	}
	t.n = 0
	s := t.win
	slices.Sort(s[:])
	m := (s[tuneWindow/2-1] + s[tuneWindow/2]) / 2
	switch {
	case t.probe > 0:
		if m < t.base-t.base/20 {
			t.down = t.probe < t.active // keep going the way that paid
			t.active, t.base, t.backoff = t.probe, m, 1
		} else {
			t.backoff = min(2*t.backoff, maxBackoff)
		}
		t.probe, t.wait = 0, t.backoff
	case t.base == 0:
		t.base = m
		if guess := min(int(m/int64(2*wakeCost)), t.max); t.active == 1 && guess > 1 {
			t.probe = guess
		}
		t.wait = t.backoff
	default:
		t.base = m
		if t.wait > 0 {
			t.wait--
			return
		}
		t.probe = t.neighbour()
		t.down = !t.down
	}
}

// neighbour returns the count to probe next: one fewer or one more than
// active, as down says, or the other way where that leaves 1..max.
func (t *tuner) neighbour() int {
	k := t.active + 1
	if t.down {
		k = t.active - 1
	}
	if k < 1 || k > t.max {
		k = 2*t.active - k
	}
	if k < 1 || k > t.max {
		return 0
	}
	return k
}

// unhelped records that a batch of k > 1 workers ended before any worker
// but the caller took a chunk: a probe of k fails at once, and a chosen
// k drops by one.
func (t *tuner) unhelped(k int) {
	switch {
	case t.probe > 0 && k == t.probe:
		t.backoff = min(2*t.backoff, maxBackoff)
		t.probe, t.wait, t.n = 0, t.backoff, 0
	case t.probe == 0 && k == t.active && k > 1:
		t.active--
		t.n, t.base = 0, 0
		t.wait = t.backoff
	}
}

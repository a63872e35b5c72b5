package vecenv

import "testing"

// feed runs t for windows windows in which a batch of k workers takes
// cost(k) ns, and returns the counts it chose for each batch.
func feed(t *tuner, windows int, cost func(k int) int64) []int {
	var counts []int
	for range windows * tuneWindow {
		k := t.count()
		counts = append(counts, k)
		t.observe(k, cost(k))
	}
	return counts
}

// TestTunerSettles: the tuner ends on the count with the shortest batches,
// whether that is the caller alone, every worker or one in between, and
// once settled spends few batches probing other counts.
func TestTunerSettles(t *testing.T) {
	tests := []struct {
		name string
		max  int
		cost func(k int) int64
		want int
	}{
		{"cheap_step_stays_on_the_caller", 4, func(k int) int64 { return 3_000 + int64(k-1)*100_000 }, 1},
		{"large_step_uses_every_worker", 4, func(k int) int64 { return 4_000_000 / int64(k) }, 4},
		{"contention_makes_two_best", 4, func(k int) int64 { return []int64{0, 1_000_000, 600_000, 900_000, 1_400_000}[k] }, 2},
		{"one_worker_pool", 1, func(k int) int64 { return 1_000_000 }, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tu := tuner{max: tt.max, active: 1, backoff: 1}
			feed(&tu, 64, tt.cost)
			if tu.active != tt.want {
				t.Fatalf("settled on %d workers, want %d", tu.active, tt.want)
			}
			counts := feed(&tu, 512, tt.cost)
			other := 0
			for _, k := range counts {
				if k != tt.want {
					other++
				}
			}
			if other > len(counts)/20 {
				t.Errorf("%d of %d batches probed other counts once settled", other, len(counts))
			}
		})
	}
}

// TestTunerFollowsLoad: when the best count changes (other processes take
// the cores), the tuner moves to the new best.
func TestTunerFollowsLoad(t *testing.T) {
	tu := tuner{max: 2, active: 1, backoff: 1}
	feed(&tu, 64, func(k int) int64 { return 2_000_000 / int64(k) })
	if tu.active != 2 {
		t.Fatalf("idle: %d workers, want 2", tu.active)
	}
	feed(&tu, 2*maxBackoff+8, func(k int) int64 { return []int64{0, 1_000_000, 3_000_000}[k] })
	if tu.active != 1 {
		t.Fatalf("contended: %d workers, want 1", tu.active)
	}
}

// TestTunerUnhelped: a batch whose woken workers took no chunk ends a
// probe of that count at once, and lowers a chosen count by one.
func TestTunerUnhelped(t *testing.T) {
	tu := tuner{max: 4, active: 1, backoff: 1, probe: 3}
	tu.unhelped(3)
	if tu.probe != 0 || tu.count() != 1 || tu.backoff != 2 {
		t.Errorf("after an unhelped probe: probe %d, count %d, backoff %d; want 0, 1, 2", tu.probe, tu.count(), tu.backoff)
	}
	tu = tuner{max: 4, active: 3, backoff: 1}
	tu.unhelped(3)
	if tu.count() != 2 {
		t.Errorf("after an unhelped batch of 3 chosen workers: count %d, want 2", tu.count())
	}
}

// TestTunerFirstBatch: a first Step that costs many wake-ups moves the
// pool at once to the workers it pays for; a cheap one stays on the
// caller.
func TestTunerFirstBatch(t *testing.T) {
	tests := []struct {
		name string
		ns   int64
		want int
	}{
		{"cheap_stays_on_the_caller", 20_000, 1},
		{"four_wake_ups_take_two_workers", 4 * int64(wakeCost), 2},
		{"large_takes_every_worker", 50_000_000, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tu := tuner{max: 4, active: 1, backoff: 1}
			tu.observe(1, tt.ns)
			if got := tu.count(); got != tt.want {
				t.Errorf("count after a first batch of %d ns: %d, want %d", tt.ns, got, tt.want)
			}
		})
	}
}

package server

import (
	"testing"
	"time"
)

// TestEvictionOrder: at a cap, the connection closed for a new one is an
// idle one that never proved a client, the one idle longest, else one
// that proved a client and has been idle for at least evictGrace, the one
// idle longest; never one with a request in progress; at a client's cap,
// only that client's.
func TestEvictionOrder(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	type conn struct {
		name, client string
		proven       bool
		idle         time.Duration // -1: a request in progress
	}
	const active = -1
	for _, tc := range []struct {
		name   string
		conns  []conn
		client string // "" for the server's cap
		want   string // "" for none
	}{
		{"unproven_before_proven_idle_longer", []conn{
			{"trainer", "10.0.0.1", true, time.Hour},
			{"opener", "10.0.0.2", false, time.Millisecond},
		}, "", "opener"},
		{"unproven_idle_longest", []conn{
			{"new", "10.0.0.2", false, time.Millisecond},
			{"old", "10.0.0.2", false, time.Minute},
			{"mid", "10.0.0.3", false, time.Second},
		}, "", "old"},
		{"proven_idle_longest", []conn{
			{"a", "10.0.0.1", true, 2 * time.Second},
			{"b", "10.0.0.2", true, time.Minute},
		}, "", "b"},
		{"proven_within_grace_kept", []conn{
			{"stepping", "10.0.0.1", true, evictGrace / 2},
		}, "", ""},
		{"proven_at_grace", []conn{
			{"resting", "10.0.0.1", true, evictGrace},
		}, "", "resting"},
		{"in_progress_never", []conn{
			{"stream", "10.0.0.1", true, active},
			{"first_request", "10.0.0.2", false, active},
		}, "", ""},
		{"in_progress_skipped", []conn{
			{"stream", "10.0.0.1", false, active},
			{"idle", "10.0.0.2", true, time.Hour},
		}, "", "idle"},
		{"client_cap_own_connections_only", []conn{
			{"others_unproven", "10.0.0.2", false, time.Hour},
			{"own_proven", "10.0.0.1", true, time.Minute},
		}, "10.0.0.1", "own_proven"},
		{"client_cap_none_of_its_own", []conn{
			{"others_unproven", "10.0.0.2", false, time.Hour},
			{"own_stream", "10.0.0.1", true, active},
		}, "10.0.0.1", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &limitListener{now: func() time.Time { return now }, conns: map[*limitConn]struct{}{}, clients: map[string]int{}}
			names := map[*limitConn]string{}
			for _, c := range tc.conns {
				lc := &limitConn{l: l, client: c.client}
				if c.idle != active {
					lc.idleSince = now.Add(-c.idle)
				}
				lc.state.proven.Store(c.proven)
				l.conns[lc] = struct{}{}
				l.clients[c.client]++
				names[lc] = c.name
			}
			got := ""
			if v := l.victimLocked(tc.client, now); v != nil {
				got = names[v]
			}
			if got != tc.want {
				t.Errorf("closed %q, want %q", got, tc.want)
			}
		})
	}
}

package server

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/bytesize"
)

// This file makes memory a budget in bytes, shared by a host's services.
// Every pool (envservice) and every MatchService game (matchservice) is
// admitted against the host's budget ([WithMaxMemory]) and its client's
// quota ([WithMaxClientMemory], [WithMaxClientPools]) before anything is
// allocated, by an upper bound of what it will hold, which each service
// works out from the sizes of its envs and agents measured on probes
// ([Budget.EnvSizes], [Budget.AgentSizes]; see [sizer]): envservice's
// budget.go has a pool's cost model, matchservice's a game's.
//
// A reservation is released when what it pays for ends (a pool closed by
// ClosePool, the idle timeout, a panic or Close; a game's call). The
// budget counts the bytes the server's objects hold, not the process's
// resident size: the Go heap runs up to twice its live size with the
// default GOGC, which is why the default budget is half the machine's
// memory.

// DefaultMaxClientPools and DefaultMaxClientMemory are the defaults of the
// per-client quotas: 0, no quota beyond the server's own limits
// ([WithMaxMemory], envservice.WithMaxPools).
const (
	DefaultMaxClientPools  = 0
	DefaultMaxClientMemory = 0
)

// fallbackMaxMemory is the default budget where the machine's memory is
// unknown (not Linux).
const fallbackMaxMemory = 4 << 30

// WithMaxMemory sets the server's memory budget in bytes: the most that
// open pools and MatchService games in progress may hold together, by
// their estimated cost before they are made (the cost model is in
// docs/operations.md, Limits). A CreatePool, Play or PlayBatch game beyond it is
// ResourceExhausted, naming the request's cost and what is in use. Zero or
// less means the default, [DefaultMaxMemory]: half the machine's memory.
func WithMaxMemory(bytes int64) Option { return func(o *options) { o.maxMemory = bytes } }

// WithMaxClientMemory sets the most bytes of the budget one client (the
// peer's IP address) may hold at once, pools and games
// together; beyond it a request is ResourceExhausted. Zero or less, the
// default, sets no quota beyond [WithMaxMemory].
func WithMaxClientMemory(bytes int64) Option { return func(o *options) { o.maxClientMemory = bytes } }

// WithMaxClientPools sets the most pools one client (the peer's IP
// address) may have open at once; CreatePool beyond it is ResourceExhausted. Zero or
// less, the default, sets no quota beyond [WithMaxPools].
func WithMaxClientPools(n int) Option { return func(o *options) { o.maxClientPools = n } }

// DefaultMaxMemory returns the default memory budget: half of the memory
// available to the process, the smaller of MemTotal in /proc/meminfo and
// the cgroup's memory limit (cgroup v2 memory.max or v1
// memory.limit_in_bytes) when one is set, rounded down to a multiple of
// 512 MiB (of 1 MiB below 4 GiB); 4 GiB where neither can be read. It is
// computed once.
var DefaultMaxMemory = sync.OnceValue(func() int64 {
	total := machineMemory()
	if total <= 0 {
		return fallbackMaxMemory
	}
	half := total / 2
	if half >= 4<<30 {
		return half &^ (512<<20 - 1) // in whole half GiBs, to read well
	}
	return max(half&^(1<<20-1), 1<<20)
})

// machineMemory returns the memory available to the process in bytes, or 0
// when it is unknown.
func machineMemory() int64 {
	var total int64
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			// MemTotal:       24684084 kB
			if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
				kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
				if err == nil && kb > 0 {
					total = kb << 10
				}
				break
			}
		}
		f.Close()
	}
	for _, path := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		// "max" (no limit), or bytes; v1 reports no limit as a huge number.
		n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err == nil && n > 0 && (total == 0 || n < total) {
			total = n
		}
		break
	}
	return total
}

// ByteSize is a number of bytes that reads and prints with binary units
// ("512MiB", "8GiB", "1.5GiB"; also KiB, TiB, decimal kB, MB, GB, TB, and
// plain bytes). It implements the Value interface of the flag and pflag
// packages, for serve --max-memory.
type ByteSize int64

// String formats b in the largest binary unit that gives at most one
// decimal without rounding, or in bytes.
func (b ByteSize) String() string {
	n := int64(b)
	for _, u := range []struct {
		name  string
		shift uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}} {
		unit := int64(1) << u.shift
		if n >= unit && n%unit == 0 {
			return fmt.Sprintf("%d%s", n/unit, u.name)
		}
		if n >= unit && (n*10)%unit == 0 {
			return fmt.Sprintf("%.1f%s", float64(n)/float64(unit), u.name)
		}
	}
	return strconv.FormatInt(n, 10)
}

// Set parses s: a number, optionally fractional, with an optional unit.
func (b *ByteSize) Set(s string) error {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := t, ""
	if i >= 0 {
		num, unit = t[:i], strings.TrimSpace(t[i:])
	}
	mult, ok := byteUnits[strings.ToLower(unit)]
	if !ok {
		return fmt.Errorf("unknown unit %q in %q (want B, KiB, MiB, GiB, TiB, kB, MB, GB or TB)", unit, s)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v < 0 || math.IsInf(v, 0) {
		return fmt.Errorf("want a size such as 512MiB or 8GiB, got %q", s)
	}
	n := v * float64(mult)
	if n >= math.MaxInt64 {
		return fmt.Errorf("%q is too large", s)
	}
	*b = ByteSize(n)
	return nil
}

// Type names the value's type for flag help.
func (b *ByteSize) Type() string { return "bytes" }

var byteUnits = map[string]int64{
	"": 1, "b": 1,
	"k": 1 << 10, "ki": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mi": 1 << 20, "mib": 1 << 20,
	"g": 1 << 30, "gi": 1 << 30, "gib": 1 << 30, "t": 1 << 40, "ti": 1 << 40, "tib": 1 << 40,
	"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
}

// ClientKey returns the identity a request's quota is counted under: the
// peer's IP address (without the port), "in-process" for calls made
// without Connect. It is the one place to change when requests carry an
// identity of their own (an auth token's subject): return that first.
func ClientKey(ctx context.Context) string {
	info, ok := connect.CallInfoForHandlerContext(ctx)
	if !ok {
		return "in-process"
	}
	addr := info.Peer().Addr
	if host, _, err := net.SplitHostPort(addr); err == nil {
		return host
	}
	if addr == "" {
		return "unknown"
	}
	return addr
}

// Budget is a host's memory budget: the bytes and pools reserved, in all
// and per client, and the measured sizes of envs and agents. It is safe
// for concurrent use.
type Budget struct {
	limit, clientLimit int64
	clientPools        int

	mu      sync.Mutex
	used    int64
	streams int // open streams (streams.go)
	clients map[string]*clientUse

	sizes sizeCache
}

// clientUse is what one client holds.
type clientUse struct {
	bytes   int64
	pools   int
	streams int
}

// newBudget returns the budget of o.
func newBudget(o options) *Budget {
	b := &Budget{
		limit:       o.maxMemory,
		clientLimit: o.maxClientMemory,
		clientPools: o.maxClientPools,
		clients:     map[string]*clientUse{},
	}
	if b.limit <= 0 {
		b.limit = DefaultMaxMemory()
	}
	return b
}

// InUse returns the bytes reserved and the budget ([WithMaxMemory]).
func (b *Budget) InUse() (used, limit int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used, b.limit
}

// Reservation is a client's share of the budget: bytes and, for a pool, a
// pool slot (for a stream, a stream's). Release gives it back once; Grow
// adds to it.
type Reservation struct {
	b      *Budget
	client string
	bytes  int64
	pool   bool
	stream bool
	once   sync.Once
}

// Reserve books bytes for client (see [ClientKey]), and a pool slot when
// pool is set, or fails with an [ErrLimit] error (ResourceExhausted): what
// (a "pool", "game 3") would need bytes (detail breaks the cost down, or
// is ""), and the limit it does not fit, with what is in use.
func (b *Budget) Reserve(client, what, detail string, bytes int64, pool bool) (*Reservation, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	c := b.client(client)
	if pool && b.clientPools > 0 && c.pools >= b.clientPools {
		return nil, Markf(ErrLimit, "client %s has %d pools open, its quota (--max-client-pools %d); close one (ClosePool) or wait for an idle one to time out",
			client, c.pools, b.clientPools)
	}
	if err := b.fits(client, c, what, detail, bytes); err != nil {
		b.forget(client)
		return nil, err
	}
	b.used += bytes
	c.bytes += bytes
	if pool {
		c.pools++
	}
	return &Reservation{b: b, client: client, bytes: bytes, pool: pool}, nil
}

// reserveStream books [StreamBytes] and a stream for client, or fails
// with an [ErrLimit] error: the client has maxStreams open, or the bytes
// do not fit.
func (b *Budget) reserveStream(client string, maxStreams int) (*Reservation, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	c := b.client(client)
	if c.streams >= maxStreams {
		return nil, Markf(ErrLimit, "client %s has %d streams open, its quota (--max-client-streams %d); close streams it does not use, or wait for idle ones to time out",
			client, c.streams, maxStreams)
	}
	if err := b.fits(client, c, "stream", "", StreamBytes); err != nil {
		b.forget(client)
		return nil, err
	}
	b.used += StreamBytes
	c.bytes += StreamBytes
	c.streams++
	b.streams++
	return &Reservation{b: b, client: client, bytes: StreamBytes, stream: true}, nil
}

// streamsOpen returns the streams booked.
func (b *Budget) streamsOpen() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.streams
}

// fits checks that bytes more fit the budget and client's quota; the
// caller holds b.mu.
func (b *Budget) fits(client string, c *clientUse, what, detail string, bytes int64) error {
	need := what + " would need " + bytesize.Format(bytes)
	if detail != "" {
		need += " (" + detail + ")"
	}
	switch {
	case bytes > b.limit:
		return Markf(ErrLimit, "%s, more than the server's whole memory budget (--max-memory %s); ask for less, or use a server with more memory",
			need, bytesize.Format(b.limit))
	case b.used+bytes > b.limit:
		return Markf(ErrLimit, "%s; --max-memory %s has %s in use; close pools (ClosePool), wait for games to end, or ask for less",
			need, bytesize.Format(b.limit), bytesize.Format(b.used))
	case b.clientLimit > 0 && c.bytes+bytes > b.clientLimit:
		return Markf(ErrLimit, "%s; --max-client-memory %s has %s in use by client %s; close pools (ClosePool), wait for games to end, or ask for less",
			need, bytesize.Format(b.clientLimit), bytesize.Format(c.bytes), client)
	}
	return nil
}

// Grow adds bytes to r, or fails as [Budget.Reserve] does without
// changing r.
func (r *Reservation) Grow(what, detail string, bytes int64) error {
	b := r.b
	b.mu.Lock()
	defer b.mu.Unlock()
	c := b.client(r.client)
	if err := b.fits(r.client, c, what, detail, bytes); err != nil {
		b.forget(r.client)
		return err
	}
	b.used += bytes
	c.bytes += bytes
	r.bytes += bytes
	return nil
}

// Release gives r back; later calls do nothing. A nil r is fine.
func (r *Reservation) Release() {
	if r == nil {
		return
	}
	r.once.Do(func() {
		b := r.b
		b.mu.Lock()
		defer b.mu.Unlock()
		b.used -= r.bytes
		c := b.client(r.client)
		c.bytes -= r.bytes
		if r.pool {
			c.pools--
		}
		if r.stream {
			c.streams--
			b.streams--
		}
		b.forget(r.client)
	})
}

// client returns what client holds, adding an entry when it has none; the
// caller holds b.mu.
func (b *Budget) client(key string) *clientUse {
	c := b.clients[key]
	if c == nil {
		c = &clientUse{}
		b.clients[key] = c
	}
	return c
}

// forget drops client's entry when it holds nothing; the caller holds
// b.mu.
func (b *Budget) forget(key string) {
	if c := b.clients[key]; c != nil && c.bytes == 0 && c.pools == 0 && c.streams == 0 {
		delete(b.clients, key)
	}
}

// Sizes are the measured heap bytes of envs or agents of one kind (see
// [Budget.EnvSizes]): First is what the first one costs, Each what every
// further one adds (what they share, such as a policy's weights, is
// counted once).
type Sizes struct {
	Spec        *env.Spec // of the env (EnvSizes only)
	First, Each int64
}

// EnvSizes returns the sizes of game's envs with config, measured once per
// game and config on two envs made and reset. Its errors are the
// registry's.
func (b *Budget) EnvSizes(reg *env.Registry, game string, config []byte) (Sizes, error) {
	p, err := b.sizes.env(reg, game, config)
	if err != nil {
		return Sizes{}, err
	}
	return Sizes{Spec: p.spec, First: p.first, Each: p.each}, nil
}

// AgentSizes returns the sizes of the agent name playing seat of game with
// config, measured once per agent, seat, game and config on two instances
// (made by f, or agents.New when f is nil) reset on probe envs. An agent of
// another process (an external bot) is not made: it costs a fixed
// allowance. Its errors are those of making the envs and agents.
func (b *Budget) AgentSizes(reg *env.Registry, game string, config []byte, name string, seat int, f env.AgentFactory) (Sizes, error) {
	p, err := b.sizes.opponent(reg, game, config, name, seat, f)
	if err != nil {
		return Sizes{}, err
	}
	return Sizes{First: p.first, Each: p.each}, nil
}

// WithMargin adds an eighth to a measured size: what envs and agents
// allocate after their first Reset (a longer list, a bigger search).
func WithMargin(n int64) int64 { return n + n/8 }

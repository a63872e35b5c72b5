package rpc

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/league"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/vecenv"
)

// This file makes memory a budget in bytes. Every pool and every
// MatchService game is admitted against the server's budget
// ([WithMaxMemory]) and its client's quota ([WithMaxClientMemory],
// [WithMaxClientPools]) before anything is allocated, by an upper bound of
// what it will hold:
//
//   - a pool: its envs (measured on probe envs of the game and config, made
//     once per config: see [sizer]), the vecenv buffers and bookkeeping (a
//     row per learner agent: observations, mask, reward, flags, ids,
//     statistics; the final observations in SAME_STEP mode), the Arrow
//     encoders (the step batch and, in SAME_STEP mode, the final batch),
//     the response messages (the batch built in the pool's buffer and
//     Connect's marshalled copy of it, each as large as an uncompressed
//     batch even with COMPRESSION_ZSTD, whose ratio is not known in advance),
//     with COMPRESSION_ZSTD the compressed bodies and one zstd encoder per
//     worker, and the opponents (measured like the envs, built-in agents
//     and policies; a fixed allowance per external bot);
//   - a game: its env and agents and, when recorded, its data: recorded
//     games are refused up front when their bound (every seat's row for
//     every step up to the game's step cap or max_rounds, the bound
//     [RemoteRunner] packs its batches by) exceeds the message limit, and
//     their reservation is that bound times the growth of the recorder's
//     slices and the marshalled response.
//
// The reservation is released when the pool is closed (ClosePool, the idle
// timeout, a panic, Close) or the call ends. The budget counts the bytes
// the server's objects hold, not the process's resident size: the Go heap
// runs up to twice its live size with the default GOGC, which is why the
// default budget is half the machine's memory.

// DefaultMaxClientPools and DefaultMaxClientMemory are the defaults of the
// per-client quotas: 0, no quota beyond the server's own limits
// ([WithMaxPools], [WithMaxMemory]).
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

// human formats a byte count for messages: "1.7 GiB", "312.0 MiB".
func human(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// clientKey returns the identity a request's quota is counted under: the
// peer's IP address (without the port), "in-process" for calls made
// without Connect. It is the one place to change when requests carry an
// identity of their own (an auth token's subject): return that first.
func clientKey(ctx context.Context) string {
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

// ledger is the server's memory budget: the bytes and pools reserved, in
// all and per client, and the probes of env and agent sizes. Its counters
// are guarded by Server.mu; the probes have their own lock.
type ledger struct {
	limit, clientLimit int64
	clientPools        int
	used               int64
	clients            map[string]*clientUse

	sizes sizeCache
}

// clientUse is what one client holds.
type clientUse struct {
	bytes int64
	pools int
}

// ledgerLocked returns the server's ledger, making it on first use; the
// caller holds s.mu.
func (s *Server) ledgerLocked() *ledger {
	if s.opts.ledger == nil {
		l := &ledger{
			limit:       s.opts.maxMemory,
			clientLimit: s.opts.maxClientMemory,
			clientPools: s.opts.maxClientPools,
			clients:     map[string]*clientUse{},
		}
		if l.limit <= 0 {
			l.limit = DefaultMaxMemory()
		}
		s.opts.ledger = l
	}
	return s.opts.ledger
}

func (s *Server) ledger() *ledger {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ledgerLocked()
}

// MemoryInUse returns the bytes of the server's memory budget reserved by
// open pools and games in progress, and the budget ([WithMaxMemory]).
func (s *Server) MemoryInUse() (used, limit int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.ledgerLocked()
	return l.used, l.limit
}

// reservation is a client's share of the budget: bytes and, for a pool, a
// pool slot. Release gives it back once; grow adds to it.
type reservation struct {
	s      *Server
	client string
	bytes  int64
	pool   bool
	once   sync.Once
}

// reserveMemory books bytes for client, and a pool slot when pool is set, or
// fails with a ResourceExhausted error: what (a "pool", "game 3") would
// need bytes (detail breaks the cost down, or is ""), and the limit it
// does not fit, with what is in use.
func (s *Server) reserveMemory(client, what, detail string, bytes int64, pool bool) (*reservation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.ledgerLocked()
	c := l.client(client)
	if pool && l.clientPools > 0 && c.pools >= l.clientPools {
		return nil, markf(errLimit, "client %s has %d pools open, its quota (--max-client-pools %d); close one (ClosePool) or wait for an idle one to time out",
			client, c.pools, l.clientPools)
	}
	if err := l.fits(client, c, what, detail, bytes); err != nil {
		l.forget(client)
		return nil, err
	}
	l.used += bytes
	c.bytes += bytes
	if pool {
		c.pools++
	}
	return &reservation{s: s, client: client, bytes: bytes, pool: pool}, nil
}

// fits checks that bytes more fit the budget and client's quota.
func (l *ledger) fits(client string, c *clientUse, what, detail string, bytes int64) error {
	need := what + " would need " + human(bytes)
	if detail != "" {
		need += " (" + detail + ")"
	}
	switch {
	case bytes > l.limit:
		return markf(errLimit, "%s, more than the server's whole memory budget (--max-memory %s); ask for less, or use a server with more memory",
			need, human(l.limit))
	case l.used+bytes > l.limit:
		return markf(errLimit, "%s; --max-memory %s has %s in use; close pools (ClosePool), wait for games to end, or ask for less",
			need, human(l.limit), human(l.used))
	case l.clientLimit > 0 && c.bytes+bytes > l.clientLimit:
		return markf(errLimit, "%s; --max-client-memory %s has %s in use by client %s; close pools (ClosePool), wait for games to end, or ask for less",
			need, human(l.clientLimit), human(c.bytes), client)
	}
	return nil
}

// grow adds bytes to r, or fails as reserveMemory does without changing r.
func (r *reservation) grow(what, detail string, bytes int64) error {
	s := r.s
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.ledgerLocked()
	c := l.client(r.client)
	if err := l.fits(r.client, c, what, detail, bytes); err != nil {
		l.forget(r.client)
		return err
	}
	l.used += bytes
	c.bytes += bytes
	r.bytes += bytes
	return nil
}

// release gives r back; later calls do nothing. A nil r is fine.
func (r *reservation) release() {
	if r == nil {
		return
	}
	r.once.Do(func() {
		s := r.s
		s.mu.Lock()
		defer s.mu.Unlock()
		l := s.ledgerLocked()
		l.used -= r.bytes
		c := l.client(r.client)
		c.bytes -= r.bytes
		if r.pool {
			c.pools--
		}
		l.forget(r.client)
	})
}

// client returns what client holds, adding an entry when it has none.
func (l *ledger) client(key string) *clientUse {
	c := l.clients[key]
	if c == nil {
		c = &clientUse{}
		l.clients[key] = c
	}
	return c
}

// forget drops client's entry when it holds nothing.
func (l *ledger) forget(key string) {
	if c := l.clients[key]; c != nil && c.bytes == 0 && c.pools == 0 {
		delete(l.clients, key)
	}
}

// The vecenv and rpc bookkeeping of a pool besides the envs and buffers
// (see vecenv.Pool and servedPool), rounded up.
const (
	// perEnvBytes: the vecenv slot (the env interface, seed, counters,
	// plan) and the ended flag.
	perEnvBytes = 96
	// perRowBytes: the episode return (8) and statistics (48), the Ended
	// flag, the parsed action and Arrow's two flag bits.
	perRowBytes = 8 + 48 + 1 + 4 + 1
	// perOpponentBytes: the opponent interface, its current and next
	// choice and its batch group.
	perOpponentBytes = 16 + 4 + 4 + 8
	// batchHeaderBytes: an Arrow IPC record batch header (the flatbuffer
	// with every buffer's offset and length) and padding, rounded up.
	batchHeaderBytes = 4 << 10
	// zstdSmallBytes and zstdLargeBytes: one zstd encoder
	// (klauspost/compress at its default level, as Arrow's IPC writer
	// makes one per compressing goroutine) that has compressed buffers of
	// at most its block size (zstdBlockBytes), and one that has compressed
	// larger ones, with its 8 MiB window's history. Measured at 2.3 MiB, and 18.6
	// MiB for buffers of 256 KiB to 256 MiB.
	zstdBlockBytes = 128 << 10
	zstdSmallBytes = 3 << 20
	zstdLargeBytes = 20 << 20
	// externalAgentBytes: an external bot's in-process side (its
	// process's pipes or HTTP client, the state text it is sent).
	externalAgentBytes = 1 << 20
	// recordGrowthQuarters is the factor, in quarters, of a recording's bound that
	// the server may hold at once: the recorder's slices grow by append
	// (up to 1.25× the data once grown, and the old and new arrays while
	// growing) and Connect marshals the response, a copy of the data.
	recordGrowthQuarters = 9
)

// poolCost is the byte cost of a pool by part.
type poolCost struct {
	envs, buffers, batches, zstd, opponents int64
}

func (c poolCost) total() int64 { return c.envs + c.buffers + c.batches + c.zstd + c.opponents }

// String breaks the cost down, for messages.
func (c poolCost) String() string {
	parts := []string{"envs " + human(c.envs), "buffers " + human(c.buffers), "batches " + human(c.batches)}
	if c.zstd > 0 {
		parts = append(parts, "zstd "+human(c.zstd))
	}
	if c.opponents > 0 {
		parts = append(parts, "opponents "+human(c.opponents))
	}
	return strings.Join(parts, ", ")
}

// batchBytes is the size of an uncompressed Arrow IPC record batch message
// of rows rows of spec (see observations.Encoder), the largest a
// compressed one gets too (zstd's bound adds a few bytes per buffer).
func batchBytes(spec *env.Spec, rows int64) int64 {
	pad := func(n int64) int64 { return (n + 63) &^ 63 }
	n := int64(batchHeaderBytes)
	for _, t := range spec.Obs {
		n += pad(rows*int64(t.Bytes())) + 8
	}
	n += pad(rows*int64(spec.Actions)) + 8 // mask
	n += 4*(pad(4*rows)+8) + 2*(pad((rows+7)/8)+8)
	return n
}

// poolCost returns the cost of the pool cfg makes; zstd is the request's
// COMPRESSION_ZSTD. Errors are those of making the probe envs and
// opponents (the same errors vecenv.New would return).
func (s *Server) poolCost(cfg vecenv.Config, zstd bool) (poolCost, error) {
	l := s.ledger()
	probe, err := l.sizes.env(s.opts.reg, cfg.Game, cfg.GameConfig)
	if err != nil {
		return poolCost{}, err
	}
	spec := probe.spec
	n := int64(cfg.NumEnvs)
	learners := int64(len(cfg.LearnerSeats))
	if cfg.LearnerSeats == nil {
		learners = int64(spec.Seats)
	}
	rows := n * learners
	oppSeats := int64(spec.Seats) - learners
	var c poolCost
	c.envs = withMargin(probe.first+(n-1)*probe.each) + n*perEnvBytes
	rowBytes := int64(spec.ObsBytes() + spec.Actions + 4 + 1 + 1 + 3*4)
	c.buffers = rows * (rowBytes + perRowBytes)
	encoders := int64(1)
	if cfg.AutoReset == vecenv.SameStep {
		encoders = 2
		c.buffers += rows * int64(spec.ObsBytes())
	}
	// Per encoder: the flag bitmaps, and the response messages: the one
	// built in the pool's buffer and Connect's marshalled copy.
	batch := batchBytes(spec, rows)
	c.batches = encoders * (2*((rows+7)/8) + 2*batch)
	if zstd {
		// The compressed bodies Arrow allocates (at zstd's bound, about
		// the body), and one encoder per compressing goroutine, as many
		// as the pool's workers, each of which may compress any buffer.
		c.batches += encoders * batch
		largest := rows * int64(spec.Actions)
		for _, t := range spec.Obs {
			largest = max(largest, rows*int64(t.Bytes()))
		}
		each := int64(zstdSmallBytes)
		if largest > zstdBlockBytes {
			each = zstdLargeBytes
		}
		workers := int64(min(max(cfg.Workers, 1), cfg.NumEnvs))
		c.zstd = encoders * workers * each
	}
	if oppSeats > 0 {
		c.opponents = n * oppSeats * perOpponentBytes
		for seat := range spec.Seats {
			f, ok := cfg.Opponents[seat]
			if !ok {
				continue
			}
			a, err := l.sizes.opponent(s.opts.reg, cfg.Game, cfg.GameConfig, cfg.OpponentNames[seat], seat, f)
			if err != nil {
				return poolCost{}, err
			}
			c.opponents += withMargin(a.first + (n-1)*a.each)
		}
	}
	return c, nil
}

// matchCost returns the cost of playing req (one game, not counting its
// recording): its env and its agents. A game or agent that cannot be made
// costs nothing here: playing it fails with the right error.
func (s *Server) matchCost(req *botarenav1.PlayRequest) int64 {
	l := s.ledger()
	game, cfg := req.GetGame(), []byte(req.GetConfigJson())
	probe, err := l.sizes.env(s.opts.reg, game, cfg)
	if err != nil {
		return 0
	}
	n := probe.first
	for seat, st := range req.GetSeats() {
		a, err := l.sizes.opponent(s.opts.reg, game, cfg, st.GetSpec(), seat, nil)
		if err == nil {
			n += a.first
		}
	}
	return withMargin(n)
}

// withMargin adds an eighth to a probed size: what envs and agents
// allocate after their first Reset (a longer list, a bigger search).
func withMargin(n int64) int64 { return n + n/8 }

// recordBound returns the bound of req's recorded data in a response
// ([dataBound]: every seat's row for every step up to the step cap or
// max_rounds), and ok false when the game cannot be made (playing it then
// fails with the right error).
func (s *Server) recordBound(req *botarenav1.PlayRequest) (bound int64, spec *env.Spec, ok bool) {
	probe, err := s.ledger().sizes.env(s.opts.reg, req.GetGame(), []byte(req.GetConfigJson()))
	if err != nil {
		return 0, nil, false
	}
	return int64(dataBound(probe.spec, int(req.GetMaxRounds()))), probe.spec, true
}

// recordReserve is what the server reserves for a recording of bound
// bytes.
func recordReserve(bound int64) int64 { return bound * recordGrowthQuarters / 4 }

// sizeCache measures, once per game and config (and agent), the heap bytes
// of envs and agents with [sizer]: first is what the first one costs,
// each what every further one adds (what they share, such as a policy's
// weights, is counted once). It is safe for concurrent use and holds at
// most maxProbes entries (then it starts over).
type sizeCache struct {
	mu     sync.Mutex
	probes map[string]*probe
}

const maxProbes = 1024

// probe is one measurement.
type probe struct {
	spec        *env.Spec // of the env (envs only)
	first, each int64
	done        chan struct{}
	err         error
}

// configKey returns the canonical form of game's config: its JSON over
// the defaults, so that spellings of one config share a probe.
func configKey(reg *env.Registry, game string, config []byte) (string, error) {
	cfg, err := reg.Config(game, config)
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		return "", err
	}
	return game + "\x00" + string(b), nil
}

// get returns the probe of key, running measure once for it.
func (c *sizeCache) get(key string, measure func(p *probe)) (*probe, error) {
	c.mu.Lock()
	if c.probes == nil || len(c.probes) >= maxProbes {
		c.probes = map[string]*probe{}
	}
	p, ok := c.probes[key]
	if !ok {
		p = &probe{done: make(chan struct{})}
		c.probes[key] = p
	}
	c.mu.Unlock()
	if !ok {
		func() {
			defer close(p.done)
			defer func() {
				if r := recover(); r != nil {
					p.err = fmt.Errorf("rpc: measuring %q: panic: %v", key, r)
				}
			}()
			measure(p)
		}()
		if p.err != nil {
			c.mu.Lock()
			if c.probes[key] == p {
				delete(c.probes, key) // errors are not cached
			}
			c.mu.Unlock()
		}
	}
	<-p.done
	return p, p.err
}

// probeSeed is the seed probe envs are reset with.
const probeSeed = 1

// env returns the probe of game's envs with config: two envs made and
// reset, measured together.
func (c *sizeCache) env(reg *env.Registry, game string, config []byte) (*probe, error) {
	key, err := configKey(reg, game, config)
	if err != nil {
		return nil, err
	}
	return c.get("env\x00"+key, func(p *probe) {
		a, err := reg.Make(game, config)
		if err != nil {
			p.err = err
			return
		}
		b, err := reg.Make(game, config)
		if err != nil {
			p.err = err
			return
		}
		a.Reset(probeSeed)
		b.Reset(probeSeed + 1)
		var z sizer
		p.first = z.of(a)
		p.each = z.of(b)
		p.spec = a.Spec()
	})
}

// opponent returns the probe of the agent name playing seat of game with
// config: two instances (from f, or agents.New when f is nil), reset on
// probe envs, measured together. An agent of
// another process (an external bot) is not made: it costs
// externalAgentBytes.
func (c *sizeCache) opponent(reg *env.Registry, game string, config []byte, name string, seat int, f env.AgentFactory) (*probe, error) {
	if !agents.InProcess(game, name) {
		return &probe{first: externalAgentBytes, each: externalAgentBytes}, nil
	}
	envs, err := c.env(reg, game, config)
	if err != nil {
		return nil, err
	}
	key, err := configKey(reg, game, config)
	if err != nil {
		return nil, err
	}
	return c.get(fmt.Sprintf("agent\x00%s\x00%d\x00%s", name, seat, key), func(p *probe) {
		spec := envs.spec
		make1 := func() (env.Agent, error) {
			if f != nil {
				return f(spec)
			}
			return agents.New(game, name, spec)
		}
		var z sizer
		for i := range 2 {
			e, err := reg.Make(game, config)
			if err != nil {
				p.err = err
				return
			}
			e.Reset(probeSeed + uint64(i))
			o, err := make1()
			if err != nil {
				p.err = err
				return
			}
			// Not Act: an agent may think for long, or wait.
			o.Reset(e, seat, probeSeed)
			z.of(e) // the env is not the agent's: count it as seen
			n := z.of(o)
			if cl, ok := o.(interface{ Close() error }); ok {
				cl.Close()
			}
			if _, ok := o.(vecenv.BatchOpponent); ok {
				// Its row of the per-worker batch: observation, mask,
				// action.
				n += int64(spec.ObsBytes() + spec.Actions + 4)
			}
			if i == 0 {
				p.first = n
			} else {
				p.each = n
			}
		}
	})
}

// sizer measures the heap bytes values reference: every object reachable
// from them through pointers, slices, strings, maps and interfaces, each
// counted once (by its address) and rounded up to the Go allocator's size
// class. Objects reached through unsafe pointers and closures are not
// counted, nor goroutines' stacks. A pointer into the middle of an object
// counts the part it points to again, and pointers to static data count
// as if it were on the heap: the result is an upper bound for plain
// values such as envs. The zero value is ready; one sizer measures several
// values in turn, not counting again what an earlier one reached.
type sizer struct {
	seen map[uintptr]struct{}
	ptrs map[reflect.Type]bool
}

// of returns the bytes v (a pointer, or a value held in an interface)
// references that no earlier call counted.
func (z *sizer) of(v any) int64 {
	if z.seen == nil {
		z.seen = map[uintptr]struct{}{}
		z.ptrs = map[reflect.Type]bool{}
	}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return 0
	}
	if rv.Kind() == reflect.Pointer {
		return z.pointer(rv)
	}
	return sizeClass(int64(rv.Type().Size())) + z.inner(rv)
}

// mark records address p and reports whether it was new.
func (z *sizer) mark(p uintptr) bool {
	if p == 0 {
		return false
	}
	if _, ok := z.seen[p]; ok {
		return false
	}
	z.seen[p] = struct{}{}
	return true
}

func (z *sizer) pointer(v reflect.Value) int64 {
	if v.IsNil() || !z.mark(v.Pointer()) {
		return 0
	}
	e := v.Elem()
	size := int64(e.Type().Size())
	if size == 0 {
		return 0
	}
	return sizeClass(size) + z.inner(e)
}

// inner returns the bytes v references besides its own storage.
func (z *sizer) inner(v reflect.Value) int64 {
	if !z.hasPointers(v.Type()) {
		return 0
	}
	switch v.Kind() {
	case reflect.Pointer:
		return z.pointer(v)
	case reflect.Interface:
		if v.IsNil() {
			return 0
		}
		e := v.Elem()
		if e.Kind() == reflect.Pointer {
			return z.pointer(e)
		}
		return sizeClass(int64(e.Type().Size())) + z.inner(e)
	case reflect.Slice:
		if v.IsNil() || v.Cap() == 0 || !z.mark(v.Pointer()) {
			return 0
		}
		et := v.Type().Elem()
		n := sizeClass(int64(v.Cap()) * int64(et.Size()))
		if z.hasPointers(et) {
			for i := range v.Len() {
				n += z.inner(v.Index(i))
			}
		}
		return n
	case reflect.String:
		s := v.String()
		if len(s) == 0 || !z.mark(uintptr(unsafe.Pointer(unsafe.StringData(s)))) {
			return 0
		}
		return sizeClass(int64(len(s)))
	case reflect.Map:
		if v.IsNil() || !z.mark(v.Pointer()) {
			return 0
		}
		t := v.Type()
		slots := int64(v.Len())*8/7 + 8
		n := 48 + sizeClass(slots*(int64(t.Key().Size())+int64(t.Elem().Size())+1))
		if z.hasPointers(t.Key()) || z.hasPointers(t.Elem()) {
			it := v.MapRange()
			for it.Next() {
				n += z.inner(it.Key()) + z.inner(it.Value())
			}
		}
		return n
	case reflect.Chan:
		if v.IsNil() || !z.mark(v.Pointer()) {
			return 0
		}
		return 96 + sizeClass(int64(v.Cap())*int64(v.Type().Elem().Size()))
	case reflect.Struct:
		var n int64
		for i := range v.NumField() {
			n += z.inner(v.Field(i))
		}
		return n
	case reflect.Array:
		var n int64
		for i := range v.Len() {
			n += z.inner(v.Index(i))
		}
		return n
	}
	return 0 // funcs, unsafe pointers
}

// hasPointers reports whether values of t can reference other memory.
func (z *sizer) hasPointers(t reflect.Type) bool {
	if p, ok := z.ptrs[t]; ok {
		return p
	}
	var p bool
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.String, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		p = true
	case reflect.Array:
		p = t.Len() > 0 && z.hasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if z.hasPointers(t.Field(i).Type) {
				p = true
				break
			}
		}
	}
	z.ptrs[t] = p
	return p
}

// sizeClasses are the Go allocator's small object sizes (runtime
// sizeclasses.go); larger objects take whole 8 KiB pages.
var sizeClasses = [...]int64{8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256,
	288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792, 2048,
	2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728, 10240, 10880,
	12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 28672, 32768}

// sizeClass returns the bytes the allocator takes for an object of n
// bytes.
func sizeClass(n int64) int64 {
	if n <= 0 {
		return 0
	}
	if n <= sizeClasses[len(sizeClasses)-1] {
		lo, hi := 0, len(sizeClasses)-1
		for lo < hi {
			mid := (lo + hi) / 2
			if sizeClasses[mid] < n {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		return sizeClasses[lo]
	}
	return (n + 8191) &^ 8191
}

// poolDetail describes a pool's cost for messages: its shape and parts.
func poolDetail(cfg vecenv.Config, c poolCost) string {
	return fmt.Sprintf("%d envs of %s: %v", cfg.NumEnvs, cfg.Game, c)
}

// admitPlay checks a Play request against the message limit and reserves
// its cost, or fails with ResourceExhausted: a recorded game whose data
// could exceed the message limit (its bound, [dataBound]) is refused
// before it is played, as is one that does not fit the memory budget. A
// request that cannot be played (closed server, unknown game, bad seats)
// reserves nothing: play returns its error.
func (s *Server) admitPlay(ctx context.Context, req *botarenav1.PlayRequest) (*reservation, error) {
	if s.isClosed() {
		return nil, nil
	}
	if _, err := s.match(req, ""); err != nil {
		return nil, nil
	}
	cost := s.matchCost(req)
	detail := ""
	if req.GetRecord() {
		bound, spec, ok := s.recordBound(req)
		if ok {
			if limit := int64(s.opts.maxMessageBytes); limit > 0 && bound > limit {
				return nil, markf(errLimit, "game %d: its recorded data could make a response of up to %.1f MiB (%s), over the server's message limit of %.1f MiB; cap the rounds (league run --max-rounds) or raise the limit (serve --max-message-bytes)",
					req.GetIndex(), mib(int(bound)), recordShape(spec, req), mib(s.opts.maxMessageBytes))
			}
			cost += recordReserve(bound)
			detail = "recording up to " + human(bound)
		}
	}
	return s.reserveMemory(clientKey(ctx), fmt.Sprintf("game %d", req.GetIndex()), detail, cost, false)
}

// recordShape describes the bound of req's recorded data.
func recordShape(spec *env.Spec, req *botarenav1.PlayRequest) string {
	steps := spec.MaxSteps
	if n := int(req.GetMaxRounds()); n > 0 {
		steps = min(steps, n)
	}
	return fmt.Sprintf("%d seats × %d steps × %d bytes", spec.Seats, steps, spec.ObsBytes()+spec.Actions+5+4+2)
}

// errorOutcomeBytes bounds the size of a game's error outcome in a
// PlayBatch response (a code and a message of a few hundred bytes).
const errorOutcomeBytes = 512

// resultBound bounds the size of a game's result without data in a
// PlayBatch response: the fixed fields and a standing per seat.
func resultBound(req *botarenav1.PlayRequest) int64 {
	n := int64(1 << 10)
	for _, st := range req.GetSeats() {
		n += 64 + int64(len(st.GetName()))
	}
	return n
}

// admitBatch checks the valid games of a PlayBatch request (valid[k] is
// ms[at[k]]) against the message limit and the memory budget before any is
// played, in request order, and returns the reservation and the games
// admitted. A game that does not fit gets its ResourceExhausted outcome in
// out (through failed): a recorded game whose data bound would take the
// response over the message limit, or whose recording does not fit the
// budget. The games in flight (as many as the PoolRunner plays at once,
// at the cost of the largest) are reserved first; when they do not fit,
// every game is refused.
func (s *Server) admitBatch(ctx context.Context, ms []*botarenav1.PlayRequest, valid []league.Match, at []int, out []*botarenav1.PlayOutcome,
	failed func(error) *botarenav1.PlayOutcome) (*reservation, []league.Match, []int) {
	if len(valid) == 0 {
		return nil, valid, at
	}
	client := clientKey(ctx)
	var each int64
	for _, i := range at {
		each = max(each, s.matchCost(ms[i]))
	}
	workers := int64(min(len(valid), s.opts.maxMatches))
	inFlight := min(int64(len(valid)), workers*(league.DefaultEnvsPerWorker+1))
	mem, err := s.reserveMemory(client, fmt.Sprintf("a batch of %d games", len(valid)),
		fmt.Sprintf("%d at once × %s", inFlight, human(each)), inFlight*each, false)
	if err != nil {
		for _, i := range at {
			out[i] = failed(fmt.Errorf("matches[%d]: %w", i, err))
		}
		return nil, nil, nil
	}
	// The response's bound: every game's outcome, at least an error's,
	// and a recorded game's data when it is admitted.
	limit := int64(s.opts.maxMessageBytes)
	size := int64(0)
	for i, o := range out {
		switch {
		case o != nil:
			size += int64(proto.Size(o)) + 8
		case !ms[i].GetRecord():
			size += resultBound(ms[i])
		default:
			size += errorOutcomeBytes
		}
	}
	keep := 0
	for k, i := range at {
		req := ms[i]
		if req.GetRecord() {
			bound, _, ok := s.recordBound(req)
			if !ok {
				bound = resultBound(req) // it fails when played
			}
			more := max(bound-errorOutcomeBytes, 0)
			if limit > 0 && size+more > limit {
				out[i] = failed(markf(errLimit, "matches[%d]: game %d: its recorded data could make the batch's response up to %.1f MiB, over the server's message limit of %.1f MiB; send fewer recorded games per call (league run --server-batch) or raise the limit (serve --max-message-bytes)",
					i, req.GetIndex(), mib(int(size+more)), mib(int(limit))))
				continue
			}
			if ok {
				if err := mem.grow(fmt.Sprintf("matches[%d]: game %d", i, req.GetIndex()), "recording up to "+human(bound), recordReserve(bound)); err != nil {
					out[i] = failed(err)
					continue
				}
			}
			size += more
		}
		valid[keep], at[keep] = valid[k], i
		keep++
	}
	return mem, valid[:keep], at[:keep]
}

package server

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/vecenv"
)

// externalAgentBytes is what an external bot costs ([Budget.AgentSizes]):
// its in-process side (its process's pipes or HTTP client, the state text
// it is sent).
const externalAgentBytes = 1 << 20

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
					p.err = fmt.Errorf("server: measuring %q: panic: %v", key, r)
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

package policy

import (
	"github.com/botarena/botarena/env"
)

// maxPrefixConfigs bounds the configs readsPrefix makes envs of for one
// spec: every game botarena ships needs fewer than 20.
const maxPrefixConfigs = 256

// prefixKey is what readsPrefix's answer depends on besides the model:
// the game and the leading extents of the spec's planes and scalars (the
// rest of their shapes is the model's, checked before).
type prefixKey struct {
	game            string
	planes, scalars int
}

// readsPrefix reports whether spec's planes and scalars, longer than the
// model's inputs along their leading axis, hold the model's inputs first
// by the rule of append-only config fields (env.AppendField): whether the
// config the model records, with some of its game's append-only fields
// raised, so that the recorded config's observations are prefixes of the
// raised one's (env.ObsPrefix), gives tensors of spec's shapes. It makes
// the envs of those configs in env.Default (a few, once per game and
// shape: the answer is kept).
func (m *Model) readsPrefix(spec *env.Spec) bool {
	planes, _ := spec.Tensor("planes")
	scalars, _ := spec.Tensor("scalars")
	key := prefixKey{spec.Game, planes.Shape[0], scalars.Len()}
	if v, ok := m.prefixes.Load(key); ok {
		return v.(bool)
	}
	ok := m.findPrefix(spec.Game, key.planes, key.scalars)
	m.prefixes.Store(key, ok)
	return ok
}

// findPrefix searches the raised configs of readsPrefix for one whose
// planes have planes leading channels and whose scalars scalars
// elements.
func (m *Model) findPrefix(game string, planes, scalars int) bool {
	if env.BaseGame(game) != env.BaseGame(m.arch.Game) {
		return false
	}
	entry, err := env.Default.Lookup(m.arch.Game)
	if err != nil {
		return false
	}
	trained, err := env.Default.Config(m.arch.Game, m.arch.Config)
	if err != nil {
		return false
	}
	fields, err := env.AppendFields(trained)
	if err != nil || len(fields) == 0 {
		return false
	}
	budget := maxPrefixConfigs + 1
	// extents returns the leading extents of cfg's planes and scalars,
	// ok false when cfg is not valid or makes no env.
	extents := func(cfg env.Config) (p, s int, ok bool) {
		if budget--; budget < 0 || cfg.Validate() != nil {
			return 0, 0, false
		}
		e, err := entry.New(cfg)
		if err != nil {
			return 0, 0, false
		}
		pt, okP := e.Spec().Tensor("planes")
		st, okS := e.Spec().Tensor("scalars")
		if !okP || !okS || len(pt.Shape) == 0 {
			return 0, 0, false
		}
		return pt.Shape[0], st.Len(), true
	}
	// The recorded config must give the model's own inputs.
	if p, s, ok := extents(trained); !ok || p != m.planesShape[0] || s != m.scalarsLen {
		return false
	}
	// try raises fields[i:] of cfg, each from the recorded value up, and
	// reports whether one raise gives the shapes. Raising a field only
	// lengthens a tensor, so a raise that overshoots ends the field's
	// values.
	var try func(i int, cfg env.Config) bool
	try = func(i int, cfg env.Config) bool {
		if i == len(fields) {
			if !env.ObsPrefix(fields, trained, cfg) {
				return false
			}
			p, s, ok := extents(cfg)
			return ok && p == planes && s == scalars
		}
		f := fields[i]
		for v := f.Value(trained); !f.Bool || v <= 1; v++ {
			c := cfg
			if v != f.Value(trained) {
				c = f.With(cfg, v)
				p, s, ok := extents(c)
				if !ok || p > planes || s > scalars {
					return false
				}
			}
			if try(i+1, c) {
				return true
			}
			if budget < 0 {
				return false
			}
		}
		return false
	}
	return try(0, trained)
}

package testutil

import "github.com/botarena/botarena/env"

// WithoutCodec returns a registry entry named name that makes the envs of
// entry with their native codec hidden ([env.Codec] is optional), under the
// game name name in their Spec: a game with the [env.Env] contract only.
func WithoutCodec(entry env.Entry, name string) env.Entry {
	inner := entry.New
	entry.Name = name
	entry.New = func(c env.Config) (env.Env, error) {
		e, err := inner(c)
		if err != nil {
			return nil, err
		}
		spec := *e.Spec()
		spec.Game = name
		return plainEnv{e, &spec}, nil
	}
	return entry
}

// plainEnv is an env without its codec, under its own spec.
type plainEnv struct {
	env.Env
	spec *env.Spec
}

func (p plainEnv) Spec() *env.Spec { return p.spec }

package agents

import (
	"errors"
	"fmt"
	"strings"

	"github.com/botarena/botarena/env"
)

// DaggerPrefix starts the spec of an agent that plays one agent and labels
// each of its states with another's choice: "dagger:TEACHER:STUDENT", for
// example "dagger:hunter:policy:bomberman.policy.safetensors?sample".
const DaggerPrefix = "dagger:"

// Labeller is implemented by agents whose every Act also names the action
// another agent, their teacher, would have taken in the same state (a
// "dagger:" agent). Recorders of match data store it beside the action
// played ([Labels]).
type Labeller interface {
	// Label returns the teacher's action for the state of the last Act.
	Label() int32
}

// Labels sets labels[seat] to the teacher's action of the seat's agent
// after Act where it is a [Labeller], and to actions[seat] otherwise. The
// three slices have one entry per seat. It does not allocate.
func Labels(ags []env.Agent, actions, labels []int32) {
	for seat, a := range ags {
		if l, ok := a.(Labeller); ok {
			labels[seat] = l.Label()
		} else {
			labels[seat] = actions[seat]
		}
	}
}

func init() {
	RegisterScheme(Scheme{
		Prefix: DaggerPrefix,
		Summary: "dagger:TEACHER:STUDENT plays the agent STUDENT (any spec) and records, beside each action, " +
			"what the built-in agent TEACHER would have done in the same state (imitation on the student's own states, DAgger)",
		New: newDagger,
		// The student may be any spec, an external bot included: only an
		// unrestricted caller may make one ([CapUnrestricted]).
	})
}

// newDagger makes the agent of a "dagger:TEACHER:STUDENT" spec.
func newDagger(game, spec string, envSpec *env.Spec) (env.Agent, error) {
	teacher, student, ok := strings.Cut(strings.TrimPrefix(spec, DaggerPrefix), ":")
	if !ok || teacher == "" || student == "" {
		return nil, errors.New("want dagger:TEACHER:STUDENT, a built-in agent's name and any agent spec (dagger:hunter:policy:PATH)")
	}
	if _, isScheme := scheme(teacher + ":"); isScheme {
		return nil, fmt.Errorf("the teacher %q must be a built-in agent's name (valid: %s), not a scheme", teacher, strings.Join(Names(game), ", "))
	}
	if _, _, known := lookup(game, teacher); !known {
		return nil, fmt.Errorf("%w teacher %q for %s (valid: %s)", ErrUnknownAgent, teacher, BaseGame(game), strings.Join(Names(game), ", "))
	}
	t, err := New(game, teacher, envSpec)
	if err != nil {
		return nil, err
	}
	s, err := New(game, student, envSpec)
	if err != nil {
		Close(t)
		return nil, fmt.Errorf("student: %w", err)
	}
	return &dagger{teacher: t, student: s}, nil
}

// dagger plays its student's actions and remembers its teacher's.
type dagger struct {
	teacher, student env.Agent
	label            int32
}

// Reset resets both agents with the same seed.
func (d *dagger) Reset(e env.Env, seat int, seed uint64) {
	d.teacher.Reset(e, seat, seed)
	d.student.Reset(e, seat, seed)
}

// Act asks the teacher first (it reads the state and changes only itself),
// then plays the student's action.
func (d *dagger) Act(e env.Env, seat int) int32 {
	d.label = d.teacher.Act(e, seat)
	return d.student.Act(e, seat)
}

// Label returns the teacher's action of the last Act.
func (d *dagger) Label() int32 { return d.label }

// Close closes whichever of the two holds resources.
func (d *dagger) Close() error {
	return errors.Join(Close(d.teacher), Close(d.student))
}

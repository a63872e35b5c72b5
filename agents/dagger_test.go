package agents

import (
	"errors"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
)

func TestDaggerPlaysTheStudentAndLabelsWithTheTeacher(t *testing.T) {
	d, err := New("testgame", "dagger:random:idle", fakeSpec)
	if err != nil {
		t.Fatal(err)
	}
	teacher := NewRandom(fakeSpec)
	g, twin := &fakeGame{spec: fakeSpec}, &fakeGame{spec: fakeSpec}
	d.Reset(g, 1, 9)
	teacher.Reset(twin, 1, 9)
	ags, actions, labels := []env.Agent{Idle{}, d}, make([]int32, 2), make([]int32, 2)
	moved := false
	for !g.Done() {
		actions[0], actions[1] = 3, d.Act(g, 1)
		want := teacher.Act(twin, 1)
		Labels(ags, actions, labels)
		if actions[1] != 0 || labels[1] != want || labels[0] != 3 {
			t.Fatalf("step %d: played %d (want the student's 0), labels %v (want [3 %d]: seat 0's action, the teacher's)", g.steps, actions[1], labels, want)
		}
		moved = moved || want != 0
		g.steps++
		twin.steps++
	}
	if !moved {
		t.Error("the teacher never chose anything but 0: the test shows nothing")
	}
	if n := testing.AllocsPerRun(100, func() { d.Act(g, 1); Labels(ags, actions, labels) }); n != 0 {
		t.Errorf("Act and Labels allocate %v times", n)
	}
}

func TestDaggerSpecErrors(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"dagger:", "want dagger:TEACHER:STUDENT"},
		{"dagger:random", "want dagger:TEACHER:STUDENT"},
		{"dagger:random:", "want dagger:TEACHER:STUDENT"},
		{"dagger::idle", "want dagger:TEACHER:STUDENT"},
		{"dagger:nobody:idle", "unknown agent teacher \"nobody\""},
		{"dagger:dagger:idle:idle", "must be a built-in agent's name"},
		{"dagger:random:nobody", "student: unknown agent"},
	} {
		_, err := New("testgame", tc.spec, fakeSpec)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one with %q", tc.spec, err, tc.want)
		}
	}
	if _, err := New("testgame", "dagger:nobody:idle", fakeSpec); !errors.Is(err, ErrUnknownAgent) {
		t.Errorf("an unknown teacher: %v, want ErrUnknownAgent", err)
	}
}

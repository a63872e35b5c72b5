package vecenv_test

import (
	"testing"

	"github.com/botarena/botarena/env"
	_ "github.com/botarena/botarena/env/battlebots"
	"github.com/botarena/botarena/internal/testutil"
	"github.com/botarena/botarena/vecenv"
)

// TestStatsCountOpponentInvalid: an opponent whose every action is out of
// range has each of them counted for its choice, and none for the learner.
func TestStatsCountOpponentInvalid(t *testing.T) {
	p := toyPool(t, vecenv.Config{
		Workers:      2,
		LearnerSeats: []int{0},
		Opponents:    map[int]env.AgentFactory{1: fixed(7)},
	})
	if err := p.Reset(); err != nil {
		t.Fatal(err)
	}
	for range 3 { // one episode of 3 steps per env
		step(t, p, 1)
	}
	st := p.Stats()
	if st.Episodes() != 3 || st.Invalid != 0 || st.MeanInvalid() != 0 {
		t.Errorf("stats %+v, want 3 episodes and no invalid learner action", st)
	}
	if len(st.Opponents) != 1 || st.Opponents[0].Episodes != 3 || st.Opponents[0].Invalid != 9 {
		t.Errorf("opponent stats %+v, want 9 invalid actions in 3 episodes", st.Opponents)
	}
	p.ResetStats()
	if st := p.Stats(); st.Invalid != 0 || st.Opponents[0].Invalid != 0 {
		t.Errorf("after ResetStats: %+v", st)
	}
}

// TestStatsInvalidIsTheEnvsCount: Stats.Invalid and OpponentStats.Invalid
// sum each env's own Invalid count of the seat at the step its episode
// ends, for real games with random learner actions (many illegal).
func TestStatsInvalidIsTheEnvsCount(t *testing.T) {
	for _, game := range []string{"bomberman/2p", "battlebots"} {
		t.Run(game, func(t *testing.T) {
			p := testutil.NewPool(t, vecenv.Config{
				Game: game, NumEnvs: 4, Workers: 2, Seed: 5, MaxEpisodeSteps: 12,
				LearnerSeats: []int{0},
				Opponents:    map[int]env.AgentFactory{1: fixed(1)},
			})
			if err := p.Reset(); err != nil {
				t.Fatal(err)
			}
			next := actionStream(p.Rows(), p.Spec().Actions, 3)
			var learner, opponent int64
			for range 50 {
				if err := p.Step(next()); err != nil {
					t.Fatal(err)
				}
				for i, ended := range p.Ended() { // one row per env
					if ended {
						learner += int64(p.Env(i).Invalid(0))
						opponent += int64(p.Env(i).Invalid(1))
					}
				}
			}
			st := p.Stats()
			if st.Invalid != learner || learner == 0 {
				t.Errorf("Stats.Invalid = %d, the envs counted %d (want some)", st.Invalid, learner)
			}
			if want := float64(learner) / float64(st.Episodes()); st.MeanInvalid() != want {
				t.Errorf("MeanInvalid = %v, want %v", st.MeanInvalid(), want)
			}
			if len(st.Opponents) != 1 || st.Opponents[0].Invalid != opponent {
				t.Errorf("opponent stats %+v, the envs counted %d invalid actions", st.Opponents, opponent)
			}
		})
	}
}

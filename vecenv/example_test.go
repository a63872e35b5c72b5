package vecenv_test

import (
	"fmt"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/vecenv"
)

// A single-agent view of 2-player Bomberman: the learner plays seat 0 of
// every env, the reference bot seat 1.
func ExampleNew() {
	p, err := vecenv.New(vecenv.Config{
		Game:         "bomberman/2p",
		NumEnvs:      8,
		Seed:         1,
		LearnerSeats: []int{0},
		Opponents: map[int]env.AgentFactory{
			1: func(spec *env.Spec) (env.Agent, error) { return agents.New(spec.Game, "reference", spec) },
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()
	if err := p.Reset(); err != nil {
		fmt.Println(err)
		return
	}
	buf := p.Buffers()
	actions := make([]int32, p.Rows())
	for range 500 {
		// A policy reads buf.Obs and buf.Mask; this one places a bomb
		// whenever it may, and does nothing otherwise.
		for r := range actions {
			actions[r] = 0
			if buf.RowMask(r)[5] == 1 {
				actions[r] = 5
			}
		}
		if err := p.Step(actions); err != nil {
			fmt.Println(err)
			return
		}
	}
	s := p.Stats().Seats[0]
	fmt.Printf("rows %d, tensors %d, episodes %d (won %d)\n", p.Rows(), len(buf.Obs), s.Episodes, s.Wins)
	// Output: rows 8, tensors 2, episodes 664 (won 0)
}

// A league's block of games on a pool without learner seats: each env is
// planned with its next game (seed and agents) as the last one ends, and
// held once the schedule runs out.
func ExamplePool_Plan() {
	agent := func(name string) env.AgentFactory {
		return func(spec *env.Spec) (env.Agent, error) { return agents.New(spec.Game, name, spec) }
	}
	p, err := vecenv.New(vecenv.Config{
		Game:          "battlebots",
		NumEnvs:       2,
		LearnerSeats:  []int{}, // every seat is an agent
		Opponents:     map[int]env.AgentFactory{0: agent("sniper"), 1: agent("sniper")},
		OpponentNames: map[int]string{0: "sniper", 1: "sniper"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()
	for seat := range 2 {
		var choices []vecenv.OpponentChoice
		for _, name := range []string{"sniper", "huggy", "random"} {
			choices = append(choices, vecenv.OpponentChoice{Name: name, Factory: agent(name), Weight: 1})
		}
		if err := p.SetOpponents(seat, choices); err != nil {
			fmt.Println(err)
			return
		}
	}
	games := [][2]string{{"sniper", "huggy"}, {"huggy", "random"}, {"random", "sniper"}}
	playing := []int{-1, -1}
	next := 0
	assign := func(i int) {
		if next == len(games) {
			playing[i] = -1
			p.Hold(i)
			return
		}
		playing[i] = next
		p.Plan(i, vecenv.EpisodePlan{Seed: uint64(100 + next), Opponents: games[next][:]})
		next++
	}
	assign(0)
	assign(1)
	if err := p.Reset(); err != nil {
		fmt.Println(err)
		return
	}
	for playing[0] >= 0 || playing[1] >= 0 {
		if err := p.Step(nil); err != nil {
			fmt.Println(err)
			return
		}
		for i, ended := range p.EnvsEnded() {
			if ended {
				g := playing[i]
				r := p.Env(i).Result()
				result := "a draw"
				if r.Winner >= 0 {
					result = games[g][r.Winner] + " wins"
				}
				fmt.Printf("game %d, %s vs %s: %s in %d rounds\n", g, games[g][0], games[g][1], result, r.Rounds)
				assign(i)
			}
		}
	}
	// Output:
	// game 0, sniper vs huggy: sniper wins in 6 rounds
	// game 2, random vs sniper: sniper wins in 7 rounds
	// game 1, huggy vs random: random wins in 14 rounds
}

package envproto_test

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/rpc/envproto"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
)

// anyAgent allows every agent spec, naming the one it made.
func anyAgent(game, field, spec string) (env.AgentFactory, error) {
	if spec == "nobody" {
		return nil, fmt.Errorf("%s: no agent %q", field, spec)
	}
	return func(*env.Spec) (env.Agent, error) { return nil, nil }, nil
}

func TestPoolConfigDefaultOpponentFillsTheOtherSeats(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  *botarenav1.CreatePoolRequest
		want string
	}{
		{"fills_unnamed_seats", &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1, LearnerSeats: []int32{1}, Opponents: map[int32]string{2: "idle"}, DefaultOpponent: "random"}, "map[0:random 2:idle 3:random]"},
		{"every_seat_learns", &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1, DefaultOpponent: "random"}, "map[]"},
		{"no_default", &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1, LearnerSeats: []int32{0}, Opponents: map[int32]string{1: "idle"}}, "map[1:idle]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := envproto.PoolConfig(tc.req, envproto.PoolOptions{Opponent: anyAgent})
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(p.Config.OpponentNames); got != tc.want || len(p.Config.Opponents) != len(p.Config.OpponentNames) {
				t.Errorf("opponents %s (%d factories), want %s", got, len(p.Config.Opponents), tc.want)
			}
		})
	}
}

// TestPoolConfigWorkersCap: a request's workers are capped at MaxWorkers,
// and 0 asks for MaxWorkers, except under a cap of exactly GOMAXPROCS (a
// server's default), where 0 is vecenv's default (the same goroutines,
// as many woken per step as pay).
func TestPoolConfigWorkersCap(t *testing.T) {
	procs := int32(runtime.GOMAXPROCS(0))
	for _, tc := range []struct {
		asked, max, want int32
	}{{0, 0, 0}, {3, 0, 3}, {0, procs + 2, procs + 2}, {3, procs + 2, 3}, {procs + 9, procs + 2, procs + 2}, {0, procs, 0}, {1, procs, 1}} {
		p, err := envproto.PoolConfig(&botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 1, Workers: tc.asked}, envproto.PoolOptions{Opponent: anyAgent, MaxWorkers: int(tc.max)})
		if err != nil || p.Config.Workers != int(tc.want) {
			t.Errorf("workers %d, cap %d: got %d, %v; want %d", tc.asked, tc.max, p.Config.Workers, err, tc.want)
		}
	}
}

func TestPoolConfigErrorsNameTheField(t *testing.T) {
	type req = botarenav1.CreatePoolRequest
	for _, tc := range []struct {
		name    string
		req     *req
		invalid bool
		want    string
	}{
		{"no_game", &req{NumEnvs: 1}, true, "game: required"},
		{"unknown_game", &req{Game: "chess", NumEnvs: 1}, false, "chess"},
		{"config_not_json", &req{Game: "bomberman", ConfigJson: "{", NumEnvs: 1}, true, "config_json:"},
		{"no_envs", &req{Game: "bomberman"}, true, "num_envs: got 0"},
		{"batch_size", &req{Game: "bomberman", NumEnvs: 2, BatchSize: 3}, true, "batch_size: got 3"},
		{"too_many_seats", &req{Game: "bomberman/2p", NumEnvs: 1, LearnerSeats: []int32{0, 1, 0}}, true, "learner_seats: 3 seats given"},
		{"workers", &req{Game: "bomberman", NumEnvs: 1, Workers: -2}, true, "workers: got -2"},
		{"auto_reset", &req{Game: "bomberman", NumEnvs: 1, AutoReset: 9}, true, "auto_reset: got 9"},
		{"compression", &req{Game: "bomberman", NumEnvs: 1, Compression: 9}, true, "compression: got 9"},
		{"agent", &req{Game: "bomberman/2p", NumEnvs: 1, LearnerSeats: []int32{0}, DefaultOpponent: "nobody"}, false, `opponents[1]: no agent "nobody"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := envproto.PoolConfig(tc.req, envproto.PoolOptions{Opponent: anyAgent})
			if err == nil || !strings.Contains(err.Error(), tc.want) || errors.Is(err, envproto.ErrInvalid) != tc.invalid {
				t.Errorf("err %v (ErrInvalid %t), want %q (ErrInvalid %t)", err, errors.Is(err, envproto.ErrInvalid), tc.want, tc.invalid)
			}
		})
	}
}

func TestMixturesAreCheckedBeforeAnySeatChanges(t *testing.T) {
	mix := func(choices ...*botarenav1.OpponentChoice) *botarenav1.OpponentMix {
		return &botarenav1.OpponentMix{Choices: choices}
	}
	c := func(spec string, weight float64, name string) *botarenav1.OpponentChoice {
		return &botarenav1.OpponentChoice{Spec: spec, Weight: weight, Name: name}
	}
	clip := func(s string) string { return s[:min(len(s), 4)] + "…" }
	opts := envproto.PoolOptions{Opponent: anyAgent, Clip: clip}
	for _, tc := range []struct {
		name    string
		req     map[int32]*botarenav1.OpponentMix
		invalid bool
		want    string
	}{
		{"none", nil, true, "opponents: required"},
		{"seat_range", map[int32]*botarenav1.OpponentMix{4: mix(c("idle", 1, ""))}, true, "opponents[4]: seat 4 is not a seat of g (0..3)"},
		{"learner", map[int32]*botarenav1.OpponentMix{1: mix(c("idle", 1, ""))}, true, `seat 1 is a learner seat of pool "pool…"`},
		{"empty", map[int32]*botarenav1.OpponentMix{2: mix()}, true, "opponents[2]: the mixture needs at least one choice"},
		{"weight", map[int32]*botarenav1.OpponentMix{2: mix(c("idle", -1, ""))}, true, "opponents[2].choices[0].weight: got -1"},
		{"repeated_name", map[int32]*botarenav1.OpponentMix{2: mix(c("idle", 1, "samename"), c("random", 1, "samename"))}, true, `choices[1].name: "same…" repeats`},
		{"sum", map[int32]*botarenav1.OpponentMix{2: mix(c("idle", 0, ""))}, true, "the weights sum to 0"},
		// The last seat's agent is unknown: nothing is returned for the first.
		{"agent", map[int32]*botarenav1.OpponentMix{0: mix(c("idle", 1, "")), 3: mix(c("nobody", 1, ""))}, false, `opponents[3].choices[0].spec: no agent "nobody"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := envproto.Mixtures(tc.req, "g", "pool-id", 4, []int{1}, opts)
			if got != nil || err == nil || !strings.Contains(err.Error(), tc.want) || errors.Is(err, envproto.ErrInvalid) != tc.invalid {
				t.Errorf("%v, %v (ErrInvalid %t), want %q (ErrInvalid %t)", got, err, errors.Is(err, envproto.ErrInvalid), tc.want, tc.invalid)
			}
		})
	}
	got, err := envproto.Mixtures(map[int32]*botarenav1.OpponentMix{3: mix(c("idle", 1, "")), 0: mix(c("idle", 1, ""), c("random", 3, "r"))}, "g", "p", 4, []int{1}, opts)
	if err != nil || len(got) != 2 || got[0].Seat != 0 || got[1].Seat != 3 || got[0].Choices[1].Name != "r" || got[0].Choices[1].Weight != 3 || got[1].Choices[0].Name != "idle" {
		t.Errorf("Mixtures = %+v, %v; want seats 0 and 3 in order, names defaulting to the spec", got, err)
	}
}

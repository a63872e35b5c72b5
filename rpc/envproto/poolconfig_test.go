package envproto_test

import (
	"errors"
	"fmt"
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

func TestPoolConfigWorkersCap(t *testing.T) {
	for _, tc := range []struct {
		asked, max, want int32
	}{{0, 0, 0}, {3, 0, 3}, {0, 4, 4}, {3, 4, 3}, {9, 4, 4}} {
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

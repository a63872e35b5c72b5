package bench_test

import (
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/bench"
	_ "github.com/botarena/botarena/env/bomberman"
)

func TestRunReportsAConsistentMeasurement(t *testing.T) {
	for _, encode := range []bool{false, true} {
		res, err := bench.Run(bench.Config{Game: "bomberman", Envs: 3, Workers: 2, Duration: 50 * time.Millisecond, Seed: 1, Encode: encode})
		if err != nil {
			t.Fatal(err)
		}
		if res.Envs != 3 || res.Workers != 2 || res.Seats != 4 || res.Steps < 1 {
			t.Errorf("envs %d workers %d seats %d steps %d", res.Envs, res.Workers, res.Seats, res.Steps)
		}
		if got, want := res.AgentStepsPerSec, res.EnvStepsPerSec*4; got < want*0.999 || got > want*1.001 {
			t.Errorf("agent-steps/s %g is not 4 × env-steps/s %g", got, want)
		}
		if res.ObsBytesPerAgent != 12*21*21+8*4+7 {
			t.Errorf("obs bytes per agent %d", res.ObsBytesPerAgent)
		}
		if encode != (res.BatchBytes > 0) {
			t.Errorf("encode %v but batch bytes %d", encode, res.BatchBytes)
		}
	}
}

func TestRunRejectsBadConfigs(t *testing.T) {
	tests := []struct {
		name string
		cfg  bench.Config
		want string
	}{
		{"no_envs", bench.Config{Game: "bomberman", Envs: 0, Duration: time.Second}, "envs: want at least 1"},
		{"negative_workers", bench.Config{Game: "bomberman", Envs: 1, Workers: -1, Duration: time.Second}, "workers"},
		{"no_duration", bench.Config{Game: "bomberman", Envs: 1}, "duration"},
		{"unknown_game", bench.Config{Game: "chess", Envs: 1, Duration: time.Second}, `unknown game "chess"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := bench.Run(tt.cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

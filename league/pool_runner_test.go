package league

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"sync"
	"testing"

	"github.com/botarena/botarena/agents"
	_ "github.com/botarena/botarena/agents/policy" // policy:PATH agents
	"github.com/botarena/botarena/env"
	_ "github.com/botarena/botarena/env/battlecube"   // registers battlecube
	_ "github.com/botarena/botarena/env/battleships"  // registers battleships
	_ "github.com/botarena/botarena/env/portalbomber" // registers portalbomber
)

func init() {
	// A scheme of agents that are not in process (as external bots are),
	// playing huggy: their games go to a LocalRunner.
	agents.RegisterScheme(agents.Scheme{
		Prefix: "league-test-external:",
		Games:  []string{"battlebots"},
		New: func(game, spec string, envSpec *env.Spec) (env.Agent, error) {
			return agents.New(game, "huggy", envSpec)
		},
	})
}

// snapshot is a committed BattleBots policy (the make league example's).
var snapshot = filepath.Join("..", "examples", "league", "policies", "battlebots-snap-008.safetensors")

// poolCase is a block of matches of one game.
type poolCase struct {
	game      string
	agents    []string
	games     int
	maxRounds int
	record    bool
}

// matchesOf makes c's matches: every seat cycles through c.agents at its
// own stride, so that one block pairs many agents in every seat.
func matchesOf(c poolCase, seats int) []Match {
	out := make([]Match, c.games)
	for g := range out {
		m := Match{Index: int64(g), Seed: GameSeed(77, int64(g)), Game: c.game, MaxRounds: c.maxRounds, Record: c.record}
		for s := range seats {
			name := c.agents[(g+s*(g/len(c.agents)+1))%len(c.agents)]
			m.Seats = append(m.Seats, Entrant{Name: fmt.Sprintf("%s-%d", name, len(name)), Spec: name})
		}
		out[g] = m
	}
	return out
}

// playAll plays matches with r's PlayBatch and returns the results by index.
func playAll(t *testing.T, r BatchRunner, matches []Match, workers int) []Result {
	t.Helper()
	out := make([]Result, len(matches))
	seen := make([]bool, len(matches))
	var mu sync.Mutex
	r.PlayBatch(context.Background(), matches, workers, func(j int, res Result, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			t.Errorf("match %d: %v", j, err)
		}
		if seen[j] {
			t.Errorf("match %d reported twice", j)
		}
		seen[j], out[j] = true, res
	})
	for j, ok := range seen {
		if !ok {
			t.Fatalf("match %d was never reported", j)
		}
	}
	return out
}

// sameResult compares two results, their match data included.
func sameResult(a, b Result) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb) && reflect.DeepEqual(a.Data, b.Data)
}

func TestPoolRunnerPlaysEveryGameLikeTheLocalRunner(t *testing.T) {
	cases := []poolCase{
		{game: "battlebots", agents: []string{"huggy", "nop", "sniper", "random", "idle", "policy:" + snapshot + "?sample", "policy:" + snapshot}, games: 30, record: true},
		{game: "battlebots", agents: []string{"sniper", "random", "league-test-external:x"}, games: 12},
		{game: "battlecube", agents: []string{"dumb", "teebot", "random"}, games: 6, maxRounds: 40},
		{game: "battlecube/2p", agents: []string{"dumb", "teebot", "random"}, games: 8, record: true},
		{game: "battleships/small", agents: []string{"reference", "random"}, games: 8},
		{game: "bomberman/2p", agents: []string{"reference", "random", "idle"}, games: 6, maxRounds: 60, record: true},
		{game: "portalbomber", agents: []string{"greedy", "practice", "random"}, games: 8},
	}
	if testing.Short() {
		cases = cases[:2]
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%d", c.game, c.maxRounds), func(t *testing.T) {
			e, err := env.Make(c.game, nil)
			if err != nil {
				t.Fatal(err)
			}
			matches := matchesOf(c, e.Spec().Seats)
			local := &LocalRunner{}
			want := make([]Result, len(matches))
			for j, m := range matches {
				if want[j], err = local.Play(context.Background(), m); err != nil {
					t.Fatal(err)
				}
			}
			for _, workers := range []int{1, 3} {
				got := playAll(t, &PoolRunner{EnvsPerWorker: 2}, matches, workers)
				for j := range matches {
					if !sameResult(got[j], want[j]) {
						t.Fatalf("workers=%d, match %d %v:\npool  %+v\nlocal %+v", workers, j, matches[j].Seats, got[j], want[j])
					}
					if c.record && (got[j].Data == nil || got[j].Data.Steps != want[j].Rounds) {
						t.Fatalf("match %d: recorded %v steps for %d rounds", j, got[j].Data, want[j].Rounds)
					}
				}
			}
		})
	}
}

func TestPoolRunnerReplaysTheGamesOfAPanickingAgentAsForfeits(t *testing.T) {
	c := poolCase{game: "battlebots", agents: []string{"huggy", "league-test-panics", "sniper", "random"}, games: 16}
	matches := matchesOf(c, 2)
	local := &LocalRunner{}
	got := playAll(t, &PoolRunner{EnvsPerWorker: 4}, matches, 2)
	forfeits := 0
	for j, m := range matches {
		want, err := local.Play(context.Background(), m)
		if err != nil {
			t.Fatal(err)
		}
		if !sameResult(got[j], want) {
			t.Fatalf("match %d %v:\npool  %+v\nlocal %+v", j, m.Seats, got[j], want)
		}
		if got[j].Forfeit != nil {
			forfeits++
		}
	}
	if forfeits == 0 {
		t.Fatal("no game had a forfeit: the test does not test it")
	}
}

func TestPoolRunnerReportsTheFirstMatchOfAnAgentThatCannotStart(t *testing.T) {
	matches := matchesOf(poolCase{game: "battlebots", agents: []string{"huggy", "random"}, games: 6}, 2)
	matches[3].Seats[1] = Entrant{Name: "ghost", Spec: "policy:/nonexistent.safetensors"}
	var errs []string
	(&PoolRunner{}).PlayBatch(context.Background(), matches, 2, func(j int, _ Result, err error) {
		if err != nil {
			errs = append(errs, fmt.Sprintf("%d: %v", j, err))
		}
	})
	if len(errs) != 1 || errs[0][:3] != "3: " {
		t.Fatalf("errors %q, want one for match 3", errs)
	}
}

func TestPoolRunnerStopsWhenCancelled(t *testing.T) {
	matches := matchesOf(poolCase{game: "battlebots", agents: []string{"sniper", "random", "huggy"}, games: 64}, 2)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	var last error
	(&PoolRunner{}).PlayBatch(ctx, matches, runtime.GOMAXPROCS(0), func(j int, _ Result, err error) {
		n++
		last = err
		if n == 5 {
			cancel()
		}
	})
	if n >= len(matches) || last != context.Canceled {
		t.Fatalf("%d of %d reported, the last with %v; want it to stop early with context.Canceled", n, len(matches), last)
	}
}

package vecenv_test

import "github.com/botarena/botarena/env"

// toy is a tiny deterministic game for exact autoreset, statistics and
// allocation tests. Each step, every seat still in play gets its action as
// reward; action 2 takes the seat out (terminated). The game is Done when
// every seat is out or after Length steps (the seats still in are
// truncated); actions outside 0..2 count in Invalid and otherwise act as
// their value. Its observation is one uint8 tensor per seat: [seat, steps,
// the seat's last action, the low byte of the reset seed]. Outcome: the
// winner is the seat with the highest return (the lowest seat on ties),
// and a draw when the top two tie.
type toy struct {
	cfg   *toyConfig
	spec  *env.Spec
	seed  uint64
	steps int
	out   [8]bool
	last  [8]int32
	ret   [8]float32
	done  bool

	invalid [8]int
}

type toyConfig struct {
	Seats  int `json:"seats"`
	Length int `json:"length"`
}

func (c *toyConfig) Validate() error {
	if c.Seats < 1 || c.Seats > 8 {
		return &env.ConfigError{Game: "toy", Field: "seats", Value: c.Seats, Reason: "must be 1..8"}
	}
	if c.Length < 1 {
		return &env.ConfigError{Game: "toy", Field: "length", Value: c.Length, Reason: "must be at least 1"}
	}
	return nil
}

// toyRegistry returns a registry with the toy game registered as "toy".
func toyRegistry() *env.Registry {
	r := &env.Registry{}
	r.Register(env.Entry{
		Name:      "toy",
		Summary:   "test game",
		Rules:     func(env.Config) string { return "" },
		NewConfig: func() env.Config { return &toyConfig{Seats: 2, Length: 3} },
		New: func(c env.Config) (env.Env, error) {
			cfg := c.(*toyConfig)
			return &toy{cfg: cfg, spec: &env.Spec{
				Game:        "toy",
				Seats:       cfg.Seats,
				Obs:         []env.Tensor{{Name: "state", DType: env.Uint8, Shape: []int{4}, Layout: "[4]"}},
				Actions:     3,
				ActionNames: []string{"stay", "one", "out"},
				MaxSteps:    cfg.Length,
			}}, nil
		},
	})
	return r
}

func (g *toy) Spec() *env.Spec { return g.spec }

func (g *toy) Reset(seed uint64) {
	*g = toy{cfg: g.cfg, spec: g.spec, seed: seed}
}

func (g *toy) Step(actions []int32, rewards []float32, terminated, truncated []bool) {
	g.spec.CheckStep(actions, rewards, terminated, truncated)
	if g.done {
		clear(rewards)
		return
	}
	g.steps++
	in := 0
	for s := range g.cfg.Seats {
		rewards[s] = 0
		if g.out[s] {
			continue
		}
		g.last[s] = actions[s]
		if actions[s] < 0 || actions[s] > 2 {
			g.invalid[s]++
		}
		rewards[s] = float32(actions[s])
		g.ret[s] += rewards[s]
		if actions[s] == 2 {
			g.out[s] = true
		} else {
			in++
		}
	}
	g.done = in == 0 || g.steps >= g.cfg.Length
	for s := range g.cfg.Seats {
		terminated[s] = g.out[s]
		truncated[s] = g.done && !g.out[s]
	}
}

func (g *toy) Done() bool { return g.done }
func (g *toy) Steps() int { return g.steps }

func (g *toy) WriteObs(seat int, dst [][]byte) {
	g.spec.CheckObs(dst)
	dst[0][0] = byte(seat)
	dst[0][1] = byte(g.steps)
	dst[0][2] = byte(g.last[seat])
	dst[0][3] = byte(g.seed)
}

func (g *toy) WriteMask(seat int, dst []uint8) { dst[0], dst[1], dst[2] = 1, 1, 1 }

func (g *toy) Outcome() (winner int, draw bool) {
	best, second := 0, -1
	for s := 1; s < g.cfg.Seats; s++ {
		if g.ret[s] > g.ret[best] {
			best, second = s, best
		} else if second < 0 || g.ret[s] > g.ret[second] {
			second = s
		}
	}
	return best, second >= 0 && g.ret[second] == g.ret[best]
}

func (g *toy) Result() env.Result {
	w, d := g.Outcome()
	return env.Result{Rounds: g.steps, Winner: w, Draw: d}
}

func (g *toy) Invalid(seat int) int { return g.invalid[seat] }

// fixedOpponent always plays its action; panicAt > 0 makes Act panic at
// that step.
type fixedOpponent struct {
	action  int32
	panicAt int
	resets  int
	seed    uint64
}

func (o *fixedOpponent) Reset(_ env.Env, _ int, seed uint64) { o.resets++; o.seed = seed }
func (o *fixedOpponent) Act(e env.Env, _ int) int32 {
	if o.panicAt > 0 && e.Steps()+1 >= o.panicAt {
		panic("fixedOpponent: boom")
	}
	return o.action
}

package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/botarena/botarena/bench"
)

type benchFlags struct {
	game    string
	config  string
	envs    string
	workers string
	seconds float64
	seed    uint64
	encode  bool
	zstd    bool
	asJSON  bool
}

func newBenchCmd(c *cli) *cobra.Command {
	var o benchFlags
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure pool throughput (agent-steps/s), optionally with Arrow encoding",
		Long: "bench steps a pool of envs with random in-range actions, observations and masks written for\n" +
			"every seat, and reports agent-steps per second. --envs and --workers take comma-separated lists;\n" +
			"every combination is measured. --encode adds the Arrow encoding of each step's batch, as a\n" +
			"unary RPC reply would carry it (--zstd compresses it).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return c.bench(&o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.game, "game", "bomberman", "game to measure")
	f.StringVar(&o.config, "config", "", "the game's JSON config")
	f.StringVar(&o.envs, "envs", "1024", "envs per pool (comma-separated list)")
	f.StringVar(&o.workers, "workers", "0", "worker goroutines, 0 for GOMAXPROCS goroutines of which each step wakes as many as pay (comma-separated list)")
	f.Float64Var(&o.seconds, "seconds", 5, "measured seconds per configuration (after a tenth as much warm-up)")
	f.Uint64Var(&o.seed, "seed", 1, "pool seed")
	f.BoolVar(&o.encode, "encode", false, "also encode every batch as an Arrow message")
	f.BoolVar(&o.zstd, "zstd", false, "compress the Arrow message bodies with zstd (implies --encode)")
	f.BoolVar(&o.asJSON, "json", false, "print one JSON object per configuration")
	return cmd
}

func (c *cli) bench(o *benchFlags) error {
	if _, err := c.reg.Lookup(o.game); err != nil {
		return err
	}
	envs, err := intList("--envs", o.envs, 1)
	if err != nil {
		return err
	}
	workers, err := intList("--workers", o.workers, 0)
	if err != nil {
		return err
	}
	if o.seconds <= 0 {
		return fmt.Errorf("--seconds: want more than 0, got %g", o.seconds)
	}
	var results []bench.Result
	for _, n := range envs {
		for _, w := range workers {
			if !o.asJSON {
				fmt.Fprintf(c.stderr, "measuring %s envs=%d workers=%d for %gs ...\n", o.game, n, w, o.seconds)
			}
			res, err := bench.Run(bench.Config{
				Game: o.game, GameConfig: []byte(o.config), Envs: n, Workers: w,
				Duration: time.Duration(o.seconds * float64(time.Second)), Seed: o.seed,
				Encode: o.encode, Zstd: o.zstd,
			})
			if err != nil {
				return err
			}
			if o.asJSON {
				if err := json.NewEncoder(c.stdout).Encode(res); err != nil {
					return err
				}
			}
			results = append(results, res)
		}
	}
	if o.asJSON {
		return nil
	}
	w := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	header := "game\tenvs\tworkers\tused\tseats\tagent-steps/s\tenv-steps/s\tstep ms\tobs B/agent\tallocs/step\t"
	if o.encode || o.zstd {
		header += "encode ms\tbatch bytes\t"
	}
	fmt.Fprintln(w, header)
	for _, r := range results {
		workers := strconv.Itoa(r.Workers)
		if r.AutoWorkers {
			workers = "auto " + workers
		}
		line := fmt.Sprintf("%s\t%d\t%s\t%d\t%d\t%.0f\t%.0f\t%.3f\t%d\t%.2f\t",
			r.Game, r.Envs, workers, r.WorkersUsed, r.Seats, r.AgentStepsPerSec, r.EnvStepsPerSec, r.StepMillis, r.ObsBytesPerAgent, r.AllocsPerStep)
		if o.encode || o.zstd {
			line += fmt.Sprintf("%.3f\t%d\t", r.EncodeMillis, r.BatchBytes)
		}
		fmt.Fprintln(w, line)
	}
	return w.Flush()
}

// intList parses a comma-separated list of integers of at least min.
func intList(flag, s string, min int) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		n, err := strconv.Atoi(part)
		if err != nil || n < min {
			return nil, fmt.Errorf("%s: want integers of at least %d, got %q", flag, min, part)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: want at least one value", flag)
	}
	return out, nil
}

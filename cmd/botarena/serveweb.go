package main

import (
	"fmt"
	"os"
	"slices"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/pflag"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/rpc/server"
	"github.com/botarena/botarena/web"
)

// webServeFlags are serve's flags for the viewer at / (package web); the
// leagues folder is serve's --leagues-dir.
type webServeFlags struct {
	replaysDir     string
	maxReplayBytes server.ByteSize
	maxUploadBytes server.ByteSize
	maxStateBytes  server.ByteSize
}

func (o *webServeFlags) add(f *pflag.FlagSet) {
	f.StringVar(&o.replaysDir, "replays-dir", "", "the viewer lists and plays the replays in this folder: recordings (play --record), replay folders (play --replays) and league match data (league run --data); none without it")
	o.maxReplayBytes = web.DefaultMaxReplayBytes
	f.Var(&o.maxReplayBytes, "max-replay-bytes", "largest recording, replay state file or match data file the viewer reads from --replays-dir")
	o.maxUploadBytes = web.DefaultMaxUploadBytes
	f.Var(&o.maxUploadBytes, "max-upload-bytes", "largest recording the viewer's page may send to be played")
	o.maxStateBytes = web.DefaultMaxStateBytes
	f.Var(&o.maxStateBytes, "max-state-bytes", "largest state the viewer loads into a game: a state file of a replay folder, a line of a recording; reading one costs up to 32 times its size of --max-memory, so it is also at most --max-memory / 32")
}

// budgetMemory charges the viewer to the host's memory budget
// (--max-memory, --max-client-memory), shared with the services.
type budgetMemory struct{ b *server.Budget }

func (m budgetMemory) Reserve(client, what string, bytes int64) (func(), error) {
	r, err := m.b.Reserve(client, what, "", bytes, false)
	if err != nil {
		return nil, err
	}
	return r.Release, nil
}

func (m budgetMemory) Limit() int64 {
	_, limit := m.b.InUse()
	return limit
}

// newWeb returns the viewer for reg with the flags' folders and limits,
// charging what it reads to budget, its metrics registered in metrics. Its
// page offers the policies of botDirs (serve's --bots-dir, resolved) and
// of the repository's policies/ (found from the working directory up) as
// agents.
func (o *webServeFlags) newWeb(reg *env.Registry, leaguesDir string, botDirs []string, metrics *prometheus.Registry, budget *server.Budget) (*web.Server, error) {
	if o.maxReplayBytes < 1 || o.maxUploadBytes < 1 || o.maxStateBytes < 1 {
		return nil, fmt.Errorf("--max-replay-bytes, --max-upload-bytes and --max-state-bytes: want 1 or more, got %d, %d and %d", o.maxReplayBytes, o.maxUploadBytes, o.maxStateBytes)
	}
	if leaguesDir != "" {
		if err := os.MkdirAll(leaguesDir, 0o755); err != nil {
			return nil, fmt.Errorf("--leagues-dir: %w", err)
		}
	}
	policyDirs := slices.Clone(botDirs)
	if dir, err := findUp("policies"); err == nil {
		policyDirs = append(policyDirs, dir)
	}
	s, err := web.NewServer(web.Options{Registry: reg, ReplaysDir: o.replaysDir, LeaguesDir: leaguesDir, PolicyDirs: policyDirs,
		MaxReplayBytes: int64(o.maxReplayBytes), MaxUploadBytes: int64(o.maxUploadBytes), MaxStateBytes: int64(o.maxStateBytes),
		Memory: budgetMemory{budget}})
	if err != nil {
		return nil, fmt.Errorf("--replays-dir or --leagues-dir: %w", err)
	}
	gauge := func(name, help string, v func(web.Stats) int) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts(server.MetricOpts(name, help)), func() float64 { return float64(v(s.Stats())) })
	}
	counter := func(name, help string, v func(web.Stats) int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts(server.MetricOpts(name, help)), func() float64 { return float64(v(s.Stats())) })
	}
	metrics.MustRegister(
		gauge("viewer_matches_open", "Live matches the viewer holds.", func(s web.Stats) int { return s.Matches }),
		gauge("viewer_replays_open", "Replays the viewer holds open.", func(s web.Stats) int { return s.Replays }),
		gauge("viewer_streams_open", "Event streams of the viewer open.", func(s web.Stats) int { return s.Streams }),
		counter("viewer_matches_started_total", "Live matches started in the viewer.", func(s web.Stats) int64 { return s.MatchesStarted }),
		counter("viewer_replays_opened_total", "Replays opened in the viewer.", func(s web.Stats) int64 { return s.ReplaysOpened }),
		counter("viewer_frames_sent_total", "Rounds the viewer sent: streamed, fetched and recorded.", func(s web.Stats) int64 { return s.FramesSent }),
		counter("viewer_refused_total", "Live matches and replays refused at the viewer's limits.", func(s web.Stats) int64 { return s.Refused }),
	)
	return s, nil
}

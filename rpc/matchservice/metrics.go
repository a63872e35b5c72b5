package matchservice

import "github.com/prometheus/client_golang/prometheus"

// This file holds the service's Prometheus metrics, registered in its
// host's registry (see package server's metrics.go for the host's own).
//
//	botarena_match_games_in_flight                games being played
//	botarena_match_games_total                    games finished (a result or an error)

// metrics are the service's Prometheus metrics.
type metrics struct {
	matchGames  prometheus.Gauge
	matchPlayed prometheus.Counter
}

// newMetrics makes the metrics of s and registers them in its host's
// registry.
func newMetrics(s *Server) *metrics {
	return &metrics{
		matchGames:  s.host.NewGauge("match_games_in_flight", "MatchService games being played."),
		matchPlayed: s.host.NewCounter("match_games_total", "MatchService games finished, with a result or an error."),
	}
}

// gamesStarted counts n games in flight, gameFinished one of them finished
// (with a result or an error), and gamesDropped n of them ended unplayed
// (the rest of a batch that stopped early).
func (m *metrics) gamesStarted(n int) { m.matchGames.Add(float64(n)) }
func (m *metrics) gameFinished() {
	m.matchGames.Dec()
	m.matchPlayed.Inc()
}
func (m *metrics) gamesDropped(n int) { m.matchGames.Sub(float64(n)) }

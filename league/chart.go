package league

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/botarena/botarena/internal/safefile"
)

// ChartFile is the name of the ratings chart a run draws in the league
// directory (`botarena league run`, [Leagues.DrawChart]).
const ChartFile = "ratings.png"

// A ChartFunc draws a leaderboard as a PNG image into w, titled title:
// `botarena league` draws one point per agent with its rating ± 2·RD, best
// first. It returns an error for an empty table. This package draws
// nothing itself (it does not import a plotting library); the command line
// supplies the chart.
type ChartFunc func(w io.Writer, title string, rows []Row) error

// ChartTitle is the title of the ratings chart of the league called name
// of game after games games.
func ChartTitle(game, name string, games int64) string {
	return fmt.Sprintf("%s league %s after %d games", game, name, games)
}

// WriteChart draws rows with chart into path atomically: into a temporary
// file in the same directory, renamed over path.
func WriteChart(path string, chart ChartFunc, title string, rows []Row) error {
	return safefile.WriteFile(path, func(w io.Writer) error { return chart(w, title, rows) })
}

// NewSeed returns a random league seed, below 2³¹ so that it is easy to
// print and type: the seed of a league made without one.
func NewSeed() uint64 { return rand.Uint64N(1 << 31) }

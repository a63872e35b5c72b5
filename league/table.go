package league

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/botarena/botarena/match"
)

// Row is one agent's line of the leaderboard.
type Row struct {
	Rank  int    `json:"rank"`
	Agent string `json:"agent"`
	Spec  string `json:"spec"`
	Tag   string `json:"tag,omitempty"`
	Rating
	// Lower and Upper are Rating ∓ 2·RD, the 95% interval.
	Lower   float64 `json:"lower"`
	Upper   float64 `json:"upper"`
	WinRate float64 `json:"win_rate"` // (wins + draws/2) / games; 0 without games
	// MeanActions is how the agent played of late: its mean actions per
	// game and seat by the game's kinds (match.Standing.Actions) over its
	// seats in the league's last [BehaviourGames] games, so that an agent
	// that never bombs or never moves shows in the standings. Absent for a
	// game without action kinds and for an agent without recent games.
	MeanActions match.Actions `json:"mean_actions,omitzero"`
}

// BehaviourGames is the number of the league's most recent games whose
// actions [Row.MeanActions] averages: how the agents play now, read in
// bounded time however many games the league holds.
const BehaviourGames = 1000

// Table returns the leaderboard of the league's current agents, best
// first: by Glicko-2 rating, then by the lower end of its interval, then
// by name. Agents without games have the initial rating.
func (l *League) Table() ([]Row, error) {
	ags, err := l.Agents()
	if err != nil {
		return nil, err
	}
	ratings, err := l.Ratings()
	if err != nil {
		return nil, err
	}
	behaviour, err := l.recentActions(BehaviourGames)
	if err != nil {
		return nil, err
	}
	rows := make([]Row, 0, len(ags))
	for _, a := range ags {
		r, ok := ratings[a.Name]
		if !ok {
			r = NewRating()
		}
		// Specs and tags stored before their limits are cut to them.
		row := Row{Agent: a.Name, Spec: clip(a.Spec, MaxSpecBytes), Tag: clip(a.Tag, MaxTagBytes), Rating: r, Lower: r.Rating - 2*r.RD, Upper: r.Rating + 2*r.RD}
		if r.Games > 0 {
			row.WinRate = (float64(r.Wins) + float64(r.Draws)/2) / float64(r.Games)
		}
		row.MeanActions = behaviour[a.Name]
		rows = append(rows, row)
	}
	slices.SortStableFunc(rows, func(a, b Row) int {
		return cmp.Or(cmp.Compare(b.Rating.Rating, a.Rating.Rating), cmp.Compare(b.Lower, a.Lower), cmp.Compare(a.Agent, b.Agent))
	})
	for i := range rows {
		rows[i].Rank = i + 1
	}
	return rows, nil
}

// recentActions returns, by agent name, the mean actions per game and seat
// of each agent over its seats in the league's last n games (see
// [Row.MeanActions]); agents without counted actions have no entry.
func (l *League) recentActions(n int64) (map[string]match.Actions, error) {
	total, err := l.NumGames()
	if err != nil {
		return nil, err
	}
	games, err := l.Games(max(0, total-n), -1)
	if err != nil {
		return nil, err
	}
	sums := map[string]match.Actions{}
	seats := map[string]int{}
	for _, g := range games {
		for _, s := range g.Leaderboard {
			if !s.Actions.IsZero() {
				sums[s.Agent] = sums[s.Agent].Add(s.Actions)
				seats[s.Agent]++
			}
		}
	}
	for name, sum := range sums {
		sums[name] = sum.Scale(1 / float64(seats[name]))
	}
	return sums, nil
}

// Snapshot is a league's leaderboard at one time: what `botarena league
// table` and the server's LeagueTable show. Its JSON form is that of
// [LiveTableFile].
type Snapshot struct {
	// Time is when the table was read (or, Live, written).
	Time time.Time `json:"time"`
	// Run is the id of the run that wrote a live table, else 0.
	Run int `json:"run"`
	// Game is the league's game and Games the number of games stored.
	Game  string `json:"game"`
	Games int64  `json:"games"`
	Rows  []Row  `json:"rows"`
	// Live reports that the table was read from [LiveTableFile], written by
	// a run that holds the store.
	Live bool `json:"-"`
}

// Snapshot returns the league's table now.
func (l *League) Snapshot() (Snapshot, error) {
	rows, err := l.Table()
	if err != nil {
		return Snapshot{}, err
	}
	n, err := l.NumGames()
	if err != nil {
		return Snapshot{}, err
	}
	return Snapshot{Time: time.Now().UTC(), Game: l.settings.Game, Games: n, Rows: rows}, nil
}

// ReadTable returns the table of the league in dir, opened read-only. While
// another process's run holds the store (open fails with [ErrBusy]), it
// returns the table that run last wrote ([LiveTableFile], Snapshot.Live
// set), or the ErrBusy error when there is none.
func ReadTable(dir string) (Snapshot, error) {
	l, err := Open(dir, true)
	if err != nil {
		return liveInstead(dir, err)
	}
	defer l.Close()
	return l.Snapshot()
}

// liveInstead returns dir's live table when err is [ErrBusy] and there is
// one, else err.
func liveInstead(dir string, err error) (Snapshot, error) {
	if errors.Is(err, ErrBusy) {
		if live, lerr := readLiveTable(dir); lerr == nil {
			live.Live = true
			return live, nil
		}
	}
	return Snapshot{}, err
}

// WriteTable prints the leaderboard with aligned columns, as `botarena
// league table` does: rank, agent, rating ± 2·RD, Elo, games, W/D/L, win
// rate and tag, under a header line. The tag ends the line unpadded, so a
// long tag lengthens its own line only; agents' names longer than
// [MaxAgentNameBytes] and tags longer than [MaxTagBytes] (stored before
// the limits) are cut to them with "…". The text is thus at most about
// (MaxAgentNameBytes + 100) bytes per row plus the rows' tags. Where rows
// have their mean actions, a second block follows: per agent, its mean
// actions per game by kind over the last [BehaviourGames] games.
func WriteTable(w io.Writer, rows []Row) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "RANK\tAGENT\tRATING\t± 2·RD\tELO\tGAMES\tW/D/L\tWIN RATE\t  TAG")
	for _, r := range rows {
		tag := ""
		if r.Tag != "" {
			tag = "  " + clip(r.Tag, MaxTagBytes)
		}
		fmt.Fprintf(tw, "%d\t%s\t%.0f\t± %.0f\t%.0f\t%d\t%d/%d/%d\t%.1f%%\t%s\n",
			r.Rank, clip(r.Agent, MaxAgentNameBytes), r.Rating.Rating, 2*r.RD, r.Elo, r.Games, r.Wins, r.Draws, r.Losses, 100*r.WinRate, tag)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if !slices.ContainsFunc(rows, func(r Row) bool { return !r.MeanActions.IsZero() }) {
		return nil
	}
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "\nACTIONS PER GAME (last %d games)\n", BehaviourGames)
	for _, r := range rows {
		if !r.MeanActions.IsZero() {
			fmt.Fprintf(tw, "%s\t%s\n", clip(r.Agent, MaxAgentNameBytes), r.MeanActions)
		}
	}
	return tw.Flush()
}

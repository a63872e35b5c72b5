package league

import (
	"cmp"
	"slices"
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
}

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
	rows := make([]Row, 0, len(ags))
	for _, a := range ags {
		r, ok := ratings[a.Name]
		if !ok {
			r = NewRating()
		}
		row := Row{Agent: a.Name, Spec: a.Spec, Tag: a.Tag, Rating: r, Lower: r.Rating - 2*r.RD, Upper: r.Rating + 2*r.RD}
		if r.Games > 0 {
			row.WinRate = (float64(r.Wins) + float64(r.Draws)/2) / float64(r.Games)
		}
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

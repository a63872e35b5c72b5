package main

import (
	"fmt"
	"image/color"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/botarena/botarena/league"
)

// ratingPoints are the leaderboard's ratings with ±2·RD error bars, at x =
// 0, 1, ... in rank order.
type ratingPoints []league.Row

func (r ratingPoints) Len() int                    { return len(r) }
func (r ratingPoints) XY(i int) (float64, float64) { return float64(i), r[i].Rating.Rating }
func (r ratingPoints) YError(i int) (float64, float64) {
	return 2 * r[i].RD, 2 * r[i].RD
}

// writeRatingsPNG draws the leaderboard with [ratingsPNG] into path,
// atomically (league.WriteChart).
func writeRatingsPNG(path, title string, rows []league.Row) error {
	if err := league.WriteChart(path, ratingsPNG, title, rows); err != nil {
		return fmt.Errorf("--png: %w", err)
	}
	return nil
}

// ratingsPNG is the league.ChartFunc of botarena: the leaderboard as a PNG
// chart, one point per agent with its rating ± 2·RD, best first. The
// server's leagues (serve --leagues-dir) draw with it too.
func ratingsPNG(w io.Writer, title string, rows []league.Row) error {
	if len(rows) == 0 {
		return fmt.Errorf("the league has no agents")
	}
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = "Glicko-2 rating ± 2·RD"
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.Agent
	}
	p.NominalX(names...)
	p.Add(plotter.NewGrid())
	start := plotter.NewFunction(func(float64) float64 { return league.InitialRating })
	start.Color = color.Gray{Y: 160}
	start.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
	p.Add(start)
	bars, err := plotter.NewYErrorBars(ratingPoints(rows))
	if err != nil {
		return err
	}
	bars.LineStyle.Width = vg.Points(1.5)
	bars.CapWidth = vg.Points(10)
	dots, err := plotter.NewScatter(ratingPoints(rows))
	if err != nil {
		return err
	}
	dots.GlyphStyle.Shape = draw.CircleGlyph{}
	dots.GlyphStyle.Radius = vg.Points(4)
	dots.GlyphStyle.Color = color.RGBA{R: 31, G: 119, B: 180, A: 255}
	p.Add(bars, dots)
	p.X.Min, p.X.Max = -0.5, float64(len(rows))-0.5
	width := max(4*vg.Inch, vg.Length(len(rows))*0.9*vg.Inch)
	wt, err := p.WriterTo(width, 4*vg.Inch, "png")
	if err != nil {
		return err
	}
	_, err = wt.WriteTo(w)
	return err
}

package web

import (
	"context"
	"image"
	"image/png"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// chromium returns a Chromium binary: $BOTARENA_CHROMIUM, else chromium,
// chromium-browser or google-chrome on PATH; "" when there is none.
func chromium() string {
	if p := os.Getenv("BOTARENA_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// TestWebBrowserDrawsEachGame opens the page of a live match of each game in
// headless Chromium (--screenshot, no driver) and checks that the picture
// is not blank: the board has many colours and the seat colours show.
// Screenshots go to $BOTARENA_ARTIFACTS when set, else to t.TempDir().
func TestWebBrowserDrawsEachGame(t *testing.T) {
	bin := chromium()
	if bin == "" {
		if os.Getenv("BOTARENA_REQUIRE_EXTRAS") != "" {
			t.Fatal("no Chromium (chromium, chromium-browser, google-chrome or $BOTARENA_CHROMIUM) and BOTARENA_REQUIRE_EXTRAS is set")
		}
		t.Skip("no Chromium on PATH (chromium, chromium-browser, google-chrome) and no $BOTARENA_CHROMIUM")
	}
	dir := os.Getenv("BOTARENA_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := NewServer(Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler(nil))
	defer ts.Close()
	defer s.Close()
	for _, game := range baseGames {
		t.Run(game, func(t *testing.T) {
			shot := filepath.Join(dir, "viewer-"+game+".png")
			url := ts.URL + "/?game=" + game + "&autoplay=1&speed=50&until=40&seat=0&seed=3"
			if game == "battlebots" {
				url = ts.URL + "/?game=battlebots&autoplay=1&speed=50&until=20&seat=0&seed=1&agents=random" // snipers rarely fire
			}
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
				"--user-data-dir="+t.TempDir(), "--window-size=1400,780", "--virtual-time-budget=5000",
				"--screenshot="+shot, url)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", bin, err, out)
			}
			f, err := os.Open(shot)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			// The full board's canvas sits at the top left, below the
			// controls; blank, it is all floor colour.
			board := image.Rect(20, 170, 560, 700).Intersect(img.Bounds())
			colours, seat0, drawn := paletteOf(img, board)
			t.Logf("%s: %d colours on the board, %d pixels of seat 0's colour, %d of %d pixels not floor", shot, colours, seat0, drawn, board.Dx()*board.Dy())
			if colours < 6 || seat0 < 50 || drawn < board.Dx()*board.Dy()/20 {
				t.Errorf("%s: the board looks blank: %d distinct colours, %d pixels of seat 0's colour, %d pixels not floor", shot, colours, seat0, drawn)
			}
		})
	}
}

// paletteOf counts the distinct colours of img within b, its pixels of
// seat 0's colour (env.SeatColor(0), #e63946) and those not of the floor
// colour (env.ColorFloor, #20242b).
func paletteOf(img image.Image, b image.Rectangle) (colours, seat0, drawn int) {
	seen := map[[3]uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
			if r>>8 == 0xe6 && g>>8 == 0x39 && bl>>8 == 0x46 {
				seat0++
			}
			if r>>8 != 0x20 || g>>8 != 0x24 || bl>>8 != 0x2b {
				drawn++
			}
		}
	}
	return len(seen), seat0, drawn
}

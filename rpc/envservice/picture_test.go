package envservice_test

import (
	"bytes"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/picture"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/rpctest"
)

// TestRenderPictureOfEveryGame checks that every registered game draws a
// picture (picture.Painter) and that Render's rgb_array is that picture's
// pixels, as the Python rgb_array render mode reads them.
func TestRenderPictureOfEveryGame(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	c := ts.Client(t)
	for _, game := range env.Default.Names() {
		t.Run(game, func(t *testing.T) {
			req := &botarenav1.CreatePoolRequest{Game: game, NumEnvs: 2, Seed: rpctest.Seed(5)}
			p := rpctest.CreatePool(t, c, req)
			if _, err := p.Reset(t.Context()); err != nil {
				t.Fatal(err)
			}
			local := rpctest.LocalPool(t, req, nil)
			local.Reset()
			painter, ok := local.Env(1).(picture.Painter)
			if !ok {
				t.Fatalf("%s: %T does not implement picture.Painter", game, local.Env(1))
			}
			for _, seat := range []int{-1, 0} {
				img, err := p.Paint(t.Context(), 1, seat)
				if err != nil {
					t.Fatal(err)
				}
				want := painter.Paint(seat)
				if img.Rect != want.Rect {
					t.Fatalf("seat %d: picture of %v, want %v", seat, img.Rect, want.Rect)
				}
				if got, w := picture.RGB(img), picture.RGB(want); !bytes.Equal(got, w) {
					t.Errorf("seat %d: the served pixels differ from the env's picture", seat)
				}
			}
		})
	}
}

func TestRenderPictureErrors(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	c := ts.Client(t)
	p := rpctest.CreatePool(t, c, &botarenav1.CreatePoolRequest{Game: "battlebots", NumEnvs: 1, Seed: rpctest.Seed(1)})
	if _, err := p.Paint(t.Context(), 0, -1); err == nil {
		t.Error("Paint before Reset: no error")
	}
	if _, err := p.Reset(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Paint(t.Context(), 1, -1); err == nil {
		t.Error("Paint of env 1 of a 1-env pool: no error")
	}
	if _, _, err := p.Render(t.Context(), 0, -1, "picture.png"); err == nil {
		t.Error("Render of an unknown format: no error")
	}
}

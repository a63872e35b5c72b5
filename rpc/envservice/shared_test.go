package envservice_test

import (
	"slices"
	"testing"

	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/rpctest"
)

// TestSharedPlanesOnlyWhereTheySave checks when a pool asked for
// shared_planes gets the shared form: some tensor has shared channels and
// an env has more than one learner row. ListGames and CreatePool report
// the shared channels.
func TestSharedPlanesOnlyWhereTheySave(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	c := ts.Client(t)
	for _, tc := range []struct {
		name string
		req  *botarenav1.CreatePoolRequest
		want bool
	}{
		{"bomberman", &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 2, SharedPlanes: true}, true},
		{"not_asked", &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 2}, false},
		{"one_learner", &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 2, SharedPlanes: true,
			LearnerSeats: []int32{0}, Opponents: map[int32]string{1: "idle"}}, false},
		{"no_shared_channels", &botarenav1.CreatePoolRequest{Game: "battleships", NumEnvs: 2, SharedPlanes: true}, false},
		{"battlebots", &botarenav1.CreatePoolRequest{Game: "battlebots", NumEnvs: 2, SharedPlanes: true}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := rpctest.CreatePool(t, c, tc.req)
			if got := p.Info().GetSharedPlanes(); got != tc.want {
				t.Errorf("shared_planes = %v, want %v", got, tc.want)
			}
			if _, err := p.Reset(t.Context()); err != nil {
				t.Fatal(err)
			}
			if _, err := p.Step(t.Context(), make([]int32, p.Rows())); err != nil {
				t.Fatal(err)
			}
		})
	}
	games := rpctest.ListGames(t, c)
	for _, g := range games {
		if g.GetName() == "bomberman" {
			if got := g.GetSpec().GetObservations()[0].GetShared(); !slices.Equal(got, []int32{2, 3, 6, 7, 8, 9, 10, 11}) {
				t.Errorf("bomberman planes: shared %v", got)
			}
			return
		}
	}
	t.Error("no bomberman in ListGames")
}

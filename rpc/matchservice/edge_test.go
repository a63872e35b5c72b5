package matchservice_test

import (
	"strings"
	"testing"

	"connectrpc.com/connect"

	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/rpctest"
)

// TestErrorsDoNotEchoInput: every error of Play and PlayBatch that quotes
// a client's string (a game, an agent spec) clips it, whichever package
// made the error.
func TestErrorsDoNotEchoInput(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	ctx := t.Context()
	for _, tc := range []struct {
		name string
		call func() error
		code connect.Code
	}{
		{"play_game", func() error {
			_, err := ts.MatchClient(t).Play(ctx, &botarenav1.PlayRequest{Game: rpctest.Huge, Seats: rpctest.Seats("nop", "nop")})
			return err
		}, connect.CodeNotFound},
		{"play_agent", func() error {
			_, err := ts.MatchClient(t).Play(ctx, &botarenav1.PlayRequest{Game: "battlebots", Seats: rpctest.Seats(rpctest.Huge, "nop")})
			return err
		}, connect.CodeNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rpctest.WantBounded(t, tc.call(), tc.code)
		})
	}

	t.Run("play_batch_outcome", func(t *testing.T) {
		resp, err := ts.MatchClient(t).PlayBatch(ctx, &botarenav1.PlayBatchRequest{Matches: []*botarenav1.PlayRequest{
			{Game: "battlebots", Seats: rpctest.Seats(rpctest.Huge, "nop")},
		}})
		if err != nil {
			t.Fatal(err)
		}
		e := resp.GetOutcomes()[0].GetError()
		if msg := e.GetMessage(); e.GetCode() != "not_found" || len(msg) > 4096 || !strings.Contains(msg, "x…") {
			t.Errorf("outcome %s, %d bytes: %.200s", e.GetCode(), len(msg), msg)
		}
	})
}

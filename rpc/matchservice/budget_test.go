package matchservice_test

import (
	"strconv"
	"strings"
	"testing"

	"connectrpc.com/connect"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/internal/rpctest"
	"github.com/botarena/botarena/rpc/matchservice"
	"github.com/botarena/botarena/rpc/server"
)

func init() {
	// unplayable forfeits the moment a game starts: a game of it that is
	// refused with ResourceExhausted was refused before it was played (a
	// played one would end at once with a forfeit and a small result).
	agents.Register("zz-unplayable", "panics when a game starts (tests)", func(*env.Spec) (env.Agent, error) { return unplayable{}, nil })
}

type unplayable struct{}

func (unplayable) Reset(env.Env, int, uint64) { panic("zz-unplayable: the game was played") }
func (unplayable) Act(env.Env, int) int32     { panic("zz-unplayable: the game was played") }

// The second repro, a recorded Play: a 64-player Battle³ game on edge 32
// recorded every seat's 98 kB observation every step, and the size was
// checked only after the whole game. It is refused before it is played.
func TestRecordedPlayOverTheMessageLimitIsRefusedUpFront(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t)
	c := ts.MatchClient(t)
	var specs []string
	for range 64 {
		specs = append(specs, "zz-unplayable")
	}
	_, err := c.Play(t.Context(), &botarenav1.PlayRequest{Game: "battlecube", ConfigJson: `{"players":64,"edge":32}`, Seats: rpctest.Seats(specs...), Index: 7, Record: true})
	rpctest.WantCode(t, err, connect.CodeResourceExhausted, "game 7: its recorded data could make a response of up to", "64 seats × 1000 steps", "message limit of 256.0 MiB", "--max-rounds")
	rpctest.WantInUse(t, ts.Host, 0)
	// The server still plays games.
	if _, err := c.Play(t.Context(), &botarenav1.PlayRequest{Game: "battlebots", Seats: rpctest.Seats("nop", "nop"), MaxRounds: 3, Record: true}); err != nil {
		t.Fatal(err)
	}
	rpctest.WantInUse(t, ts.Host, 0)
}

func TestRecordedPlayOverTheBudgetIsRefused(t *testing.T) {
	t.Parallel()
	ts := rpctest.New(t, server.WithMaxMemory(256<<10))
	c := ts.MatchClient(t)
	// 200 recorded BattleBots rounds are about 0.8 MB.
	_, err := c.Play(t.Context(), &botarenav1.PlayRequest{Game: "battlebots", Seats: rpctest.Seats("nop", "nop"), Index: 3, MaxRounds: 200, Record: true})
	rpctest.WantCode(t, err, connect.CodeResourceExhausted, "game 3 would need", "recording up to", "--max-memory 256.0 KiB")
	if _, err := c.Play(t.Context(), &botarenav1.PlayRequest{Game: "battlebots", Seats: rpctest.Seats("nop", "nop"), MaxRounds: 5, Record: true}); err != nil {
		t.Fatalf("a short recorded game: %v", err)
	}
	rpctest.WantInUse(t, ts.Host, 0)
}

// The second repro, a PlayBatch of 2,000 recorded BattleBots games (scaled
// down to 50 rounds each): the games whose data cannot fit the message
// limit or the budget get ResourceExhausted outcomes before any game is
// played, and the others are played.
func TestPlayBatchOfRecordedGamesIsAdmittedUpFront(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts []any // of rpctest.New
		want []string
	}{
		{"message_limit", []any{server.WithMaxMessageBytes(4 << 20)}, []string{"its recorded data could make the batch's response up to", "message limit of 4.0 MiB", "--server-batch"}},
		{"budget", []any{server.WithMaxMemory(4 << 20)}, []string{"would need", "recording up to", "--max-memory 4.0 MiB", "in use"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ts := rpctest.New(t, append(tc.opts, matchservice.WithMaxMatches(2))...)
			c := ts.MatchClient(t)
			resp, err := c.PlayBatch(t.Context(), nopBatch(2000))
			if err != nil {
				t.Fatal(err)
			}
			played := 0
			for i, o := range resp.GetOutcomes() {
				if o.GetResult() != nil {
					if played != i {
						t.Fatalf("game %d played after a refused one", i)
					}
					if o.GetResult().GetData().GetSteps() != 50 {
						t.Fatalf("game %d: %d recorded steps, want 50", i, o.GetResult().GetData().GetSteps())
					}
					played++
					continue
				}
				e := o.GetError()
				if e.GetCode() != connect.CodeResourceExhausted.String() {
					t.Fatalf("game %d: %v, want resource_exhausted", i, o)
				}
				for _, s := range append([]string{"matches[" + strconv.Itoa(i) + "]: game " + strconv.Itoa(i)}, tc.want...) {
					if !strings.Contains(e.GetMessage(), s) {
						t.Fatalf("game %d: message %q does not contain %q", i, e.GetMessage(), s)
					}
				}
			}
			t.Logf("%d of 2000 games played", played)
			if played < 1 || played > 20 {
				t.Errorf("%d games played, want a few", played)
			}
			rpctest.WantInUse(t, ts.Host, 0)
		})
	}
}

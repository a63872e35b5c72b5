package envservice_test

import (
	"context"
	"fmt"
	"net"

	_ "github.com/botarena/botarena/env/bomberman" // registers bomberman
	"github.com/botarena/botarena/rpc/client"
	"github.com/botarena/botarena/rpc/envservice"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
	"github.com/botarena/botarena/rpc/server"
)

// Example serves EnvService on a loopback port and plays one pool through
// the Go client: a 2-player Bomberman learner against the reference bot.
func Example() {
	host := server.New()
	defer host.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	hs := server.NewHTTPServer("", host.Handler(envservice.New(host)))
	go hs.Serve(ln)
	defer hs.Close()

	c, err := client.Dial(ln.Addr().String()) // gRPC over h2c
	if err != nil {
		panic(err)
	}
	defer c.Close()
	ctx := context.Background()
	seed := uint64(1)
	p, err := c.CreatePool(ctx, &botarenav1.CreatePoolRequest{
		Game: "bomberman/2p", NumEnvs: 8, Seed: &seed,
		LearnerSeats: []int32{0}, Opponents: map[int32]string{1: "reference"},
	})
	if err != nil {
		panic(err)
	}
	defer p.Close(ctx)
	obs, err := p.Reset(ctx)
	if err != nil {
		panic(err)
	}
	fmt.Println("rows:", obs.Rows, "tensors:", p.Spec().Obs[0].Name, p.Spec().Obs[0].ShapeString())
	actions := make([]int32, p.Rows()) // one per row; 0 does nothing
	for range 3 {
		res, err := p.Step(ctx, actions)
		if err != nil {
			panic(err)
		}
		obs = res.Buffers
	}
	fmt.Println("seat of row 0:", obs.Seat[0], "episode:", obs.Episode[0])
	// Output:
	// rows: 8 tensors: planes [12,21,21]
	// seat of row 0: 0 episode: 0
}

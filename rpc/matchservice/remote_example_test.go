package matchservice_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"

	_ "github.com/botarena/botarena/env/battlebots" // registers battlebots
	"github.com/botarena/botarena/league"
	"github.com/botarena/botarena/rpc/matchservice"
	"github.com/botarena/botarena/rpc/server"
)

// ExampleNewRemoteRunner plays a league's games on two servers (here in
// this process, on loopback ports; normally `botarena serve` processes on
// other machines) while the league's store stays local.
func ExampleNewRemoteRunner() {
	var addrs []string
	for range 2 {
		host := server.New()
		defer host.Close()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			panic(err)
		}
		hs := server.NewHTTPServer("", host.Handler(matchservice.New(host)))
		go hs.Serve(ln)
		defer hs.Close()
		addrs = append(addrs, ln.Addr().String())
	}
	runner, err := matchservice.NewRemoteRunner(addrs)
	if err != nil {
		panic(err)
	}
	defer runner.Close()

	dir, err := os.MkdirTemp("", "league")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	l, err := league.Create(filepath.Join(dir, "lg"), league.Settings{Game: "battlebots", Seed: 1}, nil)
	if err != nil {
		panic(err)
	}
	defer l.Close()
	for _, bot := range []string{"huggy", "sniper"} {
		if err := l.AddAgent(league.Agent{Name: bot, Spec: bot}); err != nil {
			panic(err)
		}
	}
	sum, err := l.Run(context.Background(), league.RunOptions{Games: 20, Runner: runner, Workers: league.BatchGames})
	if err != nil {
		panic(err)
	}
	var played int64
	for _, s := range runner.Servers() {
		played += s.Games
	}
	fmt.Println("stored:", sum.Played, "played remotely:", played)
	// Output:
	// stored: 20 played remotely: 20
}

package observations_test

import (
	"fmt"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/bomberman"
	"github.com/botarena/botarena/observations"
)

// A server sends the schema message once per pool, then one batch message
// per step, reusing the message slice; a Go client decodes them.
func ExampleEncoder() {
	game, err := bomberman.New(&bomberman.Config{Players: 4})
	if err != nil {
		panic(err)
	}
	spec := game.Spec()
	const envs = 2
	rows := envs * spec.Seats
	buf := env.NewBuffers(spec, rows) // a pool owns these and overwrites them every step

	schemaMsg, err := observations.SchemaMessage(spec)
	if err != nil {
		panic(err)
	}
	enc, err := observations.NewEncoder(spec, rows)
	if err != nil {
		panic(err)
	}
	defer enc.Close()
	dec, err := observations.NewDecoder(schemaMsg)
	if err != nil {
		panic(err)
	}

	var msg []byte
	for step := range 2 {
		// ... the pool steps, writing buf ...
		game.Reset(uint64(step))
		var obs [][]byte
		for r := range rows {
			obs = buf.RowObs(obs[:0], r)
			game.WriteObs(r%spec.Seats, obs)
			game.WriteMask(r%spec.Seats, buf.RowMask(r))
			buf.Env[r], buf.Seat[r] = int32(r/spec.Seats), int32(r%spec.Seats)
		}
		msg, err = enc.AppendBatchMessage(msg[:0], buf)
		if err != nil {
			panic(err)
		}
		got, err := dec.Decode(msg)
		if err != nil {
			panic(err)
		}
		fmt.Println(got.Rows, got.Seat, got.Mask[:spec.Actions])
	}
	fmt.Println(dec.Spec().Game, dec.Spec().Obs[0].Name, dec.Spec().Obs[0].ShapeString())
	// Output:
	// 8 [0 1 2 3 0 1 2 3] [1 0 0 1 1 1 0]
	// 8 [0 1 2 3 0 1 2 3] [1 0 0 1 1 1 0]
	// bomberman planes [12,21,21]
}

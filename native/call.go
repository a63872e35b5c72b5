package native

import (
	"maps"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/botarena/botarena/rpc/envproto"
	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
)

// Stats returns the statistics of the pool req names, clearing them (not
// the step count, which counts Step or Send calls) after reading when
// req.reset is set. An async pool waits for its envs in flight first.
func Stats(req *botarenav1.StatsRequest) (*botarenav1.StatsResponse, error) {
	var out *botarenav1.StatsResponse
	err := withID(req.GetPoolId(), func(p *pool) error {
		p.quiet()
		out = envproto.Stats(p.p.Stats(), p.steps)
		if req.GetReset_() {
			p.p.ResetStats()
		}
		return nil
	})
	return out, err
}

// SetOpponents replaces the mixtures of the listed opponent seats, in seat
// order (see [vecenv.Pool.SetOpponents]), checked as the env service
// checks them ([envproto.Mixtures]): every seat and choice before any seat
// changes. An async pool waits for its envs in flight first.
func SetOpponents(req *botarenav1.SetOpponentsRequest) (*botarenav1.SetOpponentsResponse, error) {
	err := withID(req.GetPoolId(), func(p *pool) error {
		mixes, err := envproto.Mixtures(req.GetOpponents(), p.game, req.GetPoolId(), p.p.Spec().Seats, p.p.LearnerSeats(), envproto.PoolOptions{Opponent: factory})
		if err != nil {
			return err
		}
		p.quiet()
		for _, m := range mixes {
			if err := p.p.SetOpponents(m.Seat, m.Choices); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &botarenav1.SetOpponentsResponse{}, nil
}

// Render returns env req.env of the pool as req.seat sees it (see
// [envproto.Render]) once the pool was reset. An async pool waits for its
// envs in flight first.
func Render(req *botarenav1.RenderRequest) (*botarenav1.RenderResponse, error) {
	var out *botarenav1.RenderResponse
	err := withID(req.GetPoolId(), func(p *pool) error {
		if !p.wasReset {
			return errorf(FailedPrecondition, "render before the first reset; reset first")
		}
		p.quiet()
		var err error
		out, err = envproto.Render(p.p, int(req.GetEnv()), int(req.GetSeat()), req.GetFormat())
		return err
	})
	return out, err
}

// Version returns the library's version as `botarena version` prints a
// server's: the main module's version ("(devel)" from a checkout) and the
// Go version.
func Version() string {
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		v = bi.Main.Version
	}
	return v + " " + runtime.Version()
}

// methods are the env service's methods off the step path, by name, each
// taking and returning its messages in binary protobuf.
var methods = map[string]func([]byte) ([]byte, error){
	"ListGames":    method(ListGames),
	"CreatePool":   method(CreatePool),
	"Stats":        method(Stats),
	"SetOpponents": method(SetOpponents),
	"Render":       method(Render),
	"ClosePool":    method(ClosePool),
}

// method adapts f to binary protobuf in and out.
func method[Req any, PReq interface {
	*Req
	proto.Message
}, Resp proto.Message](f func(PReq) (Resp, error)) func([]byte) ([]byte, error) {
	return func(in []byte) ([]byte, error) {
		req := PReq(new(Req))
		if err := proto.Unmarshal(in, req); err != nil {
			return nil, errorf(InvalidArgument, "native: request: %v", err)
		}
		resp, err := f(req)
		if err != nil {
			return nil, err
		}
		return proto.Marshal(resp)
	}
}

// Call runs the env service's method named method (ListGames, CreatePool,
// Stats, SetOpponents, Render or ClosePool: the calls off the step path)
// with its request message in binary protobuf, and returns its response
// message in binary protobuf or an [*Error]. It is what the shared library
// exports for everything but the step calls, which take handles and
// caller memory instead (Bind, Reset, Step, AsyncReset, Send, Recv).
func Call(name string, req []byte) ([]byte, error) {
	f, ok := methods[name]
	if !ok {
		return nil, errorf(InvalidArgument, "native: unknown method %q (methods: %s)", name, strings.Join(slices.Sorted(maps.Keys(methods)), ", "))
	}
	out, err := f(req)
	if err != nil {
		return nil, classify(err)
	}
	return out, nil
}

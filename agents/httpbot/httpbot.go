package httpbot

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/botarena/botarena/agents"
	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/env/battlecube"
)

func init() {
	for _, prefix := range []string{"http://", "https://"} {
		agents.RegisterScheme(agents.Scheme{
			Prefix:  prefix,
			Games:   []string{"battlecube"},
			Needs:   agents.CapHTTP,
			Summary: "a Battle³ bot server: the request JSON is POSTed to the URL as the original server does (5 s timeout; URL#timeout=DURATION or " + HTTPTimeoutEnv + " to change it)",
			New: func(game, spec string, envSpec *env.Spec) (env.Agent, error) {
				if envSpec != nil && agents.BaseGame(envSpec.Game) != "battlecube" {
					return nil, fmt.Errorf("HTTP bots play battlecube, not %s", envSpec.Game)
				}
				return Parse(spec)
			},
		})
	}
}

const (
	// DefaultHTTPTimeout is the original server's node-fetch timeout.
	DefaultHTTPTimeout = 5 * time.Second
	// HTTPTimeoutEnv names the environment variable that, when set to a Go
	// duration ("500ms", "10s"; "0" for no limit), replaces
	// DefaultHTTPTimeout for the HTTP bots made from specs.
	HTTPTimeoutEnv = "BOTARENA_HTTP_TIMEOUT"
	// NodeFetchUserAgent is the User-Agent node-fetch 1.x sends.
	NodeFetchUserAgent = "node-fetch/1.0 (+https://github.com/bitinn/node-fetch)"
	// MaxHTTPReply bounds a reply body after gzip or deflate decoding (1
	// MiB); a longer one counts as a failed request (CONNECTION_ERROR).
	// The original had no bound; a valid reply holds at most 64 tasks of
	// a few dozen bytes each, so only a reply padded with about a megabyte
	// of whitespace differs.
	MaxHTTPReply = 1 << 20
	// MaxHTTPHeader bounds the response headers of a bot's reply (64 KiB,
	// more than Node.js servers send); more is a failed request.
	MaxHTTPHeader = 64 << 10
	// keptReply is the largest reply buffer a bot keeps between requests.
	keptReply = 64 << 10
	// maxRedirects is node-fetch's default `follow`.
	maxRedirects = 20
)

// Bot is a Battle³ bot server playing a seat: the agent of the specs
// "http://HOST:PORT/PATH" and "https://...". It does what the original
// server (leomelin/battlecube) does with a bot's url (spec §5):
//
//   - At the first tick of every cycle (SubTick 1; every tick when
//     numOfTasksPerTick is 1), while the seat is in play, it POSTs the
//     seat's bot request, the env's native "request.json" (currentPlayer,
//     gameInfo, players, items, in that key order, as JSON.stringify writes
//     them), to the URL, with the headers node-fetch 1.x sends for a string
//     body: Accept "*/*", Accept-Encoding "gzip,deflate", Connection
//     "close", Content-Length, User-Agent [NodeFetchUserAgent], and no
//     Content-Type (the server sets none). It uses no proxy and speaks
//     HTTP/1.1.
//   - It follows up to 20 redirects (301, 302, 303, 307, 308) as
//     node-fetch 1.x does: 303, and 301 or 302 after a POST, continue as a
//     GET without a body or Content-Length, 307 and 308 repeat the POST
//     with its body; every hop has the first request's headers and no
//     Referer; a redirect without a Location is a failed request.
//   - Timeout (default [DefaultHTTPTimeout], 5 s) bounds the wait for the
//     response headers of each hop, and then, afresh, the reading of the
//     body, as node-fetch 1.x's timeout does. The HTTP status is ignored; a
//     gzip or deflate body is decoded.
//   - The reply is read by [battlecube.Game.ParseCommand], the server's
//     validation: a body that is not JSON, a failed request (refused
//     connection, timeout, reset, more than [MaxHTTPReply] bytes) return
//     [battlecube.RejectConnection], a schema failure
//     [battlecube.RejectSchema], a wrong task count
//     [battlecube.RejectAmount]. The env loses the seat in that tick's ask
//     phase with the original's PLAYER_LOST cause: {} (the server's
//     CONNECTION_ERROR, which socket.io sends as {}),
//     {"error":"VALIDATION_ERROR","details":[...]} or
//     {"error":"VALIDATION_ERROR","details":"Invalid amount of directions
//     sent"}.
//   - numOfTasksPerTick T > 1: the original asks once per cycle and
//     carries out element k of the reply in sub-tick k+1. The env takes one
//     action per tick, so the bot keeps the cycle's reply and hands out one
//     element per tick (ParseCommand reads element SubTick−1); it asks
//     again at the next cycle's first tick. A bot lost mid-cycle is not
//     asked again, and its remaining tasks are dropped, as coded.
//
// Every rejected reply, every task the server accepts that is none of
// NOOP, a move and a bomb on a cube cell (ParseCommand's CrashMove,
// BombNowhere, Idle and StrayMove, carried out as the original does), and
// every bomb off the cube (played as NOOP) writes one line to Log.
//
// The spec's fragment, which is never sent, sets the timeout of one bot:
// "http://localhost:4001#timeout=500ms" ("timeout=0" for no limit). The
// environment variable [HTTPTimeoutEnv] sets the default of every bot.
//
// # Differences from the original
//
// The original POSTs to all bots at once and waits for all; botarena asks
// each seat in its own Act, so the bots of one game are asked one after
// another. Each still has its own timeout and sees the same state, so the
// game is the same; only the wall time differs (two bots that time out
// cost two timeouts per cycle).
//
// # Pools
//
// Act blocks for up to two timeouts and allocates (the request, the
// reply): an HTTP bot is an I/O-bound opponent. In a vecenv pool each
// worker goroutine owns a contiguous range of envs and steps it alone, so
// a slow bot stalls only its own worker's range; the other workers step
// their envs meanwhile, and Pool.Step returns when the slowest worker is
// done. To overlap the waits, give the pool more workers than cores
// (vecenv.Config.Workers, e.g. one per env that has an HTTP opponent, or
// NumEnvs): blocked workers use no CPU, and the Go scheduler runs the
// others. Each bot has its own HTTP transport, without keep-alive (the
// original closes every connection); Close releases it.
//
// An Bot is not safe for concurrent use; one instance plays one seat.
type Bot struct {
	// URL is the bot's address, POSTed to.
	URL string
	// Timeout bounds the wait for the response headers and, afresh, the
	// reading of the body; 0 means no limit.
	Timeout time.Duration
	// Log gets one line per rejected reply or unexpressible task; nil
	// means [agents.ExternalOptions].Log, and none when that is nil too.
	Log io.Writer

	once   sync.Once
	tr     *http.Transport
	client *http.Client
	body   []byte
	reply  []byte
	cycle  int  // tick of the first tick of the cycle the reply is for; -1: none
	failed bool // the request of this cycle failed
	late   bool // it failed by the timeout
	why    string
	faults agents.Faults
}

// New returns a bot at rawURL (http or https) with the given
// timeout (0: none), logging to [agents.ExternalOptions].Log.
func New(rawURL string, timeout time.Duration) (*Bot, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("bad bot URL: %v", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("bad bot URL %q: want http:// or https://", rawURL)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("bad bot URL %q: no host", rawURL)
	}
	if timeout < 0 {
		return nil, fmt.Errorf("bad timeout %v: want 0 (none) or more", timeout)
	}
	return &Bot{URL: rawURL, Timeout: timeout, cycle: -1}, nil
}

// Parse makes a bot from a spec: a URL whose fragment may set the
// timeout ("#timeout=2s"). Without one the timeout is [HTTPTimeoutEnv]'s
// value, or [DefaultHTTPTimeout].
func Parse(spec string) (*Bot, error) {
	timeout := DefaultHTTPTimeout
	if v := os.Getenv(HTTPTimeoutEnv); v != "" {
		d, err := parseTimeout(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", HTTPTimeoutEnv, err)
		}
		timeout = d
	}
	raw, frag, hasFrag := strings.Cut(spec, "#")
	if hasFrag {
		for _, opt := range strings.Split(frag, "&") {
			k, v, _ := strings.Cut(opt, "=")
			switch k {
			case "timeout":
				d, err := parseTimeout(v)
				if err != nil {
					return nil, fmt.Errorf("#timeout: %v", err)
				}
				timeout = d
			case "":
			default:
				return nil, fmt.Errorf("unknown option %q after # (have timeout=DURATION)", k)
			}
		}
	}
	return New(raw, timeout)
}

// URL returns the URL a spec POSTs to (the spec without its
// options), for the url the original sends in currentPlayer and scores,
// and "" when spec is not an http:// or https:// spec.
func URL(spec string) string {
	if !strings.HasPrefix(spec, "http://") && !strings.HasPrefix(spec, "https://") {
		return ""
	}
	raw, _, _ := strings.Cut(spec, "#")
	return raw
}

func parseTimeout(v string) (time.Duration, error) {
	if v == "0" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, err
	}
	if d < 0 {
		return 0, fmt.Errorf("%v: want 0 (none) or more", d)
	}
	return d, nil
}

func (b *Bot) init() {
	b.once.Do(func() {
		b.tr = &http.Transport{
			Proxy:             nil, // node-fetch uses no proxy
			DialContext:       (&net.Dialer{KeepAlive: -1}).DialContext,
			DisableKeepAlives: true, // Connection: close
			// Accept-Encoding is set by hand, so the transport leaves the
			// body encoded and ask decodes gzip and deflate as node-fetch.
			DisableCompression:     true,
			ForceAttemptHTTP2:      false,
			MaxResponseHeaderBytes: MaxHTTPHeader,
		}
		b.client = &http.Client{
			Transport: b.tr,
			CheckRedirect: func(req *http.Request, via []*http.Request) error {
				if len(via) > maxRedirects {
					return fmt.Errorf("maximum redirect reached at: %s", req.URL)
				}
				// node-fetch 1.x sends the next hop with the first request's
				// headers and nothing else; Go's client adds a Referer.
				req.Header.Del("Referer")
				// node-fetch 1.x gives every hop a timeout of its own.
				if rearm, ok := req.Context().Value(hopKey{}).(func()); ok {
					rearm()
				}
				return nil
			},
		}
	})
}

// asBattlecube returns e as a Battle³ game or panics.
func asBattlecube(e env.Env) *battlecube.Game {
	g, ok := e.(*battlecube.Game)
	if !ok {
		panic(fmt.Sprintf("agents: a battlecube HTTP bot cannot play %T", e))
	}
	return g
}

// Reset forgets the cycle's reply. It panics if e is not a battlecube game.
func (b *Bot) Reset(e env.Env, seat int, seed uint64) {
	asBattlecube(e)
	b.cycle, b.failed, b.reply = -1, false, b.reply[:0]
}

// Act returns the seat's task for the coming tick, asking the bot at the
// first tick of a cycle (see [Bot]); a seat out of play does NOOP.
func (b *Bot) Act(e env.Env, seat int) int32 {
	g := asBattlecube(e)
	if g.Done() || !g.Player(seat).InPlay {
		return int32(battlecube.Noop)
	}
	sub := g.SubTick()
	if start := g.Tick() - (sub - 1); start != b.cycle {
		// A cycle's first tick, or a game loaded mid-cycle: ask now.
		b.cycle = start
		b.ask(g, seat)
		if b.failed {
			b.logf(g, seat, "%s: lost (CONNECTION_ERROR, cause {})", b.why)
			if b.late {
				b.faults.Count(agents.TimedOut)
			} else {
				b.faults.Count(agents.Crashed)
			}
		}
	}
	if b.failed {
		return int32(battlecube.RejectConnection)
	}
	a, ok := g.ParseCommand(seat, b.reply)
	if !ok {
		b.faults.Count(agents.Invalid)
		unit, stray := battlecube.StrayUnit(battlecube.Action(a))
		switch act := battlecube.Action(a); {
		case act == battlecube.RejectConnection:
			b.logf(g, seat, "the reply is not JSON (%s): lost (CONNECTION_ERROR, cause {})", excerpt(b.reply))
		case act == battlecube.RejectSchema:
			b.logf(g, seat, "the reply fails the task schema: lost (VALIDATION_ERROR): %s", excerpt(b.reply))
		case act == battlecube.RejectAmount:
			b.logf(g, seat, "the reply does not hold %d tasks: lost (VALIDATION_ERROR, Invalid amount of directions sent): %s", g.TasksPerTick(), excerpt(b.reply))
		case act == battlecube.CrashMove:
			b.logf(g, seat, "task %d is a MOVE without a direction, which crashes the server's move code at the bot's turn: lost (cause {}): %s", sub, excerpt(b.reply))
		case act == battlecube.BombNowhere:
			b.logf(g, seat, "task %d is a BOMB without coordinates: a bomb on no cell, which never explodes: %s", sub, excerpt(b.reply))
		case act == battlecube.Idle:
			b.logf(g, seat, "task %d is no task the server knows: it does nothing (no event): %s", sub, excerpt(b.reply))
		case stray && unit == battlecube.NoAxis:
			b.logf(g, seat, "task %d is a MOVE whose direction has no axis: the bot stays, and its position gains a stray \"undefined\" property: %s", sub, excerpt(b.reply))
		case stray:
			b.logf(g, seat, "task %d is a MOVE along %q, no axis: the bot stays, and its position gains a stray %q property: %s", sub, string(rune(unit)), string(rune(unit)), excerpt(b.reply))
		default:
			b.logf(g, seat, "task %d is a bomb on no cell of the cube, which the action space cannot place: NOOP instead: %s", sub, excerpt(b.reply))
		}
	}
	return a
}

// ask POSTs seat's request and keeps the reply in b.reply, or sets
// b.failed and b.why.
func (b *Bot) ask(g *battlecube.Game, seat int) {
	b.init()
	if cap(b.reply) > keptReply {
		b.reply = nil // a long reply's buffer is not kept for every cycle
	}
	b.failed, b.late, b.why, b.reply = false, false, "", b.reply[:0]
	var err error
	b.body, err = g.AppendNative(b.body[:0], battlecube.FormatRequest, seat)
	if err != nil {
		b.failed, b.why = true, err.Error()
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var timedOut bool
	var mu sync.Mutex
	arm := func() *time.Timer {
		if b.Timeout <= 0 {
			return nil
		}
		return time.AfterFunc(b.Timeout, func() {
			mu.Lock()
			timedOut = true
			mu.Unlock()
			cancel()
		})
	}
	fail := func(phase string, err error) {
		mu.Lock()
		defer mu.Unlock()
		b.failed, b.late = true, timedOut
		if timedOut {
			b.why = fmt.Sprintf("no %s within %v (network timeout)", phase, b.Timeout)
		} else {
			b.why = fmt.Sprintf("request failed: %v", err)
		}
	}
	var t *time.Timer
	// A redirect's hop starts the timeout afresh, unless it has run out.
	ctx = context.WithValue(ctx, hopKey{}, func() {
		if t != nil && t.Stop() {
			t = arm()
		}
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.URL, bytes.NewReader(b.body))
	if err != nil {
		b.failed, b.why = true, fmt.Sprintf("request failed: %v", err)
		return
	}
	req.Close = true
	req.Header["Accept"] = []string{"*/*"}
	req.Header["Accept-Encoding"] = []string{"gzip,deflate"}
	req.Header["User-Agent"] = []string{NodeFetchUserAgent}
	t = arm()
	resp, err := b.client.Do(req)
	if t != nil {
		t.Stop()
	}
	if err != nil {
		fail("response", err)
		return
	}
	defer resp.Body.Close()
	if isRedirect(resp.StatusCode) {
		// Go's client hands back a redirect without a Location; node-fetch
		// 1.x rejects it.
		fail("response", fmt.Errorf("redirect location header missing at: %s", resp.Request.URL))
		return
	}
	// node-fetch 1.x starts its timeout afresh for the body.
	if t = arm(); t != nil {
		defer t.Stop()
	}
	r, err := decode(resp)
	if err == nil {
		b.reply, err = appendAll(b.reply[:0], io.LimitReader(r, MaxHTTPReply+1))
	}
	if err == nil && len(b.reply) > MaxHTTPReply {
		err = fmt.Errorf("the reply is longer than %d bytes", MaxHTTPReply)
	}
	if err != nil {
		fail("complete reply body", err)
	}
}

// hopKey keys the request context's function that restarts the timeout
// for a redirect's hop.
type hopKey struct{}

// isRedirect reports whether node-fetch 1.x follows a response with code
// (Fetch.prototype.isRedirect: 301, 302, 303, 307, 308).
func isRedirect(code int) bool {
	switch code {
	case 301, 302, 303, 307, 308:
		return true
	}
	return false
}

// decode undoes a gzip or deflate Content-Encoding as node-fetch 1.x does
// (deflate: zlib-wrapped, or raw when the first byte is not a zlib header).
func decode(resp *http.Response) (io.Reader, error) {
	if resp.StatusCode == http.StatusNoContent || resp.StatusCode == http.StatusNotModified {
		return resp.Body, nil
	}
	switch strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding"))) {
	case "gzip", "x-gzip":
		return gzip.NewReader(resp.Body)
	case "deflate", "x-deflate":
		var first [1]byte
		n, err := io.ReadFull(resp.Body, first[:])
		if n == 0 {
			return nil, err
		}
		r := io.MultiReader(bytes.NewReader(first[:]), resp.Body)
		if first[0]&0x0f == 0x08 {
			return zlib.NewReader(r)
		}
		return flate.NewReader(r), nil
	}
	return resp.Body, nil
}

// appendAll reads r to its end into dst.
func appendAll(dst []byte, r io.Reader) ([]byte, error) {
	for {
		if len(dst) == cap(dst) {
			dst = append(dst, 0)[:len(dst)]
		}
		n, err := r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if errors.Is(err, io.EOF) {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
	}
}

// excerpt returns the start of a reply for a log line.
func excerpt(b []byte) string {
	const n = 200
	if len(b) == 0 {
		return "an empty body"
	}
	if len(b) > n {
		return fmt.Sprintf("%q...", b[:n])
	}
	return fmt.Sprintf("%q", b)
}

func (b *Bot) logf(g *battlecube.Game, seat int, format string, args ...any) {
	fmt.Fprintf(agents.ExternalLog(b.Log), "battlecube: %s (seat %d, %s) tick %d: %s\n", b.URL, seat, g.Player(seat).Name, g.Tick(), fmt.Sprintf(format, args...))
}

var _ agents.Terminal = (*Bot)(nil)

// Faults returns, by kind, the cycles and ticks in which the bot's reply
// was lost or rejected: timed out (no response or body within Timeout),
// crashed (the request failed otherwise: refused, reset, too long a
// reply), invalid (a reply the server rejects, once, or a task it carries
// out as none of NOOP, a move and a bomb on the cube, each tick; see the
// type's doc). It implements match.FaultCounter.
func (b *Bot) Faults() agents.Faults { return b.faults }

// Attach sends the bot's log (one line per rejected reply) to out; it is
// how botarena play attaches its stderr ([agents.Terminal]).
func (b *Bot) Attach(_ io.Reader, out io.Writer) { b.Log = out }

// Close releases the bot's connections. The bot must not be used after.
func (b *Bot) Close() error {
	if b.tr != nil {
		b.tr.CloseIdleConnections()
	}
	return nil
}

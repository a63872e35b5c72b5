// Package archtest checks the architecture rules of DESIGN.md that the
// compiler does not: which packages may import which.
//
// # The allow-list
//
// Every package of the module (every package `go list ./...` finds) has a
// rule in [rules], and a package without one fails
// TestDependenciesPointOneWay, which names it. A rule says, for the
// packages it matches:
//
//   - imports: the packages of this module they may import directly. Since
//     every package has a rule, what a package reaches through its imports
//     is bounded by their rules: dependencies point one way.
//   - thirdParty: the third-party packages allowed anywhere in their
//     dependency closure (go list -deps), as prefixes: "connectrpc.com/"
//     allows every Connect package, "go.etcd.io/bbolt" bbolt and its
//     sub-packages.
//   - never: packages that must not be in their closure even where a prefix
//     above would allow them (module packages as patterns, third-party ones
//     as prefixes): the promises DESIGN.md makes, such as an env service
//     without the league's storage.
//
// A pattern is a package path relative to the module ("rpc/envservice");
// "dir/*" matches every package below dir, at any depth, but not dir
// itself. When several rules match a package, the most specific one wins:
// an exact path, else the longest dir/*. Every rule must match a package.
//
// # Adding a package
//
// Add its rule next to its neighbours in [rules], with what DESIGN.md lets
// it import, before (or with) the package itself. A runner of matches that
// plays agents in envs and records them would read:
//
//	{pkg: "match", imports: []string{"env", "env/*", "vecenv", "agents", "observations", "observations/matchdata"},
//		thirdParty: cat(arrowDeps, parquetDeps)},
//
// and the packages that may use it (cmd/botarena, league, ...) list "match"
// in their imports. A new game under env/ needs nothing: env/* covers it.
// When a new import is refused, either the import goes against DESIGN.md's
// direction (move the code instead), or DESIGN.md allows it and the rule
// was too narrow: widen the rule, saying why in a comment.
package archtest

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/botarena/botarena"

// rule is what the packages matching pkg may depend on; see the package
// documentation.
type rule struct {
	pkg        string   // a package path relative to the module; "dir/*" matches the packages below dir
	imports    []string // module packages (patterns) they may import directly
	thirdParty []string // prefixes of third-party packages allowed in their dependency closure
	never      []string // module patterns or third-party prefixes never in their closure
}

// rules follow DESIGN.md: dependencies point one way, env and the games at
// the bottom, then vecenv and observations, then agents and league, then
// the services, and cmd on top.
var rules = []rule{
	// The game contract: the standard library only. env names none of
	// the tools' parts of a game (its kit): each tool declares the
	// interface it asks a kit for. The tools' vocabulary that a game must
	// name in its kit's methods lives in small packages beside env, each
	// importing env at most: the trainer's defaults, the replay layout and
	// the picture (Painter, canvas, palette, legend marks). Each game
	// imports env and those, and nothing else.
	{pkg: "env"},
	{pkg: "env/picture"},
	{pkg: "env/training", imports: []string{"env"}},
	{pkg: "env/replay", imports: []string{"env"}},
	// The games may also use utf8sub, the originals' reading of
	// ill-formed UTF-8 (Battle³'s bot replies), which agents/entelect
	// shares.
	{pkg: "env/*", imports: cat(gameDeps, []string{"internal/utf8sub"})},
	// games is the one list that links the games into a program.
	{pkg: "games", imports: []string{"env", "env/*"}},
	// testgame proves the path of a new game (docs/add-a-game.md): it
	// may import what a game under env/ may.
	{pkg: "internal/testgame", imports: gameDeps},
	{pkg: "vecenv", imports: []string{"env"}},
	// observations is the only importer of Arrow; Parquet (with thrift
	// and, for the stored Arrow schema, arrow/flight with gRPC) stays in
	// observations/matchdata, out of observations and so out of the env
	// service.
	{pkg: "observations", imports: []string{"env"}, thirdParty: arrowDeps, never: parquetDeps},
	{pkg: "observations/matchdata", imports: []string{"env", "observations"}, thirdParty: cat(arrowDeps, parquetDeps)},
	// agents is the registry of agents and schemes and what the external-bot
	// protocols share (faults, harness settings, capabilities, the generic
	// agents and the console): the game contract only, and safefile's
	// check of the bots folders. A game's agents live in its package; a
	// protocol's code in its own package below agents.
	{pkg: "agents", imports: []string{"env", "internal/safefile"}},
	// One package per scheme: the external-bot protocols (agents/entelect,
	// agents/cmdbot, agents/httpbot, agents/upe) read the games' states and
	// formats; policy files (agents/policy) run their networks with gonum's
	// BLAS. proctree, the process trees of bots' runs, is the standard
	// library only.
	{pkg: "agents/*", imports: []string{"env", "env/*", "vecenv", "agents", "agents/internal/proctree", "internal/safefile", "internal/utf8sub"}, thirdParty: gonumDeps},
	{pkg: "agents/internal/proctree"},
	// agents/all is the one list that links the schemes into a program, as
	// games links the games.
	{pkg: "agents/all", imports: []string{"agents/cmdbot", "agents/entelect", "agents/httpbot", "agents/policy", "agents/upe"}, thirdParty: gonumDeps},
	// match is the one match runner: it makes agents (agents) and plays
	// them in the games (env), with recording for league data.
	{pkg: "match", imports: []string{"env", "env/*", "vecenv", "agents"}},
	// bots builds public bots from recipes (git, toolchains, shell steps):
	// standard library only; cmd checks the folders it yields with agents.
	{pkg: "bots"},
	// league runs games (env, agents, with match), stores them (bbolt), rates them
	// (gonum) and writes match data through observations/matchdata. It
	// never imports the services: matchservice.RemoteRunner plugs into
	// league.RunOptions.Runner.
	{pkg: "league", imports: []string{"env", "env/*", "vecenv", "observations", "observations/matchdata", "agents", "agents/*", "match", "internal/safefile"},
		thirdParty: cat(bboltDeps, gonumDeps, arrowDeps, parquetDeps)},
	// web serves the browser viewer: built-in agents playing the games with
	// the match runner, replays and league pages. DESIGN.md has the viewer
	// show "replays and league tables", so it reads league stores
	// read-only (league: bbolt, gonum) and league match data
	// (observations/matchdata: Parquet), where they are, rather than
	// through a converter of its own. It stays beside the services: no
	// Connect, no rpc package.
	{pkg: "web", imports: []string{"env", "env/*", "vecenv", "agents", "agents/*", "match", "league", "observations/matchdata", "internal/safefile", "internal/bytesize"},
		thirdParty: cat(arrowDeps, parquetDeps, bboltDeps, gonumDeps), never: []string{"rpc/*", "connectrpc.com/"}},
	// native is the in-process backend (the shared library's Go side):
	// pools with every game and the agents a local user may name, policy
	// files included; no Arrow, no Connect, no storage.
	// It speaks the env service's messages (rpc/envproto), not Connect.
	{pkg: "native", imports: []string{"env", "env/*", "games", "vecenv", "agents", "agents/*", "rpc/envproto", "rpc/gen/*"}, thirdParty: cat(gonumDeps, protobufDeps),
		never: cat(storage, []string{"observations", "connectrpc.com/"})},
	// bench measures pools and their Arrow encoding.
	{pkg: "bench", imports: []string{"env", "env/*", "vecenv", "observations", "agents", "agents/*"}, thirdParty: arrowDeps},

	// The services: one package per service, the only importers of Connect
	// (see TestOnlyRPCImportsConnect). The generated code imports only
	// Connect and protobuf.
	{pkg: "rpc/gen/*", imports: []string{"rpc/gen/*"}, thirdParty: connectDeps},
	// envproto turns env values and requests into the env service's
	// messages and pools, for every face (the service, native, the CLI):
	// protobuf only, no Connect.
	{pkg: "rpc/envproto", imports: []string{"env", "env/training", "env/picture", "vecenv", "agents", "rpc/gen/*"}, thirdParty: protobufDeps, never: []string{"connectrpc.com/"}},
	// rpc/server is what the services share on one port (host, errors,
	// memory budget, capabilities, metrics, token guard); it measures envs
	// and agents for the budget.
	{pkg: "rpc/server", imports: []string{"env", "env/*", "vecenv", "agents", "internal/bytesize"}, thirdParty: cat(connectDeps, promDeps), never: storage},
	// The env service serves vecenv pools as Arrow batches, without the
	// league or its storage.
	{pkg: "rpc/envservice", imports: []string{"env", "env/*", "vecenv", "observations", "agents", "agents/*", "rpc/gen/*", "rpc/envproto", "rpc/server", "rpc/internal/wire", "internal/bytesize"},
		thirdParty: cat(connectDeps, promDeps, arrowDeps), never: storage},
	// The Go client of the env service decodes batches: no server, no
	// metrics, no storage.
	{pkg: "rpc/client", imports: []string{"env", "observations", "rpc/gen/*", "rpc/internal/wire", "rpc/internal/connectwire"}, thirdParty: cat(connectDeps, arrowDeps), never: storage},
	// The wire form of the batch responses, shared by the env service and
	// the client: protobuf's protowire only.
	{pkg: "rpc/internal/wire", thirdParty: []string{"google.golang.org/protobuf/"}},
	// Connect unary calls and streams read into reused buffers, for the
	// client's Reset, Step and StepStream: net/http and Connect's error type
	// only.
	{pkg: "rpc/internal/connectwire", thirdParty: connectDeps},
	// The match service plays league games (league's runners and types)
	// and, as RemoteRunner, sends them to other servers with the client's
	// options: it brings league and its storage.
	{pkg: "rpc/matchservice", imports: []string{"env", "env/*", "vecenv", "observations", "observations/matchdata", "agents", "agents/*", "match", "league", "rpc/gen/*", "rpc/server", "rpc/client", "internal/safefile", "internal/bytesize"},
		thirdParty: cat(connectDeps, promDeps, arrowDeps, parquetDeps, bboltDeps, gonumDeps)},
	// The rpc packages' shared test helpers compose every service.
	{pkg: "rpc/internal/rpctest", imports: []string{"env", "env/*", "vecenv", "agents", "agents/*", "rpc/gen/*", "rpc/server", "rpc/envservice", "rpc/matchservice", "rpc/client", "internal/testutil"},
		thirdParty: cat(connectDeps, promDeps, arrowDeps, parquetDeps, bboltDeps, gonumDeps)},

	// Test helpers: the game contract (a codec-less wrapper) and pools of
	// envs (vecenv), else the standard library; this package: the
	// standard library only.
	{pkg: "internal/testutil", imports: []string{"env", "vecenv"}},
	// Opening files a user, a client or a bot named, without blocking on
	// a FIFO, and resolving the folders a server serves them from: the
	// standard library only, for every package that reads such files.
	{pkg: "internal/safefile"},
	// Byte counts in the memory budgets' messages (services and viewer).
	{pkg: "internal/bytesize"},
	// UTF-8 decoding with one U+FFFD per maximal ill-formed subpart, as
	// the originals' runtimes read bots' text (games and agents).
	{pkg: "internal/utf8sub"},
	{pkg: "internal/archtest"},

	// deploy/image writes the container image (an OCI layout) with
	// go-containerregistry; it imports nothing of botarena: the binary is
	// an input file.
	{pkg: "deploy/image", thirdParty: ggcrDeps},

	// cmd wires everything, with cobra for the command line and gonum's
	// plot for charts.
	{pkg: "cmd/*", imports: []string{"env", "env/*", "games", "vecenv", "observations", "observations/matchdata", "agents", "agents/*", "bots", "match", "league", "web", "bench", "native",
		"rpc/gen/*", "rpc/envproto", "rpc/server", "rpc/envservice", "rpc/matchservice", "rpc/client", "internal/safefile"},
		thirdParty: cat(connectDeps, promDeps, arrowDeps, parquetDeps, bboltDeps, gonumDeps, cobraDeps, plotDeps)},
}

// xDeps are the Go project's packages outside the standard library, which
// Arrow, Prometheus and gonum's plot import.
var xDeps = []string{"golang.org/x/"}

// arrowDeps are Arrow's IPC packages and what they import.
var arrowDeps = cat([]string{"github.com/apache/arrow-go/v18/arrow", "github.com/apache/arrow-go/v18/internal/", "github.com/klauspost/compress", "github.com/google/flatbuffers/",
	"github.com/zeebo/xxh3", "github.com/klauspost/cpuid/", "github.com/goccy/go-json", "github.com/pierrec/lz4/", "github.com/andybalholm/brotli", "github.com/golang/snappy", "github.com/google/uuid"}, xDeps)

// parquetDeps are Arrow's Parquet packages and what they import besides
// arrowDeps: thrift and, through arrow/flight, gRPC and protobuf.
var parquetDeps = []string{"github.com/apache/arrow-go/v18/parquet", "github.com/apache/thrift/", "github.com/cespare/xxhash/", "google.golang.org/grpc", "google.golang.org/genproto/", "google.golang.org/protobuf/"}

// connectDeps are Connect, its health and reflection handlers, and
// protobuf.
var connectDeps = cat([]string{"connectrpc.com/"}, protobufDeps)

// protobufDeps are protobuf's Go packages, which the generated messages
// import.
var protobufDeps = []string{"google.golang.org/protobuf/"}

// promDeps are the Prometheus client (the services' /metrics) and what it
// imports besides protobuf.
var promDeps = cat([]string{"github.com/prometheus/client_golang/", "github.com/prometheus/client_model/", "github.com/prometheus/common/", "github.com/prometheus/procfs",
	"github.com/beorn7/perks/", "github.com/munnerz/goautoneg", "github.com/cespare/xxhash/"}, xDeps)

// bboltDeps are the league's store.
var bboltDeps = []string{"go.etcd.io/bbolt"}

// gonumDeps are gonum's numeric packages (policy inference, ratings).
var gonumDeps = cat([]string{"gonum.org/v1/gonum/"}, xDeps)

// cobraDeps are the command line's.
var cobraDeps = []string{"github.com/spf13/cobra", "github.com/spf13/pflag"}

// plotDeps are gonum's plot (charts) and what it imports.
var plotDeps = cat([]string{"gonum.org/v1/plot", "codeberg.org/go-fonts/", "codeberg.org/go-latex/", "codeberg.org/go-pdf/", "git.sr.ht/~sbinet/gg",
	"github.com/ajstarks/svgo", "github.com/golang/freetype"}, xDeps)

// ggcrDeps are go-containerregistry's image, layout and tarball packages
// and what they import.
var ggcrDeps = cat([]string{"github.com/google/go-containerregistry/", "github.com/containerd/stargz-snapshotter/", "github.com/klauspost/compress",
	"github.com/opencontainers/go-digest", "github.com/opencontainers/image-spec/", "github.com/vbatts/tar-split/"}, xDeps)

// gameDeps is what a game's package may import: the contract and the
// tools' vocabulary its kit names.
var gameDeps = []string{"env", "env/training", "env/replay", "env/picture"}

// storage is what the env service, its client and the shared server
// never bring in: the league, its match data and their storage (bbolt,
// Parquet, thrift).
var storage = []string{"league", "observations/matchdata", "go.etcd.io/bbolt", "github.com/apache/arrow-go/v18/parquet", "github.com/apache/thrift/"}

// cat concatenates lists into a new one.
func cat(lists ...[]string) []string { return slices.Concat(lists...) }

// pkg is what go list says of one package of the module: its path relative
// to the module, its direct imports and its dependency closure (full
// paths, standard library included).
type pkg struct {
	rel           string
	imports, deps []string
}

func TestDependenciesPointOneWay(t *testing.T) {
	touchSources(t)
	pkgs := listPackages(t)
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages; is the module path right?", len(pkgs))
	}
	report(t, check(rules, pkgs))
}

// maxReported is how many messages a failing run prints; the rest are
// counted. The first message names the cause: check puts the imports a
// rule does not allow before what they drag in.
const maxReported = 20

// report fails t with msgs, the first (the culprit) on the first line.
func report(t *testing.T, msgs []string) {
	t.Helper()
	if len(msgs) == 0 {
		return
	}
	shown := msgs[:min(len(msgs), maxReported)]
	more := ""
	if n := len(msgs) - len(shown); n > 0 {
		more = fmt.Sprintf("\n(and %d more)", n)
	}
	t.Errorf("%s\n%d architecture rule(s) broken; all of them, causes first:\n  %s%s", msgs[0], len(msgs), strings.Join(shown, "\n  "), more)
}

// goList runs go list -f format over every package of the module and
// returns its lines, one a package, without their newlines; a failure of
// go list fails the test with its stderr.
func goList(t *testing.T, format string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", format, module+"/...")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v: %s", err, stderr.String())
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

// listPackages returns every package of the module, as go list ./... finds
// them.
func listPackages(t *testing.T) []pkg {
	t.Helper()
	var pkgs []pkg
	for _, line := range goList(t, "{{.ImportPath}}\t{{join .Imports \" \"}}\t{{join .Deps \" \"}}") {
		fields := strings.Split(line, "\t")
		if len(fields) != 3 {
			t.Fatalf("go list: unexpected line %q", line)
		}
		pkgs = append(pkgs, pkg{rel: relative(fields[0]), imports: strings.Fields(fields[1]), deps: strings.Fields(fields[2])})
	}
	return pkgs
}

// relative returns path relative to the module ("" for the module's root
// package).
func relative(path string) string {
	return strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
}

// check returns a message for every package without a rule, every import
// and dependency a package's rule does not allow, every rule that matches
// no package and every pattern with two rules.
//
// The messages come causes first: packages without a rule, then imports a
// rule does not list (the edit that broke a rule is one of these), then
// dependencies a rule forbids, then third-party packages outside a rule's
// list (what a wrong import drags into every package above it), one line
// per package, then rules without a package.
func check(rules []rule, pkgs []pkg) []string {
	var msgs []string
	seen := map[string]bool{}
	used := make([]bool, len(rules))
	for _, r := range rules {
		if seen[r.pkg] {
			msgs = append(msgs, fmt.Sprintf("two rules for %s", r.pkg))
		}
		seen[r.pkg] = true
	}
	for _, p := range pkgs {
		i := ruleFor(rules, p.rel)
		if i < 0 {
			msgs = append(msgs, fmt.Sprintf("%s has no rule: add one to internal/archtest/deps_test.go with what DESIGN.md lets it import", p.rel))
			continue
		}
		used[i] = true
		msgs = append(msgs, rules[i].violations(p)...)
	}
	for i, r := range rules {
		if !used[i] {
			msgs = append(msgs, fmt.Sprintf("the rule for %s matches no package: remove it", r.pkg))
		}
	}
	slices.SortStableFunc(msgs, func(a, b string) int { return rank(a) - rank(b) })
	return msgs
}

// rank orders check's messages, causes first (see check).
func rank(msg string) int {
	for i, marker := range []string{" has no rule", " must not import ", ", even indirectly", " must not depend on third-party "} {
		if strings.Contains(msg, marker) {
			return i
		}
	}
	return 4
}

// ruleFor returns the index of the rule of the package rel, the most
// specific that matches (an exact pattern, else the longest dir/*), or -1
// when there is none.
func ruleFor(rules []rule, rel string) int {
	best, bestLen := -1, -1
	for i, r := range rules {
		if r.pkg == rel {
			return i
		}
		if base, ok := strings.CutSuffix(r.pkg, "/*"); ok && match(r.pkg, rel) && len(base) > bestLen {
			best, bestLen = i, len(base)
		}
	}
	return best
}

// match reports whether the package rel matches pattern.
func match(pattern, rel string) bool {
	if base, ok := strings.CutSuffix(pattern, "/*"); ok {
		return strings.HasPrefix(rel, base+"/")
	}
	return rel == pattern
}

// matchAny reports whether the package rel matches one of patterns.
func matchAny(patterns []string, rel string) bool {
	return slices.ContainsFunc(patterns, func(p string) bool { return match(p, rel) })
}

// thirdParty reports whether path is neither the standard library nor a
// package of this module.
func thirdParty(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return strings.Contains(first, ".") && path != module && !strings.HasPrefix(path, module+"/")
}

// ofModule reports whether path is a package of this module.
func ofModule(path string) bool { return path == module || strings.HasPrefix(path, module+"/") }

// violations returns a message for every import and dependency of p that r
// does not allow (for r.never, one per entry, naming the first dependency
// it forbids).
func (r rule) violations(p pkg) []string {
	var msgs []string
	for _, imp := range p.imports {
		if ofModule(imp) && !matchAny(r.imports, relative(imp)) {
			msgs = append(msgs, fmt.Sprintf("%s must not import %s (DESIGN.md: dependencies point one way; the rule for %s lists what it may import)", p.rel, relative(imp), r.pkg))
		}
	}
	forbidden := map[string]bool{} // entries of r.never already reported
	var outside []string           // third-party dependencies outside r.thirdParty
	for _, dep := range p.deps {
		var never string
		switch {
		case ofModule(dep):
			never = r.neverEntry(relative(dep), match)
		case thirdParty(dep):
			never = r.neverEntry(dep, func(entry, path string) bool { return strings.HasPrefix(path, entry) })
			if never == "" && !hasPrefix(r.thirdParty, dep) {
				outside = append(outside, dep)
			}
		}
		if never != "" && !forbidden[never] {
			forbidden[never] = true
			name := dep
			if ofModule(dep) {
				name = relative(dep)
			}
			msgs = append(msgs, fmt.Sprintf("%s must not depend on %s, even indirectly (DESIGN.md; the rule for %s forbids %s)", p.rel, name, r.pkg, never))
		}
	}
	if len(outside) > 0 {
		more := ""
		if len(outside) > 1 {
			more = fmt.Sprintf(" and %d more (%s)", len(outside)-1, strings.Join(outside[1:min(len(outside), 4)], ", "))
			if len(outside) > 4 {
				more = strings.TrimSuffix(more, ")") + ", ...)"
			}
		}
		msgs = append(msgs, fmt.Sprintf("%s must not depend on third-party %s%s (the rule for %s lists what it may use)", p.rel, outside[0], more, r.pkg))
	}
	return msgs
}

// neverEntry returns the entry of r.never that forbids path, by
// matches(entry, path), or "".
func (r rule) neverEntry(path string, matches func(entry, path string) bool) string {
	for _, n := range r.never {
		if matches(n, path) {
			return n
		}
	}
	return ""
}

// hasPrefix reports whether path starts with one of prefixes.
func hasPrefix(prefixes []string, path string) bool {
	return slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(path, p) })
}

// touchSources reads every Go file of the module, so that the go test cache,
// which tracks the files a test opens but not what a subprocess reads, reruns
// this test whenever an import may have changed.
func touchSources(t *testing.T) {
	t.Helper()
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "python" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".go") || d.Name() == "go.mod") {
			_, err = os.ReadFile(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestOnlyRPCImportsConnect checks STYLE.md's rule that the services under
// rpc/ (with their generated code and test helpers) are the only packages
// importing Connect, tests included: cmd and everything else reach the
// servers through the rpc packages' own API.
func TestOnlyRPCImportsConnect(t *testing.T) {
	touchSources(t)
	for _, line := range goList(t, "{{.ImportPath}}\t{{join .Imports \" \"}} {{join .TestImports \" \"}} {{join .XTestImports \" \"}}") {
		path, imports, _ := strings.Cut(strings.TrimSpace(line), "\t")
		rel := relative(path)
		if match("rpc/*", rel) {
			continue
		}
		for _, imp := range strings.Fields(imports) {
			if strings.HasPrefix(imp, "connectrpc.com/") {
				t.Errorf("%s imports %s; only the rpc packages may import Connect (STYLE.md)", rel, imp)
			}
		}
	}
}

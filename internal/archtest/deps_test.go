// Package archtest checks the architecture rules of DESIGN.md that the
// compiler does not: which packages may import which.
package archtest

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/botarena/botarena"

// rule lists what packages matching a pattern may import besides the
// standard library: packages of this module and third-party prefixes.
type rule struct {
	pattern  string // a package path relative to the module; a trailing "/*" matches sub-packages
	internal []string
	external []string
}

// rules follow DESIGN.md: dependencies point one way, env → games → vecenv →
// observations → rpc, with agents and cmd on top.
var rules = []rule{
	{pattern: "env"},
	{pattern: "env/*", internal: []string{"env"}},
	// games is the one list that links the games into a program.
	{pattern: "games", internal: []string{"env", "env/*"}},
	// testgame proves the path of a new game (docs/add-a-game.md): it
	// may import what a game under env/ may.
	{pattern: "internal/testgame", internal: []string{"env"}},
	{pattern: "vecenv", internal: []string{"env"}},
	{pattern: "observations", internal: []string{"env"}, external: arrowDeps},
	{pattern: "agents", internal: []string{"env", "env/*", "vecenv"}},
	// Sub-packages of agents (upe's scheme, policy files) build on agents;
	// policy files run their networks with gonum's BLAS.
	{pattern: "agents/*", internal: []string{"env", "env/*", "vecenv", "agents"}, external: []string{"gonum.org/v1/gonum/"}},
	// rpc is the only importer of Connect; its generated code imports only
	// Connect and protobuf. agents brings in the games its external bots speak to.
	{pattern: "rpc/gen/*", internal: []string{"rpc/gen/*"}, external: connectDeps},
	// observations/matchdata writes Parquet through Arrow, whose Parquet
	// support brings thrift and, for the stored Arrow schema, arrow/flight
	// with gRPC and protobuf: kept out of observations and so out of rpc.
	{pattern: "observations/*", internal: []string{"env", "observations"}, external: append(parquetDeps, arrowDeps...)},
	// league runs games (env, agents), stores them (bbolt), rates them
	// (gonum) and writes match data through observations/matchdata.
	{pattern: "league", internal: []string{"env", "env/*", "vecenv", "observations", "observations/*", "agents", "agents/*"}, external: append(append([]string{"go.etcd.io/bbolt", "gonum.org/v1/gonum/"}, parquetDeps...), arrowDeps...)},
	// rpc serves and sends whole league games (MatchService, RemoteRunner)
	// with league's own types and LocalRunner, so it depends on league and
	// what league brings (bbolt, gonum, Parquet through observations/*);
	// league never imports rpc: a remote runner plugs into
	// league.RunOptions.Runner. It serves its metrics at /metrics with the
	// Prometheus client (promDeps).
	// web serves the browser viewer: it plays built-in agents (agents) in
	// the games (env, env/*); no Connect.
	{pattern: "web", internal: []string{"env", "env/*", "vecenv", "agents"}},
	{pattern: "rpc", internal: []string{"env", "env/*", "vecenv", "observations", "observations/*", "agents", "agents/*", "league", "rpc/gen/*"}, external: append(append(append(append([]string{"go.etcd.io/bbolt", "gonum.org/v1/gonum/"}, connectDeps...), promDeps...), parquetDeps...), arrowDeps...)},
}

// arrowDeps are the third-party packages observations may use: Arrow and
// what it imports.
var arrowDeps = []string{"github.com/apache/arrow-go/", "github.com/klauspost/compress", "github.com/klauspost/compress/", "github.com/google/flatbuffers/", "github.com/zeebo/xxh3", "github.com/klauspost/cpuid/", "golang.org/x/", "github.com/goccy/go-json", "github.com/pierrec/lz4/", "github.com/andybalholm/brotli", "github.com/golang/snappy", "github.com/google/uuid"}

// parquetDeps are what Arrow's Parquet packages import besides arrowDeps.
var parquetDeps = []string{"github.com/apache/thrift/", "github.com/cespare/xxhash/", "google.golang.org/grpc", "google.golang.org/genproto/", "google.golang.org/protobuf/"}

// connectDeps are the third-party packages rpc may use besides Arrow's:
// Connect, its health and reflection handlers, and protobuf.
var connectDeps = []string{"connectrpc.com/", "google.golang.org/protobuf/"}

// promDeps are the Prometheus client (rpc's /metrics) and what it imports
// besides protobuf and golang.org/x.
var promDeps = []string{"github.com/prometheus/client_golang/", "github.com/prometheus/client_model/", "github.com/prometheus/common/", "github.com/prometheus/procfs", "github.com/beorn7/perks/", "github.com/munnerz/goautoneg", "github.com/cespare/xxhash/"}

func TestDependenciesPointOneWay(t *testing.T) {
	touchSources(t)
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}\t{{join .Deps \" \"}}", module+"/...")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v: %s", err, stderr.String())
	}
	checked := 0
	for line := range strings.Lines(string(out)) {
		path, deps, _ := strings.Cut(strings.TrimSpace(line), "\t")
		rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
		for _, r := range rules {
			if !match(r.pattern, rel) {
				continue
			}
			checked++
			for _, dep := range strings.Fields(deps) {
				if msg := r.violation(rel, dep); msg != "" {
					t.Error(msg)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no package matched any rule; is the module path right?")
	}
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

func match(pattern, rel string) bool {
	if base, ok := strings.CutSuffix(pattern, "/*"); ok {
		return strings.HasPrefix(rel, base+"/")
	}
	return rel == pattern
}

// violation returns a message when pkg may not depend on dep.
func (r rule) violation(pkg, dep string) string {
	first, _, _ := strings.Cut(dep, "/")
	if !strings.Contains(first, ".") {
		return "" // standard library
	}
	if rel, ok := strings.CutPrefix(dep, module+"/"); ok {
		if strings.HasPrefix(rel, "internal/") && !strings.HasPrefix(pkg, "env") {
			return ""
		}
		for _, p := range r.internal {
			if match(p, rel) {
				return ""
			}
		}
		return pkg + " must not import " + rel + " (DESIGN.md: dependencies point one way)"
	}
	for _, p := range r.external {
		if strings.HasPrefix(dep, p) {
			return ""
		}
	}
	return pkg + " must not import third-party " + dep
}

// TestOnlyRPCImportsConnect checks STYLE.md's rule that rpc (with its
// generated code) is the only package importing Connect, tests included:
// cmd and everything else reach the server through rpc's own API.
func TestOnlyRPCImportsConnect(t *testing.T) {
	touchSources(t)
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}\t{{join .Imports \" \"}} {{join .TestImports \" \"}} {{join .XTestImports \" \"}}", module+"/...")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v: %s", err, stderr.String())
	}
	for line := range strings.Lines(string(out)) {
		path, imports, _ := strings.Cut(strings.TrimSpace(line), "\t")
		rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
		if rel == "rpc" || match("rpc/*", rel) {
			continue
		}
		for _, imp := range strings.Fields(imports) {
			if strings.HasPrefix(imp, "connectrpc.com/") {
				t.Errorf("%s imports %s; only rpc may import Connect (STYLE.md)", rel, imp)
			}
		}
	}
}

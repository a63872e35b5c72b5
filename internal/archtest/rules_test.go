package archtest

import (
	"slices"
	"strings"
	"testing"
)

func TestRuleFor(t *testing.T) {
	t.Parallel()
	rs := []rule{
		{pkg: "env"},
		{pkg: "env/*"},
		{pkg: "env/bomberman/internal/*"},
		{pkg: "env/battlebots"},
		{pkg: "rpc/server"},
	}
	for _, tc := range []struct {
		rel  string
		want string // the rule's pkg; "" for none
	}{
		{"env", "env"},
		{"env/bomberman", "env/*"},
		{"env/bomberman/internal/codec", "env/bomberman/internal/*"}, // the longest dir/* wins
		{"env/battlebots", "env/battlebots"},                         // an exact rule beats env/*
		{"env/battlebots/x", "env/*"},
		{"rpc/server", "rpc/server"},
		{"rpc/serverx", ""},
		{"rpc", ""},
		{"match", ""},
		{"environment", ""},
	} {
		got := ""
		if i := ruleFor(rs, tc.rel); i >= 0 {
			got = rs[i].pkg
		}
		if got != tc.want {
			t.Errorf("ruleFor(%q) = %q, want %q", tc.rel, got, tc.want)
		}
	}
}

// TestCheck: a package without a rule fails, naming it, and so do an
// import and a dependency its rule does not allow, a rule without a
// package, and two rules for one pattern.
func TestCheck(t *testing.T) {
	t.Parallel()
	const m = module + "/"
	rs := []rule{
		{pkg: "env"},
		{pkg: "env/*", imports: []string{"env"}},
		{pkg: "svc", imports: []string{"env", "env/*"}, thirdParty: []string{"connectrpc.com/", "github.com/apache/arrow-go/"},
			never: []string{"store", "github.com/apache/arrow-go/v18/parquet"}},
		{pkg: "store", imports: []string{"env"}},
	}
	good := []pkg{
		{rel: "env", deps: []string{"errors", "fmt"}},
		{rel: "env/game", imports: []string{m + "env", "math/rand/v2"}, deps: []string{m + "env", "math/rand/v2"}},
		{rel: "svc", imports: []string{m + "env/game", "connectrpc.com/connect"},
			deps: []string{m + "env", m + "env/game", "connectrpc.com/connect", "github.com/apache/arrow-go/v18/arrow", "vendor/golang.org/x/net/http2/hpack"}},
		{rel: "store", imports: []string{m + "env"}, deps: []string{m + "env"}},
	}
	if msgs := check(rs, good); len(msgs) != 0 {
		t.Fatalf("check of allowed packages: %q", msgs)
	}

	for _, tc := range []struct {
		name  string
		rules []rule
		pkgs  []pkg
		want  string
	}{
		{"package_without_a_rule", rs, append(slices.Clone(good), pkg{rel: "match", imports: []string{m + "env"}}), "match has no rule"},
		{"import_not_listed", rs, append(slices.Clone(good[:3]), pkg{rel: "store", imports: []string{m + "svc"}}), "store must not import svc"},
		{"game_importing_a_game", rs, append(slices.Clone(good), pkg{rel: "env/other", imports: []string{m + "env/game"}}), "env/other must not import env/game"},
		{"third_party_not_listed", rs, append(slices.Clone(good[:3]), pkg{rel: "store", deps: []string{"go.etcd.io/bbolt"}}), "store must not depend on third-party go.etcd.io/bbolt"},
		{"never_module", rs, append(slices.Clone(good[1:]), pkg{rel: "env"}, pkg{rel: "svc", deps: []string{m + "store"}}), "svc must not depend on store, even indirectly"},
		{"never_third_party", rs, append(slices.Clone(good[:2]), pkg{rel: "store"}, pkg{rel: "svc", deps: []string{"github.com/apache/arrow-go/v18/parquet/pqarrow"}}),
			"svc must not depend on github.com/apache/arrow-go/v18/parquet/pqarrow, even indirectly"},
		{"rule_without_a_package", append(slices.Clone(rs), rule{pkg: "gone"}), good, "the rule for gone matches no package"},
		{"two_rules", append(slices.Clone(rs), rule{pkg: "svc"}), good, "two rules for svc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msgs := check(tc.rules, tc.pkgs)
			if !slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, tc.want) }) {
				t.Errorf("check: %q, want a message containing %q", msgs, tc.want)
			}
		})
	}
}

// TestCheckNamesTheCauseFirst: a package importing what its rule does not
// list drags third-party packages into everything above it; the message
// naming that import comes first, and each package's third-party
// dependencies are one line, however many there are.
func TestCheckNamesTheCauseFirst(t *testing.T) {
	t.Parallel()
	const m = module + "/"
	rs := []rule{
		{pkg: "env"},
		{pkg: "store", imports: []string{"env"}, thirdParty: []string{"go.etcd.io/bbolt"}},
		{pkg: "svc", imports: []string{"env"}},
		{pkg: "cmd", imports: []string{"env", "svc"}},
	}
	deps := []string{"go.etcd.io/bbolt", "golang.org/x/sys/unix", "golang.org/x/sync/errgroup", "golang.org/x/text/width", "golang.org/x/net/idna"}
	pkgs := []pkg{
		{rel: "env"},
		{rel: "store", imports: []string{m + "env"}, deps: append([]string{m + "env"}, deps[0])},
		// cmd and svc come first in go list's order, and both now reach bbolt and x/.
		{rel: "cmd", imports: []string{m + "svc"}, deps: append([]string{m + "svc", m + "store"}, deps...)},
		{rel: "svc", imports: []string{m + "store"}, deps: append([]string{m + "store"}, deps...)},
	}
	msgs := check(rs, pkgs)
	if len(msgs) != 3 {
		t.Fatalf("check: %d messages, want 3 (the import, one line each for svc's and cmd's third-party packages): %q", len(msgs), msgs)
	}
	if !strings.HasPrefix(msgs[0], "svc must not import store") {
		t.Errorf("first message %q, want the import that broke the rule", msgs[0])
	}
	for _, want := range []string{"svc must not depend on third-party go.etcd.io/bbolt and 4 more (golang.org/x/sys/unix, golang.org/x/sync/errgroup, golang.org/x/text/width, ...)",
		"cmd must not depend on third-party go.etcd.io/bbolt and 4 more"} {
		if !slices.ContainsFunc(msgs, func(m string) bool { return strings.HasPrefix(m, want) }) {
			t.Errorf("check: %q, want a message starting %q", msgs, want)
		}
	}
}

// TestEnvServiceLeavesOutStorage pins down the promise DESIGN.md's layout
// makes for the env service: the rules forbid it the league and its
// storage.
func TestEnvServiceLeavesOutStorage(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"rpc/envservice", "rpc/client", "rpc/server"} {
		i := ruleFor(rules, name)
		if i < 0 {
			t.Fatalf("no rule for %s", name)
		}
		for _, p := range []string{"league", "observations/matchdata", "go.etcd.io/bbolt", "github.com/apache/arrow-go/v18/parquet", "github.com/apache/thrift/"} {
			if !slices.Contains(rules[i].never, p) {
				t.Errorf("the rule for %s does not forbid %s", name, p)
			}
		}
	}
}

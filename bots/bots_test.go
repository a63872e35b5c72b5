package bots

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

func TestBuiltinRecipesValidate(t *testing.T) {
	all, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, r := range all {
		names[r.Name] = true
		if !strings.HasPrefix(r.Repository, "https://github.com/") {
			t.Errorf("%s: repository %q is not a public GitHub URL", r.Name, r.Repository)
		}
	}
	for _, want := range []string{"kabousvlieg-2016-bomberman", "riaancornelius-2016-bomberman", "scooterdelta-2017-battleships"} {
		if !names[want] {
			t.Errorf("no built-in recipe %s", want)
		}
	}
}

const goodRecipe = `{"game":"bomberman","repository":"https://example.com/x.git","commit":"0123456789abcdef0123456789abcdef01234567","toolchain":"python3","build":["true"],"bot":"bot"}`

func TestParseRejects(t *testing.T) {
	if _, err := Parse("ok", []byte(goodRecipe)); err != nil {
		t.Fatalf("good recipe: %v", err)
	}
	for _, tc := range []struct{ name, from, to, want string }{
		{"bad", `"game":"bomberman"`, `"game":""`, "game is missing"},
		{"bad", `"repository":"https://example.com/x.git"`, `"repository":""`, "repository is missing"},
		{"bad", `0123456789abcdef0123456789abcdef01234567`, `0123456`, "commit must be 40"},
		{"bad", `0123456789abcdef0123456789abcdef01234567`, `0123456789ABCDEF0123456789abcdef01234567`, "commit must be 40"},
		{"bad", `"python3"`, `"gradle"`, `toolchain "gradle" is not one of`},
		{"bad", `"toolchain":"python3"`, `"toolchain":"python3","java":{"min":8}`, "java is for the maven toolchain"},
		{"bad", `"toolchain":"python3"`, `"toolchain":"maven","java":{"min":11,"max":8}`, "min is above max"},
		{"bad", `"build":["true"]`, `"build":[]`, "build is missing"},
		{"bad", `"build":["true"]`, `"build":["true"," "]`, "step 1 is empty"},
		{"bad", `"bot":"bot"`, `"bot":"../elsewhere"`, "must be a path inside the checkout"},
		{"bad", `"bot":"bot"`, `"bot":"/abs"`, "must be a path inside the checkout"},
		{"bad", `"bot":"bot"`, `"bot":"bot","timeout":"soon"`, "not a positive duration"},
		{"bad", `"bot":"bot"`, `"bot":"bot","bot_json":{"BotType":0}`, "bot_json has no RunFile"},
		{"bad", `"bot":"bot"`, `"bot":"bot","colour":"red"`, "unknown field"},
		{"Bad Name", ``, ``, "the name must be"},
	} {
		_, err := Parse(tc.name, []byte(strings.Replace(goodRecipe, tc.from, tc.to, 1)))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s -> %s: got %v, want %q", tc.from, tc.to, err, tc.want)
		}
	}
}

// fakePATH makes PATH a folder holding only the named scripts (and sh's
// tools stay out of reach).
func fakePATH(t *testing.T, scripts map[string]string) {
	dir := t.TempDir()
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
	t.Setenv("JAVA_HOME", "")
}

func TestToolchainMissing(t *testing.T) {
	for _, tc := range []struct {
		toolchain string
		java      *JavaRange
		scripts   map[string]string
		want      string
	}{
		{"mono", nil, nil, "r needs Mono's C# compiler: mcs is not on PATH: install mono-mcs"},
		{"maven", nil, nil, "r needs Maven: mvn is not on PATH: install maven"},
		{"maven", &JavaRange{Min: 7, Max: 19}, map[string]string{"mvn": "exit 0", "java": `echo 'openjdk version "21.0.2" 2024-01-16' >&2`},
			"r needs JDK 7 to 19: a Java 7 project on JDK 21: install openjdk-17 or set JAVA_HOME to a JDK 7 to 19"},
		{"maven", &JavaRange{Min: 8, Max: 8}, map[string]string{"mvn": "exit 0", "java": `echo 'openjdk version "17.0.15" 2025-04-15' >&2`},
			"r needs JDK 8 to 8: a Java 8 project on JDK 17: install openjdk-8 or set JAVA_HOME to a JDK 8 to 8"},
		{"python2", nil, map[string]string{"python2": "echo Python 3.11.2"}, "r needs Python 2: python2 runs Python 3.11.2, not Python 2"},
		{"node", nil, nil, "r needs Node.js: node is not on PATH"},
	} {
		fakePATH(t, tc.scripts)
		err := CheckToolchain(context.Background(), Recipe{Name: "r", Toolchain: tc.toolchain, Java: tc.java})
		var te *ToolchainError
		if !errors.As(err, &te) || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want one line starting %q", tc.toolchain, err, tc.want)
		}
	}
	fakePATH(t, map[string]string{"mvn": "exit 0", "java": `echo 'java version "1.8.0_292"' >&2`})
	if err := CheckToolchain(context.Background(), Recipe{Name: "r", Toolchain: "maven", Java: &JavaRange{Min: 7, Max: 8}}); err != nil {
		t.Errorf("JDK 1.8 for a 7..8 project: %v", err)
	}
}

func TestBuildWithoutGit(t *testing.T) {
	fakePATH(t, nil)
	r, _ := Parse("x", []byte(goodRecipe))
	_, err := (&Builder{Cache: t.TempDir()}).Build(context.Background(), r)
	if err == nil || !strings.Contains(err.Error(), "git is not on PATH") {
		t.Fatalf("got %v", err)
	}
}

func TestBuildLocalRepository(t *testing.T) {
	repo, commit := testutil.GitRepo(t, map[string]string{
		"src/bot.py":   "print('hi')\n",
		"bot/bot.json": `{"BotType":"Python3","RunFile":"bot.py"}`,
		"big/skip.bin": "not checked out",
	})
	r, err := Parse("tiny", []byte(`{"game":"bomberman","repository":"https://example.invalid/tiny.git","commit":"`+commit+`",
		"toolchain":"none","sparse":["/src/","/bot/"],"build":["cp src/bot.py \"$BOTARENA_BOT_DIR/bot.py\""],"bot":"bot"}`))
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	b := &Builder{Cache: t.TempDir(), Overrides: map[string]string{"tiny": repo}, Log: &log}
	res, err := b.Build(context.Background(), r)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if res.Cached || !b.Built(r) || res.Spec() != "dir:"+res.Dir {
		t.Errorf("result %+v, built %v", res, b.Built(r))
	}
	if _, err := os.Stat(filepath.Join(res.Dir, "bot.py")); err != nil {
		t.Errorf("the build step did not run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(b.Checkout(r), "big")); err == nil {
		t.Errorf("sparse checkout checked out big/")
	}
	again, err := b.Build(context.Background(), r)
	if err != nil || !again.Cached {
		t.Errorf("second build: cached %v, %v", again.Cached, err)
	}

	// A recipe that changes is built again; a failing step quotes its output.
	r.Build = []string{"echo first line; echo the last words >&2; exit 3"}
	_, err = b.Build(context.Background(), r)
	if err == nil || !strings.Contains(err.Error(), "build step 1") || !strings.Contains(err.Error(), "the last words") || b.Built(r) {
		t.Errorf("failing step: %v", err)
	}

	// A timeout stops the steps.
	r.Build, r.Timeout = []string{"sleep 30"}, "200ms"
	if _, err = b.Build(context.Background(), r); err == nil || !strings.Contains(err.Error(), "timed out after 200ms") {
		t.Errorf("timeout: %v", err)
	}

	// bot_json replaces bot.json; a RunFile that is not built fails.
	r.Build, r.Timeout = []string{"true"}, ""
	r.BotJSON = []byte(`{"BotType":"Python3","RunFile":"missing.py"}`)
	if _, err = b.Build(context.Background(), r); err == nil || !strings.Contains(err.Error(), "missing.py was not built") {
		t.Errorf("bot_json: %v", err)
	}

	// A commit the repository lacks.
	r.BotJSON, r.Commit = nil, strings.Repeat("ab", 20)
	if _, err = b.Build(context.Background(), r); err == nil || !strings.Contains(err.Error(), "is commit "+r.Commit) {
		t.Errorf("missing commit: %v", err)
	}
}

func TestJavaMajor(t *testing.T) {
	for out, want := range map[string]int{`openjdk version "17.0.15" 2025-04-15`: 17, `java version "1.8.0_292"`: 8, `openjdk version "21" 2023-09-19`: 21, "nothing": 0} {
		if got := javaMajor(out); got != want {
			t.Errorf("javaMajor(%q) = %d, want %d", out, got, want)
		}
	}
}

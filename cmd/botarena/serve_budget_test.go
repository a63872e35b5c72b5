package main

import (
	"strings"
	"testing"

	botarenav1 "github.com/botarena/botarena/rpc/gen/botarena/v1"
)

func TestServeMemoryBudget(t *testing.T) {
	addr, _, _ := startServe(t, "--max-memory", "4MiB", "--max-client-pools", "1", "--max-client-memory", "256KiB")
	c := dialServe(t, addr)
	wantLimit := func(err error, substrings ...string) {
		t.Helper()
		if err == nil || !strings.HasPrefix(err.Error(), "resource_exhausted: ") {
			t.Fatalf("got %v, want resource_exhausted", err)
		}
		for _, s := range substrings {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%v does not contain %q", err, s)
			}
		}
	}
	_, err := c.CreatePool(t.Context(), &botarenav1.CreatePoolRequest{Game: "bomberman", NumEnvs: 64})
	wantLimit(err, "pool would need", "--max-memory 4.0 MiB")
	p := createPool(t, c, &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1})
	_, err = c.CreatePool(t.Context(), &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 1})
	wantLimit(err, "client 127.0.0.1 has 1 pools open", "--max-client-pools 1")
	if err := p.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	_, err = c.CreatePool(t.Context(), &botarenav1.CreatePoolRequest{Game: "bomberman/2p", NumEnvs: 4})
	wantLimit(err, "--max-client-memory 256.0 KiB", "in use by client 127.0.0.1")

	_, stderr, code := runCLI(t, "", "serve", "--max-memory", "lots")
	if code == 0 || !strings.Contains(stderr, `invalid argument "lots" for "--max-memory"`) {
		t.Errorf("serve --max-memory lots: exit %d, stderr %q", code, stderr)
	}
}

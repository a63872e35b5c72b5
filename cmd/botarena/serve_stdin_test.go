package main

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/botarena/botarena/internal/testutil"
)

// TestServeExitsWhenStdinCloses checks --exit-on-stdin-eof: the server runs
// while its standard input stays open and shuts down cleanly once the
// launcher's end of the pipe closes (as when the launcher is killed).
func TestServeExitsWhenStdinCloses(t *testing.T) {
	stdinR, stdinW := io.Pipe()
	stderr := &testutil.SyncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- runContext(t.Context(), []string{"serve", "--addr", "127.0.0.1:0", "--exit-on-stdin-eof"}, stdinR, io.Discard, stderr)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !listeningRE.MatchString(stderr.String()) {
		if time.Now().After(deadline) {
			t.Fatalf("serve did not print its address: %s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	select {
	case code := <-done:
		t.Fatalf("serve exited with %d while stdin was open: %s", code, stderr.String())
	case <-time.After(200 * time.Millisecond):
	}
	stdinW.Close()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve still running 10 s after stdin closed")
	}
	if !strings.Contains(stderr.String(), "standard input closed") {
		t.Errorf("no log line saying why it stopped: %s", stderr.String())
	}
}

package testutil

import (
	"bufio"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// StartNodeBot starts the node script at path with port 0, waits for its
// first line "listening on PORT", and returns "http://127.0.0.1:PORT/". The
// process is killed when the test ends. It skips the test when node is not
// installed.
func StartNodeBot(t testing.TB, path string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	cmd := exec.Command(node, path, "0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(out)
		if s.Scan() {
			line <- s.Text()
		}
		close(line)
	}()
	select {
	case l := <-line:
		port, ok := strings.CutPrefix(l, "listening on ")
		if !ok {
			t.Fatalf("node bot: %q", l)
		}
		return "http://127.0.0.1:" + port + "/"
	case <-time.After(10 * time.Second):
		t.Fatal("the node bot did not start")
	}
	return ""
}

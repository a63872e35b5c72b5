package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/validate"
)

// staticBinary builds cmd/botarena as `make image` does (CGO_ENABLED=0,
// -trimpath) into a temporary directory.
func staticBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the botarena binary")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the image is linux; this test runs its binary")
	}
	out := filepath.Join(t.TempDir(), "botarena")
	cmd := exec.Command("go", "build", "-trimpath", "-o", out, "../../cmd/botarena")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOFLAGS=-buildvcs=false")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	return out
}

// TestImageRuns builds the image with the command (-out, -tar), checks the
// layout with go-containerregistry's validator, then runs the image the
// way a container runtime would without one: its layer extracted to a
// root directory, the config's entrypoint and environment, chrooted there
// as the config's user (when the test runs as root), the command replaced
// by a loopback address (as `docker run IMAGE --addr ...` would). The
// server must answer the gRPC health checks Kubernetes' probes make, and
// refuse a call without the token.
func TestImageRuns(t *testing.T) {
	bin := staticBinary(t)
	dir := t.TempDir()
	layoutDir, tarPath := filepath.Join(dir, "layout"), filepath.Join(dir, "image.tar")
	var out bytes.Buffer
	if err := run([]string{"-binary", bin, "-out", layoutDir, "-tag", "botarena:test", "-tar", tarPath}, &out); err != nil {
		t.Fatalf("run: %v", err)
	}
	if st, err := os.Stat(tarPath); err != nil || st.Size() == 0 {
		t.Fatalf("no docker load tarball: %v", err)
	}
	img := readLayout(t, layoutDir)
	if err := validate.Image(img); err != nil {
		t.Fatalf("validate.Image: %v", err)
	}
	if !strings.Contains(out.String(), mustDigest(t, img)) {
		t.Errorf("output %q does not name the digest %s", out.String(), mustDigest(t, img))
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	c := cf.Config
	if c.User != "65532:65532" || !slices.Equal(c.Entrypoint, []string{"/botarena", "serve"}) || cf.OS != "linux" || cf.Architecture != runtime.GOARCH {
		t.Fatalf("config: user %q entrypoint %q platform %s/%s", c.User, c.Entrypoint, cf.OS, cf.Architecture)
	}
	if _, ok := c.ExposedPorts["50051/tcp"]; !ok || !slices.Contains(c.Cmd, "0.0.0.0:50051") {
		t.Errorf("config: ports %v cmd %q, want 50051", c.ExposedPorts, c.Cmd)
	}

	root := filepath.Join(dir, "rootfs")
	extract(t, img, root)
	const token = "image-test-token"
	args := append(slices.Clone(c.Entrypoint[1:]), "--addr", "127.0.0.1:0", "--exit-on-stdin-eof")
	cmd := exec.Command(filepath.Join(root, c.Entrypoint[0]), args...)
	cmd.Env = append(slices.Clone(c.Env), "BOTARENA_AUTH_TOKEN="+token)
	cmd.Dir = filepath.Join(root, c.WorkingDir)
	if os.Geteuid() == 0 {
		// As a runtime would: the image's root and user, the working
		// directory inside it.
		cmd.Path, cmd.Dir = c.Entrypoint[0], c.WorkingDir
		cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: root, Credential: &syscall.Credential{Uid: UID, Gid: UID}}
	} else {
		t.Log("not root: the entrypoint runs from the extracted root as this user, without chroot")
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the entrypoint: %v", err)
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	addr := listenAddr(t, stderr)

	for _, service := range []string{"", "botarena.v1.MatchService", "botarena.v1.EnvService"} {
		if status, err := grpcHealth(addr, service); err != nil || status != 1 {
			t.Errorf("gRPC health check of %q: status %d, %v; want SERVING (1)", service, status, err)
		}
	}
	for _, tc := range []struct {
		auth string
		want int
	}{{"", http.StatusUnauthorized}, {"Bearer " + token, http.StatusOK}} {
		req, _ := http.NewRequest("POST", "http://"+addr+"/botarena.v1.EnvService/ListGames", strings.NewReader("{}"))
		req.Header.Set("Content-Type", "application/json")
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("ListGames with authorization %q: %d, want %d", tc.auth, resp.StatusCode, tc.want)
		}
	}
}

// TestImageIsReproducible: the same binary and time give the same digest,
// another time another one.
func TestImageIsReproducible(t *testing.T) {
	t.Parallel()
	spec := Spec{Binary: []byte("\x7fELF not really a binary"), OS: "linux", Arch: "amd64", Created: time.Unix(1700000000, 0).UTC()}
	a, err := Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Build(spec)
	if mustDigest(t, a) != mustDigest(t, b) {
		t.Errorf("two builds of one spec: %s and %s", mustDigest(t, a), mustDigest(t, b))
	}
	spec.Created = spec.Created.Add(time.Second)
	c, _ := Build(spec)
	if mustDigest(t, a) == mustDigest(t, c) {
		t.Errorf("another time gave the same digest %s", mustDigest(t, a))
	}
}

// TestWriteLayoutRefusesOtherDirectories: -out never removes a directory
// that is not an OCI layout.
func TestWriteLayoutRefusesOtherDirectories(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "keep"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	img, err := Build(Spec{Binary: []byte("\x7fELF"), OS: "linux", Arch: "amd64"})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteLayout(dir, img, ""); err == nil || !strings.Contains(err.Error(), "not an OCI layout") {
		t.Fatalf("WriteLayout over a directory with a file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "keep")); err != nil {
		t.Fatalf("the file is gone: %v", err)
	}
}

func mustDigest(t *testing.T, img v1.Image) string {
	t.Helper()
	d, err := img.Digest()
	if err != nil {
		t.Fatal(err)
	}
	return d.String()
}

// readLayout returns the one image of the OCI layout at dir.
func readLayout(t *testing.T, dir string) v1.Image {
	t.Helper()
	ii, err := layout.ImageIndexFromPath(dir)
	if err != nil {
		t.Fatalf("read the layout: %v", err)
	}
	m, err := ii.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Manifests) != 1 || m.Manifests[0].Annotations["org.opencontainers.image.ref.name"] != "botarena:test" {
		t.Fatalf("index: %+v", m.Manifests)
	}
	img, err := ii.Image(m.Manifests[0].Digest)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// extract writes the image's filesystem under root, with the layer's modes
// and, as root, its owners.
func extract(t *testing.T, img v1.Image, root string) {
	t.Helper()
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	rc := mutate.Extract(img)
	defer rc.Close()
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("extract: %v", err)
		}
		path := filepath.Join(root, filepath.Clean("/"+h.Name))
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(path, 0o755)
		case tar.TypeReg:
			var f *os.File
			if f, err = os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600); err == nil {
				_, err = io.Copy(f, tr)
				err = errors.Join(err, f.Close())
			}
		default:
			t.Fatalf("extract: %s: unexpected type %c", h.Name, h.Typeflag)
		}
		if err == nil {
			err = os.Chmod(path, h.FileInfo().Mode()&os.ModePerm|h.FileInfo().Mode()&os.ModeSticky)
		}
		if err == nil && os.Geteuid() == 0 {
			err = os.Lchown(path, h.Uid, h.Gid)
		}
		if err != nil {
			t.Fatalf("extract %s: %v", h.Name, err)
		}
	}
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
}

// listenAddr reads the server's stderr up to its "listening on ADDR" line
// and keeps draining it.
func listenAddr(t *testing.T, stderr io.Reader) string {
	t.Helper()
	found := make(chan string, 1)
	var log strings.Builder
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			if !sent {
				log.WriteString(line + "\n")
				if _, after, ok := strings.Cut(line, "listening on "); ok {
					addr := strings.Fields(after)[0]
					addr = strings.TrimPrefix(strings.TrimPrefix(addr, "http://"), "https://")
					found <- addr
					sent = true
				}
			}
		}
		if !sent {
			close(found)
		}
	}()
	select {
	case addr, ok := <-found:
		if !ok {
			t.Fatalf("the server exited before listening:\n%s", log.String())
		}
		return addr
	case <-time.After(60 * time.Second):
		t.Fatal("the server did not listen within 60 s")
	}
	return ""
}

// grpcHealth makes the call a Kubernetes gRPC probe makes:
// grpc.health.v1.Health/Check over HTTP/2 without TLS, in the gRPC
// protocol, and returns the status (1 is SERVING).
func grpcHealth(addr, service string) (int, error) {
	var protocols http.Protocols
	protocols.SetUnencryptedHTTP2(true)
	hc := &http.Client{Transport: &http.Transport{Protocols: &protocols}, Timeout: 10 * time.Second}
	defer hc.CloseIdleConnections()
	// HealthCheckRequest{service}: field 1, length-delimited.
	msg := append([]byte{0x0a, byte(len(service))}, service...)
	if service == "" {
		msg = nil
	}
	body := make([]byte, 5, 5+len(msg))
	binary.BigEndian.PutUint32(body[1:], uint32(len(msg)))
	body = append(body, msg...)
	req, err := http.NewRequestWithContext(context.Background(), "POST", "http://"+addr+"/grpc.health.v1.Health/Check", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/grpc")
	req.Header.Set("TE", "trailers")
	resp, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	if s := resp.Trailer.Get("Grpc-Status"); s != "0" {
		return 0, fmt.Errorf("grpc-status %q (%s), HTTP %d", s, resp.Trailer.Get("Grpc-Message"), resp.StatusCode)
	}
	if len(data) < 5 {
		return 0, fmt.Errorf("short response %x", data)
	}
	// HealthCheckResponse{status}: field 1, varint; absent means UNKNOWN (0).
	m := data[5:]
	if len(m) >= 2 && m[0] == 0x08 {
		return int(m[1]), nil
	}
	return 0, nil
}

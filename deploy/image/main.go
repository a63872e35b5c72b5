// Command image writes botarena's container image from a static botarena
// binary, without a container daemon: an OCI image layout (a directory any
// OCI tool reads: skopeo, crane, podman, containerd's ctr, docker load of
// its tar) and, with -tar, a tarball for `docker load`.
//
//	CGO_ENABLED=0 go build -trimpath -o dist/image-bin/botarena ./cmd/botarena
//	go run ./deploy/image -binary dist/image-bin/botarena -out dist/image -tag botarena:dev -tar dist/botarena-image.tar
//
// `make image` runs both. The image has one layer on an empty base:
//
//	/botarena                the binary (the entrypoint: botarena serve)
//	/etc/passwd, /etc/group  root and nonroot (65532), for tools that look users up
//	/home/nonroot            the user's home (0700, owned by 65532)
//	/tmp                     1777 (mount an emptyDir there with a read-only root)
//
// Its config runs `/botarena serve --addr 0.0.0.0:50051 --log-format json`
// as user 65532:65532 (the entrypoint is /botarena serve, the default
// arguments the rest), exposes 50051/tcp and sets no token: serve refuses a
// non-loopback address without BOTARENA_AUTH_TOKEN, which deploy/k8s takes
// from a Secret. Every timestamp is SOURCE_DATE_EPOCH (default 0), so the
// same binary gives the same image digest.
package main

import (
	"archive/tar"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// The image's user, port and paths; deploy/k8s's manifests use the same.
const (
	UID        = 65532
	Port       = 50051
	BinaryPath = "/botarena"
	Home       = "/home/nonroot"
)

// Spec is what an image is made of.
type Spec struct {
	Binary  []byte            // the static botarena binary (linux, CGO_ENABLED=0)
	OS      string            // the binary's GOOS; "linux"
	Arch    string            // the binary's GOARCH
	Created time.Time         // every timestamp in the image
	Labels  map[string]string // config labels (org.opencontainers.image.*)
}

// Build returns the image of s.
func Build(s Spec) (v1.Image, error) {
	if len(s.Binary) == 0 {
		return nil, errors.New("image: empty binary")
	}
	layerTar, err := rootfs(s)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerTar)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, fmt.Errorf("image: layer: %w", err)
	}
	base := mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
	img, err := mutate.Append(base, mutate.Addendum{
		Layer:     layer,
		History:   v1.History{Created: v1.Time{Time: s.Created}, CreatedBy: "botarena deploy/image", Comment: "botarena binary, passwd, home, tmp"},
		MediaType: types.OCILayer,
	})
	if err != nil {
		return nil, fmt.Errorf("image: %w", err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, fmt.Errorf("image: config: %w", err)
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture = s.OS, s.Arch
	cf.Created = v1.Time{Time: s.Created}
	cf.Config = v1.Config{
		Entrypoint:   []string{BinaryPath, "serve"},
		Cmd:          []string{"--addr", fmt.Sprintf("0.0.0.0:%d", Port), "--log-format", "json"},
		User:         fmt.Sprintf("%d:%d", UID, UID),
		WorkingDir:   Home,
		Env:          []string{"PATH=/", "HOME=" + Home},
		ExposedPorts: map[string]struct{}{fmt.Sprintf("%d/tcp", Port): {}},
		Labels:       s.Labels,
	}
	return mutate.ConfigFile(img, cf)
}

// rootfs returns the layer's tar: directories first, entries in path
// order, every time s.Created.
func rootfs(s Spec) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	type entry struct {
		name     string
		mode     int64
		uid      int
		body     []byte
		typeflag byte
	}
	passwd := fmt.Sprintf("root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:%d:%d:nonroot:%s:/sbin/nologin\n", UID, UID, Home)
	group := fmt.Sprintf("root:x:0:\nnonroot:x:%d:\n", UID)
	entries := []entry{
		{name: "botarena", mode: 0o755, body: s.Binary, typeflag: tar.TypeReg},
		{name: "etc/", mode: 0o755, typeflag: tar.TypeDir},
		{name: "etc/group", mode: 0o644, body: []byte(group), typeflag: tar.TypeReg},
		{name: "etc/passwd", mode: 0o644, body: []byte(passwd), typeflag: tar.TypeReg},
		{name: "home/", mode: 0o755, typeflag: tar.TypeDir},
		{name: "home/nonroot/", mode: 0o700, uid: UID, typeflag: tar.TypeDir},
		{name: "tmp/", mode: 0o1777, typeflag: tar.TypeDir},
	}
	for _, e := range entries {
		h := &tar.Header{
			Typeflag: e.typeflag, Name: e.name, Mode: e.mode, Size: int64(len(e.body)),
			Uid: e.uid, Gid: e.uid, ModTime: s.Created, Format: tar.FormatPAX,
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, fmt.Errorf("image: %s: %w", e.name, err)
		}
		if _, err := tw.Write(e.body); err != nil {
			return nil, fmt.Errorf("image: %s: %w", e.name, err)
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteLayout writes img as the only image of a new OCI layout at dir,
// annotated with ref (org.opencontainers.image.ref.name) when not empty.
// dir must not exist, or be empty, or hold an OCI layout (which is
// replaced).
func WriteLayout(dir string, img v1.Image, ref string) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		if _, err := os.Stat(filepath.Join(dir, "oci-layout")); err != nil {
			return fmt.Errorf("image: %s exists and is not an OCI layout: not replacing it", dir)
		}
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
	}
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		return fmt.Errorf("image: %w", err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return err
	}
	opts := []layout.Option{layout.WithPlatform(v1.Platform{OS: cf.OS, Architecture: cf.Architecture})}
	if ref != "" {
		opts = append(opts, layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": ref}))
	}
	if err := p.AppendImage(img, opts...); err != nil {
		return fmt.Errorf("image: %w", err)
	}
	return nil
}

// createdTime is SOURCE_DATE_EPOCH, or the Unix epoch.
func createdTime() (time.Time, error) {
	v := os.Getenv("SOURCE_DATE_EPOCH")
	if v == "" {
		return time.Unix(0, 0).UTC(), nil
	}
	sec, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH=%q: %w", v, err)
	}
	return time.Unix(sec, 0).UTC(), nil
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("image", flag.ContinueOnError)
	binary := fs.String("binary", "", "the static botarena binary (CGO_ENABLED=0 GOOS=linux go build ./cmd/botarena)")
	arch := fs.String("arch", runtime.GOARCH, "the binary's GOARCH")
	out := fs.String("out", "dist/image", "the OCI layout directory to write (replaced if it holds one)")
	tag := fs.String("tag", "botarena:dev", "the image's name and tag (the layout's ref name, the tarball's tag)")
	tarPath := fs.String("tar", "", "also write a tarball for docker load here")
	version := fs.String("version", "", "org.opencontainers.image.version label")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *binary == "" {
		return errors.New("-binary is required")
	}
	bin, err := os.ReadFile(*binary)
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(bin, []byte("\x7fELF")) {
		return fmt.Errorf("%s is not an ELF binary: build it with GOOS=linux", *binary)
	}
	created, err := createdTime()
	if err != nil {
		return err
	}
	labels := map[string]string{"org.opencontainers.image.title": "botarena", "org.opencontainers.image.description": "botarena serve: the env and match services"}
	if *version != "" {
		labels["org.opencontainers.image.version"] = *version
	}
	img, err := Build(Spec{Binary: bin, OS: "linux", Arch: *arch, Created: created, Labels: labels})
	if err != nil {
		return err
	}
	if err := WriteLayout(*out, img, *tag); err != nil {
		return err
	}
	digest, err := img.Digest()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "image %s %s: OCI layout %s\n", *tag, digest, *out)
	if *tarPath != "" {
		ref, err := name.NewTag(*tag)
		if err != nil {
			return fmt.Errorf("-tag: %w", err)
		}
		if err := tarball.WriteToFile(*tarPath, ref, img); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "image %s: docker load -i %s\n", *tag, *tarPath)
	}
	return nil
}

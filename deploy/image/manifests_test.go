package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The Kubernetes manifests of deploy/k8s are checked here, beside the
// image they run, for what a schema cannot say: that they agree with the
// image (user, port, entrypoint), with each other (Secret, volumes,
// selectors, the coordinator's server list) and with the rules of
// docs/scale-out.md (non-root, read-only root, gRPC probes, resources).
// Their schema is checked by `make k8s-validate` (kubernetes-validate
// --strict, the Kubernetes API's JSON schemas).

type object = map[string]any

// manifests returns every document of deploy/k8s/*.yaml, by file.
func manifests(t *testing.T) map[string][]object {
	t.Helper()
	files, err := filepath.Glob("../k8s/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in deploy/k8s: %v", err)
	}
	out := map[string][]object{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(strings.NewReader(string(data)))
		for {
			var doc object
			if err := dec.Decode(&doc); err != nil {
				if err.Error() == "EOF" {
					break
				}
				t.Fatalf("%s: %v", f, err)
			}
			if doc == nil {
				continue
			}
			for _, k := range []string{"apiVersion", "kind", "metadata"} {
				if doc[k] == nil {
					t.Fatalf("%s: a document without %s", f, k)
				}
			}
			out[filepath.Base(f)] = append(out[filepath.Base(f)], doc)
		}
	}
	return out
}

// get walks path (map keys, or "[i]" list indexes) from v.
func get(v any, path ...string) any {
	for _, p := range path {
		switch x := v.(type) {
		case object:
			v = x[p]
		case []any:
			var i int
			if _, err := fmt.Sscanf(p, "[%d]", &i); err != nil || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

func str(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func objName(o object) string { return str(get(o, "metadata", "name")) }

// podSpec returns the pod template's spec of a workload, nil for other kinds.
func podSpec(o object) object {
	switch o["kind"] {
	case "Deployment", "StatefulSet", "Job":
		s, _ := get(o, "spec", "template", "spec").(object)
		return s
	}
	return nil
}

func TestManifests(t *testing.T) {
	t.Parallel()
	docs := manifests(t)
	var all []object
	for _, f := range slices.Sorted(func(yield func(string) bool) {
		for f := range docs {
			if !yield(f) {
				return
			}
		}
	}) {
		all = append(all, docs[f]...)
	}
	byKind := map[string][]object{}
	for _, o := range all {
		byKind[str(o["kind"])] = append(byKind[str(o["kind"])], o)
	}
	for _, kind := range []string{"Deployment", "Service", "Secret", "Job", "StatefulSet", "PersistentVolumeClaim"} {
		if len(byKind[kind]) == 0 {
			t.Errorf("no %s in deploy/k8s", kind)
		}
	}
	secrets := map[string]object{}
	for _, s := range byKind["Secret"] {
		secrets[objName(s)] = s
	}
	claims := map[string]bool{}
	for _, c := range byKind["PersistentVolumeClaim"] {
		claims[objName(c)] = true
	}

	servers := 0
	for _, o := range all {
		spec := podSpec(o)
		if spec == nil {
			continue
		}
		where := fmt.Sprintf("%s %s", o["kind"], objName(o))
		psc := get(spec, "securityContext")
		if get(psc, "runAsNonRoot") != true || str(get(psc, "runAsUser")) != fmt.Sprint(UID) || str(get(psc, "runAsGroup")) != fmt.Sprint(UID) {
			t.Errorf("%s: pod securityContext %v, want runAsNonRoot and user and group %d (the image's)", where, psc, UID)
		}
		if str(get(psc, "seccompProfile", "type")) != "RuntimeDefault" {
			t.Errorf("%s: no RuntimeDefault seccomp profile", where)
		}
		volumes := map[string]bool{}
		for _, v := range list(spec["volumes"]) {
			volumes[str(get(v, "name"))] = true
			if c := str(get(v, "persistentVolumeClaim", "claimName")); c != "" && !claims[c] {
				t.Errorf("%s: volume claims %q, which no manifest defines", where, c)
			}
		}
		containers := append(slices.Clone(list(spec["initContainers"])), list(spec["containers"])...)
		if len(containers) == 0 {
			t.Errorf("%s: no containers", where)
		}
		for _, c := range containers {
			cw := fmt.Sprintf("%s container %s", where, str(get(c, "name")))
			if img := str(get(c, "image")); img != "botarena:dev" {
				t.Errorf("%s: image %q, want botarena:dev (make image's tag; set your registry's at deploy time)", cw, img)
			}
			sc := get(c, "securityContext")
			if get(sc, "allowPrivilegeEscalation") != false || get(sc, "readOnlyRootFilesystem") != true || !slices.Contains(list(get(sc, "capabilities", "drop")), any("ALL")) {
				t.Errorf("%s: securityContext %v, want no privilege escalation, a read-only root and every capability dropped", cw, sc)
			}
			for _, k := range []string{"requests", "limits"} {
				for _, r := range []string{"cpu", "memory"} {
					if get(c, "resources", k, r) == nil {
						t.Errorf("%s: no resources.%s.%s", cw, k, r)
					}
				}
			}
			for _, m := range list(get(c, "volumeMounts")) {
				if !volumes[str(get(m, "name"))] {
					t.Errorf("%s: mounts volume %q, which the pod does not have", cw, get(m, "name"))
				}
			}
			for _, e := range list(get(c, "env")) {
				ref := get(e, "valueFrom", "secretKeyRef")
				if ref == nil {
					continue
				}
				s, ok := secrets[str(get(ref, "name"))]
				if !ok {
					t.Errorf("%s: env %s refers to Secret %q, which no manifest defines", cw, get(e, "name"), get(ref, "name"))
				} else if get(s, "stringData", str(get(ref, "key"))) == nil && get(s, "data", str(get(ref, "key"))) == nil {
					t.Errorf("%s: env %s refers to key %q, which Secret %s lacks", cw, get(e, "name"), get(ref, "key"), objName(s))
				}
			}
			if cmd := list(get(c, "command")); len(cmd) > 0 && str(cmd[0]) != BinaryPath {
				t.Errorf("%s: command %v does not run %s (the image has no shell)", cw, cmd, BinaryPath)
			}
			if get(c, "command") != nil {
				continue
			}
			// A server: the image's entrypoint, botarena serve.
			servers++
			args := list(get(c, "args"))
			if i := slices.Index(args, any("--addr")); i < 0 || i+1 >= len(args) || str(args[i+1]) != fmt.Sprintf("0.0.0.0:%d", Port) {
				t.Errorf("%s: args %v, want --addr 0.0.0.0:%d", cw, args, Port)
			}
			if !hasTokenEnv(c) {
				t.Errorf("%s: no BOTARENA_AUTH_TOKEN from a Secret: serve refuses 0.0.0.0 without a token", cw)
			}
			if str(get(c, "ports", "[0]", "containerPort")) != fmt.Sprint(Port) {
				t.Errorf("%s: ports %v, want %d", cw, get(c, "ports"), Port)
			}
			for _, probe := range []string{"readinessProbe", "livenessProbe", "startupProbe"} {
				if str(get(c, probe, "grpc", "port")) != fmt.Sprint(Port) {
					t.Errorf("%s: %s %v, want a gRPC probe on %d (grpc.health.v1)", cw, probe, get(c, probe), Port)
				}
			}
			if svc := str(get(c, "readinessProbe", "grpc", "service")); !strings.HasPrefix(svc, "botarena.v1.") {
				t.Errorf("%s: readiness probes service %q, want botarena.v1.EnvService or MatchService", cw, svc)
			}
			mountsTmp := slices.ContainsFunc(list(get(c, "volumeMounts")), func(m any) bool { return str(get(m, "mountPath")) == "/tmp" })
			if !mountsTmp {
				t.Errorf("%s: no volume at /tmp (the root file system is read-only)", cw)
			}
		}
	}
	if servers < 2 {
		t.Errorf("%d server containers, want the Deployment's and the StatefulSet's", servers)
	}

	// Every Service selects a workload's pods and targets a named port of them.
	for _, s := range byKind["Service"] {
		sel, _ := get(s, "spec", "selector").(object)
		found := false
		for _, o := range all {
			labels, _ := get(o, "spec", "template", "metadata", "labels").(object)
			if labels == nil || len(sel) == 0 {
				continue
			}
			match := true
			for k, v := range sel {
				if labels[k] != v {
					match = false
				}
			}
			if match && o["kind"] != "Job" {
				found = true
				ports := list(get(podSpec(o), "containers", "[0]", "ports"))
				for _, p := range list(get(s, "spec", "ports")) {
					target := get(p, "targetPort")
					if !slices.ContainsFunc(ports, func(cp any) bool { return get(cp, "name") == target || get(cp, "containerPort") == target }) {
						t.Errorf("Service %s: targetPort %v is not a port of %s %s", objName(s), target, o["kind"], objName(o))
					}
				}
			}
		}
		if !found {
			t.Errorf("Service %s selects no server workload (selector %v)", objName(s), sel)
		}
	}

	// The league coordinator's --servers name every pod of the StatefulSet
	// through its headless Service.
	sts := byKind["StatefulSet"][0]
	replicas := 0
	fmt.Sscan(str(get(sts, "spec", "replicas")), &replicas)
	var want []string
	for i := range replicas {
		want = append(want, fmt.Sprintf("%s-%d.%s:%d", objName(sts), i, str(get(sts, "spec", "serviceName")), Port))
	}
	coordinators := 0
	for _, j := range byKind["Job"] {
		for _, c := range list(get(podSpec(j), "containers")) {
			cmd := list(get(c, "command"))
			i := slices.Index(cmd, any("--servers"))
			if i < 0 {
				continue
			}
			coordinators++
			if i+1 >= len(cmd) || str(cmd[i+1]) != strings.Join(want, ",") {
				t.Errorf("Job %s: --servers %v, want %s (the StatefulSet's %d pods)", objName(j), cmd[i+1:], strings.Join(want, ","), replicas)
			}
			if !hasTokenEnv(c) {
				t.Errorf("Job %s: the coordinator has no BOTARENA_AUTH_TOKEN to send the servers", objName(j))
			}
		}
	}
	if coordinators != 1 {
		t.Errorf("%d league run Jobs with --servers, want 1", coordinators)
	}
}

func hasTokenEnv(c any) bool {
	return slices.ContainsFunc(list(get(c, "env")), func(e any) bool {
		return str(get(e, "name")) == "BOTARENA_AUTH_TOKEN" && get(e, "valueFrom", "secretKeyRef") != nil
	})
}

package main

import (
	"encoding/json"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// buildVersion is what the binary knows of its own build, from
// runtime/debug.ReadBuildInfo: `botarena version` prints it, `botarena
// serve` logs it and reports it in ListGames (server_version) and in
// botarena_build_info, so that a fleet can check it runs one build.
type buildVersion struct {
	// Module is the main module's version: the tag of `go install
	// ...@vX.Y.Z`; for a build from a checkout, a pseudo-version holding
	// the revision and "+dirty" for uncommitted changes (Go 1.24 and
	// later), or "(devel)" without VCS stamping (-buildvcs=false).
	Module string `json:"version"`
	// Revision is the VCS commit (git's full hash) of a build from a
	// checkout, "" when unknown (go test, -buildvcs=false, no .git).
	Revision string `json:"revision,omitempty"`
	// Time is the commit's time (RFC 3339), "" when unknown.
	Time string `json:"time,omitempty"`
	// Modified reports uncommitted changes in the checkout.
	Modified bool `json:"modified"`
	// Go is the Go version the binary was built with.
	Go string `json:"go"`
}

// readVersion returns the build's version from bi, the result of
// debug.ReadBuildInfo (nil when unavailable).
func readVersion(bi *debug.BuildInfo) buildVersion {
	v := buildVersion{Module: "(devel)", Go: runtime.Version()}
	if bi == nil {
		return v
	}
	if bi.Main.Version != "" {
		v.Module = bi.Main.Version
	}
	if bi.GoVersion != "" {
		v.Go = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// version returns this binary's version.
func version() buildVersion {
	bi, _ := debug.ReadBuildInfo()
	return readVersion(bi)
}

// String formats v on one line: the module version, the revision's first
// 12 hex digits with "-dirty" for a modified checkout (left out when the
// revision is unknown, or when the module version is a pseudo-version that
// already holds it, as Go 1.24 and later stamp builds from a checkout:
// "v0.0.0-20261125140403-213f9b1a5791+dirty"), and the Go version, for
// example "(devel) 1a2b3c4d5e6f-dirty go1.26.8" or "v0.4.0 go1.26.8".
func (v buildVersion) String() string {
	parts := []string{v.Module}
	if rev := v.Revision[:min(12, len(v.Revision))]; rev != "" && !strings.Contains(v.Module, rev) {
		if v.Modified {
			rev += "-dirty"
		}
		parts = append(parts, rev)
	}
	parts = append(parts, v.Go)
	return strings.Join(parts, " ")
}

func newVersionCmd(c *cli) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version [--json]",
		Short: "Print botarena's version: module version, VCS revision (-dirty when modified) and Go version",
		Long: "version prints the build of this binary on one line, as `botarena --version` does, and as\n" +
			"`botarena serve` reports it (ListGames server_version, botarena_build_info on /metrics, its first\n" +
			"log line): the module version (a tag; for a build from a checkout a pseudo-version holding the\n" +
			"revision and +dirty, or \"(devel)\"), the VCS revision's first 12 hex digits with \"-dirty\" when\n" +
			"the checkout had uncommitted changes (unless the module version holds it), and the Go version.\n" +
			"--json prints {\"version\", \"revision\" (full), \"time\", \"modified\", \"go\"}.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v := version()
			if asJSON {
				return json.NewEncoder(c.stdout).Encode(v)
			}
			_, err := c.stdout.Write([]byte("botarena " + v.String() + "\n"))
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the version as one JSON object")
	return cmd
}

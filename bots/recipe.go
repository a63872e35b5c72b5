// Package bots builds public competition bots from recipes, so that they can
// play as opponents (`dir:PATH`) without their code living in this
// repository.
//
// A recipe (recipes/<name>.json, embedded in the binary, or a file of a
// folder given with --recipes) names a repository, the commit to build, the
// toolchain the build needs, the shell steps that build it and the bot folder
// (the one holding bot.json) the build yields:
//
//	{
//	  "game": "bomberman",
//	  "repository": "https://github.com/OWNER/REPO",
//	  "commit": "<40 hex digits>",
//	  "toolchain": "maven",
//	  "java": {"min": 7, "max": 19},
//	  "build": ["mvn -B -q package -DskipTests"],
//	  "bot": "."
//	}
//
// [Builder.Build] checks the toolchain first by running it (mcs --version,
// mvn -v, java -version, ...), clones the repository at the commit into its
// cache (git must be on PATH), runs the steps in the checkout with a timeout,
// and returns the `dir:` spec of the bot folder. A build is done once per
// recipe: the cache keeps a stamp of the recipe it built, and builds again
// only when the recipe changes or the build is forced.
//
// The package does not print: progress and build output go to the
// [io.Writer] the caller gives.
package bots

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

//go:embed recipes/*.json
var builtin embed.FS

// Toolchains are the toolchains a recipe may name, each checked by running
// it before anything is cloned ([CheckToolchain]).
var Toolchains = []string{"mono", "maven", "python2", "python3", "node", "none"}

// DefaultTimeout is how long a recipe's build steps may run together when the
// recipe gives no timeout.
const DefaultTimeout = 15 * time.Minute

// Recipe is one bot's recipe: where its code is, how to build it and where
// the bot folder lands.
type Recipe struct {
	Name        string `json:"-"`                     // the file name without .json
	Description string `json:"description,omitempty"` // one line for `bots list`
	Game        string `json:"game"`                  // the game it plays (bomberman, battleships)
	Repository  string `json:"repository"`            // a git URL (or a local path)
	Commit      string `json:"commit"`                // the pinned commit, 40 hex digits
	Toolchain   string `json:"toolchain"`             // one of Toolchains
	// Java bounds the JDK major versions a maven project builds and runs on
	// (a Java 7 project's javac options are refused from JDK 20 on).
	Java *JavaRange `json:"java,omitempty"`
	// Sparse, if set, checks out only these paths (git sparse-checkout
	// patterns, non-cone: "/dir/", "!*.zip").
	Sparse []string `json:"sparse,omitempty"`
	// Build are shell commands (sh -c) run in order in the checkout's root;
	// $BOTARENA_BOT_DIR is the absolute bot folder.
	Build []string `json:"build"`
	// Bot is the bot folder, relative to the checkout, holding bot.json
	// once built ("." for the root).
	Bot string `json:"bot"`
	// BotJSON, if set, replaces the checkout's bot.json after the build (for
	// a repository whose bot.json does not parse at the pinned commit).
	BotJSON json.RawMessage `json:"bot_json,omitempty"`
	// Timeout bounds the build steps together, as a Go duration ("10m");
	// DefaultTimeout if empty.
	Timeout string `json:"timeout,omitempty"`
	// Notes say anything else a reader of the recipe should know.
	Notes string `json:"notes,omitempty"`
}

// JavaRange is an inclusive range of JDK major versions; 0 means unbounded.
type JavaRange struct {
	Min int `json:"min,omitempty"`
	Max int `json:"max,omitempty"`
}

var (
	nameRE   = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)
	commitRE = regexp.MustCompile(`^[0-9a-f]{40}$`)
)

// Parse reads the recipe called name from its JSON, rejecting unknown
// fields, and validates it.
func Parse(name string, data []byte) (Recipe, error) {
	var r Recipe
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Recipe{}, fmt.Errorf("recipe %s: %w", name, err)
	}
	if dec.More() {
		return Recipe{}, fmt.Errorf("recipe %s: data after the JSON object", name)
	}
	r.Name = name
	if err := r.Validate(); err != nil {
		return Recipe{}, err
	}
	return r, nil
}

// Validate checks every field, naming the recipe, the field and the value.
func (r Recipe) Validate() error {
	bad := func(field string, v any, why string) error {
		return fmt.Errorf("recipe %s: %s %s", r.Name, field, fmt.Sprintf(why, v))
	}
	switch {
	case !nameRE.MatchString(r.Name):
		return fmt.Errorf("recipe %q: the name must be lower case letters, digits, '.', '_' and '-'", r.Name)
	case r.Game == "":
		return bad("game", "", "is missing%s")
	case r.Repository == "":
		return bad("repository", "", "is missing%s")
	case !commitRE.MatchString(r.Commit):
		return bad("commit", r.Commit, "must be 40 lower-case hex digits (a full commit id), got %q")
	case !slices.Contains(Toolchains, r.Toolchain):
		return bad("toolchain", r.Toolchain, "%q is not one of "+strings.Join(Toolchains, ", "))
	case r.Java != nil && r.Toolchain != "maven":
		return bad("java", r.Toolchain, "is for the maven toolchain, not %q")
	case r.Java != nil && r.Java.Max != 0 && r.Java.Min > r.Java.Max:
		return bad("java", *r.Java, "min is above max: %+v")
	case len(r.Build) == 0 && r.Toolchain != "none":
		return bad("build", "", "is missing%s (a list of shell commands)")
	case r.Bot == "":
		return bad("bot", "", "is missing%s (the bot folder inside the checkout, \".\" for its root)")
	}
	for i, s := range r.Build {
		if strings.TrimSpace(s) == "" {
			return bad("build", i, "step %d is empty")
		}
	}
	if p := filepath.ToSlash(r.Bot); path.IsAbs(p) || path.Clean(p) == ".." || strings.HasPrefix(path.Clean(p), "../") {
		return bad("bot", r.Bot, "%q must be a path inside the checkout")
	}
	if r.Timeout != "" {
		if d, err := time.ParseDuration(r.Timeout); err != nil || d <= 0 {
			return bad("timeout", r.Timeout, "%q is not a positive duration (e.g. \"10m\")")
		}
	}
	if len(r.BotJSON) > 0 {
		var m map[string]any
		if err := json.Unmarshal(r.BotJSON, &m); err != nil {
			return bad("bot_json", err, "is not a JSON object: %v")
		}
		if rf, _ := m["RunFile"].(string); rf == "" {
			return bad("bot_json", "", "has no RunFile%s")
		}
	}
	return nil
}

func (r Recipe) timeout() time.Duration {
	if d, err := time.ParseDuration(r.Timeout); err == nil && d > 0 {
		return d
	}
	return DefaultTimeout
}

// Builtin returns the recipes embedded in the binary, sorted by name.
func Builtin() ([]Recipe, error) {
	sub, err := fs.Sub(builtin, "recipes")
	if err != nil {
		return nil, err
	}
	return load(sub, "built-in recipes")
}

// LoadDir returns the recipes (*.json) of a folder, sorted by name.
func LoadDir(dir string) ([]Recipe, error) {
	return load(os.DirFS(dir), dir)
}

func load(fsys fs.FS, where string) ([]Recipe, error) {
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	if names == nil {
		if _, err := fs.Stat(fsys, "."); err != nil {
			return nil, fmt.Errorf("recipes %s: %w", where, err)
		}
	}
	var out []Recipe
	for _, n := range names {
		data, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		r, err := Parse(strings.TrimSuffix(n, ".json"), data)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Recipe) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// Merge returns base with the recipes of extra added, an extra recipe
// replacing the base one of the same name; sorted by name.
func Merge(base, extra []Recipe) []Recipe {
	out := slices.Clone(base)
	for _, e := range extra {
		i := slices.IndexFunc(out, func(r Recipe) bool { return r.Name == e.Name })
		if i >= 0 {
			out[i] = e
		} else {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b Recipe) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Select returns the recipes named, in the order named, or all of them when
// no name is given; an unknown name is an error listing the known ones.
func Select(all []Recipe, names []string) ([]Recipe, error) {
	if len(names) == 0 {
		return all, nil
	}
	var out []Recipe
	for _, n := range names {
		i := slices.IndexFunc(all, func(r Recipe) bool { return r.Name == n })
		if i < 0 {
			known := make([]string, len(all))
			for j, r := range all {
				known[j] = r.Name
			}
			return nil, fmt.Errorf("no recipe %q (recipes: %s)", n, strings.Join(known, ", "))
		}
		out = append(out, all[i])
	}
	return out, nil
}

// DefaultCache is where built bots live unless told otherwise: the user's
// cache folder's botarena/bots (~/.cache/botarena/bots on Linux).
func DefaultCache() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", errors.New("no user cache folder ($HOME or $XDG_CACHE_HOME unset): give --cache DIR")
	}
	return filepath.Join(d, "botarena", "bots"), nil
}

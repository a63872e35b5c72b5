package bots

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// tailLines is how many of a failed step's last output lines an error quotes.
const tailLines = 15

// Builder builds recipes into a cache folder.
type Builder struct {
	// Cache holds one checkout per recipe and commit, <name>-<commit[:12]>,
	// with its build log (.log) and stamp (.built) beside it.
	Cache string
	// Overrides replace recipes' repositories by name (a local clone, for
	// machines without network); the commit stays the recipe's.
	Overrides map[string]string
	// Force builds again even where the stamp says the build is current.
	Force bool
	// Log receives progress lines and the steps' output; nil discards them.
	Log io.Writer
}

// Result is one built bot.
type Result struct {
	Recipe Recipe
	Dir    string // the absolute bot folder
	Cached bool   // built earlier, nothing done now
}

// Spec is the agent spec that plays the bot: "dir:" and its folder.
func (r Result) Spec() string { return "dir:" + r.Dir }

// Checkout is the folder a recipe's repository is checked out into.
func (b *Builder) Checkout(r Recipe) string {
	return filepath.Join(b.Cache, r.Name+"-"+r.Commit[:12])
}

// BotDir is the bot folder a recipe's build yields.
func (b *Builder) BotDir(r Recipe) string {
	return filepath.Join(b.Checkout(r), filepath.FromSlash(r.Bot))
}

// Built reports whether the cache holds a finished build of exactly this
// recipe.
func (b *Builder) Built(r Recipe) bool {
	stamp, err := os.ReadFile(b.Checkout(r) + ".built")
	return err == nil && strings.TrimSpace(string(stamp)) == r.fingerprint()
}

// fingerprint identifies what a build is of: every field of the recipe (a
// --repo-override clone at the same commit builds the same code).
func (r Recipe) fingerprint() string {
	data, _ := json.Marshal(r)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func (b *Builder) repository(r Recipe) string {
	if o, ok := b.Overrides[r.Name]; ok {
		return o
	}
	return r.Repository
}

func (b *Builder) logf(format string, args ...any) {
	if b.Log != nil {
		fmt.Fprintf(b.Log, format+"\n", args...)
	}
}

// Build checks the recipe's toolchain, clones its repository at its commit,
// runs its build steps and returns the bot folder. A build of the same
// recipe already in the cache is returned as is unless b.Force.
func (b *Builder) Build(ctx context.Context, r Recipe) (Result, error) {
	res := Result{Recipe: r, Dir: b.BotDir(r)}
	if abs, err := filepath.Abs(res.Dir); err == nil {
		res.Dir = abs
	}
	if !b.Force && b.Built(r) {
		res.Cached = true
		return res, nil
	}
	if _, err := exec.LookPath("git"); err != nil {
		return res, fmt.Errorf("%s: git is not on PATH: install git (apt-get install git) to clone %s", r.Name, r.Repository)
	}
	if err := CheckToolchain(ctx, r); err != nil {
		return res, err
	}
	dir := b.Checkout(r)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	os.Remove(dir + ".built")
	if err := os.MkdirAll(b.Cache, 0o755); err != nil {
		return res, fmt.Errorf("%s: cache: %w", r.Name, err)
	}
	logPath := dir + ".log"
	logf, err := os.Create(logPath)
	if err != nil {
		return res, fmt.Errorf("%s: %w", r.Name, err)
	}
	defer logf.Close()
	out := io.Writer(logf)
	if b.Log != nil {
		out = io.MultiWriter(logf, b.Log)
	}
	if err := b.clone(ctx, r, dir, out); err != nil {
		return res, err
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout())
	defer cancel()
	env := append(os.Environ(), "BOTARENA_BOT_DIR="+res.Dir)
	for i, step := range r.Build {
		b.logf("%s: step %d/%d: %s", r.Name, i+1, len(r.Build), step)
		var buf bytes.Buffer
		cmd := exec.CommandContext(ctx, "sh", "-c", step)
		cmd.Dir, cmd.Env = dir, env
		cmd.Stdout = io.MultiWriter(out, &buf)
		cmd.Stderr = cmd.Stdout
		cmd.WaitDelay = 5 * time.Second
		err := cmd.Run()
		if ctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("timed out after %s (the recipe's timeout)", r.timeout())
		}
		if err != nil {
			return res, fmt.Errorf("%s: build step %d (%s): %v; log %s; last lines:\n%s", r.Name, i+1, step, err, logPath, lastLines(buf.Bytes(), tailLines))
		}
	}
	if len(r.BotJSON) > 0 {
		var pretty bytes.Buffer
		json.Indent(&pretty, r.BotJSON, "", "  ")
		if err := os.WriteFile(filepath.Join(res.Dir, "bot.json"), append(pretty.Bytes(), '\n'), 0o644); err != nil {
			return res, fmt.Errorf("%s: bot_json: %w", r.Name, err)
		}
	}
	if err := checkBotFolder(res.Dir); err != nil {
		return res, fmt.Errorf("%s: the build finished but %w", r.Name, err)
	}
	if err := os.WriteFile(dir+".built", []byte(r.fingerprint()+"\n"), 0o644); err != nil {
		return res, fmt.Errorf("%s: %w", r.Name, err)
	}
	return res, nil
}

// clone makes dir a checkout of the recipe's repository at its commit,
// starting over from an empty folder.
func (b *Builder) clone(ctx context.Context, r Recipe, dir string, out io.Writer) error {
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("%s: %w", r.Name, err)
	}
	repo := b.repository(r)
	b.logf("%s: cloning %s at %s", r.Name, repo, r.Commit[:12])
	git := func(args ...string) error {
		var buf bytes.Buffer
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Stdout, cmd.Stderr = io.MultiWriter(out, &buf), io.MultiWriter(out, &buf)
		cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_LFS_SKIP_SMUDGE=1")
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s: git %s: %v: %s", r.Name, args[0], err, strings.ReplaceAll(lastLines(buf.Bytes(), 3), "\n", "; "))
		}
		return nil
	}
	if err := git("clone", "--quiet", "--no-checkout", repo, dir); err != nil {
		return err
	}
	if len(r.Sparse) > 0 {
		if err := git(append([]string{"-C", dir, "sparse-checkout", "set", "--no-cone"}, r.Sparse...)...); err != nil {
			return err
		}
	}
	if err := git("-C", dir, "-c", "advice.detachedHead=false", "checkout", "--quiet", "--detach", r.Commit); err != nil {
		return fmt.Errorf("%w (is commit %s in %s?)", err, r.Commit, repo)
	}
	return nil
}

// checkBotFolder checks that dir holds a bot.json whose RunFile exists.
func checkBotFolder(dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, "bot.json"))
	if err != nil {
		return fmt.Errorf("the bot folder has no bot.json: %w", err)
	}
	var meta struct{ RunFile string }
	if err := json.Unmarshal(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), &meta); err != nil {
		return fmt.Errorf("%s does not parse (set bot_json in the recipe): %v", filepath.Join(dir, "bot.json"), err)
	}
	run := filepath.Join(dir, filepath.FromSlash(strings.ReplaceAll(meta.RunFile, `\`, "/")))
	if _, err := os.Stat(run); err != nil {
		return fmt.Errorf("its RunFile %s was not built", run)
	}
	return nil
}

// lastLines returns the last n lines of out.
func lastLines(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// ToolchainError is a missing or unsuitable toolchain, said in one line with
// what to install.
type ToolchainError struct {
	Recipe, Toolchain, Problem, Fix string
}

func (e *ToolchainError) Error() string {
	return fmt.Sprintf("%s needs %s: %s: %s", e.Recipe, e.Toolchain, e.Problem, e.Fix)
}

// CheckToolchain runs the recipe's toolchain (mcs --version, mvn -v,
// java -version, python3 --version, ...) and returns a [*ToolchainError]
// naming what is missing and how to install it.
func CheckToolchain(ctx context.Context, r Recipe) error {
	fail := func(tool, problem, fix string) error {
		return &ToolchainError{Recipe: r.Name, Toolchain: tool, Problem: problem, Fix: fix}
	}
	switch r.Toolchain {
	case "mono":
		if _, err := runVersion(ctx, "mcs", "--version"); err != nil {
			return fail("Mono's C# compiler", "mcs "+err.Error(), "install mono-mcs (apt-get install mono-mcs) or mono-complete")
		}
		if _, err := runVersion(ctx, "mono", "--version"); err != nil {
			return fail("the Mono runtime", "mono "+err.Error(), "install mono-runtime (apt-get install mono-runtime) or mono-complete")
		}
	case "maven":
		if _, err := runVersion(ctx, "mvn", "-v"); err != nil {
			return fail("Maven", "mvn "+err.Error(), "install maven (apt-get install maven)")
		}
		java := "java"
		if home := os.Getenv("JAVA_HOME"); home != "" {
			java = filepath.Join(home, "bin", "java")
		}
		out, err := runVersion(ctx, java, "-version")
		if err != nil {
			return fail("a JDK", java+" "+err.Error(), "install openjdk-17-jdk or set JAVA_HOME")
		}
		if rng := r.Java; rng != nil {
			v := javaMajor(out)
			if v == 0 {
				return fail("a JDK", fmt.Sprintf("cannot read the version from %q", firstLine(out)), "set JAVA_HOME to a JDK")
			}
			if (rng.Min != 0 && v < rng.Min) || (rng.Max != 0 && v > rng.Max) {
				want := fmt.Sprintf("JDK %d to %d", rng.Min, rng.Max)
				switch {
				case rng.Max == 0:
					want = fmt.Sprintf("JDK %d or later", rng.Min)
				case rng.Min == 0:
					want = fmt.Sprintf("JDK %d or earlier", rng.Max)
				}
				pick := rng.Max
				if pick == 0 || pick > 17 && rng.Min <= 17 {
					pick = 17
				}
				return fail(want, fmt.Sprintf("a Java %d project on JDK %d", max(rng.Min, 1), v),
					fmt.Sprintf("install openjdk-%d or set JAVA_HOME to a %s", pick, want))
			}
		}
	case "python3":
		if _, err := runVersion(ctx, "python3", "--version"); err != nil {
			return fail("Python 3", "python3 "+err.Error(), "install python3 (apt-get install python3)")
		}
	case "python2":
		out, err := runVersion(ctx, "python2", "--version")
		if err == nil && !strings.Contains(out, "Python 2") {
			err = fmt.Errorf("runs %s, not Python 2", firstLine(out))
		}
		if err != nil {
			return fail("Python 2", "python2 "+err.Error(), "install python2 (with pyenv: pyenv install 2.7.18)")
		}
	case "node":
		if _, err := runVersion(ctx, "node", "--version"); err != nil {
			return fail("Node.js", "node "+err.Error(), "install nodejs (apt-get install nodejs)")
		}
	}
	return nil
}

// runVersion runs a toolchain's version command and returns its output.
func runVersion(ctx context.Context, prog string, args ...string) (string, error) {
	if _, err := exec.LookPath(prog); err != nil {
		return "", errors.New("is not on PATH")
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, prog, args...).CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("does not run (%v: %s)", err, firstLine(string(out)))
	}
	return string(out), nil
}

var javaVersionRE = regexp.MustCompile(`version "(\d+)(?:\.(\d+))?`)

// javaMajor reads the major version from java -version's output: 8 from
// "1.8.0_292", 17 from "17.0.15".
func javaMajor(out string) int {
	m := javaVersionRE.FindStringSubmatch(out)
	if m == nil {
		return 0
	}
	v, _ := strconv.Atoi(m[1])
	if v == 1 && m[2] != "" {
		v, _ = strconv.Atoi(m[2])
	}
	return v
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(s)
}

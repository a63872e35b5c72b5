package agents_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/agents"
	_ "github.com/botarena/botarena/agents/cmdbot"   // cmd:, whose needs are checked here
	_ "github.com/botarena/botarena/agents/entelect" // dir:
	_ "github.com/botarena/botarena/agents/httpbot"  // http:// and https://
	"github.com/botarena/botarena/env"
)

func init() {
	// A CapFiles scheme with a suffix after its path, as policy:PATH?sample.
	agents.RegisterScheme(agents.Scheme{
		Prefix: "testfile:",
		Games:  []string{"testgame"}, // out of other tests' listings
		Needs:  agents.CapFiles,
		New:    func(string, string, *env.Spec) (env.Agent, error) { return nil, errors.New("test scheme") },
		Path: func(spec string) (string, string) {
			p := strings.TrimPrefix(spec, "testfile:")
			if q, ok := strings.CutSuffix(p, "?x"); ok {
				return q, "?x"
			}
			return p, ""
		},
	})
	// A scheme that declares no need.
	agents.RegisterScheme(agents.Scheme{
		Prefix: "testany:",
		Games:  []string{"testgame"},
		New:    func(string, string, *env.Spec) (env.Agent, error) { return nil, errors.New("test scheme") },
	})
}

// botsTree makes a bots folder with a bot folder, a file, and symbolic links
// inside it that lead inside and outside, and a secret file outside it. It
// returns the bots folder and the secret file.
func botsTree(t *testing.T) (bots, secret string) {
	t.Helper()
	root := t.TempDir()
	bots = filepath.Join(root, "bots")
	secret = filepath.Join(root, "secret.txt")
	for _, d := range []string{filepath.Join(bots, "annie"), filepath.Join(root, "elsewhere")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(bots, "annie", "bot.json"), filepath.Join(bots, "p.safetensors"), secret} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		filepath.Join(bots, "out"):       secret,                           // a file outside
		filepath.Join(bots, "outdir"):    filepath.Join(root, "elsewhere"), // a folder outside
		filepath.Join(bots, "inside"):    filepath.Join(bots, "p.safetensors"),
		filepath.Join(root, "bots-link"): bots, // the bots folder through a link
	}
	for l, target := range links {
		if err := os.Symlink(target, l); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	return bots, secret
}

func TestCapabilitiesCheck(t *testing.T) {
	bots, secret := botsTree(t)
	realBots, err := filepath.EvalSymlinks(bots)
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(bots)
	none := agents.Capabilities{}
	all := agents.Capabilities{Unrestricted: true}
	files := agents.Capabilities{BotDirs: []string{bots}}
	viaLink := agents.Capabilities{BotDirs: []string{filepath.Join(root, "bots-link")}}
	flags := agents.Capabilities{Commands: true, HTTP: true, Listen: true}
	type want struct {
		spec   string            // the spec Check returns, when allowed
		denied agents.Capability // the need named, when denied
		notFnd bool              // agents.ErrUnknownAgent
	}
	allowed := func(spec string) want { return want{spec: spec} }
	deny := func(c agents.Capability) want { return want{denied: c, spec: "-"} }
	for _, tc := range []struct {
		name string
		caps agents.Capabilities
		game string
		spec string
		want want
	}{
		{"builtin_needs_nothing", none, "bomberman", "reference", allowed("reference")},
		{"unknown_name_left_to_new", none, "bomberman", "ghost", allowed("ghost")},
		{"cmd_denied", none, "battlebots", "cmd:python3 bot.py", deny(agents.CapCommands)},
		{"cmd_allowed", flags, "battlebots", "cmd:python3 bot.py", allowed("cmd:python3 bot.py")},
		{"http_denied", files, "battlecube", "http://127.0.0.1:1/bot", deny(agents.CapHTTP)},
		{"https_denied", none, "battlecube", "https://example.com/bot", deny(agents.CapHTTP)},
		{"http_allowed", flags, "battlecube", "http://127.0.0.1:1/bot", allowed("http://127.0.0.1:1/bot")},
		{"dir_without_bots_dir", flags, "bomberman", "dir:" + filepath.Join(bots, "annie"), deny(agents.CapFiles)},
		{"dir_inside", files, "bomberman", "dir:" + filepath.Join(bots, "annie"), allowed("dir:" + filepath.Join(realBots, "annie"))},
		{"dir_relative", files, "bomberman", "dir:annie", allowed("dir:" + filepath.Join(realBots, "annie"))},
		{"bot_json_inside", files, "bomberman", "dir:annie/bot.json", allowed("dir:" + filepath.Join(realBots, "annie", "bot.json"))},
		{"bots_dir_through_a_link", viaLink, "bomberman", "dir:" + filepath.Join(root, "bots-link", "annie"), allowed("dir:" + filepath.Join(realBots, "annie"))},
		{"real_path_of_a_linked_bots_dir", viaLink, "bomberman", "dir:" + filepath.Join(realBots, "annie"), allowed("dir:" + filepath.Join(realBots, "annie"))},
		{"absolute_outside", files, "bomberman", "dir:" + filepath.Join(root, "elsewhere"), deny(agents.CapFiles)},
		{"file_outside", files, "*", "testfile:" + secret, deny(agents.CapFiles)},
		{"etc_shadow", files, "*", "testfile:/etc/shadow", deny(agents.CapFiles)},
		{"dotdot_relative", files, "*", "testfile:../secret.txt", deny(agents.CapFiles)},
		{"dotdot_absolute", files, "*", "testfile:" + bots + "/../secret.txt", deny(agents.CapFiles)},
		{"symlink_escape_file", files, "*", "testfile:out", deny(agents.CapFiles)},
		{"symlink_escape_folder", files, "bomberman", "dir:" + filepath.Join(bots, "outdir"), deny(agents.CapFiles)},
		{"symlink_inside", files, "*", "testfile:inside?x", allowed("testfile:" + filepath.Join(realBots, "p.safetensors") + "?x")},
		{"suffix_kept", files, "*", "testfile:p.safetensors?x", allowed("testfile:" + filepath.Join(realBots, "p.safetensors") + "?x")},
		{"missing_inside", files, "*", "testfile:nope.safetensors", want{notFnd: true}},
		{"empty_path_left_to_new", files, "bomberman", "dir:", allowed("dir:")},
		{"undeclared_scheme_denied", agents.Capabilities{BotDirs: []string{bots}, Commands: true, HTTP: true, Listen: true}, "*", "testany:x", deny(agents.CapUnrestricted)},
		{"unrestricted_passes_as_is", all, "*", "testfile:" + secret, allowed("testfile:" + secret)},
		{"unrestricted_undeclared", all, "*", "testany:x", allowed("testany:x")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.caps.Check(tc.game, tc.spec)
			var d *agents.DeniedError
			switch {
			case tc.want.notFnd:
				if !errors.Is(err, agents.ErrUnknownAgent) {
					t.Fatalf("Check = %q, %v; want ErrUnknownAgent", got, err)
				}
			case tc.want.spec == "-":
				if !errors.As(err, &d) || !errors.Is(err, agents.ErrDenied) || d.Need != tc.want.denied {
					t.Fatalf("Check = %q, %v; want denied for %v", got, err, tc.want.denied)
				}
				if strings.Contains(err.Error(), "x\x00") || len(err.Error()) > 600 {
					t.Errorf("error %q", err)
				}
			default:
				if err != nil || got != tc.want.spec {
					t.Fatalf("Check = %q, %v; want %q", got, err, tc.want.spec)
				}
			}
		})
	}
}

func TestCapabilitiesErrorsAreBounded(t *testing.T) {
	long := "cmd:" + strings.Repeat("A", 1<<20)
	_, err := agents.Capabilities{}.Check("battlebots", long)
	if err == nil || len(err.Error()) > 400 {
		t.Errorf("error of %d bytes for a 1 MiB spec", len(err.Error()))
	}
	_, err = agents.New("battlebots", "ghost"+strings.Repeat("B", 1<<20), nil)
	if err == nil || len(err.Error()) > 2000 {
		t.Errorf("New: error of %d bytes for a 1 MiB name", len(err.Error()))
	}
}

func TestResolveBotDirs(t *testing.T) {
	bots, secret := botsTree(t)
	real, _ := filepath.EvalSymlinks(bots)
	got, err := agents.ResolveBotDirs([]string{filepath.Join(filepath.Dir(bots), "bots-link")})
	if err != nil || len(got) != 1 || got[0] != real {
		t.Errorf("ResolveBotDirs = %q, %v; want [%q]", got, err, real)
	}
	for _, bad := range []string{"", secret, filepath.Join(bots, "nope")} {
		if _, err := agents.ResolveBotDirs([]string{bad}); err == nil {
			t.Errorf("ResolveBotDirs(%q): want an error", bad)
		}
	}
}

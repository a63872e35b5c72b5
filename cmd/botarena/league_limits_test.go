package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/league"
)

// TestLeagueAddChecksNamesSpecsAndTags: `league add` checks an agent with
// league.CheckAgent, the check a server makes, before the league is opened.
func TestLeagueAddChecksNamesSpecsAndTags(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lg")
	if _, errOut, code := runCLI(t, "", "league", "init", dir, "--game", "battlebots", "--seed", "1"); code != 0 {
		t.Fatal(errOut)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"tag_1MiB", []string{"a", "nop", "--tag", strings.Repeat("t", 1<<20)}, "over the limit of 128"},
		{"tag_control_char", []string{"a", "nop", "--tag", "v1\x1b[31m"}, "not printable"},
		{"tag_line_break", []string{"a", "nop", "--tag", "v1\nv2"}, "not printable"},
		{"name_100000_chars", []string{strings.Repeat("n", 100000), "nop"}, "agent name"},
		{"name_hidden", []string{".a", "nop"}, "starting with a letter or digit"},
		{"spec_over_limit", []string{"a", "cmd:" + strings.Repeat("s", league.MaxSpecBytes)}, "spec"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := runCLI(t, "", append([]string{"league", "add", dir}, tt.args...)...)
			if code != 1 || !strings.Contains(errOut, tt.want) || strings.Count(errOut, "\n") != 1 || len(errOut) > 400 {
				t.Errorf("exit %d, stderr %q; want 1 and one short line naming %q", code, errOut, tt.want)
			}
		})
	}
	if out, _, _ := runCLI(t, "", "league", "table", dir, "--json"); out != "" {
		t.Errorf("refused agents were stored:\n%s", out)
	}
}

// TestLeagueRunProgressCountsWhatIsStored: `league run` on a full disk
// printed 0/10000 games with 934 stored: without a terminal, progress
// lines came every 5 s and the last was never printed. The last line
// counts every game stored.
func TestLeagueRunProgressCountsWhatIsStored(t *testing.T) {
	tests := []struct {
		name    string
		updates []league.Progress
		want    string // the last line
	}{
		{"stopped_early", []league.Progress{{Run: 1, Total: 10000}, {Run: 1, Done: 500, Total: 10000, Played: 500}, {Run: 1, Done: 934, Total: 10000, Played: 934}}, "934/10000 games"},
		{"resumed", []league.Progress{{Run: 2, Done: 40, Total: 100}, {Run: 2, Done: 41, Total: 100, Played: 1}}, "41/100 games"},
		{"finished", []league.Progress{{Run: 3, Total: 10}, {Run: 3, Done: 10, Total: 10, Played: 10}}, "10/10 games"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			pr := newProgress(&b) // not a terminal
			for _, p := range tt.updates {
				pr.update(p)
			}
			pr.finish()
			lines := strings.Split(strings.TrimSpace(b.String()), "\n")
			if last := lines[len(lines)-1]; !strings.Contains(last, tt.want) {
				t.Errorf("last line %q, want %q\n%s", last, tt.want, b.String())
			}
			if strings.Count(b.String(), tt.want) != 1 {
				t.Errorf("the last progress was printed more than once:\n%s", b.String())
			}
		})
	}
}

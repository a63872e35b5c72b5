package battlebots

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/internal/testutil"
)

// TestScenarioFiles runs every testdata/*.json scenario through the shared
// runner (bot1's view with L lines in, [bot1, bot2] commands per round, one
// bot1 view per round out) and compares the output with the .golden file
// next to it; -update rewrites them.
func TestScenarioFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.json")
	if len(files) == 0 {
		t.Fatal("no scenario files")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			for _, state := range testutil.ScenarioFile(t, file) {
				out.Write(state)
				out.WriteByte('\n')
			}
			testutil.Golden(t, name+".golden", out.Bytes())
		})
	}
}

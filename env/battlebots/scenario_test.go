package battlebots

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/internal/testutil"
)

// update is the -update flag: rewrite the scenario golden files in testdata.
var update = testutil.Update

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
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			s, err := env.ParseScenario(data)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := env.RunScenario(s, func(state []byte) error {
				out.Write(state)
				out.WriteByte('\n')
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(file, ".json") + ".golden"
			if *update {
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("output:\n%s\nwant:\n%s", out.Bytes(), want)
			}
		})
	}
}

package main

import (
	"fmt"

	"github.com/botarena/botarena/internal/safefile"
	"github.com/botarena/botarena/match"
)

// recordFile is the recording `botarena play --record FILE` writes: a
// match.Recorder into a temporary file beside FILE, renamed over FILE once
// the recording is finished and removed when it is not.
type recordFile struct {
	path string
	f    *safefile.Pending
	rec  *match.Recorder
}

// startRecording starts the recording of the match g (made with config) at
// path, within limit bytes, and sets g's hooks to record it before calling
// the hooks g has.
func startRecording(path string, limit int64, g *match.Match, game string, config []byte, names []string, loaded bool) (*recordFile, error) {
	f, err := safefile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--record: %w", err)
	}
	r := &recordFile{path: path, f: f}
	r.rec = match.NewRecorder(f, match.RecordingHeader{Game: game, Config: config, Seed: g.Seed, Agents: names, Loaded: loaded}, limit)
	g.Hooks = r.rec.Hooks(g.Hooks)
	return r, nil
}

// finish writes the result line and puts the recording at its path.
func (r *recordFile) finish(res match.Result) error {
	err := r.rec.Finish(res)
	if err != nil {
		r.f.Abort()
	} else {
		err = r.f.Commit()
	}
	if err != nil {
		return fmt.Errorf("--record %s: %w", r.path, err)
	}
	return nil
}

// abort removes the unfinished recording.
func (r *recordFile) abort() { r.f.Abort() }

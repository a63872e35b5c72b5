package league

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/botarena/botarena/internal/safefile"
)

// LiveTableFile is where a run started with [League.RunLive] keeps its
// latest table in the league directory, for readers in other processes
// ([ReadTable]) while the run holds the store. Its content is a [Snapshot]
// as JSON.
const LiveTableFile = "table-live.json"

// LiveEvery is how often [League.RunLive] rewrites its LiveTableFile.
const LiveEvery = 2 * time.Second

// RunLive is [League.Run] that also keeps the table readable by other
// processes while the run holds the store: after games are stored, at most
// every [LiveEvery], it replaces the directory's [LiveTableFile] with the
// table so far, and it removes the file when the run ends. A failure to
// write the file does not stop the run: liveErr, when not nil, is called
// once, with the first. o.Progress is called first, as Run calls it.
func (l *League) RunLive(ctx context.Context, o RunOptions, liveErr func(error)) (RunSummary, error) {
	at, failed := time.Now(), false
	defer os.Remove(filepath.Join(l.dir, LiveTableFile))
	progress := o.Progress
	o.Progress = func(p Progress) {
		if progress != nil {
			progress(p)
		}
		if time.Since(at) < LiveEvery {
			return
		}
		at = time.Now()
		if err := l.WriteLiveTable(p.Run); err != nil && !failed {
			failed = true
			if liveErr != nil {
				liveErr(err)
			}
		}
	}
	return l.Run(ctx, o)
}

// WriteLiveTable replaces the directory's [LiveTableFile] with the table,
// written by run ([RunLive] calls it; a process holding the store for
// another reason may too).
func (l *League) WriteLiveTable(run int) error {
	snap, err := l.Snapshot()
	if err != nil {
		return err
	}
	snap.Run = run
	data, err := json.Marshal(snap)
	if err != nil {
		return err
	}
	return safefile.WriteFile(filepath.Join(l.dir, LiveTableFile), func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// maxLiveTableBytes bounds the LiveTableFile read: MaxAgents rows of the
// longest names, specs and tags fit several times.
const maxLiveTableBytes = 16 << 20

// readLiveTable reads dir's LiveTableFile: a regular file of at most
// maxLiveTableBytes (a FIFO there is refused, not waited for).
func readLiveTable(dir string) (Snapshot, error) {
	var t Snapshot
	data, err := safefile.ReadFile(filepath.Join(dir, LiveTableFile), LiveTableFile, maxLiveTableBytes)
	if err != nil {
		return t, err
	}
	return t, json.Unmarshal(data, &t)
}

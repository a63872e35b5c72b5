package league

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/botarena/botarena/env"
	"github.com/botarena/botarena/observations/matchdata"
)

// RunOptions configure [League.Run].
type RunOptions struct {
	// Games is the number of games of the run; at least 1.
	Games int
	// Match is the matchmaking method; "" means RoundRobin.
	Match Matchmaking
	// Target is the agent PFSP finds opponents for (PFSP only).
	Target string
	// Workers is the number of goroutines playing games (a PoolRunner
	// plays several games on each; a plain Runner one); 0 or less means
	// GOMAXPROCS. Results do not depend on it.
	Workers int
	// MaxRounds, when positive, ends every game after that many rounds.
	MaxRounds int
	// DataDir, when not empty, receives the per-step match data as Parquet
	// files (created if missing; see the package documentation).
	DataDir string
	// Runner plays the games; nil means a [PoolRunner] on Registry: the
	// games of in-process agents run on vecenv pools, Workers goroutines
	// with several games each.
	Runner Runner
	// Registry describes the game (seats, observation spec); nil means
	// env.Default. It should be the registry the Runner uses.
	Registry *env.Registry
	// Fresh abandons an unfinished run whose options differ, instead of
	// returning an error.
	Fresh bool
	// RequestID, when not empty, makes the run idempotent: it is stored
	// with the run it starts (or resumes), and a later Run with the same
	// RequestID (a retry of a call whose answer was lost) plays nothing
	// when that run has finished (RunSummary.Duplicate), resumes it when
	// it has not, and is refused (ErrInvalid) with other Games, Match,
	// Target or MaxRounds. At most [MaxRequestIDBytes] of printable ASCII
	// without spaces (a UUID). [Leagues.Run] also makes a retry that comes
	// while the run plays wait for it.
	RequestID string
	// Progress, when not nil, is called after games are stored, from the
	// goroutine that called Run.
	Progress func(Progress)
}

// Progress reports a run's progress.
type Progress struct {
	Run   int // the run's id
	Done  int // games of the run stored, including those of earlier attempts
	Total int // games of the run
	// Played is the number of games this call has played, in Elapsed.
	Played  int
	Elapsed time.Duration
}

// RunSummary describes a finished (or interrupted) [League.Run].
type RunSummary struct {
	Run RunRecord
	// Resumed reports that the call continued an unfinished run; Skipped
	// is the number of its games stored before.
	Resumed bool
	Skipped int
	// Played is the number of games this call played and stored.
	Played int
	// Duplicate reports that the run of RunOptions.RequestID had finished
	// before the call: nothing was played, Run is that run and Skipped its
	// games.
	Duplicate bool
	Elapsed   time.Duration
	// DataFiles lists the match data files written, in game order.
	DataFiles []string
}

// ErrUnfinishedRun is returned (wrapped) by Run when the last run stopped
// before its end and the options differ from it (without Fresh).
var ErrUnfinishedRun = errors.New("the league has an unfinished run")

// Run plays a run of o.Games games and stores each finished game with the
// rating changes it makes, in game index order, as soon as it and every
// game before it are done (several at once in one transaction when they
// finish together; with DataDir, the games of one block of BatchGames
// indices after its data file is written). Game i has seed [GameSeed](seed,
// i) and agents chosen by the matchmaking from i alone (and, for PFSP, the
// games stored before its block), so the results are the same for any
// worker count.
//
// If the last run stopped before its end (the process was killed, or ctx
// was cancelled), Run with the same Games, Match, Target and MaxRounds
// resumes it and plays only the missing games, with the seeds and agents
// the uninterrupted run would have used; with other options it returns an
// error wrapping [ErrUnfinishedRun], unless o.Fresh abandons it. The agents
// are the league's at the time of the call.
//
// With o.RequestID, a call that repeats the request of a finished run plays
// nothing and describes that run (see RunOptions.RequestID).
//
// When ctx is cancelled Run stores the games already finished in order and
// returns ctx's error with the summary so far. A game that cannot be played
// (an agent that cannot start) and a failure to store games (a full disk:
// [ErrDiskFull]) stop the run with an error that says how many of its games
// are stored and names the cause; the summary counts the games stored.
func (l *League) Run(ctx context.Context, o RunOptions) (RunSummary, error) {
	start := time.Now()
	var sum RunSummary
	if o.Games < 1 {
		return sum, invalidf("--games: want 1 or more, got %d", o.Games)
	}
	if err := checkRequestID(o.RequestID); err != nil {
		return sum, err
	}
	if o.Match == "" {
		o.Match = RoundRobin
	}
	if o.MaxRounds < 0 {
		return sum, invalidf("--max-rounds: want 0 (no cap) or more, got %d", o.MaxRounds)
	}
	if done, ok, err := l.finishedRequest(o); err != nil {
		return sum, err
	} else if ok {
		// A retry of a finished run plays nothing, whatever the league's
		// agents are now.
		if o.Progress != nil {
			o.Progress(Progress{Run: done.ID, Done: done.Games, Total: done.Games})
		}
		return RunSummary{Run: done, Skipped: done.Games, Duplicate: true, Elapsed: time.Since(start)}, nil
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	reg := o.Registry
	if reg == nil {
		reg = env.Default
	}
	runner := o.Runner
	if runner == nil {
		runner = &PoolRunner{Registry: reg}
	}
	s := l.settings
	probe, err := reg.Make(s.Game, s.Config)
	if err != nil {
		return sum, err
	}
	spec := probe.Spec()
	ags, err := l.Agents()
	if err != nil {
		return sum, err
	}
	mm, err := newMatchmaker(o.Match, s.Seed, ags, spec.Seats, o.Target)
	if err != nil {
		return sum, err
	}
	run, resumed, next, err := l.startRun(o)
	if err != nil {
		return sum, err
	}
	sum.Run, sum.Resumed = run, resumed
	sum.Skipped = int(next - run.Start)
	end := run.Start + int64(run.Games)

	ratings, _, err := l.periodRatings()
	if err != nil {
		return sum, err
	}
	var history []GameRecord
	if o.Match == PFSP {
		if history, err = l.Games(0, next); err != nil {
			return sum, err
		}
	}
	var writer *matchdata.Writer
	if o.DataDir != "" {
		if err := os.MkdirAll(o.DataDir, 0o755); err != nil {
			return sum, fmt.Errorf("--data: %w", err)
		}
		if writer, err = matchdata.NewWriter(spec, nil); err != nil {
			return sum, fmt.Errorf("--data: %w", err)
		}
		defer writer.Release()
	}

	report := func() {
		if o.Progress != nil {
			o.Progress(Progress{Run: run.ID, Done: int(next - run.Start), Total: run.Games, Played: sum.Played, Elapsed: time.Since(start)})
		}
	}
	report()
	observed := int64(0) // PFSP: history games counted into the record
	for next < end {
		batchEnd := min(end, (next/BatchGames+1)*BatchGames)
		if o.Match == PFSP {
			cutoff := next - next%BatchGames
			for ; observed < cutoff; observed++ {
				mm.observe(history[observed].Result)
			}
		}
		matches := make([]Match, 0, batchEnd-next)
		for i := next; i < batchEnd; i++ {
			m := Match{Index: i, Seed: GameSeed(s.Seed, i), Game: s.Game, Config: s.Config, MaxRounds: run.MaxRounds, Record: writer != nil}
			for _, a := range mm.pick(i) {
				m.Seats = append(m.Seats, Entrant{Name: ags[a].Name, Spec: ags[a].Spec})
			}
			matches = append(matches, m)
		}
		// The rating period of this block starts with the games stored
		// before it that the ratings do not include yet (a resumed run).
		rated, err := l.rated()
		if err != nil {
			return sum, err
		}
		earlier, err := l.Games(rated, next)
		if err != nil {
			return sum, err
		}
		period := make([]Result, 0, BatchGames)
		for _, g := range earlier {
			period = append(period, g.Result)
		}
		done, err := l.playBatch(ctx, runner, workers, matches, writer, o.DataDir, run.ID, ratings, period, func(g []GameRecord) {
			next += int64(len(g))
			sum.Played += len(g)
			if o.Match == PFSP {
				history = append(history, g...)
			}
			report()
		})
		sum.DataFiles = append(sum.DataFiles, done...)
		if err != nil {
			sum.Elapsed = time.Since(start)
			if ctx.Err() == nil && !errors.Is(err, context.Canceled) {
				err = fmt.Errorf("run %d stopped after %d of its %d games, all %d stored (the same run resumes it): %w",
					run.ID, next-run.Start, run.Games, next-run.Start, err)
			}
			return sum, err
		}
	}
	sum.Elapsed = time.Since(start)
	return sum, nil
}

// startRun returns the run to play (a resumed one or a new one, stored)
// and the index of the next game; with o.RequestID, the run of that
// request id when there is one (next at or past its end when it finished).
func (l *League) startRun(o RunOptions) (run RunRecord, resumed bool, next int64, err error) {
	runs, err := l.Runs()
	if err != nil {
		return run, false, 0, err
	}
	if next, err = l.NumGames(); err != nil {
		return run, false, 0, err
	}
	if o.RequestID != "" {
		prev, found, err := l.runOfRequest(o.RequestID)
		if err != nil {
			return run, false, 0, err
		}
		if found {
			return l.repeatRun(prev, o, next)
		}
	}
	id := 1
	if len(runs) > 0 {
		last := runs[len(runs)-1]
		id = last.ID + 1
		if !last.Abandoned && next < last.Start+int64(last.Games) {
			switch {
			case sameRun(last, o):
				// This call's request id finds the run too.
				return last, true, next, l.putRun(last, o.RequestID)
			case !o.Fresh:
				return run, false, 0, fmt.Errorf("%w: run %d stopped after %d of %d games; finish it with `botarena league run %s %s`, or pass --fresh to abandon it",
					ErrUnfinishedRun, last.ID, next-last.Start, last.Games, l.dir, runFlags(last))
			default:
				last.Abandoned = true
				if err := l.putRun(last, ""); err != nil {
					return run, false, 0, err
				}
			}
		}
	}
	run = RunRecord{ID: id, Start: next, Games: o.Games, Match: string(o.Match), Target: o.Target, MaxRounds: o.MaxRounds, Started: time.Now().UTC(), RequestID: o.RequestID}
	return run, false, next, l.putRun(run, o.RequestID)
}

// finishedRequest returns the run of o.RequestID and ok when it has
// finished, or the error of a request id used with other options or of an
// abandoned run.
func (l *League) finishedRequest(o RunOptions) (run RunRecord, ok bool, err error) {
	if o.RequestID == "" {
		return run, false, nil
	}
	prev, found, err := l.runOfRequest(o.RequestID)
	if err != nil || !found {
		return run, false, err
	}
	n, err := l.NumGames()
	if err != nil {
		return run, false, err
	}
	run, _, next, err := l.repeatRun(prev, o, n)
	if err != nil {
		return run, false, err
	}
	return run, next >= run.Start+int64(run.Games), nil
}

// sameRun reports whether o asks for run r: the same games, matchmaking,
// target and round cap.
func sameRun(r RunRecord, o RunOptions) bool {
	return r.Games == o.Games && r.Match == string(o.Match) && r.Target == o.Target && r.MaxRounds == o.MaxRounds
}

// runFlags returns the `botarena league run` flags of r's options.
func runFlags(r RunRecord) string {
	flags := fmt.Sprintf("--games %d --match %s", r.Games, r.Match)
	if r.Target != "" {
		flags += " --target " + r.Target
	}
	if r.MaxRounds > 0 {
		flags += fmt.Sprintf(" --max-rounds %d", r.MaxRounds)
	}
	return flags
}

// repeatRun returns run, the run of o.RequestID, to play again: resumed
// when it is unfinished, with next at or past its end when it finished.
func (l *League) repeatRun(run RunRecord, o RunOptions, next int64) (RunRecord, bool, int64, error) {
	end := run.Start + int64(run.Games)
	if !sameRun(run, o) {
		return run, false, 0, invalidf("request_id %s is that of run %d (%s), started with other options; repeat them to retry that run, or use a new request_id for a new run",
			clipQuote(o.RequestID), run.ID, runFlags(run))
	}
	switch {
	case run.Abandoned:
		return run, false, 0, kindError{ErrUnfinishedRun, fmt.Errorf("request_id %s: its run %d was abandoned (a --fresh run started before it finished); use a new request_id for a new run",
			clipQuote(o.RequestID), run.ID)}
	case next >= end:
		return run, false, end, nil
	}
	// Unfinished and not abandoned: the last run, resumed.
	return run, true, next, nil
}

type played struct {
	res Result
	err error
}

// playBatch plays matches (consecutive indices, following the stored
// games, within one block of BatchGames indices) on workers goroutines and
// stores them in order, calling stored after each commit. The commit that
// stores the block's last game also closes the rating period: period (the
// unrated games stored before) and the block's games update ratings. With
// a writer, it writes the batch's data file first and stores the whole
// batch at once. It returns the data files written.
func (l *League) playBatch(ctx context.Context, runner Runner, workers int, matches []Match, writer *matchdata.Writer, dataDir string, runID int, ratings map[string]Rating, period []Result, stored func([]GameRecord)) ([]string, error) {
	bctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make([]played, len(matches))
	finished := make(chan int, len(matches))
	report := func(j int, res Result, err error) {
		results[j] = played{res, err}
		finished <- j
	}
	go func() {
		defer close(finished)
		if br, ok := runner.(BatchRunner); ok {
			br.PlayBatch(bctx, matches, workers, report)
			return
		}
		js := make([]int, len(matches))
		for j := range js {
			js[j] = j
		}
		playEach(bctx, runner, matches, js, workers, report)
	}()

	ready := make([]bool, len(matches))
	nextJ := 0
	var firstErr error
	var pending []GameRecord
	commit := func() error {
		if len(pending) == 0 {
			return nil
		}
		first := matches[0].Index
		blockEnd := first - first%BatchGames + BatchGames
		for _, g := range pending {
			period = append(period, g.Result)
		}
		var changed map[string]Rating
		if pending[len(pending)-1].Index == blockEnd-1 {
			changed = RatePeriod(ratings, period)
			period = period[:0]
		}
		if err := l.commit(pending, changed, blockEnd); err != nil {
			return fmt.Errorf("storing games %d to %d: %w", pending[0].Index, pending[len(pending)-1].Index, err)
		}
		stored(pending)
		pending = nil
		return nil
	}
	take := func(j int) {
		m, r := matches[j], results[j].res
		pending = append(pending, GameRecord{Result: r, Run: runID, Seats: m.Seats, Time: time.Now().UTC()})
	}
	// got records game j's outcome; it reports whether the game finished.
	got := func(j int) bool {
		if err := results[j].err; err != nil {
			if firstErr == nil {
				firstErr = err
				if ctx.Err() == nil && !errors.Is(err, context.Canceled) {
					firstErr = fmt.Errorf("game %d (seed %d): %w", matches[j].Index, matches[j].Seed, err)
				}
			}
			cancel()
			return false
		}
		ready[j] = true
		for writer == nil && nextJ < len(matches) && ready[nextJ] {
			take(nextJ)
			nextJ++
		}
		return true
	}
	for j := range finished {
		if !got(j) || writer != nil {
			continue
		}
		// Commit what else has finished meanwhile in the same transaction.
	drain:
		for {
			select {
			case k, ok := <-finished:
				if !ok {
					break drain
				}
				got(k)
			default:
				break drain
			}
		}
		if err := commit(); err != nil && firstErr == nil {
			firstErr = err
			cancel()
		}
	}
	if writer == nil {
		if firstErr == nil {
			firstErr = ctx.Err()
		}
		return nil, firstErr
	}
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	if firstErr != nil {
		return nil, firstErr // the batch is played again on resume
	}
	first, last := matches[0].Index, matches[len(matches)-1].Index
	path := filepath.Join(dataDir, fmt.Sprintf("games-%09d-%09d.parquet", first, last))
	for j := range matches {
		if err := writer.Append(results[j].res.Data); err != nil {
			return nil, fmt.Errorf("--data: %w", err)
		}
		take(j)
	}
	if err := writer.WriteFile(path); err != nil {
		return nil, fmt.Errorf("--data: %w", err)
	}
	return []string{path}, commit()
}

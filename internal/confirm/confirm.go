// Package confirm is the one loop that confirms candidate changes by
// re-solving: a resolver's suggestions for a conflict, its fixes of
// predicted failures and the change that lets a held-back operator move
// are each a list of candidate changes in rank order, each applied to a
// copy of the state and resolved again, kept only when the answer serves.
//
// The rule, the same for every caller:
//   - Candidates are tried in order, at most Budget.Tries of them; a
//     candidate whose try fails (no plan) or is not kept is passed over.
//   - Trying stops once Budget.Max candidates are kept, once Budget.Tries
//     were tried, or once Budget.Time has passed; none of these is an
//     error: the answer is what was kept, and with no time bound it is
//     deterministic.
//   - When the caller's context ends — before a try or during one — trying
//     stops and Run returns an error e with errors.Is(e, ctx.Err()); what
//     was kept before stays kept. A try that fails because the context
//     ended is never taken for a candidate without a plan.
package confirm

import (
	"context"
	"sync"
	"time"
)

// Budget bounds a Run. The zero value has no bound: every candidate is
// tried.
type Budget struct {
	// Max is the most candidates kept; 0 or negative: no limit.
	Max int
	// Tries is the most candidates tried; 0 or negative: no limit.
	Tries int
	// Time, when positive, bounds the time spent trying: the context given
	// to each try ends then, and trying stops. A time bound makes the
	// answer depend on the machine's speed.
	Time time.Duration
}

// Run tries the candidates in order under the budget b: try resolves one
// with the context it is given and reports whether it is kept, or an error
// when it has no answer (the candidate is then passed over). Run returns
// how many candidates were kept, and a non-nil error only when ctx ended
// first (errors.Is(err, ctx.Err())).
func Run[C any](ctx context.Context, b Budget, candidates []C, try func(ctx context.Context, c C) (bool, error)) (int, error) {
	tctx := ctx
	if b.Time > 0 {
		var cancel context.CancelFunc
		tctx, cancel = context.WithTimeout(ctx, b.Time)
		defer cancel()
	}
	kept := 0
	for i, c := range candidates {
		if (b.Max > 0 && kept >= b.Max) || (b.Tries > 0 && i >= b.Tries) {
			break
		}
		if err := ctx.Err(); err != nil {
			return kept, err
		}
		if tctx.Err() != nil {
			break // the time bound: not an error
		}
		ok, err := try(tctx, c)
		if err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil {
				return kept, ctxErr
			}
			continue
		}
		if ok {
			kept++
		}
	}
	return kept, ctx.Err()
}

// Pipelined is Run with each try split in two: solve, the costly and
// self-contained part (a re-solve), and keep, which decides with solve's
// result whether the candidate is kept (and records it). Up to workers
// solves run at once, ahead of the order, while keep is called one
// candidate at a time in candidate order, so what is tried, what is kept,
// the count and the error are Run's with try = keep after solve, whatever
// workers is; solves started ahead of a candidate that ends the run are
// cancelled and their results dropped. solve must be safe to call from
// several goroutines at once; keep is never called concurrently.
func Pipelined[C, R any](ctx context.Context, b Budget, workers int, candidates []C, solve func(ctx context.Context, c C) (R, error), keep func(c C, r R) bool) (int, error) {
	n := len(candidates)
	if b.Tries > 0 {
		n = min(n, b.Tries)
	}
	if workers <= 1 || n <= 1 {
		return Run(ctx, b, candidates[:n], func(ctx context.Context, c C) (bool, error) {
			r, err := solve(ctx, c)
			if err != nil {
				return false, err
			}
			return keep(c, r), nil
		})
	}
	tctx := ctx
	if b.Time > 0 {
		var cancel context.CancelFunc
		tctx, cancel = context.WithTimeout(ctx, b.Time)
		defer cancel()
	}
	sctx, stop := context.WithCancel(tctx)
	type result struct {
		r   R
		err error
	}
	results := make([]chan result, n)
	for i := range results {
		results[i] = make(chan result, 1)
	}
	var wg sync.WaitGroup
	defer func() { stop(); wg.Wait() }()
	next := 0 // the next candidate to start solving
	start := func() {
		i := next
		next++
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := solve(sctx, candidates[i])
			results[i] <- result{r, err}
		}()
	}
	for next < min(n, workers) {
		start()
	}
	kept := 0
	for i := range n {
		if b.Max > 0 && kept >= b.Max {
			break
		}
		if err := ctx.Err(); err != nil {
			return kept, err
		}
		if tctx.Err() != nil {
			break // the time bound: not an error
		}
		res := <-results[i]
		if next < n {
			start()
		}
		if res.err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil {
				return kept, ctxErr
			}
			continue
		}
		if keep(candidates[i], res.r) {
			kept++
		}
	}
	return kept, ctx.Err()
}

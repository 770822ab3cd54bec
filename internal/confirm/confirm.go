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

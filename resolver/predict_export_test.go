package resolver

import (
	"context"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver/predict"
)

// PredictionsOf resolves namespace and returns a function that computes
// its plan's predictions again — the predictor over state's OperatorGroups
// and CSVs, then every step's and every staying CSV's predictions — and
// returns their number: what the predictions cost a resolution, for
// BenchmarkPredictions.
func PredictionsOf(ctx context.Context, r *Resolver, namespace string, state *cluster.State) (func() int, error) {
	plan, res, _, err := r.resolve(ctx, namespace, state, nil)
	if err != nil {
		return nil, err
	}
	var bundles []*graph.Bundle
	for _, st := range plan.Steps {
		bundles = append(bundles, r.byKey[st.Catalog].pkgs[st.Package].pkg.Bundle(st.Bundle))
	}
	var stay []*instNode
	for _, u := range plan.Unchanged {
		stay = append(stay, res.byName[u.CSV])
	}
	return func() int {
		pr := predict.New(namespace, r.plat, state, nil)
		n := 0
		for _, b := range bundles {
			n += len(pr.Bundle(b))
		}
		for _, s := range stay {
			n += len(pr.CSV(s.csv))
		}
		pr.Notes()
		return n
	}, nil
}

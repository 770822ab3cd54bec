package cli

import (
	"context"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/olmv1"
	"github.com/sextantdev/sextant/resolver"
)

// providesV1 answers provides in OLM v1 terms: the catalogs are
// ClusterCatalogs of their names, available, priority 0.
func (e *env) providesV1(w *sextant.World, q resolver.APIQuery, query string, format string) error {
	found := w.V1.APIPackages(q.Matches)
	var err error
	if format != "text" {
		err = writeEncoded(e.stdout, format, found)
	} else {
		err = olmv1.WriteAPIPackagesText(e.stdout, query, found)
	}
	return answered(len(found) == 0, err)
}

// runResolveForV1 is resolve --for --olm v1 (sextant.World.ResolveForV1):
// the ClusterExtensions an application's APIs need, resolved with those of
// the manifests.
func (e *env) runResolveForV1(ctx context.Context, w *sextant.World, f *resolveFlags) error {
	app, err := w.ResolveForV1(ctx)
	if err != nil {
		return err
	}
	if f.output.value == "json" || f.output.value == "yaml" {
		err = writeEncoded(e.stdout, f.output.value, app)
	} else {
		opts := olmv1.TextOptions{Why: f.full}
		err = app.WriteText(e.stdout, opts)
		e.noteUnlisted(app.Outcome, opts)
	}
	return answered(app.Unserved() || app.Outcome.Failed(), err)
}

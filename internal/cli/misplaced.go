package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// Misplaced input: the libraries say what an input holds instead of what
// was asked for (graph.NotCatalogError, cluster.NotManifestsError); the
// command line says where it goes, in its own flags.

// advised is a problem with the command line's advice on it.
type advised struct {
	err    error
	advice string
}

func (a *advised) Error() string { return a.err.Error() + ": " + a.advice }

func (a *advised) Unwrap() error { return a.err }

// advise adds to each problem of err (joined errors each on their own) the
// advice that advice gives it, if any.
func advise(err error, advice func(error) string) error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs := j.Unwrap()
		out := make([]error, len(errs))
		for i, e := range errs {
			out[i] = advise(e, advice)
		}
		return errors.Join(out...)
	}
	if err == nil {
		return nil
	}
	if a := advice(err); a != "" {
		return &advised{err: err, advice: a}
	}
	return err
}

// manifestCommands are the commands that read manifests with -f.
var manifestCommands = []string{"sextant resolve", "sextant rollout", "sextant mirror", "sextant migrate"}

// catalogAdvice says where an input given as a catalog that is not one
// goes: manifests to -f, a bundle through opm render.
func (e *env) catalogAdvice(err error) string {
	var nc *graph.NotCatalogError
	if !errors.As(err, &nc) {
		return ""
	}
	switch nc.What {
	case graph.NotCatalogBundle:
		return fmt.Sprintf("opm render %s prints its olm.bundle blob, which a catalog holds beside its package's olm.package and olm.channel blobs", nc.Bundle)
	case graph.NotCatalogManifests:
		advice := "the cluster state goes to -f"
		if !slices.Contains(manifestCommands, e.cmdPath) {
			advice = "the cluster state goes to sextant resolve -f; " + strings.TrimPrefix(e.cmdPath, "sextant ") + " reads catalogs"
		}
		if nc.Kind == cluster.KindCSV && nc.Objects == 1 {
			advice += "; a bundle's ClusterServiceVersion becomes an olm.bundle blob with opm render of the bundle"
		}
		return advice
	}
	return ""
}

// manifestsAdvice says where a catalog given as manifests goes.
func manifestsAdvice(err error) string {
	var nm *cluster.NotManifestsError
	if errors.As(err, &nm) {
		return "give it with --catalog"
	}
	var uf *cluster.UnknownFieldError
	if errors.As(err, &uf) && (uf.Field == "spec.config" || uf.Field == "spec.progressDeadlineMinutes") {
		return "it is a field of operator-controller's experimental CRDs: --feature-set experimental"
	}
	return ""
}

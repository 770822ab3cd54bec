package resolver

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/sextantdev/sextant/graph"
)

// InvalidPackage is a catalog package with structural errors that a
// resolution reached: opm serve refuses such a catalog, so OLM never sees
// the package. Findings are the error findings of [graph.Package.Validate],
// each with its file and line.
type InvalidPackage struct {
	Catalog  CatalogKey      `json:"catalog"`
	Package  string          `json:"package"`
	Findings []graph.Finding `json:"findings"`
}

// String returns "package P of catalog NS/NAME: N structural errors
// (first: …)".
func (p InvalidPackage) String() string {
	s := fmt.Sprintf("package %q of catalog %s", p.Package, p.Catalog)
	if len(p.Findings) > 0 {
		f := p.Findings[0]
		what := "errors"
		if len(p.Findings) == 1 {
			what = "error"
		}
		s += fmt.Sprintf(": %d structural %s; first: %s%s: %s", len(p.Findings), what, where(f.Pos), f.Code, f.Message)
	}
	return s
}

// where returns "file:line: " for a known position, else "".
func where(pos graph.Position) string {
	if pos.File == "" && pos.Line == 0 {
		return ""
	}
	return pos.String() + ": "
}

// InvalidPackageError is one structural error of a package that a
// resolution reached, without Options.AllowInvalid. Resolve returns them
// joined, one per finding, each inside a *CatalogError naming the catalog,
// package, channel and bundle; errors.As finds the first.
type InvalidPackageError struct {
	Catalog CatalogKey
	Finding graph.Finding
}

// Error returns "FILE:LINE: package "P" is invalid (opm serve refuses it):
// CODE: MESSAGE". Options.AllowInvalid leaves such a package out instead.
func (e *InvalidPackageError) Error() string {
	f := e.Finding
	return fmt.Sprintf("%spackage %q is invalid (opm serve refuses it): %s: %s",
		where(f.Pos), f.Package, f.Code, f.Message)
}

// invalid returns the structural errors of the package, computed once.
func (pi *pkgIndex) invalid() []graph.Finding {
	pi.problemsOnce.Do(func() {
		for _, f := range pi.pkg.Validate() {
			if f.Severity == graph.SeverityError {
				pi.problems = append(pi.problems, f)
			}
		}
	})
	return pi.problems
}

// usable reports whether the resolution may take candidates from the
// package. An invalid package is an error, one joined error per finding,
// each prefixed with what reached the package; with AllowInvalid, the
// package is left out and recorded in res.invalidLeftOut.
func (res *resolution) usable(pi *pkgIndex, reachedBy func() string) (bool, error) {
	if res.r.opts.SkipValidation {
		return true, nil
	}
	problems := pi.invalid()
	if len(problems) == 0 {
		return true, nil
	}
	if !res.r.opts.AllowInvalid {
		errs := make([]error, len(problems))
		for i, f := range problems {
			errs[i] = fmt.Errorf("%s: %w", reachedBy(), &CatalogError{
				Catalog: pi.cat.key, Package: f.Package, Channel: f.Channel, Bundle: f.Bundle,
				Err: &InvalidPackageError{Catalog: pi.cat.key, Finding: f},
			})
		}
		return false, errors.Join(errs...)
	}
	if res.invalidLeftOut == nil {
		res.invalidLeftOut = map[*pkgIndex]bool{}
	}
	res.invalidLeftOut[pi] = true
	return false, nil
}

// excludedList returns the packages left out, by catalog then package.
func (res *resolution) excludedList() []InvalidPackage {
	var out []InvalidPackage
	for pi := range res.invalidLeftOut {
		out = append(out, InvalidPackage{Catalog: pi.cat.key, Package: pi.pkg.Name, Findings: slices.Clone(pi.invalid())})
	}
	slices.SortFunc(out, func(a, b InvalidPackage) int {
		return cmp.Or(cmp.Compare(a.Catalog.Namespace, b.Catalog.Namespace), cmp.Compare(a.Catalog.Name, b.Catalog.Name), cmp.Compare(a.Package, b.Package))
	})
	return out
}

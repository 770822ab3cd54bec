package resolver

import "fmt"

// CatalogError is a problem of a catalog that stops a resolution before it
// can solve: a channel the resolution must order has no single head (OLM
// fails the same way), or an olm.constraint it must evaluate holds a cel
// rule it cannot evaluate or compile. Callers find it with errors.As, to
// point at the catalog's source; its Error text names the catalog and the
// objects. Package is always set; Channel when the problem is a channel's,
// Bundle when it is a bundle's.
type CatalogError struct {
	Catalog CatalogKey
	Package string
	Channel string
	Bundle  string
	// Err is what is wrong.
	Err error
}

// Error returns `bundle "B" (package "P", catalog NS/NAME): ...` for a
// bundle's problem and "catalog NS/NAME: ..." for a channel's.
func (e *CatalogError) Error() string {
	if e.Bundle != "" {
		return fmt.Sprintf("bundle %q (package %q, catalog %s): %v", e.Bundle, e.Package, e.Catalog, e.Err)
	}
	return fmt.Sprintf("catalog %s: %v", e.Catalog, e.Err)
}

// Unwrap returns Err.
func (e *CatalogError) Unwrap() error { return e.Err }

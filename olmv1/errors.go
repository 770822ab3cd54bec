package olmv1

// ErrorKind says which of operator-controller's resolution errors an
// [Error] is, for callers that branch on it (errors.As, or
// ExtensionOutcome.ErrorKind in the JSON answer).
type ErrorKind string

// The kinds of [Error], in the order operator-controller meets them.
const (
	// ErrorSelector: spec.source.catalog.selector is not a valid label
	// selector (the API server accepts it; operator-controller refuses
	// the extension).
	ErrorSelector ErrorKind = "invalid-selector"
	// ErrorVersionRange: spec.source.catalog.version does not parse as a
	// version range.
	ErrorVersionRange ErrorKind = "invalid-version-range"
	// ErrorNotServed: a catalog the extension selects is not being served.
	ErrorNotServed ErrorKind = "catalog-not-served"
	// ErrorInstalledVersion: the installed bundle's version (and release)
	// does not parse, so its successors cannot be found.
	ErrorInstalledVersion ErrorKind = "invalid-installed-version"
	// ErrorNoBundle: no bundle passes the filters in any catalog.
	ErrorNoBundle ErrorKind = "no-bundle"
	// ErrorSamePriority: catalogs of the same, highest priority each hold a
	// candidate (Error.Catalogs names them).
	ErrorSamePriority ErrorKind = "same-priority"
	// ErrorBundleVersion: the chosen bundle's version does not parse.
	ErrorBundleVersion ErrorKind = "invalid-bundle-version"
	// ErrorDependency: the chosen bundle declares a dependency
	// (Error.Property), which OLM v1 does not resolve.
	ErrorDependency ErrorKind = "dependency"
)

// Error is an error of operator-controller's resolution: its message word
// for word as operator-controller writes it, with the facts a caller
// branches on.
type Error struct {
	Kind ErrorKind
	// Package is the package the extension asks for.
	Package string
	// Catalogs names the catalogs involved, sorted: for ErrorSamePriority
	// those that tie, for ErrorNotServed the catalog not served.
	Catalogs []string
	// Bundle is the chosen bundle, for ErrorBundleVersion and
	// ErrorDependency.
	Bundle string
	// Property is the dependency property type, for ErrorDependency.
	Property string

	msg string
	err error
}

// Error returns operator-controller's message.
func (e *Error) Error() string { return e.msg }

// Unwrap returns the error underneath (a parse error), if any.
func (e *Error) Unwrap() error { return e.err }

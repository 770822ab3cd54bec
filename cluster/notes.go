package cluster

// NoteCode says what a [Note] is about. Codes are stable: filter on them.
type NoteCode string

// The codes of the notes Decode gives.
const (
	// NoteNamespaceDropped: a cluster-scoped object (ClusterExtension,
	// ClusterCatalog) gave metadata.namespace, which the API server clears.
	NoteNamespaceDropped NoteCode = "namespace-dropped"
	// NoteServiceAccountIgnored: a ClusterExtension sets
	// spec.serviceAccount.name, which operator-controller ignores at the
	// release Sextant targets; the text is the API server's warning
	// ([ServiceAccountDeprecated]).
	NoteServiceAccountIgnored NoteCode = "serviceaccount-ignored"
	// NoteCatalogNameLabel: a ClusterCatalog labels itself
	// olm.operatorframework.io/metadata.name with another name; catalogd
	// sets the label to the catalog's name.
	NoteCatalogNameLabel NoteCode = "clustercatalog-name-label"
)

// Note is something Decode read that the API server or OLM's controllers
// change without a word, said once: the object and where it is.
type Note struct {
	Code NoteCode `json:"code"`
	// File and Line are where the object starts.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// Object is the object it is about.
	Object Ref    `json:"object"`
	Text   string `json:"text"`
}

// String returns the note's text.
func (n Note) String() string { return n.Text }

// isV1Kind reports whether kind is an OLM v1 kind, checked against its
// CRD as the API server checks it.
func isV1Kind(kind string) bool { return kind == KindClusterExtension || kind == KindClusterCatalog }

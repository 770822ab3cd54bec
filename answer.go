package sextant

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/internal/fileerr"
	"github.com/sextantdev/sextant/internal/textio"
	"github.com/sextantdev/sextant/olmv1"
	"github.com/sextantdev/sextant/resolver"
)

// AnswerOptions tunes the answers of a world. The zero value answers as
// `sextant resolve` does by default.
type AnswerOptions struct {
	// MaxSuggestions bounds the suggestions of a conflict and the fixes of
	// predicted failures: 0 means resolver.DefaultMaxSuggestions; a
	// negative value looks for none (and gives held-back items their
	// reasons only). Suggestions are bounded in number, not in time, so
	// that an answer depends on its input alone.
	MaxSuggestions int
}

// engineOptions are the options of the resolver's follow-ups that an
// answer asks.
type engineOptions struct {
	Explain  resolver.ExplainOptions
	HeldBack resolver.HeldBackOptions
}

// resolver returns the resolver's options of opts.
func (o AnswerOptions) resolver() engineOptions {
	n := o.MaxSuggestions
	if n == 0 {
		n = resolver.DefaultMaxSuggestions
	}
	if n < 0 {
		return engineOptions{
			Explain:  resolver.ExplainOptions{MaxSuggestions: -1, Budget: -1},
			HeldBack: resolver.HeldBackOptions{ReasonsOnly: true},
		}
	}
	return engineOptions{Explain: resolver.ExplainOptions{MaxSuggestions: n, Budget: -1}}
}

// Answer is what World.Resolve answers: the OLM v0 answer of each
// namespace resolved and the OLM v1 answer of the ClusterExtensions.
//
// Its JSON form (MarshalJSON, `sextant resolve -o json`) is a stable
// contract: for one namespace, the namespace's answer (NamespaceAnswer:
// the plan's fields, or {"namespace", "error"}) with "extensions" added
// when there are ClusterExtensions; for every namespace,
// {"namespaces": [answer, ...]} with "extensions" likewise; with only
// ClusterExtensions, {"extensions": [...]} (olmv1.Outcome).
type Answer struct {
	// Namespaces are the v0 answers, one per namespace resolved, in the
	// world's order; none when the world has only v1 objects.
	Namespaces []*NamespaceAnswer
	// Extensions is the v1 answer; nil when the manifests hold no
	// ClusterExtension.
	Extensions *olmv1.Outcome
	// Notes are what the answers say beyond the world's notes, each with
	// its Namespace: invalid packages left out (NoteExcluded), a catalog
	// given whose namespace is not visible (NoteCatalogNotVisible).
	Notes []Note

	all bool // every namespace: the JSON form lists them
	// results are the resolutions answered, in the order of Namespaces.
	results []*resolver.Resolution
	// omitAssumed: the world notes the assumed OperatorGroup (see
	// NamespaceAnswer.omitAssumed).
	omitAssumed bool
}

// No reports an answer "no": a namespace without a plan or with a
// predicted failure, or an extension without a bundle or with a
// predicted failure.
func (a *Answer) No() bool {
	for _, n := range a.Namespaces {
		if n.No() {
			return true
		}
	}
	return a.Extensions != nil && a.Extensions.Failed()
}

// MarshalJSON writes the answer's JSON form (see Answer).
func (a *Answer) MarshalJSON() ([]byte, error) {
	var ext []olmv1.ExtensionOutcome
	if a.Extensions != nil {
		ext = a.Extensions.Extensions
		if ext == nil {
			ext = []olmv1.ExtensionOutcome{}
		}
	}
	switch {
	case a.all:
		return marshal(struct {
			Namespaces []*NamespaceAnswer       `json:"namespaces"`
			Extensions []olmv1.ExtensionOutcome `json:"extensions,omitempty"`
		}{a.Namespaces, ext})
	case len(a.Namespaces) == 1:
		return marshal(struct {
			*NamespaceAnswer
			Extensions []olmv1.ExtensionOutcome `json:"extensions,omitempty"`
		}{a.Namespaces[0], ext})
	case a.Extensions != nil:
		return marshal(a.Extensions)
	}
	return []byte("{}"), nil
}

// marshal is json.Marshal without HTML escaping: an encoder that escapes
// escapes what a MarshalJSON returns, one that does not keeps it as is.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// TextOptions tunes the text renderers of a world's answers.
type TextOptions struct {
	// Full writes a conflict's whole derivation, and every bundle v1
	// passed over.
	Full bool
	// Advice, if not nil, returns what to add to a note's text (a
	// command line's advice); "" adds nothing.
	Advice func(Note) string
}

// noteText returns n's text with opts' advice.
func (opts TextOptions) noteText(n Note) string {
	if opts.Advice != nil {
		if a := opts.Advice(n); a != "" {
			return n.Text + a
		}
	}
	return n.Text
}

// WriteText writes the answer for a terminal or a CI log: each namespace's
// answer (NamespaceAnswer.WriteText; a blank line between two), the notes
// on a conflict's catalogs after its explanation, then, after a blank
// line, the v1 blocks (olmv1.Outcome.WriteText).
func (a *Answer) WriteText(w io.Writer, opts TextOptions) error {
	ew := &textio.ErrWriter{W: w}
	for i, n := range a.Namespaces {
		if i > 0 {
			io.WriteString(ew, "\n")
		}
		n.WriteText(ew, opts)
	}
	if a.Extensions != nil {
		if len(a.Namespaces) > 0 {
			io.WriteString(ew, "\n")
		}
		if ew.Err == nil {
			ew.Err = a.Extensions.WriteText(ew, olmv1.TextOptions{Why: opts.Full})
		}
	}
	return ew.Err
}

// Resolve answers the world as `sextant resolve` does: each namespace of
// Namespaces resolved (resolver.Resolver.Resolve, or ResolveAll for every
// namespace) and answered (NamespaceAnswer: the plan with its
// held-back reasons and fixes, or the explained conflict), and the
// ClusterExtensions resolved as OLM v1 does. A namespace without a plan
// is an answer, not an error: the error is that of input the resolution
// cannot use (an invalid package it reaches, a cel rule that does not
// compile, a catalog problem naming the catalog's file), or of ctx.
func (w *World) Resolve(ctx context.Context, opts AnswerOptions) (*Answer, error) {
	a := &Answer{all: w.AllNamespaces, omitAssumed: w.assumesGroups()}
	if w.Resolver != nil {
		results, err := w.resolutions(ctx)
		if err != nil {
			return nil, err
		}
		for _, res := range results {
			na, err := answerNamespace(ctx, res, opts.resolver())
			if err != nil {
				return nil, w.catalogError(err)
			}
			na.omitAssumed, na.notes = a.omitAssumed, w.answerNotes(na)
			a.Namespaces = append(a.Namespaces, na)
			a.results = append(a.results, res)
			a.Notes = append(a.Notes, na.notes...)
		}
		a.Notes = append(excludedNotes(results), a.Notes...)
	}
	if w.V1 != nil && len(w.State.ClusterExtensions) > 0 {
		res, err := w.V1.Resolve(ctx, w.State)
		if err != nil {
			return nil, err
		}
		a.Extensions = res
		a.Notes = append(a.Notes, crdUncheckedNotes(res.Unchecked)...)
		a.Notes = append(a.Notes, w.noClusterCRDsNote(res)...)
		if len(a.Namespaces) > 0 {
			a.Notes = append(a.Notes, w.heldByV1(a.Namespaces)...)
		}
	}
	return a, nil
}

// heldByV1 notes, on the v0 answers, each subscription of a namespace
// answered whose package a ClusterExtension asks for too: OLM v1 lets one
// owner hold an object (the v1 answer predicts the extension's failure).
func (w *World) heldByV1(answers []*NamespaceAnswer) []Note {
	var out []Note
	for _, na := range answers {
		for _, s := range w.State.Subscriptions {
			if s.Namespace != na.Namespace {
				continue
			}
			for _, e := range w.State.ClusterExtensions {
				if e.Package != s.Package {
					continue
				}
				who := "ClusterExtension " + e.Name + " fails on the objects the subscription's CSV owns while they are OLM v0's"
				switch {
				case s.InstalledCSV == "" && e.Installed == nil:
					who = "whichever installs second fails on the objects the other owns"
				case e.Installed != nil:
					who = "ClusterExtension " + e.Name + " is installed and holds them: OLM v0 fails on them"
				}
				out = append(out, Note{Code: NoteHeldByV1, Namespace: na.Namespace, Object: cluster.Ref{Kind: cluster.KindSubscription, Namespace: s.Namespace, Name: s.Name},
					Text: fmt.Sprintf("subscription %s/%s and ClusterExtension %s both ask for package %s, and OLM v1 lets one owner hold an object (its CRDs first): %s", s.Namespace, s.Name, e.Name, s.Package, who)})
			}
		}
	}
	return out
}

// Resolution returns the resolution of namespace ns that the answer
// answers, to ask it what follows (its InstallPlan, the state after its
// plan, …); nil when the answer has no such namespace.
func (a *Answer) Resolution(ns string) *resolver.Resolution {
	for i, n := range a.Namespaces {
		if n.Namespace == ns {
			return a.results[i]
		}
	}
	return nil
}

// resolutions resolves the world's namespaces: every one in order
// (ResolveAll), or the one chosen.
func (w *World) resolutions(ctx context.Context) ([]*resolver.Resolution, error) {
	if w.AllNamespaces {
		results, err := w.Resolver.ResolveAll(ctx, w.State)
		if err != nil {
			return nil, err
		}
		if len(results) == 0 {
			return nil, &NamespaceError{}
		}
		return results, nil
	}
	res, err := w.Resolver.Resolve(ctx, w.Namespaces[0], w.State)
	if err != nil && res == nil {
		return nil, w.catalogError(err)
	}
	return []*resolver.Resolution{res}, nil
}

// assumesGroups reports whether the world assumes the OperatorGroup of a
// namespace it resolves (and says so in a note).
func (w *World) assumesGroups() bool {
	return slices.ContainsFunc(w.OperatorGroups, OperatorGroupFact.Assumed)
}

// catalogError makes an error of a resolution about a catalog (a
// *resolver.CatalogError: a channel with no single head to order, an
// olm.constraint it cannot evaluate) name the file of that catalog.
func (w *World) catalogError(err error) error {
	var ce *resolver.CatalogError
	if !errors.As(err, &ce) {
		return err
	}
	for _, c := range w.Catalogs {
		if c.Key == ce.Catalog {
			return fileerr.Name(err, c.Origin.Path)
		}
	}
	return err
}

// answerNotes are the notes on a namespace's answer: a subscription's
// catalog that was given but is not visible from the namespace, which
// usually means that the global namespace is wrong.
func (w *World) answerNotes(a *NamespaceAnswer) []Note {
	if a.Error == nil || a.Error.Explanation == nil {
		return nil
	}
	var out []Note
	seen := map[resolver.CatalogKey]bool{}
	for _, f := range a.Error.Explanation.Facts {
		k := f.Catalog
		if f.Kind != resolver.FactNoCatalog || seen[k] || !w.hasCatalog(k) || k.Namespace == a.Namespace || k.Namespace == w.GlobalNamespace {
			continue
		}
		seen[k] = true
		out = append(out, Note{Code: NoteCatalogNotVisible, Namespace: a.Namespace, Catalog: k,
			Text: fmt.Sprintf("catalog %s is given, but its namespace is neither %s nor the global namespace %s", k, a.Namespace, w.GlobalNamespace)})
	}
	return out
}

// hasCatalog reports whether the world has the catalog of key k.
func (w *World) hasCatalog(k resolver.CatalogKey) bool {
	return slices.ContainsFunc(w.Catalogs, func(c Catalog) bool { return c.Key == k })
}

// excludedNotes notes, each once, the invalid packages that resolutions
// left out (Options.AllowInvalid): those of the plans and of the
// conflicts.
func excludedNotes(results []*resolver.Resolution) []Note {
	var excluded []resolver.InvalidPackage
	for _, r := range results {
		if p := r.Plan(); p != nil {
			excluded = append(excluded, p.Excluded...)
		}
		if c := r.Conflict(); c != nil {
			excluded = append(excluded, c.Excluded...)
		}
	}
	return excludedOnce(excluded)
}

// excludedOnce returns a note per invalid package, each once.
func excludedOnce(excluded []resolver.InvalidPackage) []Note {
	var out []Note
	seen := map[string]bool{}
	for _, x := range excluded {
		if s := x.String(); !seen[s] {
			seen[s] = true
			out = append(out, Note{Code: NoteExcluded, Text: "left out invalid " + s})
		}
	}
	return out
}

package sextant

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/olmv1"
	"github.com/sextantdev/sextant/resolver"
)

// WhyAnswer is what World.Why answers: for OLM v0, why a package, bundle
// or subscription is in the namespace's plan as it is, or why not
// (resolver.Why) — or, when the namespace has no plan, the explained
// conflict; for OLM v1, the named ClusterExtension's answer with every
// bundle passed over. One of Why, NoPlan and Extension is set.
//
// Its JSON form is that of the one set: resolver.Why's, NamespaceAnswer's
// or olmv1.Outcome's (holding the one extension).
type WhyAnswer struct {
	Why       *resolver.Why
	NoPlan    *NamespaceAnswer
	Extension *olmv1.Outcome
	// Notes are the answer's notes (as Answer.Notes).
	Notes []Note
}

// UnknownExtensionError is a name World.Why asks about that no
// ClusterExtension has, in a world of OLM v1 objects only.
type UnknownExtensionError struct {
	Name string
	// Extensions are the names of the extensions, sorted.
	Extensions []string
}

func (e *UnknownExtensionError) Error() string {
	return fmt.Sprintf("%q: no ClusterExtension of that name (extensions: %s)", e.Name, strings.Join(e.Extensions, ", "))
}

// Why answers why name is in the world's plan as it is, or why not: a
// package, bundle or subscription of the namespace (resolver.Resolution.Why,
// v0), or, in a world of OLM v1 objects only, a ClusterExtension (its
// answer with every bundle passed over; *UnknownExtensionError for a name
// no extension has). With no plan, the answer is the explained conflict.
// It needs exactly one namespace for v0.
func (w *World) Why(ctx context.Context, name string, opts AnswerOptions) (*WhyAnswer, error) {
	if w.Resolver == nil {
		return w.whyV1(ctx, name)
	}
	if len(w.Namespaces) != 1 || w.AllNamespaces {
		return nil, &InputError{Field: "Namespaces", Value: strings.Join(w.Namespaces, ", "), Err: fmt.Errorf("why is asked of one namespace")}
	}
	ns := w.Namespaces[0]
	res, err := w.Resolver.Resolve(ctx, ns, w.State)
	if err != nil && res == nil {
		return nil, w.catalogError(err)
	}
	a := &WhyAnswer{Notes: excludedNotes([]*resolver.Resolution{res})}
	if res.Conflict() != nil {
		ex, err := res.Explain(ctx, opts.resolver().Explain)
		if err != nil {
			return nil, err
		}
		a.NoPlan = &NamespaceAnswer{Namespace: ns, Error: noPlanOf(ex)}
		a.NoPlan.notes = w.answerNotes(a.NoPlan)
		a.Notes = append(a.Notes, a.NoPlan.notes...)
		return a, nil
	}
	why, err := res.Why(ctx, name, resolver.WhyOptions{})
	if err != nil {
		return nil, w.catalogError(err)
	}
	a.Why = why
	return a, nil
}

// whyV1 is Why of a world of OLM v1 objects only.
func (w *World) whyV1(ctx context.Context, name string) (*WhyAnswer, error) {
	out, err := w.V1.Resolve(ctx, w.State)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(out.Extensions, func(x olmv1.ExtensionOutcome) bool { return x.Name == name })
	if i < 0 {
		e := &UnknownExtensionError{Name: name}
		for _, x := range out.Extensions {
			e.Extensions = append(e.Extensions, x.Name)
		}
		slices.Sort(e.Extensions)
		return nil, e
	}
	out.Extensions = out.Extensions[i : i+1]
	return &WhyAnswer{Extension: out}, nil
}

// No reports an answer "no": the namespace has no plan, or the extension
// has no bundle or a predicted failure.
func (a *WhyAnswer) No() bool {
	return a.NoPlan != nil || (a.Extension != nil && a.Extension.Failed())
}

// MarshalJSON writes the JSON form of the answer set (see WhyAnswer).
func (a *WhyAnswer) MarshalJSON() ([]byte, error) {
	switch {
	case a.Why != nil:
		return marshal(a.Why)
	case a.NoPlan != nil:
		return marshal(a.NoPlan)
	}
	return marshal(a.Extension)
}

// WriteText writes the answer: resolver.Why's short text (its Full text
// with opts.Full), or the explained conflict as Resolve writes it, or
// the extension's answer with every bundle passed over.
func (a *WhyAnswer) WriteText(w io.Writer, opts TextOptions) error {
	switch {
	case a.Why != nil:
		s := a.Why.String()
		if opts.Full {
			s = a.Why.Full()
		}
		_, err := io.WriteString(w, s)
		return err
	case a.NoPlan != nil:
		return a.NoPlan.WriteText(w, opts)
	}
	return a.Extension.WriteText(w, olmv1.TextOptions{Why: true})
}

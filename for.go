package sextant

import (
	"context"
	"errors"
	"fmt"
	"io"

	"sigs.k8s.io/yaml"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/textio"
	"github.com/sextantdev/sextant/internal/words"
	"github.com/sextantdev/sextant/olmv1"
	"github.com/sextantdev/sextant/resolver"
)

// ForAnswer is what World.ResolveFor answers: what serves each API of the
// application (resolver.Application: the subscriptions to create), and
// the namespace's answer once they are added — or, when an API has no
// provider the namespace can see, Unserved.
//
// Its JSON form is resolver.Application's with "plan" (the plan, with its
// held-back reasons and fixes) and "error" (why there is none) set from
// the namespace's answer.
type ForAnswer struct {
	Application *resolver.Application
	// Answer is the answer for the namespace with the new subscriptions;
	// nil when Unserved.
	Answer *NamespaceAnswer
	// Unserved says which APIs nothing the namespace can see provides.
	Unserved *resolver.UnservedError
	// Notes are the answer's notes (as Answer.Notes).
	Notes []Note
}

// ResolveFor answers what the application (Input.For) needs in the
// world's namespace as OLM v0 would serve it (resolver.Resolver.ResolveFor:
// a subscription per API no installed CSV or subscription serves, chosen
// with the dependency preference), and answers the namespace with them as
// Resolve does.
func (w *World) ResolveFor(ctx context.Context, opts AnswerOptions) (*ForAnswer, error) {
	if w.Resolver == nil || len(w.Namespaces) != 1 || len(w.Application) == 0 {
		return nil, &InputError{Field: "For", Err: errors.New("an application's manifests and one namespace are needed")}
	}
	app, err := w.Resolver.ResolveFor(ctx, w.Namespaces[0], w.State, w.Application)
	var unserved *resolver.UnservedError
	switch {
	case errors.As(err, &unserved):
		return &ForAnswer{Application: app, Unserved: unserved}, nil
	case err != nil && (app == nil || app.Resolution == nil):
		return nil, w.catalogError(err)
	}
	a := &ForAnswer{Application: app}
	a.Answer, err = answerNamespace(ctx, app.Resolution, opts.resolver())
	if err != nil {
		return nil, w.catalogError(err)
	}
	a.Answer.omitAssumed, a.Answer.notes = w.assumesGroups(), w.answerNotes(a.Answer)
	a.Notes = append(excludedNotes([]*resolver.Resolution{app.Resolution}), a.Answer.notes...)
	return a, nil
}

// No reports an answer "no": an API nothing provides, or no plan, or a
// plan OLM is predicted to fail.
func (a *ForAnswer) No() bool { return a.Unserved != nil || a.Answer.No() }

// MarshalJSON writes the answer's JSON form (see ForAnswer).
func (a *ForAnswer) MarshalJSON() ([]byte, error) {
	v := struct {
		*resolver.Application
		Plan  *resolver.Plan `json:"plan,omitempty"`
		Error *NoPlan        `json:"error,omitempty"`
	}{Application: a.Application, Plan: a.Application.Plan}
	if a.Answer != nil {
		v.Plan, v.Error = a.Answer.Plan, a.Answer.Error
	}
	return marshal(v)
}

// WriteText writes what serves each API (resolver.Application.WriteText),
// then the namespace's answer (as Resolve writes it), or that nothing
// provides the APIs left.
func (a *ForAnswer) WriteText(w io.Writer, opts TextOptions) error {
	ew := &textio.ErrWriter{W: w}
	a.Application.WriteText(ew)
	if a.Unserved != nil {
		fmt.Fprintf(ew, "no plan: nothing the namespace can see provides %s\n", words.Plural(len(a.Unserved.Kinds), "API"))
		return ew.Err
	}
	if ew.Err == nil {
		ew.Err = a.Answer.WriteText(ew, opts)
	}
	return ew.Err
}

// WriteSubscriptions writes the subscriptions to create as Kubernetes
// manifests, one YAML document each, ready for kubectl apply; a comment
// when there is none.
func (a *ForAnswer) WriteSubscriptions(w io.Writer) error {
	subs := a.Application.Subscriptions
	if len(subs) == 0 {
		_, err := fmt.Fprintln(w, "# no subscription to create")
		return err
	}
	for i, s := range subs {
		spec := map[string]any{"name": s.Package, "installPlanApproval": "Automatic"}
		if s.Channel != "" {
			spec["channel"] = s.Channel
		}
		if s.Source != "" {
			spec["source"], spec["sourceNamespace"] = s.Source, s.SourceNamespace
		}
		m := map[string]any{
			"apiVersion": "operators.coreos.com/v1alpha1",
			"kind":       cluster.KindSubscription,
			"metadata":   map[string]any{"name": s.Name, "namespace": s.Namespace},
			"spec":       spec,
		}
		if i > 0 {
			if _, err := io.WriteString(w, "---\n"); err != nil {
				return err
			}
		}
		y, err := yaml.Marshal(m)
		if err != nil {
			return err
		}
		if _, err := w.Write(y); err != nil {
			return err
		}
	}
	return nil
}

// ResolveForV1 answers what the application (Input.For) needs as OLM v1
// would serve it: the ClusterExtensions that provide its APIs (those not
// built into Kubernetes), resolved with those of the manifests
// (olmv1.Resolver.ExtensionsForAPIs).
func (w *World) ResolveForV1(ctx context.Context) (*olmv1.APIExtensions, error) {
	if w.V1 == nil || len(w.Application) == 0 {
		return nil, &InputError{Field: "For", Err: errors.New("an application's manifests are needed")}
	}
	var apis []graph.GVK
	for _, o := range w.Application {
		if g := o.GVK(); resolver.BuiltInSource(g) == "" {
			apis = append(apis, g)
		}
	}
	return w.V1.ExtensionsForAPIs(ctx, w.State, apis)
}

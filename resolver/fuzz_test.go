package resolver_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

// FuzzResolve resolves arbitrary cluster manifests against a small catalog:
// Resolve must not panic, and must give the same answer twice; so must
// HeldBack, and Why must answer for every step with its bundle.
func FuzzResolve(f *testing.F) {
	f.Add([]byte(`apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: app, namespace: ns}
spec: {name: app, channel: stable, source: community, sourceNamespace: olm}
`))
	f.Add([]byte(`apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: etcd.v1
  namespace: ns
  annotations:
    operatorframework.io/properties: '{"properties":[{"type":"olm.package","value":{"packageName":"etcd","version":"0.1.0"}},{"type":"olm.gvk.required","value":{"group":"example.com","version":"v1","kind":"Widget"}}]}'
spec:
  version: 0.1.0
  customresourcedefinitions:
    owned: [{name: gadgets.example.com, version: v1, kind: Gadget}]
---
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: etcd, namespace: ns}
spec: {name: etcd, channel: alpha}
status: {installedCSV: etcd.v1}
`))
	c := etcdCatalog()
	c.Package("app", "stable").Bundle("app.v1.0.0", "1.0.0").RequiresGVK("example.com", "v1", "Widget")
	c.Package("widgets", "stable").Bundle("widgets.v1.0.0", "1.0.0").Provides("example.com", "v1", "Widget").RequiresLabel("x")
	c.Package("labels", "stable").Bundle("labels.v1.0.0", "1.0.0").Label("x")
	c.Package("gadgets", "stable").Bundle("gadgets.v1.0.0", "1.0.0").Provides("example.com", "v1", "Gadget").
		Constraint(`{"any":{"constraints":[{"package":{"packageName":"etcd","versionRange":">=0.2.0"}},{"not":{"constraints":[{"gvk":{"group":"example.com","version":"v1","kind":"Widget"}}]}}]}}`)
	r := resolvertest.NewResolver(f, resolver.Options{}, c)
	f.Fuzz(func(t *testing.T, data []byte) {
		state, err := cluster.Decode(bytes.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		p1Res, err1 := r.Resolve(context.Background(), "ns", state)
		p2Res, err2 := r.Resolve(context.Background(), "ns", state)
		if (err1 == nil) != (err2 == nil) || (err1 != nil && err1.Error() != err2.Error()) {
			t.Fatalf("two resolutions differ: %v / %v", err1, err2)
		}
		if err1 != nil {
			return
		}
		p1, p2 := p1Res.Plan(), p2Res.Plan()
		if p1.String() != p2.String() {
			t.Fatalf("two resolutions differ:\n%v\n%v", p1, p2)
		}
		// Held-back reasons and Why: no panic, no error on a namespace
		// that resolves, the same answer twice.
		ctx := context.Background()
		opts := resolver.HeldBackOptions{MaxTries: 2}
		if p1, err = p1Res.HeldBack(ctx, opts); err != nil {
			t.Fatalf("HeldBack: %v", err)
		}
		if p2, err = p2Res.HeldBack(ctx, opts); err != nil {
			t.Fatalf("HeldBack: %v", err)
		}
		if p1.String() != p2.String() {
			t.Fatalf("two held-back explanations differ:\n%s\n%s", p1, p2)
		}
		for _, st := range p1.Steps {
			w, err := whyOf(ctx, r, "ns", state, st.Bundle, resolver.WhyOptions{})
			if err != nil || w.Selected == nil || w.Selected.Bundle != st.Bundle {
				t.Fatalf("Why(%q) = %+v, %v: want the step's bundle", st.Bundle, w, err)
			}
		}
	})
}

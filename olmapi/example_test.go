package olmapi_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/blang/semver/v4"
	operatorsv1 "github.com/operator-framework/api/pkg/operators/v1"
	operatorsv1alpha1 "github.com/operator-framework/api/pkg/operators/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/olmapi"
	"github.com/sextantdev/sextant/resolver"
)

// catalogFBC is a small File-Based Catalog: etcd 0.9.0 → 0.9.2 → 0.9.4 on
// channel alpha. A controller would load its catalog once, with
// graph.LoadFile or graph.Decode on what its CatalogSource serves.
const catalogFBC = `{"schema":"olm.package","name":"etcd","defaultChannel":"alpha"}
{"schema":"olm.channel","package":"etcd","name":"alpha","entries":[
 {"name":"etcdoperator.v0.9.0"},
 {"name":"etcdoperator.v0.9.2","replaces":"etcdoperator.v0.9.0"},
 {"name":"etcdoperator.v0.9.4","replaces":"etcdoperator.v0.9.2"}]}
{"schema":"olm.bundle","name":"etcdoperator.v0.9.0","package":"etcd","image":"quay.io/example/etcd:v0.9.0","properties":[{"type":"olm.package","value":{"packageName":"etcd","version":"0.9.0"}}]}
{"schema":"olm.bundle","name":"etcdoperator.v0.9.2","package":"etcd","image":"quay.io/example/etcd:v0.9.2","properties":[{"type":"olm.package","value":{"packageName":"etcd","version":"0.9.2"}}]}
{"schema":"olm.bundle","name":"etcdoperator.v0.9.4","package":"etcd","image":"quay.io/example/etcd:v0.9.4","properties":[{"type":"olm.package","value":{"packageName":"etcd","version":"0.9.4"}}]}
`

// lister stands for a controller's informer caches: typed objects with an
// empty TypeMeta, as listers return them.
type lister struct {
	csvs []*operatorsv1alpha1.ClusterServiceVersion
	subs []*operatorsv1alpha1.Subscription
	ogs  []*operatorsv1.OperatorGroup
}

func newLister() *lister {
	installed := &operatorsv1alpha1.ClusterServiceVersion{ObjectMeta: metav1.ObjectMeta{Namespace: "operators", Name: "etcdoperator.v0.9.2"}}
	installed.Spec.Version.Version = semver.MustParse("0.9.2")
	installed.Status.Phase = operatorsv1alpha1.CSVPhaseSucceeded
	return &lister{
		csvs: []*operatorsv1alpha1.ClusterServiceVersion{installed},
		subs: []*operatorsv1alpha1.Subscription{{
			ObjectMeta: metav1.ObjectMeta{Namespace: "operators", Name: "etcd"},
			Spec:       &operatorsv1alpha1.SubscriptionSpec{Package: "etcd", Channel: "alpha", CatalogSource: "community", CatalogSourceNamespace: "olm"},
			Status:     operatorsv1alpha1.SubscriptionStatus{InstalledCSV: "etcdoperator.v0.9.2", CurrentCSV: "etcdoperator.v0.9.2"},
		}},
		ogs: []*operatorsv1.OperatorGroup{{ObjectMeta: metav1.ObjectMeta{Namespace: "operators", Name: "global-operators"}}},
	}
}

// Example is a controller-shaped loop: on each reconcile of a namespace,
// list the typed objects, convert them, resolve, and act on the plan (here
// the typed InstallPlan OLM would create, and each step) — or on the
// explanation when there is none.
func Example() {
	cat, err := graph.Decode(strings.NewReader(catalogFBC), "community.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	// Index the catalogs once; the resolver is safe for concurrent use by
	// every reconcile.
	r, err := resolver.New([]resolver.Catalog{{Key: resolver.CatalogKey{Namespace: "olm", Name: "community"}, Catalog: cat}}, resolver.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	reconcile := func(ctx context.Context, ns string, l *lister) error {
		state, err := olmapi.State(olmapi.Objects{CSVs: l.csvs, Subscriptions: l.subs, OperatorGroups: l.ogs})
		if err != nil {
			return err // every problem, each naming the object and field
		}
		res, err := r.Resolve(ctx, ns, state)
		var conflict *resolver.ConflictError
		if errors.As(err, &conflict) {
			fmt.Println("no plan:", conflict.Explanation().Verdict.Text) // e.g. an event on the subscription
			return nil
		}
		if err != nil {
			return err
		}
		// The objects OLM would create, typed: a dry run to compare with
		// what OLM does, or to create.
		ip, err := res.InstallPlan()
		if err != nil {
			return err
		}
		plan := res.Plan()
		installPlan, subs, err := olmapi.InstallPlanObjects(ip)
		if err != nil {
			return err
		}
		if installPlan != nil {
			fmt.Printf("InstallPlan %s* (%s) installs %v; %d dependency subscriptions\n",
				installPlan.GenerateName, installPlan.Spec.Approval, installPlan.Spec.ClusterServiceVersionNames, len(subs))
		}
		for _, step := range plan.Steps {
			switch {
			case step.Dependency:
				fmt.Printf("create subscription for %s (%s)\n", step.Package, step.Bundle)
			case step.Action == resolver.ActionUpgrade:
				fmt.Printf("upgrade %s -> %s (catalog %s)\n", step.Replaces, step.Bundle, step.Catalog)
			default:
				fmt.Printf("install %s\n", step.Bundle)
			}
		}
		return nil
	}
	if err := reconcile(context.Background(), "operators", newLister()); err != nil {
		fmt.Println(err)
	}
	// Output:
	// InstallPlan install-* (Automatic) installs [etcdoperator.v0.9.4]; 0 dependency subscriptions
	// upgrade etcdoperator.v0.9.2 -> etcdoperator.v0.9.4 (catalog olm/community)
}

// Example_world answers a reconcile as `sextant resolve` answers the same
// objects: the world built from the converted state and the catalogs
// loaded once (a catalog's identity and priority from its CatalogSource,
// the OperatorGroups OLM's annotations name, the notes) and asked. Building
// it costs a few milliseconds with the community index: the catalogs are
// indexed again, and the state is the reconcile's own.
func Example_world() {
	cat, err := graph.Decode(strings.NewReader(catalogFBC), "community.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	catalogs := []sextant.CatalogInput{{Name: "community", Namespace: "olm", Catalog: cat}}
	reconcile := func(ctx context.Context, ns string, l *lister) error {
		state, err := olmapi.State(olmapi.Objects{CSVs: l.csvs, Subscriptions: l.subs, OperatorGroups: l.ogs})
		if err != nil {
			return err
		}
		w, err := sextant.Load(ctx, sextant.Input{State: state, Catalogs: catalogs, Namespace: ns}, sextant.Options{})
		if err != nil {
			return err // typed, naming the object: *sextant.SourceError, …
		}
		a, err := w.Resolve(ctx, sextant.AnswerOptions{})
		if err != nil {
			return err
		}
		na := a.Namespaces[0]
		if na.Plan == nil {
			fmt.Println("no plan:", na.Error.Message) // the explained conflict: na.Error.Explanation
			return nil
		}
		ip, err := a.Resolution(ns).InstallPlan() // what OLM would create
		if err != nil {
			return err
		}
		fmt.Printf("%d step(s), answer no: %v, InstallPlan for %v\n", len(na.Plan.Steps), a.No(), ip.CSVNames)
		return nil
	}
	if err := reconcile(context.Background(), "operators", newLister()); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 1 step(s), answer no: false, InstallPlan for [etcdoperator.v0.9.4]
}

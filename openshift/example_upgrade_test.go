package openshift_test

import (
	"context"
	"fmt"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/openshift"
)

// A cluster's update planned as sextant cluster-upgrade plans it: the
// world is built from the cluster's objects (every namespace) and its
// catalog now, the catalog at 4.17 is given; the plan says what blocks
// the update, what lifts it, and what a person must decide.
func ExampleUpgrade() {
	ctx := context.Background()
	w, err := sextant.Load(ctx, sextant.Input{
		Manifests:     []sextant.File{{Path: "../testdata/ocp/blockers/cluster-4.16.yaml"}},
		Catalogs:      []sextant.CatalogInput{{Name: "community-operators", Path: "../testdata/ocp/blockers/catalog.yaml"}},
		AllNamespaces: true,
	}, sextant.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := openshift.Upgrade(ctx, w, openshift.WorldOptions{
		Options:  openshift.Options{Target: openshift.Minor{Major: 4, Minor: 17}},
		Catalogs: []openshift.MinorCatalog{{Minor: openshift.Minor{Major: 4, Minor: 17}, Name: "community-operators", Path: "../testdata/ocp/blockers/catalog.yaml"}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range p.Hops[0].Lifts {
		fmt.Printf("%s/%s: %s\n", l.Blocker.Namespace, l.Blocker.Name, l.Kind)
	}
	for _, a := range p.Actions {
		fmt.Printf("%s: %s (decision: %v)\n", a.When, a.Kind, a.Decision)
	}
	fmt.Println(p.Verdict())
	// Output:
	// c/bad.v1: upgrade
	// a/old.v1: none
	// b/ch.v1.0: switch-channel
	// e/lonely.v1: none
	// before 4.16 -> 4.17: approve (decision: false)
	// before 4.16 -> 4.17: decide (decision: true)
	// before 4.16 -> 4.17: switch-channel (decision: false)
	// before 4.16 -> 4.17: approve (decision: false)
	// before 4.16 -> 4.17: decide (decision: true)
	// 4.16 -> 4.17: update (decision: false)
	// 4.17 needs a person's decision (2 decisions)
}

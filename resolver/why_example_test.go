package resolver_test

import (
	"context"
	"fmt"

	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

// exampleHeldBack is the resolver and the state of heldByRange: an
// installed db-operator 1.5.0 whose successor 2.0.0 a new subscription's
// requirement (<2.0.0) excludes.
func exampleHeldBack() (*resolver.Resolver, *resolvertest.State) {
	cats, state := heldByRange()
	rc, err := cats[0].Build()
	if err != nil {
		panic(err)
	}
	return newExampleResolver(rc.Catalog), state
}

// HeldBack says why an operator stays below its channel head, and the
// change, re-solved and confirmed, that lets it move.
func ExampleResolution_HeldBack() {
	r, state := exampleHeldBack()
	ctx := context.Background()
	res, err := r.Resolve(ctx, "operators", state.State())
	if err != nil {
		fmt.Println(err)
		return
	}
	plan, err := res.HeldBack(ctx, resolver.HeldBackOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, u := range plan.Unchanged {
		if h := u.HeldBack; h != nil {
			fmt.Println(h.Reason)
			fmt.Println("moves with:", h.Change.Change)
		}
	}
	// Output:
	// db-operator stays at 1.5.0: its next version 2.0.0 (db-operator.v2.0.0) is excluded because app.v1.0.0 requires db-operator <2.0.0 (olm.package.required)
	// moves with: remove subscription app
}

// Why answers for a package, a bundle or a subscription: what put it in the
// plan and what it passed over, or why it is not there.
func ExampleResolution_Why() {
	r, state := exampleHeldBack()
	ctx := context.Background()
	res, err := r.Resolve(ctx, "operators", state.State())
	if err != nil {
		fmt.Println(err)
		return
	}
	w, err := res.Why(ctx, "db-operator.v2.0.0", resolver.WhyOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(w)
	// Output:
	// db-operator.v2.0.0 is not in the plan
	//   db-operator.v2.0.0 is a candidate (channel stable, catalog olm/community) but is not chosen
	//   it is excluded because app.v1.0.0 requires db-operator <2.0.0 (olm.package.required)
}

// Command resolve resolves a subscription against the community operator
// catalog shipped in testdata and prints the plan. Run it from the
// repository root:
//
//	go run ./examples/resolve
//	go run ./examples/resolve -package kuadrant-operator
//	go run ./examples/resolve -package etcd -installed etcdoperator.v0.9.2 -rollout
//
// With -installed, the named bundle is taken as already installed (as OLM
// would have installed it) and the subscription's installedCSV; with
// -rollout, resolution is repeated until nothing changes, hop by hop.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/sextantdev/sextant/celrule"
	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

func main() {
	catalogPath := flag.String("catalog", "testdata/catalogs/community-operators-prod.v4.20-index.json.gz", "FBC catalog `file` (JSON or YAML, optionally gzip-compressed)")
	pkg := flag.String("package", "etcd", "package to subscribe to")
	channel := flag.String("channel", "", "channel (empty: the default channel first, then the others)")
	installed := flag.String("installed", "", "bundle `name` already installed for the subscription")
	rollout := flag.Bool("rollout", false, "repeat resolution until nothing changes")
	flag.Parse()
	if err := run(*catalogPath, *pkg, *channel, *installed, *rollout); err != nil {
		fmt.Fprintln(os.Stderr, "resolve:", err)
		os.Exit(1)
	}
}

func run(catalogPath, pkg, channel, installed string, rollout bool) error {
	gc, err := graph.LoadFile(catalogPath)
	if err != nil {
		return err
	}
	key := resolver.CatalogKey{Namespace: "olm", Name: "community-operators"}
	r, err := resolver.New([]resolver.Catalog{{Key: key, Catalog: gc}}, resolver.Options{CEL: celrule.New()})
	if err != nil {
		return err
	}
	const ns = "operators"
	sub := cluster.Subscription{Name: pkg, Namespace: ns, Package: pkg, Channel: channel, Source: key.Name, SourceNamespace: key.Namespace}
	state := &cluster.State{}
	if installed != "" {
		b := gc.Bundle(graph.BundleRef{Package: pkg, Name: installed})
		if b == nil {
			return fmt.Errorf("package %q has no bundle %q", pkg, installed)
		}
		state.CSVs = append(state.CSVs, cluster.CSV{
			Name: b.Name, Namespace: ns, Version: b.Version, VersionText: b.VersionText,
			Provides: b.Provides, Requires: b.RequiresGVK, Properties: cluster.PropertiesOf(b), Phase: cluster.CSVPhaseSucceeded,
		})
		sub.InstalledCSV, sub.CurrentCSV = b.Name, b.Name
	}
	state.Subscriptions = append(state.Subscriptions, sub)

	ctx := context.Background()
	if !rollout {
		planRes, err := r.Resolve(ctx, ns, state)
		if err != nil {
			return explain(err)
		}
		plan := planRes.Plan()
		fmt.Print(plan)
		return nil
	}
	ro, err := r.Rollout(ctx, ns, state, resolver.RolloutOptions{MaxRounds: 100})
	if err != nil && ro == nil {
		return err // no rollout at all: the context ended
	}
	for i, round := range ro.Rounds {
		fmt.Printf("round %d — %s", i+1, round.Plan)
	}
	if err != nil {
		return explain(err)
	}
	if len(ro.Rounds) == 0 {
		fmt.Println("nothing to do")
	}
	return nil
}

// explain prints a conflict fact by fact.
func explain(err error) error {
	var conflict *resolver.ConflictError
	if !errors.As(err, &conflict) {
		return err
	}
	fmt.Printf("no plan for namespace %s:\n", conflict.Namespace)
	for _, f := range conflict.Facts {
		fmt.Printf("  - %s\n", &f)
	}
	return errors.New("resolution failed")
}

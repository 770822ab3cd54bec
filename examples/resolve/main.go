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

	"github.com/sextantdev/sextant"
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
	ctx := context.Background()
	gc, err := graph.LoadFile(catalogPath)
	if err != nil {
		return err
	}
	const ns = "operators"
	sub := cluster.Subscription{Name: pkg, Namespace: ns, Package: pkg, Channel: channel, Source: "community-operators", SourceNamespace: "olm"}
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

	// The world of the catalog, loaded, and the state built above: the
	// catalog takes the name the subscription names, in its namespace.
	w, err := sextant.Load(ctx, sextant.Input{
		Catalogs: []sextant.CatalogInput{{Name: "community-operators", Path: catalogPath, Catalog: gc}},
		State:    state,
	}, sextant.Options{CEL: celrule.New()})
	if err != nil {
		return err // every problem of the input, each naming what it is about
	}
	if !rollout {
		a, err := w.Resolve(ctx, sextant.AnswerOptions{})
		if err != nil {
			return err // input the resolution cannot use: there is no answer
		}
		if err := a.WriteText(os.Stdout, sextant.TextOptions{}); err != nil {
			return err
		}
		if a.No() {
			return errors.New("no plan, or OLM is predicted to fail it")
		}
		return nil
	}
	ro, err := w.Rollout(ctx, resolver.RolloutOptions{MaxRounds: 100}, sextant.AnswerOptions{})
	if err != nil {
		return err
	}
	if err := ro.WriteText(os.Stdout, sextant.TextOptions{}); err != nil {
		return err
	}
	if ro.No() {
		return errors.New("the rollout does not settle")
	}
	return nil
}

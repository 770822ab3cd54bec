package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/textio"
	"github.com/sextantdev/sextant/olmv1"
	"github.com/sextantdev/sextant/resolver"
)

// v1Input is what resolve needs for the ClusterExtensions of the
// manifests.
type v1Input struct {
	res   *olmv1.Resolver
	state *cluster.State
}

// loadV1 builds the v1 resolver of the catalogs given, each the
// ClusterCatalog of its name: the ClusterCatalog objects of the manifests
// give labels, priority and availability. A ClusterCatalog with no
// catalog of its name is an error; what is assumed is noted.
func (e *env) loadV1(f *resolveFlags, state *cluster.State, cats []resolver.Catalog, specs []catalogSpec, files map[objectKey]string) (*v1Input, error) {
	known := map[string]bool{}
	var v1cats []olmv1.Catalog
	var plain, unstated []string
	for i, c := range cats {
		name := specs[i].name
		known[name] = true
		cc := state.ClusterCatalog(name)
		if cc == nil {
			plain = append(plain, name)
			cc = &cluster.ClusterCatalog{}
			*cc = cluster.NewClusterCatalog(name)
		} else if cc.Serving == "" {
			unstated = append(unstated, name)
		}
		v1cats = append(v1cats, olmv1.Catalog{ClusterCatalog: *cc, Content: c.Catalog})
	}
	var errs []error
	var names []string
	for _, s := range specs {
		names = append(names, s.name)
	}
	slices.Sort(names)
	for _, cc := range state.ClusterCatalogs {
		if !known[cc.Name] {
			file := files[objectKey{Kind: cluster.KindClusterCatalog, Name: cc.Name}]
			errs = append(errs, fmt.Errorf("%s: ClusterCatalog %q: no catalog of that name is given; give its content with --catalog %s=PATH (catalogs: %s)",
				file, cc.Name, cc.Name, strings.Join(names, ", ")))
		}
	}
	if len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	if len(plain) > 0 {
		e.notef("no ClusterCatalog in the manifests for catalog(s) %s: each is taken as Available, priority 0, labelled only %s=<name>", strings.Join(plain, ", "), cluster.MetadataNameLabel)
	}
	if len(unstated) > 0 {
		e.notef("ClusterCatalog(s) %s have no Serving condition (no status): taken as served", strings.Join(unstated, ", "))
	}
	res, err := olmv1.New(v1cats, olmv1.Options{KubeVersion: f.kubeVersion, OpenShiftVersion: f.openShift,
		SingleOwnNamespace: f.singleOwnNamespace, BundleRelease: f.bundleRelease, NoWebhookProvider: f.noWebhookProvider})
	if err != nil {
		return nil, err
	}
	return &v1Input{res: res, state: state}, nil
}

// resolve resolves the extensions; with why, only the extension named so,
// with every bundle passed over.
func (v *v1Input) resolve(ctx context.Context, why string) (*olmv1.Outcome, error) {
	res, err := v.res.Resolve(ctx, v.state)
	if err != nil || why == "" {
		return res, err
	}
	i := slices.IndexFunc(res.Extensions, func(x olmv1.ExtensionOutcome) bool { return x.Name == why })
	if i < 0 {
		var names []string
		for _, x := range res.Extensions {
			names = append(names, x.Name)
		}
		return nil, usageErrorf("--why %q: no ClusterExtension of that name (extensions: %s)", why, strings.Join(names, ", "))
	}
	res.Extensions = res.Extensions[i : i+1]
	return res, nil
}

// writeV1 writes the v1 answer alone.
func (e *env) writeV1(res *olmv1.Outcome, f *resolveFlags, why string) error {
	var err error
	if f.output.value == "json" || f.output.value == "yaml" {
		err = writeEncoded(e.stdout, f.output.value, res)
	} else {
		opts := olmv1.TextOptions{Why: f.full || why != ""}
		err = res.WriteText(e.stdout, opts)
		e.noteUnlisted(res, opts)
	}
	if err != nil {
		return err
	}
	if res.Failed() {
		return errNo
	}
	return nil
}

// withExtensions returns the v0 answer's JSON object with the field
// "extensions" added.
func withExtensions(v0 any, res *olmv1.Outcome) (json.RawMessage, error) {
	obj, err := json.Marshal(v0)
	if err != nil {
		return nil, err
	}
	ext, err := json.Marshal(res.Extensions)
	if err != nil {
		return nil, err
	}
	obj = bytes.TrimSpace(obj)
	if len(obj) < 2 || obj[len(obj)-1] != '}' {
		return nil, fmt.Errorf("v0 answer is not a JSON object")
	}
	sep := ","
	if bytes.Equal(obj, []byte("{}")) {
		sep = ""
	}
	out := append(obj[:len(obj)-1:len(obj)-1], sep+`"extensions":`...)
	out = append(out, ext...)
	return append(out, '}'), nil
}

// writeV1Text appends the v1 blocks after a v0 answer's text.
func (e *env) writeV1Text(w io.Writer, res *olmv1.Outcome, full bool) error {
	if _, err := io.WriteString(w, "\n"); err != nil {
		return err
	}
	opts := olmv1.TextOptions{Why: full}
	err := res.WriteText(w, opts)
	e.noteUnlisted(res, opts)
	return err
}

// writeWithV1 writes a v0 answer with the answer for the ClusterExtensions
// after it: JSON with the field "extensions" added, text with the v1
// blocks after the v0 answer's.
func (in *resolveInput) writeWithV1(ctx context.Context, e *env, a *resolver.Answer, f *resolveFlags) error {
	res, err := in.v1.resolve(ctx, "")
	if err != nil {
		return err
	}
	if f.output.value != "text" {
		js, err := withExtensions(a, res)
		if err != nil {
			return err
		}
		err = writeEncoded(e.stdout, f.output.value, js)
		return answered(a.No() || res.Failed(), err)
	}
	ew := &textio.ErrWriter{W: e.stdout}
	a.WriteText(ew, in.textOptions(a, f))
	if ew.Err == nil {
		ew.Err = e.writeV1Text(ew, res, f.full)
	}
	return answered(a.No() || res.Failed(), ew.Err)
}

// providesV1 answers provides in OLM v1 terms: the catalogs are
// ClusterCatalogs of their names, available, priority 0.
func (e *env) providesV1(q resolver.APIQuery, query string, cats []resolver.Catalog, format string) error {
	v1cats := make([]olmv1.Catalog, len(cats))
	for i, c := range cats {
		v1cats[i] = olmv1.Catalog{ClusterCatalog: cluster.NewClusterCatalog(c.Key.Name), Content: c.Catalog}
	}
	r, err := olmv1.New(v1cats, olmv1.Options{})
	if err != nil {
		return err
	}
	found := r.APIPackages(q.Matches)
	if format != "text" {
		err = writeEncoded(e.stdout, format, found)
	} else {
		err = olmv1.WriteAPIPackagesText(e.stdout, query, found)
	}
	if err != nil {
		return err
	}
	if len(found) == 0 {
		return errNo
	}
	return nil
}

// v1ForInput is the input of resolve --for --olm v1: the v1 resolver over
// the catalogs and the state's ClusterExtensions.
func (e *env) v1ForInput(f *resolveFlags, state *cluster.State, cats []resolver.Catalog, specs []catalogSpec, files map[objectKey]string) (*resolveInput, error) {
	if len(state.Subscriptions) > 0 {
		e.notef("--olm v1: the Subscriptions of the manifests are not resolved")
	}
	v1, err := e.loadV1(f, state, cats, specs, files)
	if err != nil {
		return nil, err
	}
	return &resolveInput{state: state, v1: v1}, nil
}

// runResolveForV1 is resolve --for --olm v1: the ClusterExtensions an
// application's APIs need, resolved with those of the manifests.
func (e *env) runResolveForV1(cmd *cobra.Command, f *resolveFlags) error {
	objs, appState, err := e.readApplication(f.forFiles)
	if err != nil {
		return err
	}
	in, err := e.loadResolveInput(f)
	if err != nil {
		return err
	}
	if err := mergeState(in.state, appState); err != nil {
		return err
	}
	var apis []graph.GVK
	for _, o := range objs {
		if g := o.GVK(); resolver.BuiltInSource(g) == "" {
			apis = append(apis, g)
		}
	}
	app, err := in.v1.res.ExtensionsForAPIs(cmd.Context(), in.state, apis)
	if err != nil {
		return err
	}
	if f.output.value == "json" || f.output.value == "yaml" {
		err = writeEncoded(e.stdout, f.output.value, app)
	} else {
		opts := olmv1.TextOptions{Why: f.full}
		err = app.WriteText(e.stdout, opts)
		e.noteUnlisted(app.Outcome, opts)
	}
	if err != nil {
		return err
	}
	if app.Unserved() || app.Outcome.Failed() {
		return errNo
	}
	return nil
}

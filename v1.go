package sextant

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/internal/words"
	"github.com/sextantdev/sextant/olmv1"
)

// wantV1 tells whether the world resolves OLM v1 objects: the manifests
// hold ClusterExtensions and the application's kinds (if any) are answered
// in v1 terms, or Input.ForV1. It notes the OLM objects read but not used,
// and reports every ClusterCatalog without a catalog of its name.
func (l *loader) wantV1(state *cluster.State, cats []*catalogSpec) (bool, error) {
	want := false
	switch {
	case l.in.ForV1:
		if len(state.Subscriptions) > 0 {
			l.notef(NoteSubscriptionsNotResolved, "the Subscriptions of the manifests are not resolved (the application's kinds are answered for OLM v1)")
		}
		want = true
	case len(state.ClusterExtensions) > 0 && len(l.in.For) == 0 && len(l.in.Application) == 0:
		want = true
	case len(state.ClusterExtensions) > 0:
		l.notef(NoteExtensionsNotResolved, "the ClusterExtensions of the manifests are not resolved (the application's kinds are answered for OLM v0 subscriptions)")
	case len(state.ClusterCatalogs) > 0:
		l.notef(NoteClusterCatalogsUnused, "ClusterCatalogs read but not used: the manifests hold no ClusterExtension")
	}
	if !want {
		return false, nil
	}
	known := map[string]bool{}
	var names []string
	for _, c := range cats {
		known[c.name] = true
		names = append(names, c.name)
	}
	slices.Sort(names)
	var errs []error
	for _, cc := range state.ClusterCatalogs {
		if !known[cc.Name] {
			errs = append(errs, &ClusterCatalogError{File: l.files[cluster.Ref{Kind: cluster.KindClusterCatalog, Name: cc.Name}], Name: cc.Name, Catalogs: names})
		}
	}
	return true, errors.Join(errs...)
}

// buildV1 builds the v1 resolver of the catalogs given (cats), each the
// ClusterCatalog of its name: the ClusterCatalog objects of the manifests
// give labels, priority and availability; what is assumed is noted.
func (l *loader) buildV1(w *World, cats []*catalogSpec) error {
	var v1cats []olmv1.Catalog
	var plain, unstated []string
	for _, c := range cats {
		cc := w.State.ClusterCatalog(c.name)
		if cc == nil {
			plain = append(plain, c.name)
			cc = &cluster.ClusterCatalog{}
			*cc = cluster.NewClusterCatalog(c.name)
		} else if cc.Serving == "" {
			unstated = append(unstated, c.name)
		}
		v1cats = append(v1cats, olmv1.Catalog{ClusterCatalog: *cc, Content: c.cat})
	}
	if len(plain) > 0 {
		l.notef(NoteClusterCatalogAssumed, "no ClusterCatalog in the manifests for catalog(s) %s: each is taken as Available, priority 0, labelled only %s=<name>", strings.Join(plain, ", "), cluster.MetadataNameLabel)
	}
	if len(unstated) > 0 {
		l.notef(NoteClusterCatalogUnserved, "ClusterCatalog(s) %s have no Serving condition (no status): taken as served", strings.Join(unstated, ", "))
	}
	res, err := olmv1.New(v1cats, w.V1Options())
	if err != nil {
		return err
	}
	w.V1 = res
	return nil
}

// noteState notes the notes of the manifests' decoding (StateNotes).
func (l *loader) noteState(state *cluster.State) {
	for _, n := range StateNotes(state) {
		l.note(n)
	}
}

// StateNotes returns the world's notes of what the API server or OLM's
// controllers change in the objects of state without a word
// (cluster.State.Notes), under their cluster codes: each with its
// object's file and line, but spec.serviceAccount, which clusters made for
// operator-controller before v1.11 set on every ClusterExtension, in one
// note naming them (the first ten).
func StateNotes(state *cluster.State) []Note {
	var out []Note
	var accounts []string
	var first cluster.Note
	for _, n := range state.Notes {
		if n.Code == cluster.NoteServiceAccountIgnored {
			if len(accounts) == 0 {
				first = n
			}
			accounts = append(accounts, strconv.Quote(n.Object.Name))
			continue
		}
		out = append(out, Note{Code: NoteCode(n.Code), Text: where(n) + n.Text, File: n.File, Object: n.Object})
	}
	switch len(accounts) {
	case 0:
	case 1:
		out = append(out, Note{Code: NoteServiceAccountIgnored, Text: where(first) + first.Text, File: first.File, Object: first.Object})
	default:
		out = append(out, Note{Code: NoteServiceAccountIgnored, Text: fmt.Sprintf("ClusterExtensions %s set spec.serviceAccount: %s",
			words.First(accounts, 10), cluster.ServiceAccountDeprecated)})
	}
	return out
}

// where is "FILE:LINE: " of a decoding note, "" when it has no file.
func where(n cluster.Note) string {
	switch {
	case n.File != "" && n.Line > 0:
		return fmt.Sprintf("%s:%d: ", n.File, n.Line)
	case n.File != "":
		return n.File + ": "
	}
	return ""
}

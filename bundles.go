package sextant

import (
	"context"
	"fmt"
	"strings"

	"github.com/sextantdev/sextant/internal/words"
	"github.com/sextantdev/sextant/olmv1"
	"github.com/sextantdev/sextant/registryv1"
)

// The notes of bundle contents (Input.Bundles, ReadBundles).
const (
	// NoteBundlesRead: the bundle folders read, counted.
	NoteBundlesRead NoteCode = "bundles-read"
	// NoteBundleProblem: a problem of a bundle folder read (a manifest
	// that does not decode, a link not followed): the folder is kept as
	// far as it was read. The first few are noted one by one, the others
	// counted in one more note.
	NoteBundleProblem NoteCode = "bundle-problem"
	// NoteBundlesUnused: bundle folders read whose CSV no answer asked
	// for (UnusedBundles).
	NoteBundlesUnused NoteCode = "bundles-unused"
	// NoteCRDPreflightUnchecked: OLM v1's CRD upgrade safety preflight
	// was not predicted in full for some extensions (olmv1.Unchecked): a
	// chosen bundle's contents not found, or a cluster CRD the manifests
	// do not hold whole; one note, the first three named.
	NoteCRDPreflightUnchecked NoteCode = "crd-preflight-unchecked"
	// NoteNoClusterCRDs: bundle contents are given, and the manifests hold
	// no CustomResourceDefinition: OLM v1's CRD upgrade safety preflight,
	// which compares the cluster's CRDs, is not predicted.
	NoteNoClusterCRDs NoteCode = "no-cluster-crds"
)

// noClusterCRDsNote is the note of a v1 answer given bundle contents and
// no cluster CRD: with the contents of some bundle read, none was
// compared.
func (w *World) noClusterCRDsNote(res *olmv1.Outcome) []Note {
	if len(w.State.CRDs) > 0 || (w.Bundles.Len() == 0 && w.opts.BundleImages == nil) {
		return nil
	}
	var names []string
	for _, x := range res.Extensions {
		if x.Error == "" && x.Action != olmv1.ActionStay {
			names = append(names, x.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	return []Note{{Code: NoteNoClusterCRDs, Text: fmt.Sprintf("CRD upgrade safety preflight not predicted (%s): the manifests hold no CustomResourceDefinition to compare the bundles' CRDs with (kubectl get crd -o yaml prints the cluster's)",
		words.Join(names, "and"))}}
}

// crdUncheckedNotes is the note of what the v1 answer could not compare
// of the CRD upgrade safety preflight: none, or one naming the first
// three, the others counted.
func crdUncheckedNotes(unchecked []olmv1.Unchecked) []Note {
	if len(unchecked) == 0 {
		return nil
	}
	var parts []string
	for _, u := range unchecked[:min(len(unchecked), 3)] {
		what := u.Bundle
		if u.CRD != "" {
			what += " CRD " + u.CRD
		}
		parts = append(parts, fmt.Sprintf("%s (%s): %s", u.Extension, what, u.Reason))
	}
	if len(unchecked) > 3 {
		parts = append(parts, fmt.Sprintf("and %d more", len(unchecked)-3))
	}
	return []Note{{Code: NoteCRDPreflightUnchecked, Text: "CRD upgrade safety preflight not predicted in full: " + strings.Join(parts, "; ")}}
}

// maxBundleNotes is how many problems of bundle folders are noted one by
// one; the others are counted.
const maxBundleNotes = 10

// BundlesError is a folder of bundle folders that cannot be read: it does
// not exist, cannot be listed, or holds no bundle folder. Err says which
// (every folder's problem, errors.Join).
type BundlesError struct {
	Dirs []string
	Err  error
}

func (e *BundlesError) Error() string { return "bundle folders: " + e.Err.Error() }

func (e *BundlesError) Unwrap() error { return e.Err }

// ReadBundles reads the bundle folders under dirs, at any depth
// (registryv1.Loader.ReadDirs, within limits), into a set that finds a
// catalog bundle's contents in them by its CSV's name, else in the
// bundle's olm.bundle.object properties, else, when images is not nil,
// in the bundle's image. note, if not nil, is told how many folders were
// read and their problems (NoteBundlesRead, NoteBundleProblem: the first
// ten one by one). A dir that cannot be read or holds no bundle folder is
// a *BundlesError. With no dirs, the set holds no folder.
//
// Load calls it for Input.Bundles (World.Bundles); package check takes
// its result (check.Options.Bundles).
func ReadBundles(ctx context.Context, dirs []string, limits Limits, images registryv1.ImageSource, note func(Note)) (*registryv1.Set, error) {
	if note == nil {
		note = func(Note) {}
	}
	l := registryv1.Loader{MaxBytes: limits.MaxBytes, MaxDocument: limits.MaxDocument}
	set := registryv1.NewSet()
	if len(dirs) > 0 {
		var err error
		if set, err = l.ReadDirs(ctx, dirs...); err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			return nil, &BundlesError{Dirs: dirs, Err: err}
		}
		note(Note{Code: NoteBundlesRead, Text: "bundles: " + words.Plural(set.Len(), "bundle folder") + " read"})
		for i, p := range set.Problems {
			if i == maxBundleNotes {
				note(Note{Code: NoteBundleProblem, Text: fmt.Sprintf("bundles: and %d more problems", len(set.Problems)-i)})
				break
			}
			n := Note{Code: NoteBundleProblem, Text: fmt.Sprintf("bundles: %v", p)}
			if pr, ok := p.(*registryv1.Problem); ok {
				n.File = pr.Source.Path
			}
			note(n)
		}
	}
	set.Loader = l
	set.Images = images
	return set, nil
}

// UnusedBundles returns the note of the bundle folders of set whose CSV
// no piece of work asked for (registryv1.Set.Unused), with why they were
// not (what the work asked for: "no bundle on an upgrade edge of the
// catalogs"); the first three are named with their folders, the others
// counted. ok is false when every folder was used (or set is nil).
func UnusedBundles(set *registryv1.Set, why string) (n Note, ok bool) {
	if set == nil {
		return Note{}, false
	}
	unused := set.Unused()
	if len(unused) == 0 {
		return Note{}, false
	}
	var names []string
	for _, b := range unused[:min(len(unused), 3)] {
		names = append(names, fmt.Sprintf("%s (%s)", b.CSV.Name, b.Source.Path))
	}
	if len(unused) > 3 {
		names = append(names, fmt.Sprintf("and %d more", len(unused)-3))
	}
	whose := "its CSV names"
	if len(unused) > 1 {
		whose = "their CSVs name"
	}
	return Note{Code: NoteBundlesUnused, Text: fmt.Sprintf("bundles: %s not used (%s %s): %s",
		words.Plural(len(unused), "bundle folder"), whose, why, strings.Join(names, ", "))}, true
}

// UnusedBundlesWhy is what the answers of a world ask bundle contents
// for, as World.UnusedBundles says it.
const UnusedBundlesWhy = "no bundle an answer upgrades to or installs"

// UnusedBundles returns the note of the bundle folders of Input.Bundles
// that no answer of the world has used so far (see the package function
// UnusedBundles): ask it once the answers are given. ok is false when
// every folder was used, or none was given.
func (w *World) UnusedBundles() (Note, bool) {
	return UnusedBundles(w.Bundles, UnusedBundlesWhy)
}

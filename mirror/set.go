package mirror

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/resolver"
)

// Set is a mirror set: the bundles kept, per catalog and package, each
// with why, and what the rollouts that chose them went through. Compute
// makes it; it is immutable afterwards and safe for concurrent reads. Its
// JSON form (encoding/json, as `sextant mirror -o json` prints it) has the
// field names below; every list is sorted (catalogs by key, packages and
// bundles by name, reasons by kind then text) and never null.
type Set struct {
	// Catalogs are the catalogs with a kept bundle, by key.
	Catalogs []CatalogSet `json:"catalogs"`
	// Rollouts are the rollouts simulated, in order: the namespaces of
	// the cluster by name, then the package requests as given.
	Rollouts []Rollout `json:"rollouts"`
	// Kept counts what the set keeps (images: bundle images and related
	// images, each once).
	Kept Count `json:"kept"`
	// WholeChannels counts what a mirror of the whole channels the set
	// keeps would take instead.
	WholeChannels Count `json:"wholeChannels"`

	full         []resolver.Catalog
	opts         Options
	resolverOpts resolver.Options // the world's: for the filtered catalogs
	scens        []scenario
	kept         map[resolver.CatalogKey]map[graph.BundleRef]*kept
	subs         []cluster.Subscription // every subscription of the rollouts' states
	prints       []rolloutPrint         // the full catalogs' rollouts, printed by Check
}

// kept is a kept bundle while Compute works.
type kept struct{ reasons []Reason }

// CatalogSet is what the set keeps of one catalog.
type CatalogSet struct {
	Catalog  resolver.CatalogKey `json:"catalog"`
	Packages []Package           `json:"packages"`
	// FullBundles is the number of bundles of the whole catalog.
	FullBundles int `json:"fullBundles"`
}

// Package is what the set keeps of one package.
type Package struct {
	Name           string `json:"name"`
	DefaultChannel string `json:"defaultChannel"`
	// Channels are the channels that keep an entry, by name.
	Channels []string `json:"channels"`
	Bundles  []Bundle `json:"bundles"`
	// WholeChannels counts the bundles and images of those channels in
	// full: what a mirror of whole channels would take.
	WholeChannels Count `json:"wholeChannels"`
}

// Count is a number of bundles and of images (bundle images and related
// images, each once).
type Count struct {
	Bundles int `json:"bundles"`
	Images  int `json:"images"`
}

// Bundle is one kept bundle.
type Bundle struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Image   string `json:"image"`
	// Channels are the channels of the package that list it; Heads those
	// of them it is the head of.
	Channels      []string `json:"channels"`
	Heads         []string `json:"heads,omitempty"`
	RelatedImages []string `json:"relatedImages,omitempty"`
	Reasons       []Reason `json:"reasons"`
}

// ReasonKind says why a bundle is kept.
type ReasonKind string

// The reasons a bundle is kept: the first three are steps of a rollout,
// the others keep the filtered catalog valid with its edges unchanged.
const (
	// ReasonInstall: a subscription installs it.
	ReasonInstall ReasonKind = "install"
	// ReasonHop: a subscription upgrades to it (from Reason.From).
	ReasonHop ReasonKind = "hop"
	// ReasonDependency: a bundle or installed CSV (Reason.RequiredBy)
	// requires it, and the resolver picks it.
	ReasonDependency ReasonKind = "dependency"
	// ReasonInstalled: it is the installed CSV of a subscription
	// (Reason.Subscription) that no step moves at some round, kept so that
	// the subscription finds its channel (Reason.Channel).
	ReasonInstalled ReasonKind = "installed"
	// ReasonHead: it is the head of the channel (Reason.Channel) of a
	// subscription that no step moves at some round and whose installed
	// CSV the channel does not list, kept so that the subscription finds
	// its channel.
	ReasonHead ReasonKind = "head"
	// ReasonChain: it sits on the replacement chain of Reason.Channel
	// between two kept entries (Above and Below); without it the
	// channel would have two heads or a stranded entry.
	ReasonChain ReasonKind = "chain"
	// ReasonSkips: it skips Reason.Skipped, a kept entry of
	// Reason.Channel that the full channel skips; without it the skipped
	// entry would become a candidate (or stranded).
	ReasonSkips ReasonKind = "skips"
	// ReasonDefaultChannel: it is the head of the package's default
	// channel Reason.Channel, which must keep an entry.
	ReasonDefaultChannel ReasonKind = "default-channel"
)

// Reason is one reason a bundle is kept. The fields besides Kind are set
// as the kind says.
type Reason struct {
	Kind ReasonKind `json:"kind"`
	// Namespace and Subscription name the subscription (install, hop) or
	// the namespace of the rollout (dependency).
	Namespace    string `json:"namespace,omitempty"`
	Subscription string `json:"subscription,omitempty"`
	From         string `json:"from,omitempty"`
	RequiredBy   string `json:"requiredBy,omitempty"`
	Requirement  string `json:"requirement,omitempty"`
	Channel      string `json:"channel,omitempty"`
	Above        string `json:"above,omitempty"`
	Below        string `json:"below,omitempty"`
	Skipped      string `json:"skipped,omitempty"`
}

// String words the reason: "hop of subscription operators/cert-manager
// from cert-manager.v1.16.1", "dependency of B (REQUIREMENT)", …
func (r Reason) String() string {
	switch r.Kind {
	case ReasonInstall:
		return fmt.Sprintf("install of subscription %s/%s", r.Namespace, r.Subscription)
	case ReasonHop:
		return fmt.Sprintf("hop of subscription %s/%s from %s", r.Namespace, r.Subscription, r.From)
	case ReasonDependency:
		s := fmt.Sprintf("dependency of %s in namespace %s", r.RequiredBy, r.Namespace)
		if r.Requirement != "" {
			s += " (" + r.Requirement + ")"
		}
		return s
	case ReasonInstalled:
		return fmt.Sprintf("installed CSV of subscription %s/%s, which follows channel %s", r.Namespace, r.Subscription, r.Channel)
	case ReasonHead:
		return fmt.Sprintf("head of channel %s, which subscription %s/%s follows", r.Channel, r.Namespace, r.Subscription)
	case ReasonChain:
		return fmt.Sprintf("on the chain of channel %s between %s and %s", r.Channel, r.Above, r.Below)
	case ReasonSkips:
		return fmt.Sprintf("skips %s in channel %s", r.Skipped, r.Channel)
	case ReasonDefaultChannel:
		return fmt.Sprintf("head of the default channel %s, which a valid catalog keeps", r.Channel)
	}
	return string(r.Kind)
}

// reasonOrder ranks the kinds: rollout steps first.
var reasonOrder = map[ReasonKind]int{ReasonInstall: 0, ReasonHop: 1, ReasonDependency: 2, ReasonInstalled: 3, ReasonHead: 4, ReasonChain: 5, ReasonSkips: 6, ReasonDefaultChannel: 7}

// Rollout is one rollout Compute simulated.
type Rollout struct {
	// Name is "namespace NS" or "package P" (with " from BUNDLE" for each
	// start of a package request with a range).
	Name   string `json:"name"`
	Rounds int    `json:"rounds"`
	Steps  int    `json:"steps"`
	// Cycles reports that the last round returns the namespace to a
	// state it was in: the rollout would go round for ever (OLM too).
	Cycles bool `json:"cycles,omitempty"`
}

// summarise fills the exported fields from the kept bundles.
func (s *Set) summarise() {
	images := map[string]bool{}
	whole := map[string]bool{}
	s.Catalogs = []CatalogSet{}
	for _, c := range s.full {
		m := s.kept[c.Key]
		if len(m) == 0 {
			continue
		}
		cs := CatalogSet{Catalog: c.Key, Packages: []Package{}}
		for _, p := range c.Catalog.Packages() {
			cs.FullBundles += len(p.Bundles)
		}
		for _, name := range packagesOf(m) {
			cs.Packages = append(cs.Packages, s.summarisePackage(c.Catalog.Package(name), m, images, whole))
		}
		s.Catalogs = append(s.Catalogs, cs)
	}
	slices.SortFunc(s.Catalogs, func(a, b CatalogSet) int {
		return cmp.Or(cmp.Compare(a.Catalog.Namespace, b.Catalog.Namespace), cmp.Compare(a.Catalog.Name, b.Catalog.Name))
	})
	for _, c := range s.Catalogs {
		for _, p := range c.Packages {
			s.Kept.Bundles += len(p.Bundles)
			s.WholeChannels.Bundles += p.WholeChannels.Bundles
		}
	}
	s.Kept.Images, s.WholeChannels.Images = len(images), len(whole)
	if s.Rollouts == nil {
		s.Rollouts = []Rollout{}
	}
}

// summarisePackage describes the kept bundles m of package p, adding
// their images to images and those of the whole kept channels to whole.
func (s *Set) summarisePackage(p *graph.Package, m map[graph.BundleRef]*kept, images, whole map[string]bool) Package {
	out := Package{Name: p.Name, DefaultChannel: p.DefaultChannel, Channels: []string{}, Bundles: []Bundle{}}
	chans := map[string]bool{}
	for _, b := range p.Bundles {
		k := m[b.Ref()]
		if k == nil {
			continue
		}
		for _, ch := range b.Channels {
			chans[ch] = true
		}
		kb := Bundle{Name: b.Name, Version: b.VersionText, Image: b.Image, Channels: slices.Clone(b.Channels), Reasons: slices.Clone(k.reasons)}
		if kb.Channels == nil {
			kb.Channels = []string{}
		}
		for _, ch := range b.Channels {
			if h, ok := p.Channel(ch).Head(); ok && h == b.Name {
				kb.Heads = append(kb.Heads, ch)
			}
		}
		for _, ri := range b.RelatedImages {
			kb.RelatedImages = append(kb.RelatedImages, ri.Image)
		}
		addImages(images, b)
		slices.SortFunc(kb.Reasons, func(x, y Reason) int {
			return cmp.Or(cmp.Compare(reasonOrder[x.Kind], reasonOrder[y.Kind]), strings.Compare(x.String(), y.String()))
		})
		out.Bundles = append(out.Bundles, kb)
	}
	inWhole := map[string]bool{}
	for _, ch := range p.Channels {
		if !chans[ch.Name] {
			continue
		}
		out.Channels = append(out.Channels, ch.Name)
		for _, e := range ch.Entries {
			if b := p.Bundle(e.Name); b != nil && !inWhole[b.Name] {
				inWhole[b.Name] = true
				addImages(whole, b)
			}
		}
	}
	out.WholeChannels.Bundles = len(inWhole)
	pkgImages := map[string]bool{}
	for name := range inWhole {
		addImages(pkgImages, p.Bundle(name))
	}
	out.WholeChannels.Images = len(pkgImages)
	return out
}

// addImages adds b's image and related images to set.
func addImages(set map[string]bool, b *graph.Bundle) {
	if b.Image != "" {
		set[b.Image] = true
	}
	for _, ri := range b.RelatedImages {
		if ri.Image != "" {
			set[ri.Image] = true
		}
	}
}

// Filtered returns the filtered catalogs, with the full catalogs' keys
// and priorities, in the order Compute was given them: each holds the
// kept bundles (see graph.Catalog.Filter), and a catalog none of whose
// bundles is kept is empty.
func (s *Set) Filtered() ([]resolver.Catalog, error) { return s.filter(s.Keeps) }

// Images returns every image a disconnected cluster needs for the set:
// the kept bundles' images and their related images (the operands),
// each once, sorted.
func (s *Set) Images() []string {
	set := map[string]bool{}
	for _, c := range s.full {
		for ref := range s.kept[c.Key] {
			addImages(set, c.Catalog.Bundle(ref))
		}
	}
	out := make([]string, 0, len(set))
	for im := range set {
		out = append(out, im)
	}
	slices.Sort(out)
	return out
}

// WriteImages writes Images one per line.
func (s *Set) WriteImages(w io.Writer) error {
	var b strings.Builder
	for _, im := range s.Images() {
		b.WriteString(im)
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteFBC writes the filtered catalog of the one catalog with kept
// bundles as a File-Based Catalog JSON stream (graph.Encode). It fails
// when the set keeps bundles of several catalogs (an FBC stream is one
// catalog: write each with graph.Encode on Filtered) or of none.
func (s *Set) WriteFBC(w io.Writer) error {
	if len(s.Catalogs) != 1 {
		var names []string
		for _, c := range s.Catalogs {
			names = append(names, c.Catalog.String())
		}
		if len(names) == 0 {
			return fmt.Errorf("the mirror set keeps no bundle: no catalog to write")
		}
		return fmt.Errorf("the mirror set keeps bundles of %d catalogs (%s): one File-Based Catalog holds one; mirror each catalog on its own", len(names), strings.Join(names, ", "))
	}
	cats, err := s.Filtered()
	if err != nil {
		return err
	}
	for _, c := range cats {
		if c.Key == s.Catalogs[0].Catalog {
			return graph.Encode(w, c.Catalog)
		}
	}
	return nil
}

package check

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/sextantdev/sextant/crd"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/registryv1"
)

// The codes of the CRDs check: what OLM v1 refuses when it upgrades a
// bundle's CustomResourceDefinitions (DESIGN §17), read from the bundles'
// contents.
const (
	// CodeCRDUpgradeUnsafe (warning): an upgrade edge — replaces, skips,
	// or an entry inside a skipRange — and a CRD both bundles carry whose
	// change OLM v1's CRD upgrade safety preflight refuses: operator-
	// controller does not upgrade a cluster from the edge's source to its
	// target (OLM v0 upgrades it). One finding per edge and CRD; its
	// message is operator-controller's.
	CodeCRDUpgradeUnsafe = "crd-upgrade-unsafe"
	// CodeBundleContentsInvalid (warning): the contents found for a bundle
	// on an upgrade edge cannot all be read — a manifest or a CRD that does
	// not decode, bundle folders that the CSV's name, version and package
	// do not tell apart, an image that cannot be read: the CRDs of its
	// edges are compared as far as they were read.
	CodeBundleContentsInvalid = "bundle-contents-invalid"
)

// CRDSummary counts what the CRDs check compared in one catalog. Its JSON
// form has the field names in lower camel case.
type CRDSummary struct {
	// Bundles is the number of bundles on an upgrade edge of the catalog;
	// Found those whose contents were found, by source.
	Bundles     int `json:"bundles"`
	Found       int `json:"found"`
	FromFolder  int `json:"fromFolder"`
	FromCatalog int `json:"fromCatalog"`
	FromImage   int `json:"fromImage"`
	// Edges is the number of upgrade edges (from, to), each once however
	// many channels list it; Compared those whose two bundles' contents
	// were found.
	Edges    int `json:"edges"`
	Compared int `json:"compared"`
	// Pairs counts the (edge, CRD) pairs compared: the CRDs both bundles
	// of an edge carry. Unchanged are those whose two manifests are the
	// same text (safe without a comparison), Unsafe those the preflight
	// refuses; NotV1 counts the CRDs of another apiVersion than
	// apiextensions.k8s.io/v1 (not compared, as OLM v1 compares none).
	Pairs     int `json:"pairs"`
	Unchanged int `json:"unchanged"`
	Unsafe    int `json:"unsafe"`
	NotV1     int `json:"notV1,omitempty"`
	// Parsed is the number of CRD manifests parsed (once per digest and
	// package).
	Parsed int `json:"parsed"`
}

func (s *CRDSummary) add(o CRDSummary) {
	s.Bundles += o.Bundles
	s.Found += o.Found
	s.FromFolder += o.FromFolder
	s.FromCatalog += o.FromCatalog
	s.FromImage += o.FromImage
	s.Edges += o.Edges
	s.Compared += o.Compared
	s.Pairs += o.Pairs
	s.Unchanged += o.Unchanged
	s.Unsafe += o.Unsafe
	s.NotV1 += o.NotV1
	s.Parsed += o.Parsed
}

// crdEdge is one upgrade edge of a package, once over its channels.
type crdEdge struct {
	from, to *graph.Bundle
	channels []string
}

// packageEdgeList lists p's upgrade edges (graph.Channel.Edges: replaces,
// skips and every entry inside a skipRange), each (from, to) once, in the
// order the channels first list them; edges whose source is no bundle of
// the package are left out.
func packageEdgeList(p *graph.Package) []crdEdge {
	type key struct{ from, to string }
	at := map[key]int{}
	var out []crdEdge
	for _, c := range p.Channels {
		for e := range c.Edges() {
			k := key{e.From, e.To}
			if i, ok := at[k]; ok {
				if !slices.Contains(out[i].channels, c.Name) {
					out[i].channels = append(out[i].channels, c.Name)
				}
				continue
			}
			from, to := p.Bundle(e.From), p.Bundle(e.To)
			if from == nil || to == nil || from == to {
				continue
			}
			at[k] = len(out)
			out = append(out, crdEdge{from: from, to: to, channels: []string{c.Name}})
		}
	}
	return out
}

// contents is what the CRDs check found of one bundle.
type contents struct {
	b        *registryv1.Bundle
	problems []error
	err      error
}

// crdChecks runs the CRDs check on package p of catalog name: for every
// upgrade edge whose two bundles' contents set finds, the CRDs both
// carry, compared as OLM v1's preflight compares the cluster's CRD (the
// source's, as the API server keeps it) with the target's.
func crdChecks(ctx context.Context, name string, p *graph.Package, set *registryv1.Set) ([]Finding, CRDSummary, error) {
	var sum CRDSummary
	edges := packageEdgeList(p)
	if len(edges) == 0 {
		return nil, sum, nil
	}
	sum.Edges = len(edges)
	found := map[*graph.Bundle]*contents{}
	var order []*graph.Bundle
	for _, e := range edges {
		for _, b := range [...]*graph.Bundle{e.from, e.to} {
			if _, ok := found[b]; ok {
				continue
			}
			if err := ctx.Err(); err != nil {
				return nil, sum, err
			}
			c, problems, err := set.For(ctx, b)
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return nil, sum, err
			}
			found[b] = &contents{c, problems, err}
			order = append(order, b)
		}
	}
	sum.Bundles = len(order)
	var fs []Finding
	contentsFinding := func(b *graph.Bundle, msg, brief string) {
		fs = append(fs, Finding{Severity: graph.SeverityWarning, Code: CodeBundleContentsInvalid, Catalog: name,
			Package: p.Name, Bundle: b.Name, Pos: b.Pos, Message: msg, Brief: brief})
	}
	for _, b := range order {
		c := found[b]
		switch {
		case c.err != nil:
			brief := "contents not read: " + c.err.Error()
			var amb *registryv1.AmbiguousError
			if errors.As(c.err, &amb) {
				where := make([]string, len(amb.Sources))
				for i, src := range amb.Sources {
					where[i] = src.String()
				}
				brief = fmt.Sprintf("%d bundle folders hold its CSV: %s", len(where), strings.Join(where, ", "))
			}
			contentsFinding(b, fmt.Sprintf("the contents of bundle %q cannot be read, so the CRDs of its upgrades are not compared: %v", b.Name, c.err), brief)
		case c.b != nil:
			sum.Found++
			switch c.b.Source.Kind {
			case registryv1.FromFolder:
				sum.FromFolder++
			case registryv1.FromCatalog:
				sum.FromCatalog++
			case registryv1.FromImage:
				sum.FromImage++
			}
		}
		for _, pr := range c.problems {
			contentsFinding(b, fmt.Sprintf("the contents of bundle %q: %v", b.Name, pr), pr.Error())
		}
	}
	var cache registryv1.CRDCache
	badCRD := map[registryv1.Digest]bool{} // reported once
	defs := map[registryv1.Digest]*crd.Definition{}
	parse := func(b *graph.Bundle, ref registryv1.CRDRef) *crd.Definition {
		def, _, err := cache.Parse(ref)
		var ve *crd.VersionError
		switch {
		case errors.As(err, &ve):
			return nil
		case err != nil:
			if !badCRD[ref.Digest] {
				badCRD[ref.Digest] = true
				contentsFinding(b, fmt.Sprintf("bundle %q: the CRD of %s does not decode, so it is not compared: %v", b.Name, ref.Where(), err),
					fmt.Sprintf("CRD %s:%d does not decode: %v", ref.File, ref.Line, err))
			}
			return nil
		}
		defs[ref.Digest] = def
		return def
	}
	// A CRD is kept parsed (and its schemas read) until the last edge
	// that has it is compared, then forgotten: a package's CRDs are not
	// all held at once.
	last := map[registryv1.Digest]int{}
	for i, e := range edges {
		from, to := found[e.from].b, found[e.to].b
		if from == nil || to == nil {
			continue
		}
		for _, b := range [...]*registryv1.Bundle{from, to} {
			for _, r := range b.CRDs {
				last[r.Digest] = i
			}
		}
	}
	done := make([][]registryv1.Digest, len(edges))
	for d, i := range last {
		done[i] = append(done[i], d)
	}
	verdicts := map[pairKey]*verdict{}
	var checker crd.Checker // the package's schemas, each read once
	for i, e := range edges {
		if err := ctx.Err(); err != nil {
			return nil, sum, err
		}
		from, to := found[e.from].b, found[e.to].b
		if from == nil || to == nil {
			continue
		}
		sum.Compared++
		efs, es := compareEdge(name, p, e, from, to, parse, verdicts, &checker)
		fs = append(fs, efs...)
		sum.add(es)
		for _, d := range done[i] {
			if def := defs[d]; def != nil {
				checker.Forget(def)
				delete(defs, d)
			}
			cache.Forget(d)
		}
	}
	sum.Parsed = cache.Len()
	return fs, sum, nil
}

// pairKey names one comparison of the preflight: the digests of the
// source's and the target's CRD manifests, and whether each bundle's CSV
// renders it with a conversion webhook (Bundle.Rendered). Two edges with
// the same key get the same verdict: a skipRange lists one pair of CRDs
// on many edges.
type pairKey struct {
	from, to               registryv1.Digest
	fromWebhook, toWebhook bool
}

// verdict is the preflight's answer on one pair: its texts, "" when it
// lets the upgrade through (one string shared by every edge's finding).
type verdict struct{ message, brief string }

// liveCRD is a source's CRD as the cluster holds it, and its manifest's
// digest.
type liveCRD struct {
	def     *crd.Definition
	digest  registryv1.Digest
	webhook bool
}

// compareEdge compares the CRDs of the bundles of edge e: each CRD of the
// target whose manifest the source has not word for word, with the
// source's CRD of its name. verdicts holds the package's comparisons by
// pairKey, each run once, and checker its schemas.
func compareEdge(name string, p *graph.Package, e crdEdge, from, to *registryv1.Bundle, parse func(*graph.Bundle, registryv1.CRDRef) *crd.Definition, verdicts map[pairKey]*verdict, checker *crd.Checker) ([]Finding, CRDSummary) {
	var sum CRDSummary
	same := make(map[registryv1.Digest]bool, len(from.CRDs))
	for _, r := range from.CRDs {
		same[r.Digest] = true
	}
	var live map[string]liveCRD // the source's CRDs by name, parsed when needed
	var fs []Finding
	for _, ref := range to.CRDs {
		if ref.APIVersion != crd.APIVersion {
			sum.NotV1++
			continue
		}
		if same[ref.Digest] {
			sum.Pairs++
			sum.Unchanged++
			continue
		}
		next := parse(e.to, ref)
		if next == nil {
			continue
		}
		if live == nil {
			live = map[string]liveCRD{}
			for _, r := range from.CRDs {
				if r.APIVersion == crd.APIVersion {
					if d := parse(e.from, r); d != nil {
						rd := from.Rendered(d)
						live[d.Name] = liveCRD{rd, r.Digest, rd != d}
					}
				}
			}
		}
		old, ok := live[next.Name]
		if !ok {
			continue // a CRD the source does not have: installed, not upgraded
		}
		sum.Pairs++
		rn := to.Rendered(next)
		k := pairKey{from: old.digest, to: ref.Digest, fromWebhook: old.webhook, toWebhook: rn != next}
		v := verdicts[k]
		if v == nil {
			v = &verdict{}
			if u := checker.CheckUpgrade(old.def.Live(), rn); !u.Safe() {
				v.message, v.brief = u.Message(), u.Brief()
			}
			verdicts[k] = v
		}
		if v.message == "" {
			continue
		}
		sum.Unsafe++
		fs = append(fs, Finding{
			Severity: graph.SeverityWarning, Code: CodeCRDUpgradeUnsafe, Catalog: name,
			Package: p.Name, Bundle: e.to.Name, From: e.from.Name, CRD: next.Name, Pos: e.to.Pos,
			Message: v.message, Brief: v.brief,
		})
	}
	return fs, sum
}

// crdSummaries accumulates the CRDs check's counts per catalog.
type crdSummaries struct {
	mu  sync.Mutex
	per []*CRDSummary // by input; nil when the check found nothing to do
}

func (s *crdSummaries) add(catalog int, sum CRDSummary) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.per[catalog] == nil {
		s.per[catalog] = &CRDSummary{}
	}
	s.per[catalog].add(sum)
}

// describe says in two lines what the CRDs check compared: "CRDs: N of
// M upgrade edges compared, P CRD pairs (U unchanged), X unsafe" and
// "  bundle contents: F of B bundles found (… from folders, …)".
func (s *CRDSummary) describe() []string {
	var from []string
	for _, n := range []struct {
		n    int
		what string
	}{{s.FromFolder, "folders"}, {s.FromCatalog, "olm.bundle.object"}, {s.FromImage, "images"}} {
		if n.n > 0 {
			from = append(from, fmt.Sprintf("%d from %s", n.n, n.what))
		}
	}
	found := ""
	if len(from) > 0 {
		found = " (" + strings.Join(from, ", ") + ")"
	}
	notV1 := ""
	if s.NotV1 > 0 {
		notV1 = fmt.Sprintf("; %s not apiextensions.k8s.io/v1 left out", plural(s.NotV1, "CRD", "CRDs"))
	}
	return []string{
		fmt.Sprintf("CRDs: %d of %s compared, %s (%d unchanged), %d unsafe",
			s.Compared, plural(s.Edges, "upgrade edge", "upgrade edges"), plural(s.Pairs, "CRD pair", "CRD pairs"), s.Unchanged, s.Unsafe),
		fmt.Sprintf("  bundle contents: %d of %s found%s%s", s.Found, plural(s.Bundles, "bundle", "bundles"), found, notV1),
	}
}

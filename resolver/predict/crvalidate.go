package predict

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/crd"
	"github.com/sextantdev/sextant/graph"
)

// ReasonCRDValidation: the existing custom resources of a CRD fail the new
// CRD's schema, but the new CRD converts by webhook, and OLM v0 updates
// the CRD all the same with a warning event of this reason on the
// InstallPlan.
const ReasonCRDValidation Reason = "CRDValidation"

// NoteCustomResourcesUnchecked: steps whose bundles would update CRDs
// that have custom resources in the manifests, but whose bundle contents
// (the new CRDs) are not known: the custom resources are not validated
// against the new schemas.
const NoteCustomResourcesUnchecked NoteCode = "custom-resources-unchecked"

// BundleCRDs gives the CRDs a catalog bundle brings (its contents): nil
// and no error when its contents are not known, an error when they cannot
// be read. A Predictor without one checks no custom resource; either way,
// it notes the bundles it could not check (NoteCustomResourcesUnchecked).
type BundleCRDs func(ctx context.Context, b *graph.Bundle) ([]*crd.Definition, error)

// SetBundleCRDs makes pr validate the custom resources of the state
// against the CRDs that f finds in a step's bundle (see Bundle), asking f
// with ctx, and remembering in memo (if not nil) what it validated; nil f
// validates none.
func (pr *Predictor) SetBundleCRDs(ctx context.Context, f BundleCRDs, memo *CRMemo) {
	pr.ctx, pr.bundleCRDs, pr.memo = ctx, f, memo
}

// CRMemo remembers the custom resources validated against the schema of
// a CRD's version, each by its CRD, version, file, line and key, across
// the Predictors that share it: a resolution's fixes re-solve the
// namespace, and a rollout's rounds follow, each with a Predictor of its
// own, on the same objects. It is safe for concurrent use; the zero value
// is ready.
type CRMemo struct {
	mu sync.Mutex
	m  map[crMemoKey][]crd.Violation // nil: the object passed
}

type crMemoKey struct {
	def           *crd.Definition
	version, file string
	line          int
	key           string
}

// validate returns the violations of c against the schema of version v
// of d (obj: c's object at that version), validating it once per memo.
func (m *CRMemo) validate(d *crd.Definition, v *crd.Version, c *cluster.CustomResource, obj map[string]any) []crd.Violation {
	if m == nil {
		return v.Schema.Validate(obj)
	}
	k := crMemoKey{d, v.Name, c.File, c.Line, c.Key()}
	m.mu.Lock()
	vs, ok := m.m[k]
	m.mu.Unlock()
	if ok {
		return vs
	}
	vs = v.Schema.Validate(obj)
	m.mu.Lock()
	if m.m == nil {
		m.m = map[crMemoKey][]crd.Violation{}
	}
	m.m[k] = vs
	m.mu.Unlock()
	return vs
}

// crsOf returns the custom resources of the state of the CRD group and
// kind (indexed the first time).
func (pr *Predictor) crsOf(group, kind string) []cluster.CustomResource {
	if pr.crIdx == nil {
		pr.crIdx = map[[2]string][]cluster.CustomResource{}
		for _, c := range pr.state.CustomResources {
			if c.Claimed {
				k := [2]string{c.Group, c.Kind}
				pr.crIdx[k] = append(pr.crIdx[k], c)
			}
		}
	}
	return pr.crIdx[[2]string{group, kind}]
}

// customResources appends to out the predictions of the step installing
// b for the custom resources of the state: OLM v0.28's catalog operator,
// before it replaces a CRD of the cluster with the one b brings, lists
// every object of the CRD at each version both the cluster's CRD and the
// new one serve, validates each against the new schema of that version
// (validateExistingCRs), and fails the InstallPlan at the first that
// fails — or, when the new CRD converts by webhook, warns and goes on.
// failing collects the names of the CRDs that fail, whose stored-versions
// prediction OLM never reaches.
func (pr *Predictor) customResources(out []Prediction, b *graph.Bundle) ([]Prediction, []string) {
	if len(pr.state.CustomResources) == 0 {
		return out, nil
	}
	var has bool
	for _, g := range b.Provides {
		if len(pr.crsOf(g.Group, g.Kind)) > 0 {
			has = true
			break
		}
	}
	if !has {
		return out, nil
	}
	var crds []*crd.Definition
	var err error
	if pr.bundleCRDs != nil {
		crds, err = pr.bundleCRDs(pr.ctx, b)
	}
	if crds == nil || err != nil {
		what := b.Name
		if err != nil {
			what += " (" + err.Error() + ")"
		}
		if !slices.Contains(pr.unchecked, what) {
			pr.unchecked = append(pr.unchecked, what)
		}
		return out, nil
	}
	var failing []string
	for _, d := range crds {
		crs := pr.crsOf(d.Group, d.Names.Kind)
		if len(crs) == 0 {
			continue
		}
		cr, vs, version := firstInvalid(d, pr.oldServed(d, crs), crs, pr.memo)
		if vs == nil {
			continue
		}
		failing = append(failing, d.Name)
		out = append(out, CustomResourceInvalid(b.Name, d, version, cr, vs))
	}
	return out, failing
}

// oldServed returns the versions the cluster's CRD serves: its served
// versions when the manifests hold it, else the versions the custom
// resources were read at (each served, since the API server gave it).
func (pr *Predictor) oldServed(d *crd.Definition, crs []cluster.CustomResource) []string {
	var out []string
	for _, c := range pr.crds {
		if c.Group == d.Group && c.Kind == d.Names.Kind {
			for _, v := range c.Versions {
				if v.Served {
					out = append(out, v.Name)
				}
			}
			return out
		}
	}
	for _, c := range crs {
		if !slices.Contains(out, c.Version) {
			out = append(out, c.Version)
		}
	}
	return out
}

// firstInvalid validates crs against the schema of every version of d
// that d serves and old lists, versions in d's order, objects in the
// order the API server lists them, each as the API server returns it at
// that version (without conversion webhooks: its apiVersion changed
// alone), and returns the first that fails, its violations and the
// version. OLM v0 walks the versions in Go's map order, so which version
// it reports first when several fail varies; Sextant takes d's order.
func firstInvalid(d *crd.Definition, old []string, crs []cluster.CustomResource, memo *CRMemo) (cluster.CustomResource, []crd.Violation, string) {
	for i := range d.Versions {
		v := &d.Versions[i]
		if !v.Served || !slices.Contains(old, v.Name) || v.Schema == nil {
			continue
		}
		for _, c := range crs {
			obj := c.Object
			if c.Version != v.Name {
				obj = make(map[string]any, len(c.Object))
				for k, x := range c.Object {
					obj[k] = x
				}
				obj["apiVersion"] = d.Group + "/" + v.Name
			}
			if vs := memo.validate(d, v, &c, obj); vs != nil {
				return c, vs, v.Name
			}
		}
	}
	return cluster.CustomResource{}, nil, ""
}

// CustomResourceInvalid is the prediction of a step installing bundle
// whose CRD d the existing custom resource cr fails at version, with the
// violations vs: OLM v0.28's InstallPlan message (the catalog operator's
// words, its field paths rooted at "[]" as it writes them), then where
// the object was read and what to do. When d converts by webhook, OLM
// updates the CRD all the same and warns (ReasonCRDValidation).
func CustomResourceInvalid(bundle string, d *crd.Definition, version string, cr cluster.CustomResource, vs []crd.Violation) Prediction {
	olm := fmt.Sprintf("error validating %s/%s, Kind=%s %q: updated validation is too restrictive: %s",
		d.Group, version, d.Names.Kind, cr.Key(), crd.ViolationsText(vs, "[]"))
	where := cr.File
	if cr.Line > 0 {
		where = fmt.Sprintf("%s:%d", cr.File, cr.Line)
	}
	if where != "" {
		where = ", read from " + where
	}
	if d.ConversionStrategy == "Webhook" {
		return Prediction{Reason: ReasonCRDValidation, Severity: SeverityWarning,
			Message: fmt.Sprintf("validation of existing CRs against the new CRD's schema failed, but a webhook conversion strategy was specified in the new CRD: CRD %q: %s (%s %s%s; OLM updates the CRD, trusting the webhook to convert it)",
				d.Name, olm, d.Names.Kind, cr.Key(), where)}
	}
	return Prediction{Reason: ReasonInstallComponentFailed, Severity: SeverityFailure,
		Message: fmt.Sprintf("error validating existing CRs against new CRD's schema for %q: %s (%s %s%s: change it to fit %s's schema of %s first)",
			d.Name, olm, d.Names.Kind, cr.Key(), where, bundle, version)}
}

// uncheckedNote is the note of the bundles whose new CRDs were not known
// (the first three named, the others counted).
func uncheckedNote(bundles []string) Note {
	names := slices.Clone(bundles)
	slices.Sort(names)
	shown := names[:min(3, len(names))]
	text := strings.Join(shown, ", ")
	if len(names) > 3 {
		text += fmt.Sprintf(" and %d more", len(names)-3)
	}
	which := "bundle"
	if len(names) > 1 {
		which = "bundles"
	}
	return Note{NoteCustomResourcesUnchecked, fmt.Sprintf("existing custom resources not validated against the new CRDs of %s %s: the bundle contents are not known", which, text)}
}

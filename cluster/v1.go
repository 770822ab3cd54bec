package cluster

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
)

// APIGroupV1 is the API group of OLM v1's kinds (operator-controller and
// catalogd): ClusterExtension and ClusterCatalog, read in version v1.
const APIGroupV1 = "olm.operatorframework.io"

// The OLM v1 kinds Decode reads (apiVersion olm.operatorframework.io/v1).
const (
	KindClusterExtension = "ClusterExtension"
	KindClusterCatalog   = "ClusterCatalog"
)

// ServiceAccountDeprecated is the API server's warning, at the
// operator-controller release Sextant targets (v1.11.0: its
// ValidatingAdmissionPolicy clusterextension-serviceaccount-deprecated),
// for a ClusterExtension that sets spec.serviceAccount.name.
const ServiceAccountDeprecated = "spec.serviceAccount is deprecated, ignored, and will be removed in a future release. The operator-controller's cluster-admin service account is used for all cluster interactions."

// MetadataNameLabel is the label catalogd puts on every ClusterCatalog,
// whose value is the catalog's name: a ClusterExtension selects one catalog
// by name with it.
const MetadataNameLabel = "olm.operatorframework.io/metadata.name"

// UpgradeConstraintPolicy is a ClusterExtension's
// spec.source.catalog.upgradeConstraintPolicy.
type UpgradeConstraintPolicy string

// The upgrade constraint policies of OLM v1.
const (
	// UpgradeCatalogProvided (the default) upgrades only along the
	// catalog's edges: replaces, skips and skipRange of the installed
	// bundle.
	UpgradeCatalogProvided UpgradeConstraintPolicy = "CatalogProvided"
	// UpgradeSelfCertified lets any bundle of the package replace the
	// installed one, whatever the catalog's edges.
	UpgradeSelfCertified UpgradeConstraintPolicy = "SelfCertified"
)

// AvailabilityMode is a ClusterCatalog's spec.availabilityMode.
type AvailabilityMode string

// The availability modes of a ClusterCatalog.
const (
	// AvailabilityAvailable (the default): the catalog takes part in
	// resolution.
	AvailabilityAvailable AvailabilityMode = "Available"
	// AvailabilityUnavailable: operator-controller leaves the catalog out
	// of every resolution, as if it did not exist.
	AvailabilityUnavailable AvailabilityMode = "Unavailable"
)

// ClusterExtension is an OLM v1 ClusterExtension
// (olm.operatorframework.io/v1): one package to install from the catalogs
// that its selector picks, cluster-scoped. Only spec.source.sourceType
// Catalog exists. The zero value asks for no package.
type ClusterExtension struct {
	Name string `json:"name"`
	// Namespace is spec.namespace: where the extension's objects go.
	Namespace string `json:"namespace"`
	// ServiceAccount is spec.serviceAccount.name ("" when absent).
	ServiceAccount string `json:"serviceAccount,omitempty"`
	// SourceType is spec.source.sourceType: "Catalog".
	SourceType string `json:"sourceType"`
	// Package is spec.source.catalog.packageName.
	Package string `json:"package"`
	// Version is spec.source.catalog.version: a version or a version range
	// in Masterminds semver syntax, as written ("" for any version).
	Version string `json:"version,omitempty"`
	// Channels is spec.source.catalog.channels in the order written; nil
	// means every channel.
	Channels []string `json:"channels,omitempty"`
	// Selector is spec.source.catalog.selector; nil selects every catalog,
	// as does an empty one.
	Selector *LabelSelector `json:"selector,omitempty"`
	// UpgradeConstraintPolicy is spec.source.catalog.upgradeConstraintPolicy
	// as written; empty means [UpgradeCatalogProvided] (see
	// [ClusterExtension.Policy]).
	UpgradeConstraintPolicy UpgradeConstraintPolicy `json:"upgradeConstraintPolicy,omitempty"`
	// CRDUpgradeSafety is spec.install.preflight.crdUpgradeSafety.enforcement
	// ("None" or "Strict"; "" when absent, which v1 runs as Strict).
	CRDUpgradeSafety string `json:"crdUpgradeSafety,omitempty"`
	// Config holds spec.config.inline (configType Inline) as compact JSON,
	// nil when there is no spec.config; WatchNamespace is its
	// watchNamespace ("" when absent).
	Config         json.RawMessage `json:"config,omitempty"`
	WatchNamespace string          `json:"watchNamespace,omitempty"`
	// Installed is status.install.bundle: the bundle installed now; nil
	// when nothing is installed.
	Installed *InstalledBundle `json:"installed,omitempty"`
}

// Policy returns the upgrade constraint policy in force:
// UpgradeConstraintPolicy, or [UpgradeCatalogProvided] when it is empty.
func (e *ClusterExtension) Policy() UpgradeConstraintPolicy {
	if e.UpgradeConstraintPolicy == "" {
		return UpgradeCatalogProvided
	}
	return e.UpgradeConstraintPolicy
}

// InstalledBundle is a ClusterExtension's status.install.bundle.
type InstalledBundle struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	// Release is status.install.bundle.release; nil when absent.
	Release *string `json:"release,omitempty"`
}

// ClusterCatalog is an OLM v1 ClusterCatalog (olm.operatorframework.io/v1):
// a catalog's identity, labels, priority and availability, cluster-scoped.
// Its content comes from elsewhere (a File-Based Catalog given by name).
// The zero value is an unnamed catalog, available, priority 0, whose
// Serving condition is absent.
type ClusterCatalog struct {
	Name string `json:"name"`
	// Labels is metadata.labels, always with [MetadataNameLabel] set to
	// Name, as catalogd sets it.
	Labels map[string]string `json:"labels,omitempty"`
	// Priority is spec.priority (0 when absent): between catalogs that
	// both hold a candidate, the higher priority wins.
	Priority int32 `json:"priority,omitempty"`
	// AvailabilityMode is spec.availabilityMode as written; empty means
	// [AvailabilityAvailable] (see [ClusterCatalog.Available]).
	AvailabilityMode AvailabilityMode `json:"availabilityMode,omitempty"`
	// Serving is the status of the Serving condition ("True", "False",
	// "Unknown"), "" when the catalog has no such condition (a manifest
	// written by hand, without status). ServingReason is its reason.
	Serving       string `json:"serving,omitempty"`
	ServingReason string `json:"servingReason,omitempty"`
	// Image is spec.source.image.ref ("" when absent).
	Image string `json:"image,omitempty"`
}

// Available reports whether the catalog takes part in resolution: its
// availability mode is not Unavailable.
func (c *ClusterCatalog) Available() bool { return c.AvailabilityMode != AvailabilityUnavailable }

// NewClusterCatalog returns the ClusterCatalog that a catalog given only by
// name stands for: available, priority 0, labelled only with
// [MetadataNameLabel], served.
func NewClusterCatalog(name string) ClusterCatalog {
	return ClusterCatalog{Name: name, Labels: map[string]string{MetadataNameLabel: name}, Serving: "True"}
}

// ClusterExtension returns the ClusterExtension named name, or nil. The
// result points into s.
func (s *State) ClusterExtension(name string) *ClusterExtension {
	return find(s.ClusterExtensions, clusterExtensionKey, "", name)
}

// ClusterCatalog returns the ClusterCatalog named name, or nil. The result
// points into s.
func (s *State) ClusterCatalog(name string) *ClusterCatalog {
	return find(s.ClusterCatalogs, clusterCatalogKey, "", name)
}

func clusterExtensionKey(e ClusterExtension) (string, string) { return "", e.Name }
func clusterCatalogKey(c ClusterCatalog) (string, string)     { return "", c.Name }

func cloneClusterExtension(e ClusterExtension) ClusterExtension {
	e.Channels = slices.Clone(e.Channels)
	e.Config = slices.Clone(e.Config)
	if e.Selector != nil {
		e.Selector = cloneSelector(e.Selector)
	}
	if e.Installed != nil {
		in := *e.Installed
		if in.Release != nil {
			r := *in.Release
			in.Release = &r
		}
		e.Installed = &in
	}
	return e
}

func cloneClusterCatalog(c ClusterCatalog) ClusterCatalog {
	c.Labels = maps.Clone(c.Labels)
	return c
}

// The fields each part of an OLM v1 object may hold: what the CRDs of
// operator-controller and catalogd define (metadata: what the API server
// keeps in ObjectMeta). Any other field is refused, as `kubectl apply
// --validate=strict` refuses it.
var (
	v1MetaFields = []string{"name", "generateName", "namespace", "labels", "annotations", "uid", "resourceVersion",
		"generation", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "finalizers",
		"ownerReferences", "managedFields", "selfLink"}
)

// fields refuses the keys of m that are not among known: an unknown field
// at path (the path of m, "" at the top), with the nearest known name when
// one is close.
func (o *object) fields(m map[string]any, path string, known ...string) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if slices.Contains(known, k) {
			continue
		}
		field := k
		if path != "" {
			field = path + "." + k
		}
		o.unknownField(field, k, known)
	}
}

// v1 reads an object of an OLM v1 kind (cluster-scoped). Its apiVersion
// must be olm.operatorframework.io/v1 and it needs a name (`kubectl
// apply` needs one); then it is checked against its CRD as the API server
// checks a create (checkCRD: unknown fields, the OpenAPI schema, metadata,
// the validation rules), each problem in the API server's words, and read
// when the API server would take it. What the API server or catalogd
// changes without a word is noted.
func (d *decoder) v1(o *object, apiVersion, kind string, m map[string]any, line int) {
	o.kind = kind
	if apiVersion != APIGroupV1+"/v1" {
		o.errorf("apiVersion", "%s is %q, want %q (the version Sextant reads)", kind, apiVersion, APIGroupV1+"/v1")
		return
	}
	meta, ok := o.obj(m, "metadata", "metadata")
	if !ok {
		if _, present := m["metadata"]; !present {
			o.errorf("metadata", "missing")
		}
		return
	}
	n := d.nerrs()
	if err := metadataTypeError(meta); err != nil {
		o.name, _ = meta["name"].(string)
		o.fail("metadata."+err.Field, err)
		return
	}
	o.name, _ = o.str(meta, "name", "metadata.name")
	o.fields(meta, "metadata", v1MetaFields...)
	if o.name == "" {
		o.errorf("metadata.name", "missing")
	}
	ns, _ := o.str(meta, "namespace", "metadata.namespace")
	check := checkCRD(m, kind, d.featureSet)
	for _, u := range check.unknown {
		o.fail(u.Field, u)
	}
	for _, e := range check.errs {
		o.fail(e.Field, e)
	}
	if d.nerrs() > n || !d.define(o, objectKey{kind, "", o.name}, line) {
		return
	}
	if ns != "" {
		d.note(o, NoteNamespaceDropped, fmt.Sprintf("%s %q: metadata.namespace %q dropped: a %s is cluster-scoped, and the API server clears it", kind, o.name, ns, kind))
	}
	spec, _ := m["spec"].(map[string]any)
	status, _ := m["status"].(map[string]any)
	if kind == KindClusterExtension {
		d.clusterExtension(o, n, spec, status)
	} else {
		d.clusterCatalog(o, n, meta, spec, status)
	}
}

// clusterExtension reads a ClusterExtension the API server takes; n is
// the error count before the object.
func (d *decoder) clusterExtension(o *object, n int, spec, status map[string]any) {
	e := ClusterExtension{Name: o.name}
	e.Namespace, _ = spec["namespace"].(string)
	if sa, ok := spec["serviceAccount"].(map[string]any); ok {
		e.ServiceAccount, _ = sa["name"].(string)
	}
	if e.ServiceAccount != "" {
		d.note(o, NoteServiceAccountIgnored, fmt.Sprintf("ClusterExtension %q: %s", o.name, ServiceAccountDeprecated))
	}
	src, _ := spec["source"].(map[string]any)
	e.SourceType, _ = src["sourceType"].(string)
	if cat, ok := src["catalog"].(map[string]any); ok {
		extensionCatalog(cat, &e)
	}
	if install, ok := spec["install"].(map[string]any); ok {
		pre, _ := install["preflight"].(map[string]any)
		crd, _ := pre["crdUpgradeSafety"].(map[string]any)
		e.CRDUpgradeSafety, _ = crd["enforcement"].(string)
	}
	if cfg, ok := spec["config"].(map[string]any); ok {
		if inline, ok := cfg["inline"].(map[string]any); ok {
			e.WatchNamespace, _ = inline["watchNamespace"].(string)
			js, err := json.Marshal(inline)
			if err != nil {
				o.errorf("spec.config.inline", "%v", err)
				return
			}
			e.Config = js
		}
	}
	if status != nil {
		d.conditions(o, status, "status.conditions")
		if install, ok := o.obj(status, "install", "status.install"); ok {
			if b, ok := o.obj(install, "bundle", "status.install.bundle"); ok {
				in := &InstalledBundle{}
				in.Name, _ = o.str(b, "name", "status.install.bundle.name")
				in.Version, _ = o.str(b, "version", "status.install.bundle.version")
				if raw, present := b["release"]; present && raw != nil {
					if r, ok := as[string](o, raw, "status.install.bundle.release"); ok {
						in.Release = &r
					}
				}
				if in.Name == "" {
					o.errorf("status.install.bundle.name", "missing")
				}
				if in.Version == "" {
					o.errorf("status.install.bundle.version", "missing")
				}
				e.Installed = in
			}
		}
	}
	if d.nerrs() == n {
		d.state.ClusterExtensions = append(d.state.ClusterExtensions, e)
	}
}

// extensionCatalog reads spec.source.catalog, which the API server took.
// The selector is read as written: whether it is a valid label selector
// is operator-controller's question, for this extension alone.
func extensionCatalog(cat map[string]any, e *ClusterExtension) {
	e.Package, _ = cat["packageName"].(string)
	e.Version, _ = cat["version"].(string)
	if chs, ok := cat["channels"].([]any); ok {
		for _, ch := range chs {
			s, _ := ch.(string)
			e.Channels = append(e.Channels, s)
		}
	}
	if sel, ok := cat["selector"].(map[string]any); ok {
		e.Selector = rawSelector(sel)
	}
	policy, _ := cat["upgradeConstraintPolicy"].(string)
	if p := UpgradeConstraintPolicy(policy); p != UpgradeCatalogProvided {
		e.UpgradeConstraintPolicy = p
	}
}

// rawSelector reads a label selector the API server took (its types are
// checked), without judging it.
func rawSelector(sel map[string]any) *LabelSelector {
	out := &LabelSelector{}
	if labels, ok := sel["matchLabels"].(map[string]any); ok && len(labels) > 0 {
		out.MatchLabels = make(map[string]string, len(labels))
		for k, v := range labels {
			out.MatchLabels[k], _ = v.(string)
		}
	}
	if exprs, ok := sel["matchExpressions"].([]any); ok {
		out.MatchExpressions = []LabelSelectorRequirement{}
		for _, raw := range exprs {
			x, _ := raw.(map[string]any)
			var r LabelSelectorRequirement
			r.Key, _ = x["key"].(string)
			r.Operator, _ = x["operator"].(string)
			if vals, ok := x["values"].([]any); ok {
				r.Values = []string{}
				for _, v := range vals {
					s, _ := v.(string)
					r.Values = append(r.Values, s)
				}
			}
			out.MatchExpressions = append(out.MatchExpressions, r)
		}
	}
	return out
}

// conditions checks a list of metav1.Condition at field and returns it as
// read (type → status, reason).
func (d *decoder) conditions(o *object, m map[string]any, field string) map[string][2]string {
	items, _ := o.arr(m, "conditions", field)
	var out map[string][2]string
	for i, raw := range items {
		f := fmt.Sprintf("%s[%d]", field, i)
		c, ok := as[map[string]any](o, raw, f)
		if !ok {
			continue
		}
		typ, _ := o.str(c, "type", f+".type")
		st, ok := o.str(c, "status", f+".status")
		reason, _ := o.str(c, "reason", f+".reason")
		switch st {
		case "True", "False", "Unknown":
		default:
			if ok {
				o.errorf(f+".status", "%q, want True, False or Unknown", st)
			}
		}
		if out == nil {
			out = map[string][2]string{}
		}
		out[typ] = [2]string{st, reason}
	}
	return out
}

// clusterCatalog reads a ClusterCatalog the API server takes; n is the
// error count before the object.
func (d *decoder) clusterCatalog(o *object, n int, meta, spec, status map[string]any) {
	c := ClusterCatalog{Name: o.name, Labels: map[string]string{}}
	if labels, ok := meta["labels"].(map[string]any); ok {
		for k, v := range labels {
			c.Labels[k], _ = v.(string)
		}
	}
	if v, ok := c.Labels[MetadataNameLabel]; ok && v != c.Name {
		d.note(o, NoteCatalogNameLabel, fmt.Sprintf("ClusterCatalog %q: label %s=%q replaced by %q: catalogd sets it to the catalog's name", c.Name, MetadataNameLabel, v, c.Name))
	}
	c.Labels[MetadataNameLabel] = c.Name
	if src, ok := spec["source"].(map[string]any); ok {
		if img, ok := src["image"].(map[string]any); ok {
			c.Image, _ = img["ref"].(string)
		}
	}
	if num, ok := spec["priority"].(json.Number); ok {
		p, _ := strconv.ParseInt(string(num), 10, 64)
		c.Priority = int32(max(min(p, math.MaxInt32), math.MinInt32))
	}
	mode, _ := spec["availabilityMode"].(string)
	if m := AvailabilityMode(mode); m != AvailabilityAvailable {
		c.AvailabilityMode = m
	}
	if status != nil {
		if serving, ok := d.conditions(o, status, "status.conditions")["Serving"]; ok {
			c.Serving, c.ServingReason = serving[0], serving[1]
		}
	}
	if d.nerrs() == n {
		d.state.ClusterCatalogs = append(d.state.ClusterCatalogs, c)
	}
}

package cluster

import (
	"encoding/json"
	"fmt"
	"maps"
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
	conditionFields = []string{"type", "status", "reason", "message", "lastTransitionTime", "observedGeneration"}
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

// v1Object reads an object of an OLM v1 kind (cluster-scoped): its
// apiVersion must be olm.operatorframework.io/v1, it has a name and no
// namespace, it is defined once, and it has only known top-level fields.
// ok is false when the object is not to be read further.
func (d *decoder) v1Object(o *object, apiVersion, kind string, m map[string]any, line int) (meta, spec, status map[string]any, ok bool) {
	o.kind = kind
	if apiVersion != APIGroupV1+"/v1" {
		o.errorf("apiVersion", "%s is %q, want %q (the version Sextant reads)", kind, apiVersion, APIGroupV1+"/v1")
		return nil, nil, nil, false
	}
	n := d.nerrs()
	o.fields(m, "", "apiVersion", "kind", "metadata", "spec", "status")
	meta, ok = o.obj(m, "metadata", "metadata")
	if !ok {
		if _, present := m["metadata"]; !present {
			o.errorf("metadata", "missing")
		}
		return nil, nil, nil, false
	}
	o.name, _ = o.str(meta, "name", "metadata.name")
	o.fields(meta, "metadata", v1MetaFields...)
	if ns, _ := o.str(meta, "namespace", "metadata.namespace"); ns != "" {
		o.errorf("metadata.namespace", "%q: a %s is cluster-scoped and has no namespace", ns, kind)
	}
	if o.name == "" {
		o.errorf("metadata.name", "missing")
	}
	if d.nerrs() > n {
		return nil, nil, nil, false
	}
	if !d.define(o, objectKey{kind, "", o.name}, line) {
		return nil, nil, nil, false
	}
	spec, _ = o.obj(m, "spec", "spec")
	status, _ = o.obj(m, "status", "status")
	return meta, spec, status, true
}

// v1 reads an object of an OLM v1 kind Decode reads.
func (d *decoder) v1(o *object, apiVersion, kind string, m map[string]any, line int) {
	n := d.nerrs()
	meta, spec, status, ok := d.v1Object(o, apiVersion, kind, m, line)
	if !ok {
		return
	}
	if kind == KindClusterExtension {
		d.clusterExtension(o, n, spec, status)
	} else {
		d.clusterCatalog(o, n, meta, spec, status)
	}
}

// clusterExtension reads a ClusterExtension; n is the error count before
// the object.
func (d *decoder) clusterExtension(o *object, n int, spec, status map[string]any) {
	e := ClusterExtension{Name: o.name}
	if spec == nil {
		o.errorf("spec", "missing: a ClusterExtension needs spec.namespace and spec.source")
		return
	}
	o.fields(spec, "spec", "namespace", "serviceAccount", "source", "install", "config", "progressDeadlineMinutes")
	e.Namespace, _ = o.str(spec, "namespace", "spec.namespace")
	if e.Namespace == "" {
		o.errorf("spec.namespace", "missing: the namespace the extension is installed in")
	}
	if sa, ok := o.obj(spec, "serviceAccount", "spec.serviceAccount"); ok {
		o.fields(sa, "spec.serviceAccount", "name")
		e.ServiceAccount, _ = o.str(sa, "name", "spec.serviceAccount.name")
	}
	d.extensionSource(o, spec, &e)
	if install, ok := o.obj(spec, "install", "spec.install"); ok {
		o.fields(install, "spec.install", "preflight")
		if pre, ok := o.obj(install, "preflight", "spec.install.preflight"); ok {
			o.fields(pre, "spec.install.preflight", "crdUpgradeSafety")
			if crd, ok := o.obj(pre, "crdUpgradeSafety", "spec.install.preflight.crdUpgradeSafety"); ok {
				o.fields(crd, "spec.install.preflight.crdUpgradeSafety", "enforcement")
				e.CRDUpgradeSafety, _ = o.str(crd, "enforcement", "spec.install.preflight.crdUpgradeSafety.enforcement")
				if e.CRDUpgradeSafety != "None" && e.CRDUpgradeSafety != "Strict" {
					o.errorf("spec.install.preflight.crdUpgradeSafety.enforcement", "%q, want None or Strict", e.CRDUpgradeSafety)
				}
			} else {
				o.errorf("spec.install.preflight", "at least one of [crdUpgradeSafety] are required when preflight is specified")
			}
		} else {
			o.errorf("spec.install", "at least one of [preflight] are required when install is specified")
		}
	}
	d.extensionConfig(o, spec, &e)
	if raw, present := spec["progressDeadlineMinutes"]; present && raw != nil {
		if _, ok := raw.(json.Number); !ok {
			o.errorf("spec.progressDeadlineMinutes", "is %s, want an integer", kindOf(raw))
		}
	}
	if status != nil {
		o.fields(status, "status", "conditions", "install", "activeRevisions")
		d.conditions(o, status, "status.conditions")
		if install, ok := o.obj(status, "install", "status.install"); ok {
			o.fields(install, "status.install", "bundle")
			if b, ok := o.obj(install, "bundle", "status.install.bundle"); ok {
				o.fields(b, "status.install.bundle", "name", "version", "release")
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

// extensionSource reads spec.source.
func (d *decoder) extensionSource(o *object, spec map[string]any, e *ClusterExtension) {
	src, ok := o.obj(spec, "source", "spec.source")
	if !ok {
		if _, present := spec["source"]; !present {
			o.errorf("spec.source", "missing: sourceType Catalog and the catalog filter (packageName, …)")
		}
		return
	}
	o.fields(src, "spec.source", "sourceType", "catalog")
	e.SourceType, _ = o.str(src, "sourceType", "spec.source.sourceType")
	if e.SourceType != "Catalog" {
		o.errorf("spec.source.sourceType", "%q, want Catalog (the only source type of OLM v1)", e.SourceType)
		return
	}
	cat, ok := o.obj(src, "catalog", "spec.source.catalog")
	if !ok {
		o.errorf("spec.source.catalog", "catalog is required when sourceType is Catalog, and forbidden otherwise")
		return
	}
	const f = "spec.source.catalog"
	o.fields(cat, f, "packageName", "version", "channels", "selector", "upgradeConstraintPolicy")
	e.Package, _ = o.str(cat, "packageName", f+".packageName")
	if e.Package == "" {
		o.errorf(f+".packageName", "missing: the package to install")
	}
	e.Version, _ = o.str(cat, "version", f+".version")
	e.Channels, _ = o.strs(cat, "channels", f+".channels")
	for i, ch := range e.Channels {
		if ch == "" {
			o.errorf(fmt.Sprintf("%s.channels[%d]", f, i), "empty: want a channel name")
		}
	}
	if sel, ok := o.obj(cat, "selector", f+".selector"); ok {
		o.fields(sel, f+".selector", "matchLabels", "matchExpressions")
		e.Selector = o.labelSelector(sel, f+".selector")
	}
	policy, _ := o.str(cat, "upgradeConstraintPolicy", f+".upgradeConstraintPolicy")
	switch p := UpgradeConstraintPolicy(policy); p {
	case "", UpgradeCatalogProvided, UpgradeSelfCertified:
		e.UpgradeConstraintPolicy = p
	default:
		o.errorf(f+".upgradeConstraintPolicy", "unknown policy %q, want %s or %s", policy, UpgradeCatalogProvided, UpgradeSelfCertified)
	}
}

// extensionConfig reads spec.config.
func (d *decoder) extensionConfig(o *object, spec map[string]any, e *ClusterExtension) {
	cfg, ok := o.obj(spec, "config", "spec.config")
	if !ok {
		return
	}
	o.fields(cfg, "spec.config", "configType", "inline")
	typ, _ := o.str(cfg, "configType", "spec.config.configType")
	if typ != "Inline" {
		o.errorf("spec.config.configType", "%q, want Inline (the only config type of OLM v1)", typ)
		return
	}
	inline, ok := o.obj(cfg, "inline", "spec.config.inline")
	if !ok {
		o.errorf("spec.config.inline", "inline is required when configType is Inline, and forbidden otherwise")
		return
	}
	if len(inline) == 0 {
		o.errorf("spec.config.inline", "empty: give at least one property")
		return
	}
	e.WatchNamespace, _ = o.str(inline, "watchNamespace", "spec.config.inline.watchNamespace")
	js, err := json.Marshal(inline)
	if err != nil {
		o.errorf("spec.config.inline", "%v", err)
		return
	}
	e.Config = js
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
		o.fields(c, f, conditionFields...)
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

// clusterCatalog reads a ClusterCatalog; n is the error count before the
// object.
func (d *decoder) clusterCatalog(o *object, n int, meta, spec, status map[string]any) {
	c := ClusterCatalog{Name: o.name}
	if labels, ok := o.obj(meta, "labels", "metadata.labels"); ok {
		c.Labels = o.stringMap(labels, "metadata.labels")
	}
	if c.Labels == nil {
		c.Labels = map[string]string{}
	}
	if v, ok := c.Labels[MetadataNameLabel]; ok && v != c.Name {
		o.errorf(`metadata.labels["`+MetadataNameLabel+`"]`, "%q is not the catalog's name %q (catalogd sets this label to the name)", v, c.Name)
	}
	c.Labels[MetadataNameLabel] = c.Name
	if spec == nil {
		o.errorf("spec", "missing: a ClusterCatalog needs spec.source")
		return
	}
	o.fields(spec, "spec", "source", "priority", "availabilityMode")
	if src, ok := o.obj(spec, "source", "spec.source"); ok {
		o.fields(src, "spec.source", "type", "image")
		if typ, _ := o.str(src, "type", "spec.source.type"); typ != "Image" {
			o.errorf("spec.source.type", "%q, want Image (the only source type of catalogd)", typ)
		}
		if img, ok := o.obj(src, "image", "spec.source.image"); ok {
			o.fields(img, "spec.source.image", "ref", "pollIntervalMinutes")
			c.Image, _ = o.str(img, "ref", "spec.source.image.ref")
		}
	} else if _, present := spec["source"]; !present {
		o.errorf("spec.source", "missing: the catalog's image (type Image, image.ref)")
	}
	if raw, present := spec["priority"]; present && raw != nil {
		num, ok := raw.(json.Number)
		if !ok {
			o.errorf("spec.priority", "is %s, want an integer", kindOf(raw))
		} else if p, err := strconv.ParseInt(string(num), 10, 32); err != nil || p < -2147483648 || p > 2147483647 {
			o.errorf("spec.priority", "%s is not a 32-bit integer", num)
		} else {
			c.Priority = int32(p)
		}
	}
	mode, _ := o.str(spec, "availabilityMode", "spec.availabilityMode")
	switch m := AvailabilityMode(mode); m {
	case "", AvailabilityAvailable, AvailabilityUnavailable:
		c.AvailabilityMode = m
	default:
		o.errorf("spec.availabilityMode", "unknown mode %q, want %s or %s", mode, AvailabilityAvailable, AvailabilityUnavailable)
	}
	if status != nil {
		o.fields(status, "status", "conditions", "resolvedSource", "urls", "lastUnpacked")
		if serving, ok := d.conditions(o, status, "status.conditions")["Serving"]; ok {
			c.Serving, c.ServingReason = serving[0], serving[1]
		}
	}
	if d.nerrs() == n {
		d.state.ClusterCatalogs = append(d.state.ClusterCatalogs, c)
	}
}

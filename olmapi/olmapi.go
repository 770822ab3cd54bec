// Package olmapi converts the typed objects of
// github.com/operator-framework/api — what a controller gets from client-go
// listers, informers or a controller-runtime client — into the
// [cluster.State] that Sextant resolves.
//
// It lives in a module of its own so that Sextant's core module never
// requires Kubernetes modules: a program that reads manifests needs only
// the core; a controller that holds typed objects adds this module.
//
// Objects are converted by the rules of [cluster.Decode], not by a second
// copy of them: every object is encoded as JSON, as the API server would
// serve it (without the parts resolution never reads, such as a CSV's
// install strategy and icon), with its kind and API version set (listers
// leave TypeMeta empty), and decoded by package cluster. The state is
// therefore the one `kubectl get -o yaml` piped into `sextant` gives, and
// the errors are cluster's: every problem reported, each naming the object
// and the field.
//
// The other way, [InstallPlanObjects] turns what OLM would create for a plan
// ([resolver.Resolver.InstallPlan]) into a typed InstallPlan and the
// dependency Subscriptions, the objects `sextant resolve -o installplan`
// writes.
package olmapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"

	operatorsv1 "github.com/operator-framework/api/pkg/operators/v1"
	operatorsv1alpha1 "github.com/operator-framework/api/pkg/operators/v1alpha1"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/sextantdev/sextant/cluster"
)

// The API versions of the kinds the adapter converts.
const (
	apiVersionV1alpha1 = "operators.coreos.com/v1alpha1"
	apiVersionV1       = "operators.coreos.com/v1"
)

// lastApplied is the annotation kubectl apply keeps: a whole copy of the
// object, never read by resolution.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// Objects are the typed objects of one or more namespaces, as a controller
// lists them (a lister's []*T, or the address of each item of a
// controller-runtime list). Nil entries are skipped. The zero value holds
// nothing.
type Objects struct {
	CSVs           []*operatorsv1alpha1.ClusterServiceVersion
	Subscriptions  []*operatorsv1alpha1.Subscription
	CatalogSources []*operatorsv1alpha1.CatalogSource
	OperatorGroups []*operatorsv1.OperatorGroup
	InstallPlans   []*operatorsv1alpha1.InstallPlan
}

// State converts objs into a cluster state, sorted as [cluster.Decode]
// sorts it. It does not modify objs or keep references to them: the caller
// owns the result.
//
// Every problem is reported, as Decode reports it (an errors.Join of
// *cluster.Error values whose File is "typed objects", whose Line is 0
// and whose Field starts with the field of Objects and the object's index
// in it, as in "Subscriptions[2].spec.name" or "CSVs[0].spec.version"): a
// Subscription without spec or package, one
// that names a catalog without its namespace, an object without a name or
// namespace, a duplicate object. A CSV whose spec.version is the zero
// version is an error: a typed CSV cannot tell an absent version from
// 0.0.0, and a CSV without a version would be compared with the catalog
// as 0.0.0 without a word.
func State(objs Objects) (*cluster.State, error) {
	l := &list{}
	for i, c := range objs.CSVs {
		if c == nil {
			continue
		}
		if c.Spec.Version.Equals(zeroVersion) {
			l.errs = append(l.errs, &cluster.Error{
				File: inputName, Kind: cluster.KindCSV, Namespace: c.Namespace, Name: c.Name,
				Field: "CSVs[" + strconv.Itoa(i) + "].spec.version",
				Err:   errors.New("missing or 0.0.0: a CSV must have a version (resolution compares it with the catalog's)"),
			})
			continue
		}
		l.add(trimCSV(c), "CSVs", i)
	}
	addTyped(l, "Subscriptions", objs.Subscriptions, cluster.KindSubscription, apiVersionV1alpha1, nil)
	addTyped(l, "CatalogSources", objs.CatalogSources, cluster.KindCatalogSource, apiVersionV1alpha1, nil)
	addTyped(l, "OperatorGroups", objs.OperatorGroups, cluster.KindOperatorGroup, apiVersionV1, nil)
	// The steps of an InstallPlan carry whole manifests; resolution reads
	// the plan's spec and phase.
	addTyped(l, "InstallPlans", objs.InstallPlans, cluster.KindInstallPlan, apiVersionV1alpha1,
		func(p *operatorsv1alpha1.InstallPlan) { p.Status.Plan = nil })
	return l.decode()
}

// typedObject is the pointer type of a typed object: its metadata and its
// kind, through the methods of the embedded ObjectMeta and TypeMeta.
type typedObject[T any] interface {
	*T
	GetObjectMeta() metav1.Object
	SetGroupVersionKind(schema.GroupVersionKind)
}

// addTyped adds to l a copy of each object of objs that is not nil, as
// objs.<field>[i]: its metadata trimmed (trimMeta), its kind and API
// version set (listers leave them empty), and, when trim is not nil,
// trimmed further by trim. objs is not modified.
func addTyped[T any, P typedObject[T]](l *list, field string, objs []*T, kind, apiVersion string, trim func(P)) {
	for i, o := range objs {
		if o == nil {
			continue
		}
		c := *o
		p := P(&c)
		// GetObjectMeta of an embedded ObjectMeta is the ObjectMeta itself.
		if m, ok := p.GetObjectMeta().(*metav1.ObjectMeta); ok {
			*m = trimMeta(*m)
		}
		p.SetGroupVersionKind(schema.FromAPIVersionAndKind(apiVersion, kind))
		if trim != nil {
			trim(p)
		}
		l.add(p, field, i)
	}
}

// list is the objects of State as one `kind: List`, and where each item
// comes from.
type list struct {
	items   []any
	origins []string // items[i] is objs.<origins[i]>
	errs    []error
}

func (l *list) add(obj any, field string, i int) {
	l.items = append(l.items, obj)
	l.origins = append(l.origins, field+"["+strconv.Itoa(i)+"]")
}

// decode decodes the list with package cluster and makes its errors name
// the objects as the caller gave them: "Subscriptions[2].spec.name", not a
// line of a list the caller never saw.
func (l *list) decode() (*cluster.State, error) {
	data, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": l.items})
	if err != nil {
		return nil, fmt.Errorf("olmapi: encode objects: %w", err)
	}
	state, err := cluster.Decode(bytes.NewReader(data), inputName)
	if err != nil {
		errs := l.errs
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			errs = append(errs, j.Unwrap()...)
		} else {
			errs = append(errs, err)
		}
		for _, e := range errs {
			var ce *cluster.Error
			if errors.As(e, &ce) && ce.File == inputName {
				ce.Line = 0
				ce.Field = l.origin(ce.Field)
			}
		}
		return nil, errors.Join(errs...)
	}
	if len(l.errs) > 0 {
		return nil, errors.Join(l.errs...)
	}
	return state, nil
}

// origin rewrites the field path "items[N].rest" of the list to the
// caller's "CSVs[i].rest".
func (l *list) origin(field string) string {
	rest, ok := strings.CutPrefix(field, "items[")
	if !ok {
		return field
	}
	num, rest, ok := strings.Cut(rest, "]")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n < 0 || n >= len(l.origins) {
		return field
	}
	return l.origins[n] + rest
}

// inputName names the typed objects in errors.
const inputName = "typed objects"

var zeroVersion = operatorsv1alpha1.ClusterServiceVersion{}.Spec.Version.Version

// trimCSV returns a copy of c with its kind set and without what
// resolution never reads and can be large (the install strategy with its
// deployments, the icon, the description, webhooks, related images, the
// status conditions).
func trimCSV(c *operatorsv1alpha1.ClusterServiceVersion) *operatorsv1alpha1.ClusterServiceVersion {
	t := *c
	t.TypeMeta.Kind, t.TypeMeta.APIVersion = cluster.KindCSV, apiVersionV1alpha1
	t.ObjectMeta = trimMeta(c.ObjectMeta)
	t.Spec.InstallStrategy = operatorsv1alpha1.NamedInstallStrategy{}
	t.Spec.Icon = nil
	t.Spec.Description = ""
	t.Spec.WebhookDefinitions = nil
	t.Spec.RelatedImages = nil
	t.Status.Conditions = nil
	t.Status.RequirementStatus = nil
	return &t
}

// trimMeta returns the object metadata resolution reads: name, namespace,
// labels and annotations (without kubectl's copy of the whole object).
func trimMeta(m metav1.ObjectMeta) metav1.ObjectMeta {
	t := metav1.ObjectMeta{Name: m.Name, Namespace: m.Namespace, Labels: m.Labels, Annotations: m.Annotations}
	if _, ok := m.Annotations[lastApplied]; ok {
		t.Annotations = maps.Clone(m.Annotations)
		delete(t.Annotations, lastApplied)
	}
	return t
}

// Command schemagen writes the field table that cluster checks the OLM
// objects of manifests against (cluster/schema.txt), from the
// CustomResourceDefinitions that define them — the schema the API server,
// and so `kubectl apply --validate=strict`, holds them to:
//
//	go mod download github.com/operator-framework/api@v0.45.0
//	go run ./internal/schemagen -source github.com/operator-framework/api@v0.45.0 \
//		$(go env GOMODCACHE)/github.com/operator-framework/api@v0.45.0/crds/operators.coreos.com_{catalogsources,clusterserviceversions,installplans,operatorgroups,subscriptions}.yaml \
//		> cluster/schema.txt
//
// and the table of OpenShift's ClusterVersion (cluster/schema_openshift.txt),
// from openshift/api's CRD of the newest release Sextant plans upgrades to,
// in its CustomNoUpgrade feature set (every gated field: what some cluster's
// API server accepts):
//
//	git show 9fda5179a7f76209e548ccc46d16767ed1e0bddb:config/v1/zz_generated.crd-manifests/0000_00_cluster-version-operator_01_clusterversions-CustomNoUpgrade.crd.yaml > cv.crd.yaml  # github.com/openshift/api, release-4.22
//	go run ./internal/schemagen -objects "OpenShift's ClusterVersion" \
//		-source "github.com/openshift/api@9fda5179a7f76209e548ccc46d16767ed1e0bddb (release-4.22, feature set CustomNoUpgrade)" \
//		cv.crd.yaml > cluster/schema_openshift.txt
//
// With -validation it writes instead cluster's validation schemas of the
// OLM v1 kinds (Go source: the OpenAPI constraints, and each
// x-kubernetes-validations rule compiled to a Go function), from the CRDs of
// both of operator-controller's feature sets:
//
//	go mod download github.com/operator-framework/operator-controller@v1.11.0
//	D=$(go env GOMODCACHE)/github.com/operator-framework/operator-controller@v1.11.0/helm/olmv1/base
//	go run ./internal/schemagen -validation -source github.com/operator-framework/operator-controller@v1.11.0 \
//		standard=$D/operator-controller/crd/standard/olm.operatorframework.io_clusterextensions.yaml \
//		standard=$D/catalogd/crd/standard/olm.operatorframework.io_clustercatalogs.yaml \
//		experimental=$D/operator-controller/crd/experimental/olm.operatorframework.io_clusterextensions.yaml \
//		experimental=$D/catalogd/crd/experimental/olm.operatorframework.io_clustercatalogs.yaml \
//		> cluster/v1crds_gen.go
//
// For each CRD it reads the schema of the storage version. Each object of
// the schema becomes one "type" line naming its fields; identical objects
// are written once, under the path where they first occur. metadata is
// the API server's ObjectMeta (written by cluster itself), status is not
// checked (OLM writes it, perhaps a newer OLM than the schema), and a part
// the schema leaves open (x-kubernetes-preserve-unknown-fields, an object
// without properties) is not checked either. The format is documented in
// cluster/schema.go.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// schema is the part of an OpenAPI v3 schema that says which fields an
// object has.
type schema struct {
	Type                 string             `json:"type"`
	Properties           map[string]*schema `json:"properties"`
	AdditionalProperties *schema            `json:"additionalProperties"`
	Items                *schema            `json:"items"`
	PreserveUnknown      bool               `json:"x-kubernetes-preserve-unknown-fields"`
	Embedded             bool               `json:"x-kubernetes-embedded-resource"`
}

type crd struct {
	Spec struct {
		Group string `json:"group"`
		Names struct {
			Kind string `json:"kind"`
		} `json:"names"`
		Versions []struct {
			Name    string `json:"name"`
			Storage bool   `json:"storage"`
			Schema  struct {
				OpenAPIV3Schema *schema `json:"openAPIV3Schema"`
			} `json:"schema"`
		} `json:"versions"`
	} `json:"spec"`
}

// gen collects the type lines.
type gen struct {
	byShape map[string]string // the fields of a type → its name
	taken   map[string]bool   // the names given
	lines   []string
}

// name returns a new name for the object at path: Kind.field at the
// first level, else the path's last field, numbered from 2 when taken.
func (g *gen) name(path string) string {
	parts := strings.Split(path, ".")
	base := parts[len(parts)-1]
	if len(parts) == 2 {
		base = path
	}
	base = strings.TrimRight(base, "[]{}")
	name := base
	for i := 2; g.taken[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	g.taken[name] = true
	return name
}

// objectMeta is the API server's ObjectMeta (k8s.io/apimachinery meta/v1),
// which a CRD's schema leaves to it: its fields, and those of an owner
// reference; managedFields is the server's bookkeeping, not checked.
const objectMeta = `type ObjectMeta annotations creationTimestamp deletionGracePeriodSeconds deletionTimestamp finalizers generateName generation labels managedFields:* name namespace ownerReferences:[]ownerReference resourceVersion selfLink uid
type ownerReference apiVersion blockOwnerDeletion controller kind name uid`

func main() {
	source := flag.String("source", "", "where the CRDs come from, for the header (module@version)")
	objects := flag.String("objects", "the OLM objects", "what the CRDs define, for the header")
	validation := flag.Bool("validation", false, "write cluster's validation schemas (Go) of the OLM v1 CRDs given as standard=FILE or experimental=FILE")
	flag.Parse()
	if *validation {
		if err := validationMain(*source, flag.Args()); err != nil {
			fmt.Fprintln(os.Stderr, "schemagen:", err)
			os.Exit(1)
		}
		return
	}
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: schemagen [-source module@version] crd.yaml...")
		os.Exit(2)
	}
	g := &gen{byShape: map[string]string{}, taken: map[string]bool{"ObjectMeta": true, "ownerReference": true}}
	var kinds []string
	for _, path := range flag.Args() {
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "schemagen:", err)
			os.Exit(1)
		}
		var c crd
		if err := yaml.Unmarshal(data, &c); err != nil {
			fmt.Fprintf(os.Stderr, "schemagen: %s: %v\n", path, err)
			os.Exit(1)
		}
		kind := c.Spec.Names.Kind
		var root *schema
		for _, v := range c.Spec.Versions {
			if v.Storage {
				root = v.Schema.OpenAPIV3Schema
			}
		}
		if kind == "" || root == nil {
			fmt.Fprintf(os.Stderr, "schemagen: %s: no kind, or no storage version with a schema\n", path)
			os.Exit(1)
		}
		name := g.object(kind, root, true)
		kinds = append(kinds, fmt.Sprintf("kind %s %s %s", c.Spec.Group, kind, name))
	}
	sort.Strings(kinds)
	w := os.Stdout
	fmt.Fprintf(w, "# The fields of %s cluster reads, from the CustomResourceDefinitions of %s.\n", *objects, *source)
	fmt.Fprintln(w, "# Written by internal/schemagen (see there how); do not edit by hand. Format: cluster/schema.go.")
	write(w, kinds)
	fmt.Fprintln(w, objectMeta)
	write(w, g.lines)
}

func write(w io.Writer, lines []string) {
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}

// object writes the type of the object schema s found at path, and
// returns its name; top is true for the object itself (its metadata is
// ObjectMeta, its status not checked).
func (g *gen) object(path string, s *schema, top bool) string {
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, k)
	}
	sort.Strings(names)
	fields := make([]string, 0, len(names))
	for _, k := range names {
		ref := ""
		switch {
		case top && k == "metadata":
			ref = "ObjectMeta"
		case top && k == "status":
			ref = "*"
		default:
			ref = g.ref(path+"."+k, s.Properties[k])
		}
		if ref != "" {
			k += ":" + ref
		}
		fields = append(fields, k)
	}
	shape := strings.Join(fields, " ")
	if name, ok := g.byShape[shape]; ok {
		return name
	}
	name := path
	if !top {
		name = g.name(path)
	}
	g.byShape[shape] = name
	g.lines = append(g.lines, "type "+name+" "+shape)
	return name
}

// ref returns how a field of schema s, at path, is checked: "" not at all
// (a scalar, or an array or map of scalars), "*" free-form, a type name,
// "[]" or "{}" then a type name for an array or a map of objects.
func (g *gen) ref(path string, s *schema) string {
	switch {
	case s == nil:
		return ""
	case s.PreserveUnknown || s.Embedded:
		return "*"
	case s.Type == "array":
		if r := g.ref(path+"[]", s.Items); r != "" && r != "*" {
			return "[]" + r
		}
		return ""
	case s.Type != "object":
		return ""
	case len(s.Properties) > 0:
		return g.object(path, s, false)
	case s.AdditionalProperties != nil:
		if r := g.ref(path+"{}", s.AdditionalProperties); r != "" && r != "*" {
			return "{}" + r
		}
		return ""
	}
	return "*" // an object the schema says nothing more of
}

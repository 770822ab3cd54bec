package cluster

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/graph"
)

// Object is one manifest object of any kind, as an application's manifests
// hold them (custom resources, ConfigMaps, Deployments, …): only what says
// which API serves it and which object it is.
type Object struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name,omitempty"`
	// File and Line say where the object is (Line: the first line of its
	// document or JSON value; 0 when unknown).
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
}

// GVK returns the object's API: the group and version of its apiVersion
// ("v1" is the core group "") and its kind.
func (o Object) GVK() graph.GVK {
	group, version, ok := strings.Cut(o.APIVersion, "/")
	if !ok {
		group, version = "", o.APIVersion
	}
	return graph.GVK{Group: group, Version: version, Kind: o.Kind}
}

// String names the object as "apiVersion Kind namespace/name".
func (o Object) String() string {
	name := o.Name
	if o.Namespace != "" {
		name = o.Namespace + "/" + name
	}
	return fmt.Sprintf("%s %s %q", o.APIVersion, o.Kind, name)
}

// DecodeObjects reads every object of a manifest stream, of any kind, in the
// forms Decode accepts (a single object, multi-document YAML, a JSON value or
// stream, `kind: List` and typed lists, whose items are returned one by
// one). It reads no field but apiVersion, kind, metadata.name and
// metadata.namespace. An object without apiVersion or kind (and not an item
// of a typed list that gives them) is an error naming it, as is a value that
// is not an object; every problem is reported, as an errors.Join of *Error
// values. The objects are returned in input order; name names the stream in
// errors.
func DecodeObjects(r io.Reader, name string) ([]Object, error) {
	var objs []Object
	d := Loader{}.decoder(context.Background(), name, "")
	d.onObject = func(o *object, apiVersion, kind string, m map[string]any) {
		if apiVersion == "" {
			o.errorf("apiVersion", "missing: every object needs an apiVersion and a kind")
			return
		}
		if kind == "" {
			o.errorf("kind", "missing: every object needs an apiVersion and a kind")
			return
		}
		o.kind = kind
		obj := Object{APIVersion: apiVersion, Kind: kind, File: name, Line: o.line}
		if meta, ok := o.obj(m, "metadata", "metadata"); ok {
			obj.Name, _ = o.str(meta, "name", "metadata.name")
			obj.Namespace, _ = o.str(meta, "namespace", "metadata.namespace")
		}
		objs = append(objs, obj)
	}
	d.read(r)
	if d.nerrs() > 0 {
		return nil, errors.Join(d.bounded()...)
	}
	return objs, nil
}

// SortObjects sorts objects by API group, version, kind, namespace and name,
// keeping input order among equals.
func SortObjects(objs []Object) {
	slices.SortStableFunc(objs, func(a, b Object) int {
		return cmp.Or(a.GVK().Compare(b.GVK()), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
}

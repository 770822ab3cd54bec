package crd_test

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/sextantdev/sextant/crd"
)

// decode reads a CRD manifest written as JSON (a YAML decoder gives the
// same values).
func decode(manifest string) *crd.Definition {
	d := json.NewDecoder(bytes.NewReader([]byte(manifest)))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		panic(err)
	}
	def, _, err := crd.Decode(m)
	if err != nil {
		panic(err)
	}
	return def
}

// A new bundle's CRD makes a field required, drops another (crdify then
// also compares the dropped field with nothing) and limits a third: OLM v1
// refuses the upgrade, in these words.
func ExampleCheckUpgrade() {
	const manifest = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"widgets.example.com"},
"spec":{"group":"example.com","names":{"plural":"widgets","kind":"Widget"},"scope":"Namespaced",
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object",
"properties":{"spec":%s}}}}]}}`
	live := decode(fmt.Sprintf(manifest, `{"type":"object","properties":{"size":{"type":"integer"},"color":{"type":"string"},"name":{"type":"string"}}}`))
	next := decode(fmt.Sprintf(manifest, `{"type":"object","required":["size"],"properties":{"size":{"type":"integer"},"name":{"type":"string","maxLength":63}}}`))

	u := crd.CheckUpgrade(live.Live(), next)
	fmt.Println(u.Safe())
	fmt.Println(u.Message())
	// Output:
	// false
	// validating upgrade for CRD "widgets.example.com": existingFieldRemoval: removed field : v1.^.spec.color
	// v1: ^.spec: required: new required fields: [size]
	// v1: ^.spec.color: type: type changed : "string" -> ""
	// v1: ^.spec.name: maxLength: maximum constraint added when there was none previously : 63
}

// A Checker compares one CRD's manifests across a package's upgrades,
// reading each schema once: here 1.0 -> 1.1 (a field added: safe) and
// 1.0 -> 1.2 (a field's type changed), both from the same live CRD.
func ExampleChecker() {
	const manifest = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"widgets.example.com"},
"spec":{"group":"example.com","names":{"plural":"widgets","kind":"Widget"},"scope":"Namespaced",
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object",
"properties":{"spec":%s}}}}]}}`
	v10 := decode(fmt.Sprintf(manifest, `{"type":"object","properties":{"size":{"type":"integer"}}}`))
	v11 := decode(fmt.Sprintf(manifest, `{"type":"object","properties":{"size":{"type":"integer"},"name":{"type":"string"}}}`))
	v12 := decode(fmt.Sprintf(manifest, `{"type":"object","properties":{"size":{"type":"string"}}}`))

	var c crd.Checker
	for _, next := range []*crd.Definition{v11, v12} {
		u := c.CheckUpgrade(v10.Live(), next)
		if u.Safe() {
			fmt.Println("safe")
			continue
		}
		fmt.Println(u.Message())
	}
	// Output:
	// safe
	// validating upgrade for CRD "widgets.example.com": v1: ^.spec.size: type: type changed : "integer" -> "string"
}

// ExampleDefinition_ValidateObject validates an existing custom resource
// against the schema of a new CRD's version, as OLM v0 does before it
// replaces the CRD, and writes the violations as OLM v0 does.
func ExampleDefinition_ValidateObject() {
	def, _, err := crd.Decode(map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "memcacheds.cache.example.com"},
		"spec": map[string]any{"group": "cache.example.com", "scope": "Namespaced",
			"names": map[string]any{"plural": "memcacheds", "kind": "Memcached"},
			"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "properties": map[string]any{
					"spec": map[string]any{"type": "object", "required": []any{"size"}, "properties": map[string]any{
						"size": map[string]any{"type": "integer", "maximum": 5}}}}}}}}},
	})
	if err != nil {
		panic(err)
	}
	vs, err := def.ValidateObject("v1", map[string]any{"apiVersion": "cache.example.com/v1", "kind": "Memcached",
		"metadata": map[string]any{"name": "m"}, "spec": map[string]any{"size": 8}})
	if err != nil {
		panic(err)
	}
	fmt.Println(crd.ViolationsText(vs, "[]"))
	// Output:
	// [].spec.size: Invalid value: 8: spec.size in body should be less than or equal to 5
}

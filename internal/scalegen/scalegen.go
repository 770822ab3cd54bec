// Package scalegen writes the large, regular inputs that benchmarks and
// BENCHMARKS.md's whole-command timings run on (internal/genscale writes
// them to files): a catalog of n packages, each with one channel "stable"
// of a replaces chain of bundles (1.0.0, 1.1.0, …) that provide one API
// each, and the manifests of namespace "ns" with an OperatorGroup and a
// subscription to every package, every other one installed at 1.0.0 (its
// CSV, with its properties annotation, Succeeded). The same arguments
// give the same bytes.
package scalegen

import (
	"bufio"
	"fmt"
	"io"
)

// Catalog writes the catalog of n packages of versions bundles each, as
// JSON lines, and returns the error of the first write that failed.
func Catalog(w io.Writer, n, versions int) error {
	bw := bufio.NewWriter(w)
	w = bw
	for i := range n {
		p := fmt.Sprintf("p%05d", i)
		fmt.Fprintf(w, `{"schema":"olm.package","name":%q,"defaultChannel":"stable"}`+"\n", p)
		fmt.Fprintf(w, `{"schema":"olm.channel","package":%q,"name":"stable","entries":[`, p)
		for v := range versions {
			if v > 0 {
				fmt.Fprintf(w, `,{"name":"%s.v1.%d.0","replaces":"%s.v1.%d.0"}`, p, v, p, v-1)
			} else {
				fmt.Fprintf(w, `{"name":"%s.v1.0.0"}`, p)
			}
		}
		io.WriteString(w, "]}\n")
		for v := range versions {
			fmt.Fprintf(w, `{"schema":"olm.bundle","name":"%s.v1.%d.0","package":%q,"image":"quay.io/x/%s:v1.%d.0","properties":[{"type":"olm.package","value":{"packageName":%q,"version":"1.%d.0"}},{"type":"olm.gvk","value":{"group":"%s.example.com","version":"v1","kind":"K"}}]}`+"\n", p, v, p, p, v, p, v, p)
		}
	}
	return bw.Flush()
}

// Manifests writes the manifests of n subscriptions: one YAML document
// per object, or (list) one List document, as `kubectl get -o yaml`
// prints it. It returns the error of the first write that failed.
func Manifests(w io.Writer, n int, list bool) error {
	bw := bufio.NewWriter(w)
	w = bw
	// Each object is written at indent: "" for documents, "  " under a
	// List's "- ".
	ind, start := "", "---\n"
	if list {
		io.WriteString(w, "apiVersion: v1\nitems:\n")
		ind, start = "  ", "- "
	}
	obj := func(lines ...string) {
		for i, l := range lines {
			if i == 0 {
				io.WriteString(w, start+l+"\n")
				continue
			}
			io.WriteString(w, ind+l+"\n")
		}
	}
	obj("apiVersion: operators.coreos.com/v1", "kind: OperatorGroup", "metadata:", "  name: og", "  namespace: ns", "spec: {}")
	for i := range n {
		p := fmt.Sprintf("p%05d", i)
		sub := []string{"apiVersion: operators.coreos.com/v1alpha1", "kind: Subscription", "metadata:", "  name: " + p, "  namespace: ns",
			"spec:", "  name: " + p, "  channel: stable", "  source: c", "  sourceNamespace: olm"}
		if i%2 == 0 {
			sub = append(sub, "status:", "  installedCSV: "+p+".v1.0.0", "  currentCSV: "+p+".v1.0.0")
		}
		obj(sub...)
		if i%2 == 0 {
			props := fmt.Sprintf(`{"properties":[{"type":"olm.package","value":{"packageName":%q,"version":"1.0.0"}},{"type":"olm.gvk","value":{"group":"%s.example.com","version":"v1","kind":"K"}}]}`, p, p)
			obj("apiVersion: operators.coreos.com/v1alpha1", "kind: ClusterServiceVersion", "metadata:", "  name: "+p+".v1.0.0", "  namespace: ns",
				"  annotations:", "    operatorframework.io/properties: '"+props+"'", "spec:", "  version: 1.0.0", "status:", "  phase: Succeeded")
		}
	}
	if list {
		io.WriteString(w, "kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	}
	return bw.Flush()
}

// KindlessList writes one List document of n Subscriptions written
// without their kind, each an input error: the hostile input whose
// errors the decoder must bound in number and cost. It returns the error
// of the first write that failed.
func KindlessList(w io.Writer, n int) error {
	bw := bufio.NewWriter(w)
	io.WriteString(bw, "apiVersion: v1\nkind: List\nitems:\n")
	for i := range n {
		fmt.Fprintf(bw, "- apiVersion: operators.coreos.com/v1alpha1\n  metadata:\n    name: s%d\n    namespace: ns\n  spec:\n    name: p%d\n    channel: stable\n", i, i)
	}
	return bw.Flush()
}

// KindlessListJSON writes the List of KindlessList as `kubectl get -o
// json` prints one: a JSON object indented four spaces, the items in its
// "items" array. It returns the error of the first write that failed.
func KindlessListJSON(w io.Writer, n int) error {
	bw := bufio.NewWriter(w)
	io.WriteString(bw, "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n")
	for i := range n {
		sep := ","
		if i == n-1 {
			sep = ""
		}
		fmt.Fprintf(bw, `        {
            "apiVersion": "operators.coreos.com/v1alpha1",
            "metadata": {
                "name": "s%d",
                "namespace": "ns"
            },
            "spec": {
                "channel": "stable",
                "name": "p%d"
            }
        }%s
`, i, i, sep)
	}
	io.WriteString(bw, "    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n")
	return bw.Flush()
}

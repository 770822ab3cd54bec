// Command genscale writes the large inputs that BENCHMARKS.md measures
// whole commands on: a catalog of n packages, each with one channel
// "stable" of a replaces chain of bundles (1.0.0, 1.1.0, …) that provide one
// API each, and the manifests of one namespace with an OperatorGroup and a
// subscription to every package, every other one installed at 1.0.0 (its
// CSV, with its properties annotation, Succeeded). The same flags give the
// same bytes.
//
//	go run ./internal/genscale -n 50000 -out /tmp/scale
//	go run ./cmd/sextant resolve --catalog c=/tmp/scale/catalog.json -f /tmp/scale/cluster.yaml
//
// -list writes the manifests as one List document, as `kubectl get -o
// yaml` prints them, instead of one document per object.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	n := flag.Int("n", 50000, "packages and subscriptions")
	versions := flag.Int("bundles", 2, "bundles per package (a replaces chain)")
	list := flag.Bool("list", false, "write the manifests as one List document")
	out := flag.String("out", ".", "folder to write catalog.json and cluster.yaml in")
	flag.Parse()
	if *n < 1 || *versions < 1 || *versions > 100 {
		fmt.Fprintln(os.Stderr, "genscale: -n must be at least 1 and -bundles from 1 to 100")
		os.Exit(2)
	}
	if err := write(filepath.Join(*out, "catalog.json"), func(w *bufio.Writer) { catalog(w, *n, *versions) }); err != nil {
		fmt.Fprintln(os.Stderr, "genscale:", err)
		os.Exit(1)
	}
	if err := write(filepath.Join(*out, "cluster.yaml"), func(w *bufio.Writer) { manifests(w, *n, *list) }); err != nil {
		fmt.Fprintln(os.Stderr, "genscale:", err)
		os.Exit(1)
	}
}

func write(path string, body func(*bufio.Writer)) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	body(w)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func catalog(w *bufio.Writer, n, versions int) {
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
		w.WriteString("]}\n")
		for v := range versions {
			fmt.Fprintf(w, `{"schema":"olm.bundle","name":"%s.v1.%d.0","package":%q,"image":"quay.io/x/%s:v1.%d.0","properties":[{"type":"olm.package","value":{"packageName":%q,"version":"1.%d.0"}},{"type":"olm.gvk","value":{"group":"%s.example.com","version":"v1","kind":"K"}}]}`+"\n", p, v, p, p, v, p, v, p)
		}
	}
}

func manifests(w *bufio.Writer, n int, list bool) {
	// Each object is written at indent: "" for documents, "  " under a
	// List's "- ".
	ind, start := "", "---\n"
	if list {
		w.WriteString("apiVersion: v1\nitems:\n")
		ind, start = "  ", "- "
	}
	obj := func(lines ...string) {
		for i, l := range lines {
			if i == 0 {
				w.WriteString(start + l + "\n")
				continue
			}
			w.WriteString(ind + l + "\n")
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
		w.WriteString("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	}
}

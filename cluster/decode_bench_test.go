package cluster

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// scaleManifests returns the manifests of n subscriptions, every other one
// with its installed CSV, as one document per object or as one List
// document (what `kubectl get -o yaml` prints).
func scaleManifests(n int, list bool) string {
	var b strings.Builder
	ind, start := "", "---\n"
	if list {
		b.WriteString("apiVersion: v1\nitems:\n")
		ind, start = "  ", "- "
	}
	obj := func(lines ...string) {
		for i, l := range lines {
			if i == 0 {
				b.WriteString(start + l + "\n")
				continue
			}
			b.WriteString(ind + l + "\n")
		}
	}
	for i := range n {
		p := fmt.Sprintf("p%05d", i)
		obj("apiVersion: operators.coreos.com/v1alpha1", "kind: Subscription", "metadata:", "  name: "+p, "  namespace: ns",
			"spec:", "  name: "+p, "  channel: stable", "  source: c", "  sourceNamespace: olm")
		if i%2 == 0 {
			props := fmt.Sprintf(`{"properties":[{"type":"olm.package","value":{"packageName":%q,"version":"1.0.0"}}]}`, p)
			obj("apiVersion: operators.coreos.com/v1alpha1", "kind: ClusterServiceVersion", "metadata:", "  name: "+p+".v1.0.0", "  namespace: ns",
				"  annotations:", "    operatorframework.io/properties: '"+props+"'", "spec:", "  version: 1.0.0", "status:", "  phase: Succeeded")
		}
	}
	if list {
		b.WriteString("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
	}
	return b.String()
}

// BenchmarkDecodeManifests decodes the manifests of 5,000 and 20,000
// subscriptions (and half as many CSVs), one document per object and as
// one List document; the larger is skipped with -short. The cost must grow
// linearly, and the List must cost about what the documents do.
func BenchmarkDecodeManifests(b *testing.B) {
	for _, list := range []bool{false, true} {
		for i, n := range []int{5000, 20000} {
			if i > 0 && testing.Short() {
				continue
			}
			text := scaleManifests(n, list)
			name := fmt.Sprintf("docs/%d", n)
			if list {
				name = fmt.Sprintf("list/%d", n)
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				for b.Loop() {
					st, err := Loader{}.Decode(context.Background(), strings.NewReader(text), "in.yaml")
					if err != nil || len(st.Subscriptions) != n {
						b.Fatalf("%v, %d subscriptions", err, len(st.Subscriptions))
					}
				}
			})
		}
	}
}

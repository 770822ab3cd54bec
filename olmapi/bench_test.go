package olmapi_test

import (
	"fmt"
	"strings"
	"testing"

	operatorsv1alpha1 "github.com/operator-framework/api/pkg/operators/v1alpha1"

	"github.com/sextantdev/sextant/olmapi"
)

// BenchmarkState converts a namespace of n CSVs (each with two owned CRDs,
// the properties annotation and a 20 kB description, which State leaves
// out) and n subscriptions, as a controller does on every reconcile.
func BenchmarkState(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		var objs olmapi.Objects
		for i := range n {
			c := csv("operators", fmt.Sprintf("op%d.v1.0.0", i), "1.0.0")
			c.Spec.Description = strings.Repeat("x", 20000)
			c.Spec.CustomResourceDefinitions.Owned = []operatorsv1alpha1.CRDDescription{
				{Name: fmt.Sprintf("widgets%d.example.com", i), Version: "v1", Kind: fmt.Sprintf("Widget%d", i)},
				{Name: fmt.Sprintf("gadgets%d.example.com", i), Version: "v1", Kind: fmt.Sprintf("Gadget%d", i)},
			}
			c.Annotations = map[string]string{"operatorframework.io/properties": fmt.Sprintf(`{"properties":[{"type":"olm.package","value":{"packageName":"op%d","version":"1.0.0"}}]}`, i)}
			objs.CSVs = append(objs.CSVs, c)
			s := sub("operators", fmt.Sprintf("op%d", i), fmt.Sprintf("op%d", i))
			s.Status.InstalledCSV = c.Name
			objs.Subscriptions = append(objs.Subscriptions, s)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := olmapi.State(objs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

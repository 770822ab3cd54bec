package cluster

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/internal/scalegen"
	"github.com/sextantdev/sextant/internal/testcatalog"
)

// BenchmarkDecodeManifests decodes the manifests of 5,000 and 20,000
// subscriptions (and half as many CSVs, and an OperatorGroup: package
// scalegen's), one document per object and as one List document; the
// larger is skipped with -short. The cost must grow
// linearly, and the List must cost about what the documents do. It
// reports its CPU time (cpu-ms/op).
func BenchmarkDecodeManifests(b *testing.B) {
	for _, list := range []bool{false, true} {
		for i, n := range []int{5000, 20000} {
			if i > 0 && testing.Short() {
				continue
			}
			var buf strings.Builder
			if err := scalegen.Manifests(&buf, n, list); err != nil {
				b.Fatal(err)
			}
			text := buf.String()
			name := fmt.Sprintf("docs/%d", n)
			if list {
				name = fmt.Sprintf("list/%d", n)
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				defer testcatalog.ReportCPU(b)()
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

// BenchmarkDecodeKindlessList decodes a List of 300,000 Subscriptions
// written without their kind (30,000 with -short), as YAML (kubectl get -o
// yaml, 41 MB), and 200,000 of them as JSON (kubectl get -o json, 51 MB:
// 300,000 are over DefaultMaxDocument): every item is an error, of which
// MaxSameErrors are reported and the others counted, so the cost must
// stay that of reading the items. It reports its CPU time (cpu-ms/op),
// which a busy machine does not inflate as it does ns/op.
func BenchmarkDecodeKindlessList(b *testing.B) {
	n := 300000
	if testing.Short() {
		n = 30000
	}
	for _, form := range []struct {
		name  string
		n     int
		write func(io.Writer, int) error
	}{{"yaml", n, scalegen.KindlessList}, {"json", n * 2 / 3, scalegen.KindlessListJSON}} {
		var buf strings.Builder
		if err := form.write(&buf, form.n); err != nil {
			b.Fatal(err)
		}
		text := buf.String()
		b.Run(form.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			defer testcatalog.ReportCPU(b)()
			for b.Loop() {
				_, err := Loader{}.Decode(context.Background(), strings.NewReader(text), "in."+form.name)
				if err == nil || strings.Count(err.Error(), "\n") != MaxSameErrors {
					b.Fatalf("want %d errors and a count, got %v", MaxSameErrors, err)
				}
			}
		})
	}
}

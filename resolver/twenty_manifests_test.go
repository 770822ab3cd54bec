package resolver_test

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	goldenfile "github.com/sextantdev/sextant/internal/golden"
)

// twentyManifests holds the 20-subscription request (twentySubscriptions)
// as manifests a user pipes into `sextant resolve --catalog community=…`:
// the whole-process comparison with OLM's resolver (BENCHMARKS.md, issue
// 41) runs on it.
const twentyManifests = "../testdata/examples/twenty-subscriptions.yaml"

const twentyManifestsHeader = `# The 20-subscription request of BenchmarkResolveCommunity20 (twentySubscriptions in
# resolver/community_test.go) as manifests: namespace ns, catalog community in namespace olm.
# Written by cluster.Encode: go test ./resolver -run TestTwentySubscriptionsManifests -update
`

// TestTwentySubscriptionsManifests checks that the manifests file is the
// state twentySubscriptions builds, written by cluster.Encode with the
// catalog's CatalogSource (-update rewrites it), and that it reads back
// into a state that resolves to the same plan.
func TestTwentySubscriptionsManifests(t *testing.T) {
	r, gc := communityResolver(t)
	st := twentySubscriptions(t, gc)
	want, err := r.Resolve(context.Background(), "ns", st.State())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	buf.WriteString(twentyManifestsHeader)
	if err := cluster.Encode(&buf, st.CatalogSource("olm", "community", 0).State()); err != nil {
		t.Fatal(err)
	}
	goldenfile.Check(t, twentyManifests, buf.Bytes(), *update)

	f, err := os.Open(twentyManifests)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	read, err := cluster.Decode(f, twentyManifests)
	if err != nil {
		t.Fatal(err)
	}
	if len(read.Subscriptions) != 20 || len(read.CSVs) != len(installedBehind) {
		t.Fatalf("%s: %d subscriptions, %d CSVs; want 20, %d", twentyManifests, len(read.Subscriptions), len(read.CSVs), len(installedBehind))
	}
	got, err := r.Resolve(context.Background(), "ns", read)
	if err != nil {
		t.Fatalf("%s: %v", twentyManifests, err)
	}
	if g, w := got.Plan().String(), want.Plan().String(); g != w {
		t.Errorf("%s resolves to\n%s\nwant the plan of twentySubscriptions:\n%s", twentyManifests, g, w)
	}
}

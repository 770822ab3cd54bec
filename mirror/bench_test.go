package mirror_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/mirror"
)

// communityPackages reads testdata/mirror/community-packages.txt: one
// package request per package of the community index.
func communityPackages(tb testing.TB) []mirror.PackageRequest {
	f, err := os.Open("../testdata/mirror/community-packages.txt")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []mirror.PackageRequest
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			p, err := mirror.ParsePackageRequest(l)
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, p)
		}
	}
	return out
}

// BenchmarkComputeCommunity is the mirror set of one subscription per
// package of the community index (315; 4 have no plan on their own).
func BenchmarkComputeCommunity(b *testing.B) {
	cat := shipped(b, community)
	req := mirror.Request{Packages: communityPackages(b)}
	b.ReportAllocs()
	for b.Loop() {
		s, err := mirror.Compute(context.Background(), world(b, nil, cat), req, options())
		var re *mirror.RolloutError
		if err != nil && !errors.As(err, &re) {
			b.Fatal(err)
		}
		if s.Kept.Bundles == 0 {
			b.Fatal("no package kept")
		}
	}
}

package mirror_test

import (
	"strings"
	"testing"

	"github.com/sextantdev/sextant/mirror"
	"github.com/sextantdev/sextant/resolver"
	"github.com/sextantdev/sextant/resolvertest"
)

// TestSetWriteText: the report's title counts, the rollouts simulated (a
// cycle said so, none said why), the check, then per catalog and package
// the kept bundles with their heads and every reason, and the whole-channel
// comparison; singulars and plurals ("that channel", "those channels").
// Sets are plain data, so each case writes one made by hand.
func TestSetWriteText(t *testing.T) {
	olm := resolver.CatalogKey{Namespace: "olm", Name: "community"}
	tests := []struct {
		name string
		set  mirror.Set
		want string
	}{
		{
			name: "nothing",
			set:  mirror.Set{},
			want: `mirror set: 0 bundles of 0 packages, 0 images
rolled out: nothing (no subscription, installed CSV or package asked for)
checked: the filtered catalog passes the structural check, and every rollout takes the same rounds against it as against the full catalog

a whole-channel mirror of the same packages would take 0 bundles and 0 images (this set: 0 bundles, 0 images)
`,
		},
		{
			name: "kept bundles",
			set: mirror.Set{
				Rollouts: []mirror.Rollout{{Name: "namespace operators", Rounds: 2, Steps: 3}, {Name: "package etcd", Rounds: 1, Steps: 1, Cycles: true}},
				Kept:     mirror.Count{Bundles: 3, Images: 4}, WholeChannels: mirror.Count{Bundles: 12, Images: 20},
				Catalogs: []mirror.CatalogSet{{Catalog: olm, FullBundles: 500, Packages: []mirror.Package{
					{Name: "cert-manager", DefaultChannel: "stable", Channels: []string{"stable"}, WholeChannels: mirror.Count{Bundles: 10},
						Bundles: []mirror.Bundle{
							{Name: "cert-manager.v1.16.1", Version: "1.16.1", Reasons: []mirror.Reason{{Kind: mirror.ReasonInstalled, Namespace: "operators", Subscription: "cert-manager", Channel: "stable"}}},
							{Name: "cert-manager.v1.16.5", Version: "1.16.5", Heads: []string{"stable"}, Reasons: []mirror.Reason{
								{Kind: mirror.ReasonHop, Namespace: "operators", Subscription: "cert-manager", From: "cert-manager.v1.16.1"},
								{Kind: mirror.ReasonDefaultChannel, Channel: "stable"}}},
						}},
					{Name: "etcd", DefaultChannel: "singlenamespace-alpha", Channels: []string{"alpha", "singlenamespace-alpha"}, WholeChannels: mirror.Count{Bundles: 1},
						Bundles: []mirror.Bundle{{Name: "etcdoperator.v0.9.4", Version: "0.9.4", Heads: []string{"alpha", "singlenamespace-alpha"}, Reasons: []mirror.Reason{
							{Kind: mirror.ReasonInstall, Namespace: "etcd", Subscription: "etcd"},
							{Kind: mirror.ReasonDependency, Namespace: "operators", RequiredBy: "app.v1", Requirement: "olm.gvk.required etcd.database.coreos.com/v1beta2 EtcdCluster"}}}}},
				}}},
			},
			want: `mirror set: 3 bundles of 2 packages, 4 images
rolled out: namespace operators (2 rounds, 3 steps), package etcd (1 round, 1 step; the last returns to an earlier state, and the rollout goes round for ever)
checked: the filtered catalog passes the structural check, and every rollout takes the same rounds against it as against the full catalog

catalog olm/community: 3 of its 500 bundles
  package cert-manager (channel stable; default stable): 2 of the 10 bundles in that channel
    cert-manager.v1.16.1 (1.16.1)
      installed CSV of subscription operators/cert-manager, which follows channel stable
    cert-manager.v1.16.5 (1.16.5, head of stable)
      hop of subscription operators/cert-manager from cert-manager.v1.16.1
      head of the default channel stable, which a valid catalog keeps
  package etcd (channels alpha, singlenamespace-alpha; default singlenamespace-alpha): 1 of the 1 bundle in those channels
    etcdoperator.v0.9.4 (0.9.4, head of alpha, singlenamespace-alpha)
      install of subscription etcd/etcd
      dependency of app.v1 in namespace operators (olm.gvk.required etcd.database.coreos.com/v1beta2 EtcdCluster)

a whole-channel mirror of the same packages would take 12 bundles and 20 images (this set: 3 bundles, 4 images)
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := tt.set.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != tt.want {
				t.Errorf("WriteText:\n%s", resolvertest.Diff(tt.want, got))
			}
		})
	}
}

// TestReasonString: every kind of reason in words.
func TestReasonString(t *testing.T) {
	for _, tt := range []struct {
		r    mirror.Reason
		want string
	}{
		{mirror.Reason{Kind: mirror.ReasonInstall, Namespace: "ns", Subscription: "s"}, "install of subscription ns/s"},
		{mirror.Reason{Kind: mirror.ReasonHop, Namespace: "ns", Subscription: "s", From: "a.v1"}, "hop of subscription ns/s from a.v1"},
		{mirror.Reason{Kind: mirror.ReasonDependency, Namespace: "ns", RequiredBy: "b.v1"}, "dependency of b.v1 in namespace ns"},
		{mirror.Reason{Kind: mirror.ReasonInstalled, Namespace: "ns", Subscription: "s", Channel: "c"}, "installed CSV of subscription ns/s, which follows channel c"},
		{mirror.Reason{Kind: mirror.ReasonHead, Namespace: "ns", Subscription: "s", Channel: "c"}, "head of channel c, which subscription ns/s follows"},
		{mirror.Reason{Kind: mirror.ReasonChain, Channel: "c", Above: "a.v3", Below: "a.v1"}, "on the chain of channel c between a.v3 and a.v1"},
		{mirror.Reason{Kind: mirror.ReasonSkips, Channel: "c", Skipped: "a.v2"}, "skips a.v2 in channel c"},
		{mirror.Reason{Kind: mirror.ReasonDefaultChannel, Channel: "c"}, "head of the default channel c, which a valid catalog keeps"},
	} {
		if got := tt.r.String(); got != tt.want {
			t.Errorf("%s: String() = %q, want %q", tt.r.Kind, got, tt.want)
		}
	}
}

// TestWriteFBCRefuses: an FBC stream is one catalog — a set that keeps no
// bundle, or bundles of several catalogs, is refused with what to do, and
// nothing is written.
func TestWriteFBCRefuses(t *testing.T) {
	a := resolver.CatalogKey{Namespace: "olm", Name: "a"}
	b := resolver.CatalogKey{Namespace: "olm", Name: "b"}
	tests := []struct {
		name string
		set  mirror.Set
		want string
	}{
		{"none", mirror.Set{}, "the mirror set keeps no bundle: no catalog to write"},
		{"two", mirror.Set{Catalogs: []mirror.CatalogSet{{Catalog: a}, {Catalog: b}}},
			"the mirror set keeps bundles of 2 catalogs (olm/a, olm/b): one File-Based Catalog holds one; mirror each catalog on its own"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			err := tt.set.WriteFBC(&out)
			if err == nil || err.Error() != tt.want {
				t.Errorf("WriteFBC = %v, want %q", err, tt.want)
			}
			if out.Len() != 0 {
				t.Errorf("WriteFBC wrote %q before refusing", out.String())
			}
		})
	}
}

package openshift

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sextantdev/sextant"
	"github.com/sextantdev/sextant/catalogimage"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/imagetest"
)

// hostSource is the real image source with the host of the platform's
// registry replaced by a test registry's: what the kubelet does with an
// ImageTagMirrorSet, so that the default CatalogSource's own references
// (registry.redhat.io/redhat/…:v4.N) are pulled over the registry
// protocol from loopback.
type hostSource struct {
	sextant.ImageSource
	host string
}

func (s hostSource) redirect(text string) string {
	return strings.Replace(text, "registry.redhat.io/", s.host+"/", 1)
}

func (s hostSource) SpecImage(text string) (sextant.Image, error) {
	return s.ImageSource.SpecImage(s.redirect(text))
}

func (s hostSource) ParseImage(text string) (sextant.Image, error) {
	return s.ImageSource.ParseImage(s.redirect(text))
}

// TestUpgradeFollowsImages: with no catalog given, the default
// CatalogSource community-operators (registry.redhat.io/redhat/
// community-operator-index:v4.16, managed by the marketplace operator) is
// read at :v4.16 now and at :v4.17 and :v4.18 for the later minors,
// through the world's image source, from a registry over its protocol;
// the plan is the one made from the same catalogs read from files.
func TestUpgradeFollowsImages(t *testing.T) {
	reg := imagetest.NewRegistry(t)
	for _, m := range []string{"4.16", "4.17", "4.18"} {
		data, err := os.ReadFile("../testdata/ocp/community-v" + m + ".json.gz")
		if err != nil {
			t.Fatal(err)
		}
		reg.Push(t, "redhat/community-operator-index:v"+m, imagetest.CatalogImage(t, map[string][]byte{"catalog.json.gz": data}))
	}
	images := hostSource{catalogimage.New(catalogimage.Options{Loader: graph.Loader{}, CacheDir: t.TempDir(), Insecure: []string{reg.Host}}).Source(), reg.Host}
	ctx := context.Background()
	w, err := sextant.Load(ctx, sextant.Input{Manifests: []sextant.File{{Path: "../testdata/ocp/cluster-4.16.json"}}, AllNamespaces: true}, sextant.Options{Images: images})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Upgrade(ctx, w, WorldOptions{Options: Options{Target: Minor{4, 18}}, Images: images})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := p.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/4.16-4.18.txt", b.String())
	if n := reg.Requests("manifests"); n < 3 {
		t.Errorf("%d manifest requests, want one per minor at least", n)
	}
}

// TestUpgradeNoLongerDefault: redhat-marketplace follows the platform to
// 4.21, the last release that ships it; at 4.22 the marketplace operator
// leaves it as it is, so it keeps serving the 4.21 index (not the 4.20
// one the cluster has now).
func TestUpgradeNoLongerDefault(t *testing.T) {
	reg := imagetest.NewRegistry(t)
	for _, m := range []string{"4.20", "4.21"} {
		data, err := os.ReadFile("../testdata/cli/catalogs/clean.json")
		if err != nil {
			t.Fatal(err)
		}
		reg.Push(t, "redhat/redhat-marketplace-index:v"+m, imagetest.CatalogImage(t, map[string][]byte{"catalog.json": data}))
	}
	images := hostSource{catalogimage.New(catalogimage.Options{Loader: graph.Loader{}, CacheDir: t.TempDir(), Insecure: []string{reg.Host}}).Source(), reg.Host}
	const state = `apiVersion: config.openshift.io/v1
kind: ClusterVersion
metadata: {name: version}
spec: {clusterID: x}
status: {desired: {version: 4.20.1}}
---
apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata:
  name: redhat-marketplace
  namespace: openshift-marketplace
  annotations: {operatorframework.io/managed-by: marketplace-operator}
spec: {sourceType: grpc, image: "registry.redhat.io/redhat/redhat-marketplace-index:v4.20"}
---
apiVersion: operators.coreos.com/v1alpha1
kind: Subscription
metadata: {name: prometheus, namespace: openshift-operators}
spec: {name: prometheus, channel: beta, source: redhat-marketplace, sourceNamespace: openshift-marketplace}
`
	ctx := context.Background()
	w, err := sextant.Load(ctx, sextant.Input{Manifests: []sextant.File{{Path: "cluster.yaml", Reader: strings.NewReader(state)}}, AllNamespaces: true}, sextant.Options{Images: images})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Upgrade(ctx, w, WorldOptions{Options: Options{Target: Minor{4, 22}, Mirror: true}, Images: images})
	if err != nil {
		t.Fatal(err)
	}
	const v421 = "registry.redhat.io/redhat/redhat-marketplace-index:v4.21"
	for i, want := range []Source{
		{Namespace: MarketplaceNamespace, Name: "redhat-marketplace", Kind: SourceFollows, Image: v421},
		{Namespace: MarketplaceNamespace, Name: "redhat-marketplace", Kind: SourceNoLongerDefault, Image: v421},
	} {
		h := p.Hops[i]
		if len(h.Sources) != 1 || h.Sources[0].Kind != want.Kind || h.Sources[0].Image != want.Image {
			t.Errorf("at %s: sources %+v, want %s %s", h.To, h.Sources, want.Kind, want.Image)
		}
		if h.Mirror == nil || len(h.Mirror.Catalogs) != 1 || h.Mirror.Catalogs[0] != v421 {
			t.Errorf("at %s: catalog images %+v, want %s", h.To, h.Mirror, v421)
		}
	}
}

// TestUpgradeMirrorGiven: with each minor's catalog given as a file, the
// mirror set at 4.17 names the image the cluster's CatalogSource pulls
// there (the file stands in for its content, not for its image), and it
// is computed as the plan goes on: with the subscription stranded at 4.17
// deleted, so that its namespace resolves and its images are listed.
func TestUpgradeMirrorGiven(t *testing.T) {
	ctx := context.Background()
	w, err := sextant.Load(ctx, sextant.Input{
		Manifests:     []sextant.File{{Path: "../testdata/ocp/cluster-4.16.json"}},
		Catalogs:      []sextant.CatalogInput{{Name: "community-operators", Path: "../testdata/ocp/community-v4.16.json.gz"}},
		AllNamespaces: true,
	}, sextant.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Upgrade(ctx, w, WorldOptions{
		Options:  Options{Target: Minor{4, 17}, Mirror: true},
		Catalogs: []MinorCatalog{{Minor: Minor{4, 17}, Name: "community-operators", Path: "../testdata/ocp/community-v4.17.json.gz"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	m := p.Hops[0].Mirror
	if m == nil {
		t.Fatal("no mirror set at 4.17")
	}
	if want := []string{"registry.redhat.io/redhat/community-operator-index:v4.17"}; !slices.Equal(m.Catalogs, want) {
		t.Errorf("catalog images %q, want %q", m.Catalogs, want)
	}
	if want := "subscription openshift-operators/ruptura-operator deleted, as the plan goes on"; m.Assuming != want {
		t.Errorf("assuming %q, want %q", m.Assuming, want)
	}
	if m.Error != "" {
		t.Errorf("incomplete: %s", m.Error)
	}
	// cert-manager, in the stranded namespace, upgrades at 4.17 once
	// ruptura-operator's subscription is out of the way.
	if !slices.ContainsFunc(m.Images, func(img string) bool { return strings.Contains(img, "/cert-manager:") }) {
		t.Errorf("no cert-manager image in the mirror set at 4.17: %q", m.Images)
	}
	var mirror []Action
	for _, a := range p.Actions {
		if a.Kind == ActionMirror {
			mirror = append(mirror, a)
		}
	}
	if len(mirror) != 1 || !strings.HasPrefix(mirror[0].Text, "mirror the 1 catalog image and ") {
		t.Errorf("mirror actions %+v, want one for 1 catalog image", mirror)
	}
}

package registryv1_test

import (
	"fmt"
	"testing/fstest"

	"github.com/sextantdev/sextant/registryv1"
)

// A bundle read from a file system (a bundle folder is os.DirFS(dir)):
// its CSV is read, its CRDs are kept by digest and parsed when asked.
func ExampleLoader_ReadFS() {
	fsys := fstest.MapFS{
		"metadata/annotations.yaml": {Data: []byte(`annotations:
  operators.operatorframework.io.bundle.mediatype.v1: registry+v1
  operators.operatorframework.io.bundle.package.v1: widgets
`)},
		"manifests/widgets.clusterserviceversion.yaml": {Data: []byte(`apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: widgets.v1.0.0
spec:
  version: 1.0.0
`)},
		"manifests/widgets.crd.yaml": {Data: []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object}
`)},
	}
	b, problems := registryv1.Loader{}.ReadFS(fsys, registryv1.Source{Kind: registryv1.FromFolder, Path: "widgets/1.0.0"})
	if len(problems) > 0 {
		fmt.Println(problems)
		return
	}
	fmt.Println(b.CSV.Name, b.CSV.Version, b.Package)
	var cache registryv1.CRDCache
	for _, ref := range b.CRDs {
		def, _, err := cache.Parse(ref)
		if err != nil {
			fmt.Println(ref.Where(), err)
			continue
		}
		fmt.Println(ref.Where(), def.Name, def.StorageVersion())
	}
	// Output:
	// widgets.v1.0.0 1.0.0 widgets
	// bundle folder widgets/1.0.0: manifests/widgets.crd.yaml:1 widgets.example.com v1
}

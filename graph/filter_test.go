package graph

import (
	"bytes"
	"path/filepath"
	"testing"
)

func TestFilter(t *testing.T) {
	c := mustLoad(t, filepath.Join("testdata", "decode", "etcd.json"))
	tests := []struct {
		name   string
		reason string
		keep   func(*Bundle) bool
		want   string
	}{
		{
			name:   "head only",
			reason: "the entry keeps its edges to bundles left out; the bundle deprecation of a bundle left out goes, the package's stays",
			keep:   func(b *Bundle) bool { return b.Name == "etcdoperator.v0.9.4" },
			want: `{"schema":"olm.package","name":"etcd","defaultChannel":"alpha"}
{"schema":"olm.channel","package":"etcd","name":"alpha","entries":[{"name":"etcdoperator.v0.9.4","replaces":"etcdoperator.v0.9.2","skips":["etcdoperator.v0.9.3"],"skipRange":"<0.9.4"}]}
{"schema":"olm.bundle","name":"etcdoperator.v0.9.4","package":"etcd","image":"quay.io/operatorhubio/etcd:v0.9.4","properties":[{"type":"olm.package","value":{"packageName":"etcd","version":"0.9.4"}},{"type":"olm.gvk","value":{"group":"etcd.database.coreos.com","kind":"EtcdCluster","version":"v1beta2"}},{"type":"olm.gvk.required","value":{"group":"monitoring.coreos.com","kind":"Prometheus","version":"v1"}},{"type":"olm.package.required","value":{"packageName":"prometheus","versionRange":">=0.14.0 <1.0.0"}},{"type":"olm.label","value":{"label":"storage"}},{"type":"olm.constraint","value":{"failureMessage":"needs a monitoring stack","any":{"constraints":[{"package":{"packageName":"prometheus","versionRange":">=0.14.0"}},{"gvk":{"group":"monitoring.coreos.com","kind":"Prometheus","version":"v1"}}]}}},{"type":"olm.maxOpenShiftVersion","value":"4.20"},{"type":"olm.bundle.object","value":{"data":"eyJraW5kIjoiQ2x1c3RlclNlcnZpY2VWZXJzaW9uIn0="}}],"relatedImages":[{"name":"operator","image":"quay.io/operatorhubio/etcd:v0.9.4"}]}
{"schema":"olm.deprecations","package":"etcd","entries":[{"reference":{"schema":"olm.package"},"message":"the etcd package is deprecated"}]}
{"schema":"example.com/notes","package":"etcd","name":"release-notes","text":"unknown schemas are kept"}
`,
		},
		{
			name:   "deprecated bundle",
			reason: "a kept bundle keeps its deprecation",
			keep:   func(b *Bundle) bool { return b.Name == "etcdoperator.v0.9.2" },
			want: `{"schema":"olm.package","name":"etcd","defaultChannel":"alpha"}
{"schema":"olm.channel","package":"etcd","name":"alpha","entries":[{"name":"etcdoperator.v0.9.2"}]}
{"schema":"olm.bundle","name":"etcdoperator.v0.9.2","package":"etcd","image":"quay.io/operatorhubio/etcd:v0.9.2","properties":[{"type":"olm.package","value":{"packageName":"etcd","version":"v0.9.2"}},{"type":"olm.gvk","value":{"group":"etcd.database.coreos.com","kind":"EtcdCluster","version":"v1beta2"}},{"type":"olm.deprecated","value":{}}]}
{"schema":"olm.deprecations","package":"etcd","entries":[{"reference":{"schema":"olm.bundle","name":"etcdoperator.v0.9.2"},"message":"etcdoperator.v0.9.2 is deprecated: \"upgrade\" now"},{"reference":{"schema":"olm.package"},"message":"the etcd package is deprecated"}]}
{"schema":"example.com/notes","package":"etcd","name":"release-notes","text":"unknown schemas are kept"}
`,
		},
		{
			name:   "nothing",
			reason: "a package without a kept bundle goes, with its other blobs",
			keep:   func(*Bundle) bool { return false },
			want:   "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := c.Filter(tt.keep)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := Encode(&buf, f); err != nil {
				t.Fatal(err)
			}
			if got := buf.String(); got != tt.want {
				t.Errorf("%s\nFilter:\n%s\nwant:\n%s", tt.reason, got, tt.want)
			}
		})
	}
}

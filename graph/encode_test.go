package graph

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"github.com/sextantdev/sextant/internal/testcatalog"
)

func TestEncodeFixture(t *testing.T) {
	c := mustLoad(t, filepath.Join("testdata", "decode", "etcd.json"))
	var buf bytes.Buffer
	if err := Encode(&buf, c); err != nil {
		t.Fatal(err)
	}
	want := `{"schema":"olm.package","name":"etcd","defaultChannel":"alpha"}
{"schema":"olm.channel","package":"etcd","name":"alpha","entries":[{"name":"etcdoperator.v0.9.4","replaces":"etcdoperator.v0.9.2","skips":["etcdoperator.v0.9.3"],"skipRange":"<0.9.4"},{"name":"etcdoperator.v0.9.2"},{"name":"etcdoperator.v0.9.3"}]}
{"schema":"olm.bundle","name":"etcdoperator.v0.9.2","package":"etcd","image":"quay.io/operatorhubio/etcd:v0.9.2","properties":[{"type":"olm.package","value":{"packageName":"etcd","version":"v0.9.2"}},{"type":"olm.gvk","value":{"group":"etcd.database.coreos.com","kind":"EtcdCluster","version":"v1beta2"}},{"type":"olm.deprecated","value":{}}]}
{"schema":"olm.bundle","name":"etcdoperator.v0.9.3","package":"etcd","image":"quay.io/operatorhubio/etcd:v0.9.3","properties":[{"type":"olm.package","value":{"packageName":"etcd","version":"0.9.3"}}]}
{"schema":"olm.bundle","name":"etcdoperator.v0.9.4","package":"etcd","image":"quay.io/operatorhubio/etcd:v0.9.4","properties":[{"type":"olm.package","value":{"packageName":"etcd","version":"0.9.4"}},{"type":"olm.gvk","value":{"group":"etcd.database.coreos.com","kind":"EtcdCluster","version":"v1beta2"}},{"type":"olm.gvk.required","value":{"group":"monitoring.coreos.com","kind":"Prometheus","version":"v1"}},{"type":"olm.package.required","value":{"packageName":"prometheus","versionRange":">=0.14.0 <1.0.0"}},{"type":"olm.label","value":{"label":"storage"}},{"type":"olm.constraint","value":{"failureMessage":"needs a monitoring stack","any":{"constraints":[{"package":{"packageName":"prometheus","versionRange":">=0.14.0"}},{"gvk":{"group":"monitoring.coreos.com","kind":"Prometheus","version":"v1"}}]}}},{"type":"olm.maxOpenShiftVersion","value":"4.20"},{"type":"olm.bundle.object","value":{"data":"eyJraW5kIjoiQ2x1c3RlclNlcnZpY2VWZXJzaW9uIn0="}}],"relatedImages":[{"name":"operator","image":"quay.io/operatorhubio/etcd:v0.9.4"}]}
{"schema":"olm.deprecations","package":"etcd","entries":[{"reference":{"schema":"olm.bundle","name":"etcdoperator.v0.9.2"},"message":"etcdoperator.v0.9.2 is deprecated: \"upgrade\" now"},{"reference":{"schema":"olm.package"},"message":"the etcd package is deprecated"}]}
{"schema":"example.com/notes","package":"etcd","name":"release-notes","text":"unknown schemas are kept"}
`
	if got := buf.String(); got != want {
		t.Errorf("Encode:\n%s\nwant:\n%s", got, want)
	}
}

// TestEncodeRoundTripShipped checks decode → encode → decode → encode on the
// real catalogs: the model and the bytes are stable.
func TestEncodeRoundTripShipped(t *testing.T) {
	forEachShipped(t, 1, func(t *testing.T, _ shippedCatalog, c *Catalog) {
		var enc1, enc2 bytes.Buffer
		if err := Encode(&enc1, c); err != nil {
			t.Fatal(err)
		}
		c2, err := Decode(bytes.NewReader(enc1.Bytes()), "encoded")
		if err != nil {
			t.Fatal(err)
		}
		if err := Encode(&enc2, c2); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(enc1.Bytes(), enc2.Bytes()) {
			t.Fatal("encode → decode → encode is not stable")
		}
		if a, b := modelTextOpt(t, c, compactJSON), modelTextOpt(t, c2, compactJSON); a != b {
			t.Fatal("decode → encode → decode changed the model")
		}
	})
}

func TestEncodeBuilt(t *testing.T) {
	tests := []struct {
		name    string
		reason  string
		build   func(b *Builder)
		want    string
		wantErr string
	}{
		{
			name:   "implicit package",
			reason: "a package with no olm.package blob gets none when encoded",
			build: func(b *Builder) {
				b.AddChannel("p", "c", Entry{Name: "p.v1", Skips: []string{"p.v0"}})
			},
			want: `{"schema":"olm.channel","package":"p","name":"c","entries":[{"name":"p.v1","skips":["p.v0"]}]}` + "\n",
		},
		{
			name: "escapes",
			build: func(b *Builder) {
				b.AddPackage("q\"\\\n\t<&>\x01é", "")
			},
			want: `{"schema":"olm.package","name":"q\"\\\n\t<&>\u0001é"}` + "\n",
		},
		{
			name: "meta without blob",
			build: func(b *Builder) {
				b.AddMeta(Meta{Schema: "x.y", Name: "n"})
			},
			want: `{"schema":"x.y","name":"n"}` + "\n",
		},
		{
			name: "invalid property value",
			build: func(b *Builder) {
				_ = b.AddBundle("p.v1", "p", "img", Property{Type: "x", Value: []byte("{")})
			},
			wantErr: `encode bundle "p.v1" of package "p": property 0 (x)`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBuilder()
			tt.build(b)
			c := mustBuild(t, b)
			var buf bytes.Buffer
			err := Encode(&buf, c)
			if testcatalog.WantErr(t, err, tt.wantErr) {
				return
			}
			if buf.String() != tt.want {
				t.Errorf("Encode = %s, want %s", buf.String(), tt.want)
			}
			if _, err := Decode(&buf, "x"); err != nil {
				t.Errorf("decoding the output: %v", err)
			}
		})
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestEncodeWriteError(t *testing.T) {
	c := mustLoad(t, filepath.Join("testdata", "decode", "etcd.json"))
	if err := Encode(failWriter{}, c); err == nil || err.Error() != "disk full" {
		t.Errorf("err = %v, want the writer's error", err)
	}
}

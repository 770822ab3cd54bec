package cluster_test

import (
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/testcatalog"
)

func TestDecodeObjects(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []string // GVK and namespace/name of each object
		wantErr string
	}{
		{
			name: "yaml of several kinds",
			in:   "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: demo}\n---\napiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata: {name: k, namespace: demo}\n",
			want: []string{"v1 ConfigMap demo/a", "kafka.strimzi.io/v1beta2 Kafka demo/k"},
		},
		{
			name: "list items",
			in:   `{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}}]}`,
			want: []string{"apps/v1 Deployment /d"},
		},
		{
			name:    "object without kind",
			in:      "apiVersion: v1\nmetadata: {name: a}\n",
			wantErr: "field kind: missing",
		},
		{
			name:    "many objects without kind: bounded, the others counted",
			in:      strings.Repeat("---\napiVersion: v1\nmetadata: {name: a}\n", cluster.MaxSameErrors+5),
			wantErr: "… and 5 more like the above at field kind (25 in all)",
		},
		{
			name:    "not an object",
			in:      "- a\n- b\n",
			wantErr: "want an object",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := cluster.DecodeObjects(strings.NewReader(tt.in), "app.yaml")
			if testcatalog.WantErr(t, err, tt.wantErr) {
				if !strings.Contains(err.Error(), "app.yaml") {
					t.Fatalf("err = %v, want one naming app.yaml", err)
				}
				return
			}
			var got []string
			for _, o := range objs {
				g := o.GVK()
				api := g.Group + "/" + g.Version
				if g.Group == "" {
					api = g.Version
				}
				got = append(got, api+" "+g.Kind+" "+o.Namespace+"/"+o.Name)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("objects:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
	if g := (cluster.Object{APIVersion: "v1", Kind: "Pod"}).GVK(); g != (graph.GVK{Version: "v1", Kind: "Pod"}) {
		t.Errorf("GVK of v1 Pod = %+v", g)
	}
}

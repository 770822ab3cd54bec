package olmv1_test

import (
	"reflect"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/olmv1"
)

// kafkaFBC: 1.0.0 (channel v1, the highest of every channel) provides
// only Kafka v1; 0.1.0 and 0.2.0 (default channel stable, channels
// old-a, old-b, old-c) provide Kafka v1beta2.
const kafkaFBC = `
schema: olm.package
name: kafka
defaultChannel: stable
---
schema: olm.channel
package: kafka
name: stable
entries:
- {name: kafka.v0.1.0}
- {name: kafka.v0.2.0, replaces: kafka.v0.1.0}
---
schema: olm.channel
package: kafka
name: v1
entries:
- {name: kafka.v0.2.0}
- {name: kafka.v1.0.0, replaces: kafka.v0.2.0}
---
schema: olm.channel
package: kafka
name: old-c
entries:
- {name: kafka.v0.1.0}
---
schema: olm.channel
package: kafka
name: old-a
entries:
- {name: kafka.v0.1.0}
---
schema: olm.channel
package: kafka
name: old-b
entries:
- {name: kafka.v0.1.0}
---
schema: olm.bundle
package: kafka
name: kafka.v0.1.0
image: example.com/kafka:0.1.0
properties:
- {type: olm.package, value: {packageName: kafka, version: 0.1.0}}
- {type: olm.gvk, value: {group: kafka.example.com, version: v1beta2, kind: Kafka}}
---
schema: olm.bundle
package: kafka
name: kafka.v0.2.0
image: example.com/kafka:0.2.0
properties:
- {type: olm.package, value: {packageName: kafka, version: 0.2.0}}
- {type: olm.gvk, value: {group: kafka.example.com, version: v1beta2, kind: Kafka}}
---
schema: olm.bundle
package: kafka
name: kafka.v1.0.0
image: example.com/kafka:1.0.0
properties:
- {type: olm.package, value: {packageName: kafka, version: 1.0.0}}
- {type: olm.gvk, value: {group: kafka.example.com, version: v1, kind: Kafka}}
`

// TestExtensionsForAPIsRemedies: an API that the bundle chosen for a
// ClusterExtension naming only its package no longer provides gets the
// channels (the default first, then the highest bundle, at most three,
// the others counted) and the highest version range whose bundle
// provides it, each confirmed; an API that bundle provides gets none.
func TestExtensionsForAPIsRemedies(t *testing.T) {
	r, err := olmv1.New([]olmv1.Catalog{catalog("community", 0, fbc(t, kafkaFBC))}, olmv1.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ext := func(channel, version string) *cluster.ClusterExtension {
		x := &cluster.ClusterExtension{Name: "kafka", Namespace: "kafka", SourceType: "Catalog", Package: "kafka", Version: version}
		if channel != "" {
			x.Channels = []string{channel}
		}
		return x
	}
	tests := []struct {
		name  string
		api   graph.GVK
		want  []olmv1.Remedy
		more  int
		error bool
	}{
		{"served as chosen", graph.GVK{Group: "kafka.example.com", Version: "v1", Kind: "Kafka"}, nil, 0, false},
		{"older bundles only", graph.GVK{Group: "kafka.example.com", Version: "v1beta2", Kind: "Kafka"}, []olmv1.Remedy{
			{Kind: olmv1.RemedyChannel, Change: "channel: stable", Bundle: "kafka.v0.2.0", Version: "0.2.0", Catalog: "community", Package: "kafka", Extension: ext("stable", "")},
			{Kind: olmv1.RemedyChannel, Change: "channel: old-a", Bundle: "kafka.v0.1.0", Version: "0.1.0", Catalog: "community", Package: "kafka", Extension: ext("old-a", "")},
			{Kind: olmv1.RemedyChannel, Change: "channel: old-b", Bundle: "kafka.v0.1.0", Version: "0.1.0", Catalog: "community", Package: "kafka", Extension: ext("old-b", "")},
			{Kind: olmv1.RemedyVersion, Change: `version: "<1.0.0"`, Bundle: "kafka.v0.2.0", Version: "0.2.0", Catalog: "community", Package: "kafka", Extension: ext("", "<1.0.0")},
		}, 1, true},
		{"provided by nothing", graph.GVK{Group: "kafka.example.com", Version: "v1alpha1", Kind: "Kafka"}, nil, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app, err := r.ExtensionsForAPIs(t.Context(), &cluster.State{}, []graph.GVK{tt.api})
			if err != nil {
				t.Fatal(err)
			}
			got := app.APIs[0]
			if (got.Error != "") != tt.error {
				t.Errorf("error = %q, want one: %v", got.Error, tt.error)
			}
			if !reflect.DeepEqual(got.Remedies, tt.want) || got.OtherChannels != tt.more {
				t.Errorf("remedies:\n got %+v (%d more)\nwant %+v (%d more)", got.Remedies, got.OtherChannels, tt.want, tt.more)
			}
		})
	}
}

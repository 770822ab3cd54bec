package cluster_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// TestCloneContext: CloneContext gives what Clone gives, for states
// smaller and larger than a chunk, a copy that shares no slice with the
// original, and the context's error once it is cancelled.
func TestCloneContext(t *testing.T) {
	for _, n := range []int{0, 3, 1500} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s := &cluster.State{OperatorGroups: []cluster.OperatorGroup{{Name: "og", Namespace: "ns", TargetNamespaces: []string{"ns"}}},
				Notes: []cluster.Note{{Code: cluster.NoteServiceAccountIgnored, Text: "t"}}}
			for i := range n {
				s.Subscriptions = append(s.Subscriptions, cluster.Subscription{Name: fmt.Sprint("s", i), Namespace: "ns", Package: "p"})
				s.CSVs = append(s.CSVs, cluster.CSV{Name: fmt.Sprint("c", i), Namespace: "ns",
					Provides: []graph.GVK{{Group: "g", Version: "v1", Kind: "K"}}, InstallModes: []graph.InstallMode{{Type: graph.InstallModeOwnNamespace, Supported: true}}})
			}
			c, err := s.CloneContext(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c, s.Clone()) {
				t.Fatalf("CloneContext differs from Clone")
			}
			if n > 0 {
				c.Subscriptions[n-1].Package = "changed"
				c.CSVs[n-1].Provides[0].Kind = "Changed"
				c.CSVs[n-1].InstallModes[0].Supported = false
				c.Notes[0].Text = "changed"
				if s.Notes[0].Text != "t" || s.Subscriptions[n-1].Package != "p" || s.CSVs[n-1].Provides[0].Kind != "K" || !s.CSVs[n-1].InstallModes[0].Supported {
					t.Errorf("changing the copy changed the original")
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if c, err := s.CloneContext(ctx); !errors.Is(err, context.Canceled) || c != nil {
				t.Errorf("cancelled: %v, %v; want nil and the context's error", c, err)
			}
		})
	}
}

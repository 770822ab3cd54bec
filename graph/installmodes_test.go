package graph_test

import (
	"fmt"
	"testing"

	"github.com/sextantdev/sextant/graph"
)

// TestInstallModeWords checks the one way install modes are named in
// prose, for the predictions, check and migrate alike.
func TestInstallModeWords(t *testing.T) {
	own, single, all := graph.InstallModeOwnNamespace, graph.InstallModeSingleNamespace, graph.InstallModeAllNamespaces
	tests := []struct {
		name      string
		modes     []graph.InstallMode
		supported string // SupportedWords
		reason    string
	}{
		{"none listed", nil, "no install mode", ""},
		{"none supported", []graph.InstallMode{{Type: own}, {Type: all}}, "no install mode", ""},
		{"one", []graph.InstallMode{{Type: all, Supported: true}}, "only AllNamespaces", ""},
		{"two in OLM's order", []graph.InstallMode{{Type: single, Supported: true}, {Type: own, Supported: true}}, "only OwnNamespace and SingleNamespace", "Supported's order, not the listing's"},
		{"last listing stands", []graph.InstallMode{{Type: own, Supported: true}, {Type: own}}, "no install mode", "as OLM reads a repeated type"},
		{"three and another", []graph.InstallMode{{Type: "Custom", Supported: true}, {Type: own, Supported: true}, {Type: single, Supported: true}, {Type: all, Supported: true}}, "only OwnNamespace, SingleNamespace, AllNamespaces and Custom", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := graph.ReadInstallModes(tt.modes)
			if got := set.SupportedWords(); got != tt.supported {
				t.Errorf("SupportedWords = %q, want %q (%s)", got, tt.supported, tt.reason)
			}
			if sup := set.Supported(); len(sup) > 0 && "only "+graph.InstallModeWords(sup) != tt.supported {
				t.Errorf("InstallModeWords(%v) = %q, want it in %q", sup, graph.InstallModeWords(sup), tt.supported)
			}
		})
	}
}

func ExampleInstallModeSet_SupportedWords() {
	set := graph.ReadInstallModes([]graph.InstallMode{
		{Type: graph.InstallModeAllNamespaces, Supported: false},
		{Type: graph.InstallModeSingleNamespace, Supported: true},
		{Type: graph.InstallModeOwnNamespace, Supported: true},
	})
	fmt.Println(set.SupportedWords())
	fmt.Println(graph.InstallModeWords([]graph.InstallModeType{graph.InstallModeAllNamespaces}))
	// Output:
	// only OwnNamespace and SingleNamespace
	// AllNamespaces
}

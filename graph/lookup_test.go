package graph

import (
	"reflect"
	"testing"
)

func TestReadInstallModes(t *testing.T) {
	own, all := InstallModeOwnNamespace, InstallModeAllNamespaces
	tests := []struct {
		name      string
		modes     []InstallMode
		supported []InstallModeType
		dup       []InstallModeType
		reason    string
	}{
		{name: "none"},
		{name: "OLM's order, then others by name", modes: []InstallMode{{"Zeta", true}, {all, true}, {"Alpha", true}, {own, true}}, supported: []InstallModeType{own, all, "Alpha", "Zeta"}},
		{name: "unsupported are left out", modes: []InstallMode{{own, false}, {all, true}, {"Other", false}}, supported: []InstallModeType{all}},
		{name: "the last listing stands", modes: []InstallMode{{own, true}, {all, true}, {own, false}}, supported: []InstallModeType{all}, dup: []InstallModeType{own},
			reason: "operator-framework/api's NewInstallModeSet records each listing in turn, then OLM rejects the list"},
		{name: "an unknown type twice", modes: []InstallMode{{"Other", true}, {"Other", false}, {"Other", false}}, dup: []InstallModeType{"Other"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ReadInstallModes(tt.modes)
			if got := s.Supported(); !reflect.DeepEqual(got, tt.supported) {
				t.Errorf("Supported() = %v, want %v", got, tt.supported)
			}
			if got := s.Duplicates(); !reflect.DeepEqual(got, tt.dup) {
				t.Errorf("Duplicates() = %v, want %v", got, tt.dup)
			}
			if s.Valid() != (len(tt.dup) == 0) {
				t.Errorf("Valid() = %v with duplicates %v", s.Valid(), tt.dup)
			}
			for _, m := range []InstallModeType{own, InstallModeSingleNamespace, InstallModeMultiNamespace, all, "Alpha", "Other", "Zeta"} {
				want := false
				for _, x := range tt.supported {
					want = want || x == m
				}
				if s.Supports(m) != want {
					t.Errorf("Supports(%s) = %v, want %v", m, !want, want)
				}
			}
		})
	}
}

func TestDeprecationsOf(t *testing.T) {
	p := &Package{Name: "p", Deprecations: []Deprecation{
		{Reference: DeprecationRef{Schema: SchemaChannel, Name: "alpha"}, Message: "first"},
		{Reference: DeprecationRef{Schema: SchemaPackage}, Message: "pkg"},
		{Reference: DeprecationRef{Schema: SchemaBundle, Name: "alpha"}, Message: "bundle"},
		{Reference: DeprecationRef{Schema: SchemaChannel, Name: "alpha"}, Message: "repeat"},
	}}
	for _, tt := range []struct {
		schema, name string
		want         []string
	}{
		{SchemaPackage, "", []string{"pkg"}},
		{SchemaChannel, "alpha", []string{"first", "repeat"}},
		{SchemaBundle, "alpha", []string{"bundle"}},
		{SchemaChannel, "beta", nil},
		{SchemaPackage, "p", nil},
	} {
		var got []string
		for _, d := range p.DeprecationsOf(tt.schema, tt.name) {
			got = append(got, d.Message)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("DeprecationsOf(%s, %q) = %q, want %q", tt.schema, tt.name, got, tt.want)
		}
	}
}

package sextant

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/resolver"
)

// TestParseCatalogArg: [NAME=]PATH, NAME an object name.
func TestParseCatalogArg(t *testing.T) {
	tests := []struct {
		name    string
		arg     string
		want    CatalogInput
		wantErr string
		reason  string
	}{
		{name: "path", arg: "testdata/catalogs/community-operators-prod.v4.20-index.json.gz", want: CatalogInput{Path: "testdata/catalogs/community-operators-prod.v4.20-index.json.gz"}},
		{name: "named", arg: "community=catalog.json", want: CatalogInput{Name: "community", Path: "catalog.json"}},
		{name: "named stdin", arg: "community=-", want: CatalogInput{Name: "community", Path: "-"}},
		{name: "equals in a path", arg: "dir/a=b.json", want: CatalogInput{Path: "dir/a=b.json"},
			reason: "a NAME must be an object name, so dir/a is no name and the whole is a path"},
		{name: "stdin unnamed", arg: "-", wantErr: "needs a name"},
		{name: "no path", arg: "community=", wantErr: "no path"},
		{name: "empty", arg: "", wantErr: "empty path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseCatalogArg(tt.arg)
			if tt.wantErr != "" {
				var ce *CatalogArgError
				if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want a *CatalogArgError containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ParseCatalogArg(%q) = %+v, %v; want %+v (%s)", tt.arg, got, err, tt.want, tt.reason)
			}
		})
	}
}

// TestPathCatalogName: only the catalog extensions go.
func TestPathCatalogName(t *testing.T) {
	for path, want := range map[string]string{
		"testdata/catalogs/community-operators-prod.v4.20-index.json.gz": "community-operators-prod.v4.20-index",
		"a/b/redhat.yaml": "redhat", "x.yml": "x", "catalogs/operatorhub/": "operatorhub", "index.v1": "index.v1",
	} {
		if got := PathCatalogName(path); got != want {
			t.Errorf("PathCatalogName(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestNamespaceRule: the namespace asked for must be one resolution
// concerns (resolver.Namespaces); else the subscriptions' one namespace,
// else the installed CSVs' (copies aside).
func TestNamespaceRule(t *testing.T) {
	sub := func(ns string) cluster.Subscription {
		return cluster.Subscription{Name: "s-" + ns, Namespace: ns, Package: "p"}
	}
	csv := func(ns string, copied bool) cluster.CSV { return cluster.CSV{Name: "c", Namespace: ns, Copied: copied} }
	tests := []struct {
		name   string
		asked  string
		state  cluster.State
		want   []string
		err    *NamespaceError
		reason string
	}{
		{name: "asked wins", asked: "b", state: cluster.State{Subscriptions: []cluster.Subscription{sub("a"), sub("b")}}, want: []string{"b"}},
		{name: "asked holds only a copied CSV", asked: "c", state: cluster.State{Subscriptions: []cluster.Subscription{sub("a")}, CSVs: []cluster.CSV{csv("c", true)}},
			err: &NamespaceError{Asked: "c", Namespaces: []string{"a"}}, reason: "a copy is OLM's: nothing there to resolve (resolver.Namespaces)"},
		{name: "asked holds nothing", asked: "x", state: cluster.State{Subscriptions: []cluster.Subscription{sub("b"), sub("a")}},
			err: &NamespaceError{Asked: "x", Namespaces: []string{"a", "b"}}, reason: "a mistyped namespace would resolve to nothing to do"},
		{name: "asked, manifests empty", asked: "x", err: &NamespaceError{Asked: "x"}},
		{name: "shared by subscriptions", state: cluster.State{Subscriptions: []cluster.Subscription{sub("a"), sub("a")}, CSVs: []cluster.CSV{csv("b", false)}}, want: []string{"a"},
			reason: "CSVs of other namespaces do not count when there are subscriptions"},
		{name: "several", state: cluster.State{Subscriptions: []cluster.Subscription{sub("b"), sub("a")}}, err: &NamespaceError{Namespaces: []string{"a", "b"}, What: "subscriptions"}},
		{name: "csvs only", state: cluster.State{CSVs: []cluster.CSV{csv("a", false), csv("b", true)}}, want: []string{"a"},
			reason: "copied CSVs live in the namespaces an operator group targets, not where the operator is"},
		{name: "nothing", err: &NamespaceError{What: "installed CSVs"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &loader{ctx: context.Background(), in: Input{Namespace: tt.asked}}
			got, err := l.namespaces(&tt.state, nil)
			if tt.err != nil {
				var ne *NamespaceError
				if !errors.As(err, &ne) || !reflect.DeepEqual(ne, tt.err) {
					t.Fatalf("error %#v, want %#v (%s)", err, tt.err, tt.reason)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("namespaces = %q, %v; want %q (%s)", got, err, tt.want, tt.reason)
			}
		})
	}
}

// TestCatalogIdentity: a CatalogSource of the catalog's name (the one in
// the namespace resolved when several), else the namespace the
// subscriptions naming it agree on, else the global namespace.
func TestCatalogIdentity(t *testing.T) {
	tests := []struct {
		name     string
		state    cluster.State
		want     resolver.CatalogKey
		wantPrio int
		wantErr  string
		reason   string
	}{
		{name: "default", want: resolver.CatalogKey{Namespace: "glob", Name: "cat"}},
		{name: "catalog source", state: cluster.State{CatalogSources: []cluster.CatalogSource{{Name: "cat", Namespace: "market", Priority: 7}, {Name: "other", Namespace: "ns"}}},
			want: resolver.CatalogKey{Namespace: "market", Name: "cat"}, wantPrio: 7},
		{name: "several catalog sources, one in the namespace", state: cluster.State{CatalogSources: []cluster.CatalogSource{{Name: "cat", Namespace: "market"}, {Name: "cat", Namespace: "ns", Priority: 2}}},
			want: resolver.CatalogKey{Namespace: "ns", Name: "cat"}, wantPrio: 2},
		{name: "several catalog sources elsewhere", state: cluster.State{CatalogSources: []cluster.CatalogSource{{Name: "cat", Namespace: "a"}, {Name: "cat", Namespace: "b"}}},
			wantErr: "2 CatalogSources have its name"},
		{name: "subscriptions agree", state: cluster.State{Subscriptions: []cluster.Subscription{
			{Name: "s1", Namespace: "ns", Source: "cat", SourceNamespace: "market"},
			{Name: "s2", Namespace: "ns", Source: "cat", SourceNamespace: "market"},
			{Name: "s3", Namespace: "other", Source: "cat", SourceNamespace: "elsewhere"},
		}}, want: resolver.CatalogKey{Namespace: "market", Name: "cat"},
			reason: "with no CatalogSource, the namespace the subscriptions of the namespace name is the likeliest"},
		{name: "subscriptions disagree", state: cluster.State{Subscriptions: []cluster.Subscription{
			{Name: "s1", Namespace: "ns", Source: "cat", SourceNamespace: "a"},
			{Name: "s2", Namespace: "ns", Source: "cat", SourceNamespace: "b"},
		}}, want: resolver.CatalogKey{Namespace: "glob", Name: "cat"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &loader{ctx: context.Background(), files: map[cluster.Ref]string{}}
			key, prio, err := l.identity("cat", "ns", "glob", &tt.state)
			if tt.wantErr != "" {
				var ae *AmbiguousCatalogError
				if !errors.As(err, &ae) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || key != tt.want || prio != tt.wantPrio {
				t.Errorf("identity = %v, %d, %v; want %v, %d (%s)", key, prio, err, tt.want, tt.wantPrio, tt.reason)
			}
		})
	}
}

package resolver

import (
	"github.com/sextantdev/sextant/internal/suggest"

	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/graph"
)

// APIQuery selects APIs by group, version and kind; an empty field matches
// any value, and Kind matches regardless of case (as kubectl does).
type APIQuery struct {
	Group   string `json:"group,omitempty"`
	Version string `json:"version,omitempty"`
	Kind    string `json:"kind,omitempty"`
}

// ParseAPIQuery reads "KIND", "GROUP/VERSION/KIND", "VERSION/KIND" (the
// core group), "GROUP/KIND" (a group has a dot), "GROUP" (a name with a dot)
// or "KIND.GROUP" (kubectl's resource form, the kind or its lower-case
// plural): a name with dots is tried as a group first, see
// [Resolver.Provides].
func ParseAPIQuery(s string) (APIQuery, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return APIQuery{}, fmt.Errorf("empty API: want KIND, GROUP/VERSION/KIND or GROUP")
	}
	parts := strings.Split(s, "/")
	for _, p := range parts {
		if p == "" || strings.ContainsAny(p, " \t") {
			return APIQuery{}, fmt.Errorf("API %q: want KIND, GROUP/VERSION/KIND or GROUP", s)
		}
	}
	switch len(parts) {
	case 1:
		if strings.Contains(s, ".") {
			return APIQuery{Group: s}, nil
		}
		return APIQuery{Kind: s}, nil
	case 2:
		if strings.Contains(parts[0], ".") {
			return APIQuery{Group: parts[0], Kind: parts[1]}, nil
		}
		return APIQuery{Version: parts[0], Kind: parts[1]}, nil
	case 3:
		return APIQuery{Group: parts[0], Version: parts[1], Kind: parts[2]}, nil
	}
	return APIQuery{}, fmt.Errorf("API %q: want KIND, GROUP/VERSION/KIND or GROUP", s)
}

// String returns the query in the form ParseAPIQuery reads.
func (q APIQuery) String() string {
	switch {
	case q.Group != "" && q.Version != "" && q.Kind != "":
		return q.Group + "/" + q.Version + "/" + q.Kind
	case q.Group != "" && q.Kind != "":
		return q.Group + "/" + q.Kind
	case q.Version != "" && q.Kind != "":
		return q.Version + "/" + q.Kind
	case q.Group != "":
		return q.Group
	}
	return q.Kind
}

// Matches reports whether g is selected by q.
func (q APIQuery) Matches(g graph.GVK) bool {
	return (q.Group == "" || q.Group == g.Group) &&
		(q.Version == "" || q.Version == g.Version) &&
		(q.Kind == "" || strings.EqualFold(q.Kind, g.Kind))
}

// ProvidedAPI is one API provided by one channel of a catalog package.
type ProvidedAPI struct {
	API     graph.GVK  `json:"api"`
	Catalog CatalogKey `json:"catalog"`
	Package string     `json:"package"`
	Channel string     `json:"channel"`
	// DefaultChannel reports that Channel is the package's default channel.
	DefaultChannel bool `json:"defaultChannel,omitempty"`
	// Head is the channel's head, and HeadProvides whether it provides
	// the API.
	Head         string `json:"head"`
	HeadProvides bool   `json:"headProvides"`
	// Versions lists the versions of the channel's bundles that provide
	// the API, in channel order from the head.
	Versions []string `json:"versions"`
}

// Provides returns every channel of every catalog whose bundles provide an
// API q selects: sorted by catalog (namespace, name), then those whose head
// provides the API first, then package, API, the default channel first and
// channel name. A query with dots and nothing else (a group) that matches
// no API is read again as KIND.GROUP (kubectl's resource form: the kind or
// its lower-case plural, then the group); a bare kind that matches no API
// is read again as a lower-case plural (etcdclusters), as kubectl reads
// it. The result is the caller's.
func (r *Resolver) Provides(q APIQuery) []ProvidedAPI {
	out := r.provides(q)
	switch {
	case len(out) > 0:
	case q.Version == "" && q.Kind == "" && strings.Contains(q.Group, "."):
		kind, group, _ := strings.Cut(q.Group, ".")
		for _, g := range r.gvks {
			if g.Group == group && (strings.EqualFold(g.Kind, kind) || strings.EqualFold(plural(g.Kind), kind)) {
				out = append(out, r.provides(APIQuery{Group: group, Kind: g.Kind})...)
				break
			}
		}
	case q.Group == "" && q.Version == "" && q.Kind != "":
		for _, g := range r.gvks {
			if strings.EqualFold(plural(g.Kind), q.Kind) {
				return r.provides(APIQuery{Kind: g.Kind})
			}
		}
	}
	return out
}

// NearestKind returns the kind of the catalogs' APIs that q's kind (or,
// for a query of a group alone, its group) most likely misspells, or ""
// when none is close or q names none: what "did you mean" offers when
// [Resolver.Provides] finds nothing.
func (r *Resolver) NearestKind(q APIQuery) string {
	asked := q.Kind
	var names []string
	for _, g := range r.gvks {
		if asked == "" {
			names = append(names, g.Group)
		} else {
			names = append(names, g.Kind, plural(g.Kind))
		}
	}
	if asked == "" {
		asked = q.Group
	}
	slices.Sort(names)
	near := suggest.Nearest(asked, slices.Compact(names))
	for _, g := range r.gvks {
		if near != "" && near == plural(g.Kind) && near != g.Kind {
			return near // a plural, as the query was written
		}
	}
	return near
}

// PackageNamed returns the package of the catalogs that a query of a bare
// name most likely names instead of an API, and whether the query is its
// very name (case aside: the package written as the query is, else the
// first by name that differs only in case); "" when no package name is
// close, or the query is not a bare name (it has a group or a version).
// Provides takes an API: a package's name is the slip PackageNamed
// catches, for "did you mean".
func (r *Resolver) PackageNamed(q APIQuery) (pkg string, exact bool) {
	if q.Group != "" || q.Version != "" || q.Kind == "" {
		return "", false
	}
	var names []string
	for _, ci := range r.catalogs {
		if ci.cat.Package(q.Kind) != nil {
			return q.Kind, true
		}
		for _, p := range ci.cat.Packages() {
			names = append(names, p.Name)
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	for _, name := range names {
		if strings.EqualFold(name, q.Kind) {
			return name, true
		}
	}
	return suggest.Nearest(q.Kind, names), false
}

// plural is the lower-case plural Kubernetes gives a kind by default.
func plural(kind string) string {
	k := strings.ToLower(kind)
	switch {
	case strings.HasSuffix(k, "s"), strings.HasSuffix(k, "x"), strings.HasSuffix(k, "ch"), strings.HasSuffix(k, "sh"):
		return k + "es"
	case strings.HasSuffix(k, "y") && len(k) > 1 && !strings.ContainsRune("aeiou", rune(k[len(k)-2])):
		return k[:len(k)-1] + "ies"
	}
	return k + "s"
}

func (r *Resolver) provides(q APIQuery) []ProvidedAPI {
	var apis []graph.GVK
	for _, g := range r.gvks {
		if q.Matches(g) {
			apis = append(apis, g)
		}
	}
	slices.SortFunc(apis, graph.GVK.Compare)
	var out []ProvidedAPI
	for _, ci := range r.catalogs {
		start := len(out)
		for _, g := range apis {
			type chKey struct{ pkg, ch string }
			idx := map[chKey]int{}
			for _, b := range ci.cat.Providers(g) {
				pi := ci.pkgs[b.Package]
				if pi == nil {
					continue
				}
				for _, chName := range b.Channels {
					key := chKey{b.Package, chName}
					i, ok := idx[key]
					if !ok {
						x := pi.channel(chName)
						if x == nil {
							continue
						}
						head, _ := x.ch.Head()
						i = len(out)
						idx[key] = i
						out = append(out, ProvidedAPI{API: g, Catalog: ci.key, Package: b.Package, Channel: chName, DefaultChannel: x.isDefault, Head: head})
					}
					out[i].Versions = append(out[i].Versions, b.Name)
				}
			}
		}
		// Versions in channel order, head first; bundle names become versions.
		for i := start; i < len(out); i++ {
			p := &out[i]
			x := ci.pkgs[p.Package].channel(p.Channel)
			pos := func(name string) int {
				if n := x.ch.Position(name); n >= 0 {
					return n
				}
				return len(x.ch.Entries)
			}
			slices.SortFunc(p.Versions, func(a, b string) int { return cmp.Or(cmp.Compare(pos(a), pos(b)), cmp.Compare(a, b)) })
			p.HeadProvides = len(p.Versions) > 0 && p.Versions[0] == p.Head
			for j, name := range p.Versions {
				if b := ci.cat.Package(p.Package).Bundle(name); b != nil && b.VersionText != "" {
					p.Versions[j] = b.VersionText
				}
			}
		}
		seg := out[start:]
		slices.SortFunc(seg, func(a, b ProvidedAPI) int {
			if a.HeadProvides != b.HeadProvides {
				if a.HeadProvides {
					return -1
				}
				return 1
			}
			if c := cmp.Or(cmp.Compare(a.Package, b.Package), a.API.Compare(b.API)); c != 0 {
				return c
			}
			if a.DefaultChannel != b.DefaultChannel {
				if a.DefaultChannel {
					return -1
				}
				return 1
			}
			return cmp.Compare(a.Channel, b.Channel)
		})
	}
	return out
}

package graph

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/blang/semver/v4"
	"github.com/sextantdev/sextant/graph/internal/jsonscan"
)

// InstallModeType names an OperatorGroup shape an operator can run under.
type InstallModeType string

// The install mode types OLM knows.
const (
	InstallModeOwnNamespace    InstallModeType = "OwnNamespace"
	InstallModeSingleNamespace InstallModeType = "SingleNamespace"
	InstallModeMultiNamespace  InstallModeType = "MultiNamespace"
	InstallModeAllNamespaces   InstallModeType = "AllNamespaces"
)

// InstallMode is one element of a CSV's installModes: a type and whether the
// operator supports it. Type is kept as written, known to OLM or not.
type InstallMode struct {
	Type      InstallModeType `json:"type"`
	Supported bool            `json:"supported"`
}

// AppLink is a name and a URL, as a CSV's provider states them.
type AppLink struct {
	Name string `json:"name,omitempty"`
	URL  string `json:"url,omitempty"`
}

// CSVMetadata is the typed view of an olm.csv.metadata property: the parts
// of the bundle's ClusterServiceVersion that opm copies into the catalog
// and that matter after resolution (install modes, minKubeVersion, native
// APIs) or to people choosing an operator (display name, keywords, provider,
// maturity, annotations, labels), and the API services it serves or needs.
// Descriptions, links, maintainers, icons and the CRD descriptions are not
// modelled: they stay in the raw property.
//
// A CSVMetadata is immutable once its bundle is built and safe for
// concurrent use. Its slices are shared and must not be modified.
type CSVMetadata struct {
	DisplayName string
	// InstallModes in the order the CSV lists them; nil when it lists none.
	InstallModes []InstallMode
	// MinKubeVersion is the minKubeVersion as written; "" when there is
	// none. MinKube parses it.
	MinKubeVersion string
	// NativeAPIs are the Kubernetes APIs the operator needs from the
	// cluster itself (no bundle provides them).
	NativeAPIs []GVK
	Keywords   []string
	Maturity   string
	Provider   AppLink
	// APIServiceDefinitions is the CSV's spec.apiservicedefinitions as the
	// metadata records it (apiServiceDefinitions); nil when the metadata has
	// no such field. opm writes the field for every bundle it renders, empty
	// or not, so nil means the catalog does not say (a catalog built by
	// other tools may leave it out), not that the operator owns none.
	APIServiceDefinitions *APIServiceDefinitions

	annotations []byte // the raw annotations object, checked; nil when none
	labels      []byte // the raw labels object, checked; nil when none
}

// Supports reports whether the metadata supports install mode t, as OLM
// reads the list (ReadInstallModes: the last listing of t stands; a list
// that names t twice is one OLM rejects as InvalidInstallModes, which is
// for the caller to report).
func (m *CSVMetadata) Supports(t InstallModeType) bool { return m.Modes().Supports(t) }

// Modes returns the install modes as OLM reads them (ReadInstallModes).
func (m *CSVMetadata) Modes() InstallModeSet { return ReadInstallModes(m.InstallModes) }

// MinKube returns minKubeVersion parsed as OLM's requirement check parses
// it (ParseKubeVersion: an optional "v", then major.minor.patch — "v1.21"
// does not parse, and OLM then never meets the bundle's requirements). ok
// is false when there is none; err says why a minKubeVersion that is
// present does not parse.
func (m *CSVMetadata) MinKube() (v semver.Version, ok bool, err error) {
	if m.MinKubeVersion == "" {
		return semver.Version{}, false, nil
	}
	v, err = ParseKubeVersion(m.MinKubeVersion, false)
	if err != nil {
		return semver.Version{}, true, fmt.Errorf("minKubeVersion: %w", err)
	}
	return v, true, nil
}

// ParseKubeVersion parses a Kubernetes version as OLM reads the server's
// (and a CSV's minKubeVersion): an optional leading "v", then
// major.minor.patch, each a decimal integer, with an optional -prerelease
// and +build; for a server version, OLM drops everything from the first
// "-" (server is true). "1.25" does not parse: OLM wants all three parts.
func ParseKubeVersion(text string, server bool) (semver.Version, error) {
	s := strings.TrimPrefix(text, "v")
	if server {
		s, _, _ = strings.Cut(s, "-")
	}
	rest, build, _ := strings.Cut(s, "+")
	core, pre, hasPre := strings.Cut(rest, "-")
	parts := strings.SplitN(core, ".", 3)
	if len(parts) != 3 {
		return semver.Version{}, fmt.Errorf("version %q is not major.minor.patch", text)
	}
	var nums [3]uint64
	for i, p := range parts {
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil || n < 0 {
			return semver.Version{}, fmt.Errorf("version %q: %q is not a number", text, p)
		}
		nums[i] = uint64(n)
	}
	v := semver.Version{Major: nums[0], Minor: nums[1], Patch: nums[2]}
	if hasPre {
		for _, id := range strings.Split(pre, ".") {
			prv, err := semver.NewPRVersion(id)
			if err != nil {
				return semver.Version{}, fmt.Errorf("version %q: prerelease: %w", text, err)
			}
			v.Pre = append(v.Pre, prv)
		}
	}
	if build != "" {
		v.Build = strings.Split(build, ".")
	}
	return v, nil
}

// Annotations returns the CSV's annotations, decoded afresh on each call
// (they can be large: alm-examples lives there); the map belongs to the
// caller. Nil when there are none.
func (m *CSVMetadata) Annotations() map[string]string { return decodeStringMap(m.annotations) }

// Labels returns the CSV's labels, decoded afresh on each call; the map
// belongs to the caller. Nil when there are none.
func (m *CSVMetadata) Labels() map[string]string { return decodeStringMap(m.labels) }

// MaxOpenShiftVersion is an olm.maxOpenShiftVersion property: the last
// OpenShift minor version the operator supports. OLM blocks cluster upgrades
// past it while the operator is installed; an invalid value blocks them too.
type MaxOpenShiftVersion struct {
	// Text is the value as written, surrounding quotes removed.
	Text string
	// Version is Text as major.minor (patch 0), read tolerantly as OLM
	// reads it; the zero Version when Err is set.
	Version semver.Version
	// Err says why Text is not a valid major.minor version, or why the
	// bundle's olm.maxOpenShiftVersion properties are invalid as a whole
	// (OLM allows one); nil when valid.
	Err error
}

// parseMaxOpenShiftVersion reads an olm.maxOpenShiftVersion value as OLM
// does: the raw value with its quotes trimmed, tolerant semver, and nothing
// beyond major.minor. Its errors are OLM's own words (v0.28,
// pkg/controller/operators/openshift/helpers.go), which its upgrade gate
// prints after "has invalid olm.maxOpenShiftVersion properties: ".
func parseMaxOpenShiftVersion(v []byte) *MaxOpenShiftVersion {
	m := &MaxOpenShiftVersion{Text: strings.Trim(strings.TrimSpace(string(v)), `"`)}
	if m.Text == "" {
		m.Err = errors.New(`value cannot be "" (an empty string)`)
		return m
	}
	ver, err := semver.ParseTolerant(m.Text)
	if err != nil {
		m.Err = fmt.Errorf(`failed to parse "%s" as semver: %w`, m.Text, err)
		return m
	}
	minor := semver.Version{Major: ver.Major, Minor: ver.Minor}
	if !ver.EQ(minor) {
		m.Err = fmt.Errorf("property %s must specify only <major>.<minor> version, got invalid value %s", TypeMaxOpenShift, ver)
		return m
	}
	m.Version = minor
	return m
}

// parseCSVMetadata reads an olm.csv.metadata value. It is tolerant: a field
// of the wrong type is reported and the other fields are still read; the
// returned metadata is never nil.
func parseCSVMetadata(v []byte, in *interner) (*CSVMetadata, error) {
	m := new(CSVMetadata)
	s := jsonscan.Scanner{Data: v}
	switch c := s.Peek(); c {
	case '{':
	case 'n': // null: no metadata, as encoding/json reads it
		if err := s.Skip(); err != nil || !s.AtEnd() {
			return m, errors.New("value is not valid JSON")
		}
		return m, nil
	default:
		return m, fmt.Errorf("value is %s, want an object", jsonscan.Kind(c))
	}
	var errs []error
	if err := s.BeginObject(); err != nil {
		return m, err
	}
	for first := true; ; first = false {
		key, more, err := s.NextKeyUnescaped(first)
		if err != nil {
			return m, errors.Join(append(errs, err)...)
		}
		if !more {
			break
		}
		if ferr := m.readField(&s, key, in); ferr != nil {
			var syn *jsonscan.SyntaxError
			if errors.As(ferr, &syn) {
				return m, errors.Join(append(errs, ferr)...)
			}
			errs = append(errs, fmt.Errorf("field %q: %w", key, ferr))
		}
	}
	return m, errors.Join(errs...)
}

// readField reads the value of the metadata field key at s into m,
// skipping fields it does not keep. A field read in part keeps what could
// be read.
func (m *CSVMetadata) readField(s *jsonscan.Scanner, key []byte, in *interner) (err error) {
	switch string(key) {
	case "displayName":
		m.DisplayName, err = scanString(s, in)
	case "minKubeVersion":
		m.MinKubeVersion, err = scanString(s, in)
	case "maturity":
		m.Maturity, err = scanString(s, in)
	case "installModes":
		m.InstallModes, err = scanInstallModes(s, in)
	case "nativeAPIs":
		m.NativeAPIs, err = scanGVKs(s, in)
	case "keywords":
		m.Keywords, err = scanKeywords(s, in)
	case "provider":
		m.Provider, err = scanAppLink(s, in)
	case "annotations":
		m.annotations, err = scanStringMap(s)
	case "labels":
		m.labels, err = scanStringMap(s)
	case "apiServiceDefinitions":
		m.APIServiceDefinitions, err = scanAPIServiceDefinitions(s, in)
	default:
		err = s.Skip()
	}
	return err
}

// scanInstallModes reads an array of install modes, shared with earlier
// equal arrays; on an error, the modes that could be read.
func scanInstallModes(s *jsonscan.Scanner, in *interner) ([]InstallMode, error) {
	return sharedList(s, in, in.modesMap(), func(i int, list []InstallMode) ([]InstallMode, error) {
		im, err := scanInstallMode(s, in)
		if list == nil {
			list = make([]InstallMode, 0, 4) // CSVs list all four
		}
		list = append(list, im) // what could be read
		if err != nil {
			return list, fmt.Errorf("element %d: %w", i, err)
		}
		return list, nil
	})
}

// scanGVKs reads an array of group/version/kind objects; on an error, the
// elements up to and including the faulty one.
func scanGVKs(s *jsonscan.Scanner, in *interner) ([]GVK, error) {
	return scanList(s, func() (GVK, error) { return scanGVK(s, in) })
}

// scanList reads an array, each element with elem; on an error, the
// elements up to and including the faulty one.
func scanList[T any](s *jsonscan.Scanner, elem func() (T, error)) (list []T, err error) {
	err = scanArray(s, func(i int) error {
		v, err := elem()
		list = append(list, v)
		if err != nil {
			return fmt.Errorf("element %d: %w", i, err)
		}
		return nil
	})
	return list, err
}

// scanKeywords reads an array of strings, shared with earlier equal
// arrays; on an error, the strings before the faulty element.
func scanKeywords(s *jsonscan.Scanner, in *interner) ([]string, error) {
	return sharedList(s, in, in.wordsMap(), func(i int, list []string) ([]string, error) {
		k, err := scanString(s, in)
		if err != nil {
			return list, fmt.Errorf("element %d: %w", i, err)
		}
		if list == nil {
			list = make([]string, 0, 4)
		}
		return append(list, k), nil
	})
}

// scanAppLink reads a {name, url} object, ignoring other keys.
func scanAppLink(s *jsonscan.Scanner, in *interner) (l AppLink, err error) {
	err = scanObject(s, func(key []byte) (err error) {
		switch string(key) {
		case "name":
			l.Name, err = scanString(s, in)
		case "url":
			l.URL, err = scanString(s, in)
		default:
			err = s.Skip()
		}
		return err
	})
	return l, err
}

// scanStringMap checks that the value at s is an object of strings (or
// null) and returns its raw text, to be decoded when asked for; nil for
// null or on an error.
func scanStringMap(s *jsonscan.Scanner) ([]byte, error) {
	start := s.Pos
	err := scanObject(s, func(key []byte) error {
		if err := skipString(s); err != nil {
			return fmt.Errorf("key %q: %w", key, err)
		}
		return nil
	})
	if err != nil || s.Data[start] == 'n' {
		return nil, err
	}
	return s.Data[start:s.Pos], nil
}

// sharedList reads an array with elem, sharing the result with every
// earlier array of the same raw text in cache (when in is not nil and the
// array has no error). null is a nil list.
func sharedList[T any](s *jsonscan.Scanner, in *interner, cache map[string][]T, elem func(i int, list []T) ([]T, error)) ([]T, error) {
	start := s.Pos
	if in != nil && s.Peek() == '[' {
		probe := *s
		if raw, err := probe.Value(); err == nil {
			if list, ok := cache[string(raw)]; ok {
				*s = probe
				return list, nil
			}
		}
	}
	var list []T
	err := scanArray(s, func(i int) error {
		var err error
		list, err = elem(i, list)
		return err
	})
	if err == nil && in != nil && list != nil {
		cache[string(s.Data[start:s.Pos])] = list
	}
	return list, err
}

func (in *interner) modesMap() map[string][]InstallMode {
	if in == nil {
		return nil
	}
	return in.modes
}

func (in *interner) wordsMap() map[string][]string {
	if in == nil {
		return nil
	}
	return in.words
}

// scanString reads a string or null (""), interning it when in is not nil.
// A value of another type is skipped and reported.
func scanString(s *jsonscan.Scanner, in *interner) (string, error) {
	switch c := s.Peek(); c {
	case '"':
		raw, esc, err := s.String()
		if err != nil {
			return "", err
		}
		if esc {
			return string(jsonscan.Unescape(nil, raw)), nil
		}
		if in != nil {
			return in.intern(raw), nil
		}
		return string(raw), nil
	case 'n':
		return "", s.Skip()
	default:
		if err := s.Skip(); err != nil {
			return "", err
		}
		return "", fmt.Errorf("value is %s, want a string", jsonscan.Kind(c))
	}
}

// skipString skips a string or null; a value of another type is skipped
// and reported.
func skipString(s *jsonscan.Scanner) error {
	switch c := s.Peek(); c {
	case '"', 'n':
		return s.Skip()
	default:
		if err := s.Skip(); err != nil {
			return err
		}
		return fmt.Errorf("value is %s, want a string", jsonscan.Kind(c))
	}
}

// scanBool reads a boolean or null (false).
func scanBool(s *jsonscan.Scanner) (bool, error) {
	c := s.Peek()
	raw, err := s.Value()
	if err != nil {
		return false, err
	}
	switch string(raw) {
	case "true":
		return true, nil
	case "false", "null":
		return false, nil
	}
	return false, fmt.Errorf("value is %s, want a boolean", jsonscan.Kind(c))
}

// scanArray calls elem for each element of an array; null is an empty
// array. The first element error is returned after the array is skipped.
func scanArray(s *jsonscan.Scanner, elem func(i int) error) error {
	return scanEach(s, '[', "an array", func(i int, _ []byte) error { return elem(i) })
}

// scanObject calls field for each member of an object; null is an empty
// object. The first field error is returned after the object is skipped.
func scanObject(s *jsonscan.Scanner, field func(key []byte) error) error {
	return scanEach(s, '{', "an object", func(_ int, key []byte) error { return field(key) })
}

// scanEach calls f for each element of an array (open '[') or member of an
// object (open '{', with its key, unescaped); null is empty, and a value of
// another type is skipped and an error naming want. A syntax error ends the
// scan; otherwise the first error of f is returned after the value is
// skipped.
func scanEach(s *jsonscan.Scanner, open byte, want string, f func(i int, key []byte) error) error {
	switch c := s.Peek(); c {
	case open:
	case 'n':
		return s.Skip()
	default:
		if err := s.Skip(); err != nil {
			return err
		}
		return fmt.Errorf("value is %s, want %s", jsonscan.Kind(c), want)
	}
	var err error
	if open == '{' {
		err = s.BeginObject()
	} else {
		err = s.BeginArray()
	}
	if err != nil {
		return err
	}
	var first error
	for i := 0; ; i++ {
		var key []byte
		var more bool
		if open == '{' {
			key, more, err = s.NextKeyUnescaped(i == 0)
		} else {
			more, err = s.NextElem(i == 0)
		}
		if err != nil {
			return err
		}
		if !more {
			return first
		}
		if err := f(i, key); err != nil {
			var syn *jsonscan.SyntaxError
			if errors.As(err, &syn) {
				return err
			}
			if first == nil {
				first = err
			}
		}
	}
}

func scanInstallMode(s *jsonscan.Scanner, in *interner) (InstallMode, error) {
	var im InstallMode
	err := scanObject(s, func(key []byte) error {
		switch string(key) {
		case "type":
			t, err := scanString(s, in)
			im.Type = InstallModeType(t)
			if err != nil {
				return fmt.Errorf("field \"type\": %w", err)
			}
		case "supported":
			b, err := scanBool(s)
			im.Supported = b
			if err != nil {
				return fmt.Errorf("field \"supported\": %w", err)
			}
		default:
			return s.Skip()
		}
		return nil
	})
	return im, err
}

func scanGVK(s *jsonscan.Scanner, in *interner) (GVK, error) {
	var f [3]string
	err := scanStringFields(s, in, f[:], "group", "version", "kind")
	return GVK{Group: f[0], Version: f[1], Kind: f[2]}, err
}

// scanStringFields reads an object whose fields of interest are strings:
// the value of keys[i] into vals[i], the other keys skipped. On an error,
// the faulty field holds what could be read.
func scanStringFields(s *jsonscan.Scanner, in *interner, vals []string, keys ...string) error {
	return scanObject(s, func(key []byte) error {
		i := slices.Index(keys, string(key))
		if i < 0 {
			return s.Skip()
		}
		v, err := scanString(s, in)
		vals[i] = v
		if err != nil {
			return fmt.Errorf("field %q: %w", key, err)
		}
		return nil
	})
}

// decodeStringMap decodes a JSON object of strings that scanObject has
// already checked; nil for nil or an empty object.
func decodeStringMap(raw []byte) map[string]string {
	if raw == nil {
		return nil
	}
	var out map[string]string
	s := jsonscan.Scanner{Data: raw}
	_ = scanObject(&s, func(key []byte) error {
		v, err := scanString(&s, nil)
		if err != nil {
			return err
		}
		if out == nil {
			out = make(map[string]string)
		}
		out[string(key)] = v
		return nil
	})
	return out
}

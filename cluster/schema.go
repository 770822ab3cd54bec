package cluster

import (
	_ "embed"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/sextantdev/sextant/internal/suggest"
)

// schemaText is the field table of the OLM objects Decode reads: which
// fields each object and each object inside it may have, as the
// CustomResourceDefinitions define them (written by internal/schemagen).
//
// A line "kind GROUP KIND TYPE" says that objects of GROUP and KIND are
// of type TYPE. A line "type NAME FIELD…" defines the type NAME: an object
// that may hold only the fields listed. A field is written NAME (not
// checked further: a scalar, or an array or map of scalars), NAME:*
// (anything: the schema leaves it open), NAME:TYPE (an object of TYPE),
// NAME:[]TYPE (an array of objects of TYPE) or NAME:{}TYPE (a map whose
// values are objects of TYPE). Lines starting with # are comments.
//
// To check another kind (OLM v1's, say): run internal/schemagen over its
// CRD, add the lines to this file (or embed a table of its own, parsed
// apart, as schema_openshift.txt is), and call object.checkSchema for it.
//
//go:embed schema.txt
var schemaText string

// schemaType is the fields an object may have.
type schemaType struct {
	name   string
	fields map[string]schemaField
	names  []string // the field names, sorted
}

// schemaField is how a field's value is checked: not at all (kind 0),
// anything ('*'), an object of typ ('o'), an array ('a') or a map ('m')
// of objects of typ.
type schemaField struct {
	kind byte
	typ  *schemaType
}

// schemaKinds returns the type of each kind of schemaText, by group and
// kind ("operators.coreos.com/Subscription"); it panics when schemaText is
// malformed, which TestSchemaText rules out.
var schemaKinds = sync.OnceValue(func() map[string]*schemaType {
	kinds, err := parseSchema(schemaText)
	if err != nil {
		panic("cluster: schema.txt: " + err.Error())
	}
	openshift, err := parseSchema(schemaOpenShiftText)
	if err != nil {
		panic("cluster: schema_openshift.txt: " + err.Error())
	}
	maps.Copy(kinds, openshift)
	return kinds
})

// parseSchema reads a field table (see schemaText).
func parseSchema(text string) (map[string]*schemaType, error) {
	types := map[string]*schemaType{}
	typeOf := func(name string) *schemaType {
		t := types[name]
		if t == nil {
			t = &schemaType{name: name}
			types[name] = t
		}
		return t
	}
	kinds := map[string]*schemaType{}
	for i, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch {
		case f[0] == "kind" && len(f) == 4:
			kinds[f[1]+"/"+f[2]] = typeOf(f[3])
		case f[0] == "type" && len(f) >= 2:
			t := typeOf(f[1])
			if t.fields != nil {
				return nil, fmt.Errorf("line %d: type %s defined twice", i+1, f[1])
			}
			t.fields = map[string]schemaField{}
			for _, field := range f[2:] {
				name, ref, _ := strings.Cut(field, ":")
				var sf schemaField
				switch {
				case ref == "":
				case ref == "*":
					sf.kind = '*'
				case strings.HasPrefix(ref, "[]"):
					sf = schemaField{'a', typeOf(ref[2:])}
				case strings.HasPrefix(ref, "{}"):
					sf = schemaField{'m', typeOf(ref[2:])}
				default:
					sf = schemaField{'o', typeOf(ref)}
				}
				t.fields[name] = sf
			}
			t.names = slices.Sorted(maps.Keys(t.fields))
		default:
			return nil, fmt.Errorf("line %d: want kind GROUP KIND TYPE or type NAME FIELD…", i+1)
		}
	}
	for name, t := range types {
		if t.fields == nil {
			return nil, fmt.Errorf("type %s used but not defined", name)
		}
	}
	return kinds, nil
}

// checkSchema refuses every field of m, an object of kind in group, that
// its schema does not have — as `kubectl apply --validate=strict` refuses
// it — naming the field and the nearest known one. Kinds without a schema
// are not checked. Only names are checked here: the fields Decode reads
// are checked for type and value where they are read.
func (o *object) checkSchema(group, kind string, m map[string]any) {
	if t := schemaKinds()[group+"/"+kind]; t != nil {
		o.checkObject(t, m, "")
	}
}

func (o *object) checkObject(t *schemaType, m map[string]any, path string) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		field := k
		if path != "" {
			field = path + "." + k
		}
		sf, ok := t.fields[k]
		if !ok {
			o.unknownField(field, k, t.names)
			continue
		}
		if sf.typ == nil {
			continue
		}
		switch v := m[k].(type) {
		case map[string]any:
			switch sf.kind {
			case 'o':
				o.checkObject(sf.typ, v, field)
			case 'm':
				for _, key := range slices.Sorted(maps.Keys(v)) {
					if item, ok := v[key].(map[string]any); ok {
						o.checkObject(sf.typ, item, fmt.Sprintf("%s[%q]", field, key))
					}
				}
			}
		case []any:
			if sf.kind == 'a' {
				for i, item := range v {
					if item, ok := item.(map[string]any); ok {
						o.checkObject(sf.typ, item, fmt.Sprintf("%s[%d]", field, i))
					}
				}
			}
		}
	}
}

// unknownField records that field (whose last name is key) is not one of
// known: with the nearest known name when one is close, else with the
// known names when they are few.
func (o *object) unknownField(field, key string, known []string) {
	if isV1Kind(o.kind) {
		e := &UnknownFieldError{Field: field, Near: suggest.Nearest(key, known)}
		if e.Near == "" && len(known) <= 12 {
			e.Known = known
		}
		o.fail(field, e)
		return
	}
	switch near := suggest.Nearest(key, known); {
	case near != "":
		o.errorf(field, "unknown field (did you mean %q?)", near)
	case len(known) <= 12:
		o.errorf(field, "unknown field (known: %s)", strings.Join(known, ", "))
	default:
		o.errorf(field, "unknown field")
	}
}

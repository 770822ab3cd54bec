// Package crd reads CustomResourceDefinitions (apiextensions.k8s.io/v1)
// whole — their versions and OpenAPI schemas — and answers what OLM asks
// of them before it replaces one: OLM v1's CRD upgrade safety preflight
// (operator-controller's configuration of crdify, [CheckUpgrade]) and OLM
// v0's validation of existing custom resources against the new schema
// ([Definition.ValidateObject]).
//
// It is a leaf package of the standard library alone, so that the catalog,
// cluster and engine packages may read CRDs without linking Kubernetes'
// own types. The model mirrors apiextensions.k8s.io/v1 field for field
// (the comparison reports every field that changed, as crdify does).
package crd

// Definition is a CustomResourceDefinition. The zero value is a CRD with no
// name and no versions.
type Definition struct {
	// Name is metadata.name, "<plural>.<group>".
	Name  string `json:"name"`
	Group string `json:"group"`
	Names Names  `json:"names"`
	// Scope is spec.scope: "Namespaced" or "Cluster".
	Scope string `json:"scope"`
	// Versions is spec.versions in the order written.
	Versions []Version `json:"versions"`
	// ConversionStrategy is spec.conversion.strategy: "None", "Webhook",
	// or "" when spec.conversion is absent (the API server defaults it to
	// None).
	ConversionStrategy string `json:"conversionStrategy,omitempty"`
	// PreserveUnknownFields is spec.preserveUnknownFields.
	PreserveUnknownFields bool `json:"preserveUnknownFields,omitempty"`
	// StoredVersions is status.storedVersions in the order written (nil
	// when absent).
	StoredVersions []string `json:"storedVersions,omitempty"`
}

// Names is a CRD's spec.names.
type Names struct {
	Plural     string   `json:"plural"`
	Singular   string   `json:"singular,omitempty"`
	Kind       string   `json:"kind"`
	ListKind   string   `json:"listKind,omitempty"`
	ShortNames []string `json:"shortNames,omitempty"`
	Categories []string `json:"categories,omitempty"`
}

// Version is one entry of a CRD's spec.versions.
type Version struct {
	Name       string `json:"name"`
	Served     bool   `json:"served"`
	Storage    bool   `json:"storage"`
	Deprecated bool   `json:"deprecated,omitempty"`
	// Schema is schema.openAPIV3Schema; nil when the version has none.
	Schema *Schema `json:"schema,omitempty"`
}

// Version returns the version of d named name, or nil. The result points
// into d.
func (d *Definition) Version(name string) *Version {
	for i := range d.Versions {
		if d.Versions[i].Name == name {
			return &d.Versions[i]
		}
	}
	return nil
}

// StorageVersion returns the name of the version with storage set, or ""
// when none has it.
func (d *Definition) StorageVersion() string {
	for _, v := range d.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}

// Live returns a copy of d as the API server keeps it once created: with
// status.storedVersions the storage version when d records none (the
// API server's defaulting). The copy shares d's schemas, which neither
// changes.
func (d *Definition) Live() *Definition {
	l := *d
	if len(l.StoredVersions) == 0 {
		if s := d.StorageVersion(); s != "" {
			l.StoredVersions = []string{s}
		}
	}
	return &l
}

// JSON is a JSON value of a schema (default, enum, example) in the form
// the API server keeps it: compact, object keys sorted, numbers as Go
// writes an int64 or a float64, strings with <, > and & escaped.
type JSON string

// Schema is a JSON schema as apiextensions.k8s.io/v1 writes it
// (JSONSchemaProps). A list or map field is nil when absent or empty: the
// API server serves an empty one as absent.
type Schema struct {
	ID                     string                         `json:"id,omitempty"`
	SchemaURI              string                         `json:"$schema,omitempty"`
	Ref                    *string                        `json:"$ref,omitempty"`
	Description            string                         `json:"description,omitempty"`
	Type                   string                         `json:"type,omitempty"`
	Format                 string                         `json:"format,omitempty"`
	Title                  string                         `json:"title,omitempty"`
	Default                *JSON                          `json:"default,omitempty"`
	Maximum                *float64                       `json:"maximum,omitempty"`
	ExclusiveMaximum       bool                           `json:"exclusiveMaximum,omitempty"`
	Minimum                *float64                       `json:"minimum,omitempty"`
	ExclusiveMinimum       bool                           `json:"exclusiveMinimum,omitempty"`
	MaxLength              *int64                         `json:"maxLength,omitempty"`
	MinLength              *int64                         `json:"minLength,omitempty"`
	Pattern                string                         `json:"pattern,omitempty"`
	MaxItems               *int64                         `json:"maxItems,omitempty"`
	MinItems               *int64                         `json:"minItems,omitempty"`
	UniqueItems            bool                           `json:"uniqueItems,omitempty"`
	MultipleOf             *float64                       `json:"multipleOf,omitempty"`
	Enum                   []JSON                         `json:"enum,omitempty"`
	MaxProperties          *int64                         `json:"maxProperties,omitempty"`
	MinProperties          *int64                         `json:"minProperties,omitempty"`
	Required               []string                       `json:"required,omitempty"`
	Items                  *SchemaOrArray                 `json:"items,omitempty"`
	AllOf                  []Schema                       `json:"allOf,omitempty"`
	OneOf                  []Schema                       `json:"oneOf,omitempty"`
	AnyOf                  []Schema                       `json:"anyOf,omitempty"`
	Not                    *Schema                        `json:"not,omitempty"`
	Properties             map[string]Schema              `json:"properties,omitempty"`
	AdditionalProperties   *SchemaOrBool                  `json:"additionalProperties,omitempty"`
	PatternProperties      map[string]Schema              `json:"patternProperties,omitempty"`
	Dependencies           map[string]SchemaOrStringArray `json:"dependencies,omitempty"`
	AdditionalItems        *SchemaOrBool                  `json:"additionalItems,omitempty"`
	Definitions            map[string]Schema              `json:"definitions,omitempty"`
	ExternalDocs           *ExternalDocs                  `json:"externalDocs,omitempty"`
	Example                *JSON                          `json:"example,omitempty"`
	Nullable               bool                           `json:"nullable,omitempty"`
	XPreserveUnknownFields *bool                          `json:"x-kubernetes-preserve-unknown-fields,omitempty"`
	XEmbeddedResource      bool                           `json:"x-kubernetes-embedded-resource,omitempty"`
	XIntOrString           bool                           `json:"x-kubernetes-int-or-string,omitempty"`
	XListMapKeys           []string                       `json:"x-kubernetes-list-map-keys,omitempty"`
	XListType              *string                        `json:"x-kubernetes-list-type,omitempty"`
	XMapType               *string                        `json:"x-kubernetes-map-type,omitempty"`
	XValidations           []ValidationRule               `json:"x-kubernetes-validations,omitempty"`
}

// SchemaOrArray is an items field: one schema, or a list of schemas.
type SchemaOrArray struct {
	Schema  *Schema  `json:"schema,omitempty"`
	Schemas []Schema `json:"schemas,omitempty"`
}

// SchemaOrBool is an additionalProperties or additionalItems field: a
// boolean (Allows), or a schema (Allows true).
type SchemaOrBool struct {
	Allows bool    `json:"allows"`
	Schema *Schema `json:"schema,omitempty"`
}

// SchemaOrStringArray is one entry of a dependencies field: a schema, or
// a list of property names.
type SchemaOrStringArray struct {
	Schema   *Schema  `json:"schema,omitempty"`
	Property []string `json:"property,omitempty"`
}

// ExternalDocs is a schema's externalDocs.
type ExternalDocs struct {
	Description string `json:"description,omitempty"`
	URL         string `json:"url,omitempty"`
}

// ValidationRule is one entry of x-kubernetes-validations.
type ValidationRule struct {
	Rule              string  `json:"rule"`
	Message           string  `json:"message,omitempty"`
	MessageExpression string  `json:"messageExpression,omitempty"`
	Reason            *string `json:"reason,omitempty"`
	FieldPath         string  `json:"fieldPath,omitempty"`
	OptionalOldSelf   *bool   `json:"optionalOldSelf,omitempty"`
}

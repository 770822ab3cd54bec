package crd

// semanticEqual compares two schemas as Kubernetes' equality.Semantic
// does: field by field, pointers by what they point to, and an empty
// slice or map equal to an absent one.
func semanticEqual(a, b *Schema) bool {
	if a == nil || b == nil {
		return a == b
	}
	return shallowEqual(a, b) && eqSchemaMap(a.Properties, b.Properties) && eqItems(a.Items, b.Items)
}

// shallowEqual is semanticEqual of a and b (neither nil) without their
// properties and items: a.shallow() and b.shallow() compared, without
// the copies.
func shallowEqual(a, b *Schema) bool {
	return a.ID == b.ID && a.SchemaURI == b.SchemaURI && eqPtr(a.Ref, b.Ref) && a.Description == b.Description &&
		a.Type == b.Type && a.Format == b.Format && a.Title == b.Title && eqPtr(a.Default, b.Default) &&
		eqPtr(a.Maximum, b.Maximum) && a.ExclusiveMaximum == b.ExclusiveMaximum && eqPtr(a.Minimum, b.Minimum) &&
		a.ExclusiveMinimum == b.ExclusiveMinimum && eqPtr(a.MaxLength, b.MaxLength) && eqPtr(a.MinLength, b.MinLength) &&
		a.Pattern == b.Pattern && eqPtr(a.MaxItems, b.MaxItems) && eqPtr(a.MinItems, b.MinItems) &&
		a.UniqueItems == b.UniqueItems && eqPtr(a.MultipleOf, b.MultipleOf) && eqSlice(a.Enum, b.Enum) &&
		eqPtr(a.MaxProperties, b.MaxProperties) && eqPtr(a.MinProperties, b.MinProperties) &&
		eqSlice(a.Required, b.Required) && eqSchemas(a.AllOf, b.AllOf) &&
		eqSchemas(a.OneOf, b.OneOf) && eqSchemas(a.AnyOf, b.AnyOf) && semanticEqual(a.Not, b.Not) &&
		eqOrBool(a.AdditionalProperties, b.AdditionalProperties) &&
		eqSchemaMap(a.PatternProperties, b.PatternProperties) && eqDeps(a.Dependencies, b.Dependencies) &&
		eqOrBool(a.AdditionalItems, b.AdditionalItems) && eqSchemaMap(a.Definitions, b.Definitions) &&
		eqPtr(a.ExternalDocs, b.ExternalDocs) && eqPtr(a.Example, b.Example) && a.Nullable == b.Nullable &&
		eqPtr(a.XPreserveUnknownFields, b.XPreserveUnknownFields) && a.XEmbeddedResource == b.XEmbeddedResource &&
		a.XIntOrString == b.XIntOrString && eqSlice(a.XListMapKeys, b.XListMapKeys) && eqPtr(a.XListType, b.XListType) &&
		eqPtr(a.XMapType, b.XMapType) && eqRules(a.XValidations, b.XValidations)
}

func eqPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func eqSlice[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func eqSchemas(a, b []Schema) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !semanticEqual(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

func eqSchemaMap(a, b map[string]Schema) bool {
	if len(a) != len(b) {
		return false
	}
	for k, va := range a {
		vb, ok := b[k]
		if !ok || !semanticEqual(&va, &vb) {
			return false
		}
	}
	return true
}

func eqItems(a, b *SchemaOrArray) bool {
	if a == nil || b == nil {
		return a == b
	}
	return semanticEqual(a.Schema, b.Schema) && eqSchemas(a.Schemas, b.Schemas)
}

func eqOrBool(a, b *SchemaOrBool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Allows == b.Allows && semanticEqual(a.Schema, b.Schema)
}

func eqDeps(a, b map[string]SchemaOrStringArray) bool {
	if len(a) != len(b) {
		return false
	}
	for k, va := range a {
		vb, ok := b[k]
		if !ok || !semanticEqual(va.Schema, vb.Schema) || !eqSlice(va.Property, vb.Property) {
			return false
		}
	}
	return true
}

func eqRules(a, b []ValidationRule) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Rule != y.Rule || x.Message != y.Message || x.MessageExpression != y.MessageExpression ||
			!eqPtr(x.Reason, y.Reason) || x.FieldPath != y.FieldPath || !eqPtr(x.OptionalOldSelf, y.OptionalOldSelf) {
			return false
		}
	}
	return true
}

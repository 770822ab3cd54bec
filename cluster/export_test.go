package cluster

// SchemaKindsForTest returns the kinds of the embedded field table, by
// group/kind.
func SchemaKindsForTest() map[string]bool {
	out := map[string]bool{}
	for k := range schemaKinds() {
		out[k] = true
	}
	return out
}

// ParseSchemaForTest parses a field table, for its errors.
func ParseSchemaForTest(text string) error {
	_, err := parseSchema(text)
	return err
}

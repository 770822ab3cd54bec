package cluster_test

import (
	"encoding/json"
	"testing"

	"github.com/sextantdev/sextant/cluster"
)

// TestLabelSelectorValidate: a selector's problems are those Kubernetes'
// metav1.LabelSelectorAsSelector (apimachinery v0.36.2) reports, word for
// word (the wants are its output on the same selectors).
func TestLabelSelectorValidate(t *testing.T) {
	tests := []struct {
		name, selector, want string
	}{
		{"valid", `{"matchLabels":{"olm.operatorframework.io/metadata.name":"community"},"matchExpressions":[{"key":"tier","operator":"NotIn","values":["test"]},{"key":"a","operator":"Exists"}]}`, ""},
		{"empty", `{}`, ""},
		{"In without values", `{"matchExpressions":[{"key":"tier","operator":"In","values":[]}]}`,
			"values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"},
		{"In with null values", `{"matchExpressions":[{"key":"tier","operator":"In"}]}`,
			"values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"},
		{"Exists with values", `{"matchExpressions":[{"key":"tier","operator":"Exists","values":["a"]}]}`,
			"values: Invalid value: [\"a\"]: values set must be empty for exists and does not exist"},
		{"a bad key and a bad value: every problem of the requirement", `{"matchExpressions":[{"key":"bad key","operator":"In","values":["bad value"]}]}`,
			"[key: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), values[0][bad key]: Invalid value: \"bad value\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]"},
		{"an operator in the wrong case", `{"matchExpressions":[{"key":"tier","operator":"in","values":["a"]}]}`,
			"\"in\" is not a valid label selector operator"},
		{"an empty key", `{"matchExpressions":[{"key":"","operator":"In","values":[""]}]}`,
			"key: Invalid value: \"\": name part must be non-empty; name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"},
		{"a key with two slashes", `{"matchLabels":{"a/b/c":"x"}}`,
			"key: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"},
		{"a matchLabels value", `{"matchLabels":{"ok":"bad value"}}`,
			"values[0][ok]: Invalid value: \"bad value\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"},
		{"an empty prefix, a third value", `{"matchExpressions":[{"key":"/x","operator":"NotIn","values":["a","x","b c"]}]}`,
			"[key: Invalid value: \"/x\": prefix part must be non-empty, values[2][/x]: Invalid value: \"b c\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]"},
		{"DoesNotExist with values", `{"matchExpressions":[{"key":"tier","operator":"DoesNotExist","values":["a","b"]}]}`,
			"values: Invalid value: [\"a\",\"b\"]: values set must be empty for exists and does not exist"},
		{"a prefix in upper case", `{"matchExpressions":[{"key":"Example.com/x","operator":"Exists"}]}`,
			"key: Invalid value: \"Example.com/x\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s cluster.LabelSelector
			if err := json.Unmarshal([]byte(tt.selector), &s); err != nil {
				t.Fatal(err)
			}
			got := ""
			if err := s.Validate(); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
	if err := (*cluster.LabelSelector)(nil).Validate(); err != nil {
		t.Errorf("a nil selector: %v", err)
	}
}

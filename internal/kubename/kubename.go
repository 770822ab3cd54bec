// Package kubename holds Kubernetes' rules for names, label keys and
// label values, with the messages k8s.io/apimachinery v0.36 gives when a
// value breaks them (the API server's, and a label selector's, words).
package kubename

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Unit is how a length limit is said: apimachinery's util/validation
// says "characters", its api/validate/content package "bytes".
type Unit string

// The units of the length messages.
const (
	Characters Unit = "characters"
	Bytes      Unit = "bytes"
)

func maxLen(n int, u Unit) string { return fmt.Sprintf("must be no more than %d %s", n, u) }

// regexError is a rule broken, with its examples and its pattern.
func regexError(msg, re string, examples ...string) string {
	var b strings.Builder
	b.WriteString(msg)
	b.WriteString(" (e.g. ")
	for i, e := range examples {
		if i > 0 {
			b.WriteString(" or ")
		}
		b.WriteString("'" + e + "', ")
	}
	b.WriteString("regex used for validation is '" + re + "')")
	return b.String()
}

const (
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	labelKeyFmt         = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelValueFmt       = "(" + labelKeyFmt + ")?"
)

// The patterns, compiled when first used (not at start-up).
var (
	dns1123LabelRE     = lazy("^" + dns1123LabelFmt + "$")
	dns1123SubdomainRE = lazy("^" + dns1123SubdomainFmt + "$")
	labelKeyRE         = lazy("^" + labelKeyFmt + "$")
	labelValueRE       = lazy("^" + labelValueFmt + "$")
)

func lazy(re string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(re) })
}

// DNS1123Subdomain returns what is wrong with s as a DNS-1123 subdomain
// (at most 253 long, lower case alphanumerics, '-' and '.'), a length
// said in u; none when it is one.
func DNS1123Subdomain(s string, u Unit) []string {
	var errs []string
	if len(s) > 253 {
		errs = append(errs, maxLen(253, u))
	}
	if !dns1123SubdomainRE().MatchString(s) {
		errs = append(errs, regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character", dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

// DNS1123Label returns what is wrong with s as a DNS-1123 label (at most
// 63 long, lower case alphanumerics and '-'); none when it is one.
func DNS1123Label(s string, u Unit) []string {
	var errs []string
	if len(s) > 63 {
		errs = append(errs, maxLen(63, u))
	}
	if !dns1123LabelRE().MatchString(s) {
		errs = append(errs, regexError("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character", dns1123LabelFmt, "my-name", "123-abc"))
	}
	return errs
}

// LabelKey returns what is wrong with s as a label key (a qualified name:
// an optional DNS subdomain prefix and '/', then a name of at most 63
// alphanumerics, '-', '_' and '.'), as apimachinery's content package
// says it; none when it is one.
func LabelKey(s string) []string {
	var errs []string
	parts := strings.Split(s, "/")
	var name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		prefix := parts[0]
		name = parts[1]
		if prefix == "" {
			errs = append(errs, "prefix part must be non-empty")
		} else {
			for _, msg := range DNS1123Subdomain(prefix, Bytes) {
				errs = append(errs, "prefix part "+msg)
			}
		}
	default:
		return append(errs, "a valid label key "+regexError("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", labelKeyFmt, "MyName", "my.name", "123-abc")+
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")
	}
	if name == "" {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > 63 {
		errs = append(errs, "name part "+maxLen(63, Bytes))
	}
	if !labelKeyRE().MatchString(name) {
		errs = append(errs, "name part "+regexError("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", labelKeyFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// LabelValue returns what is wrong with s as a label value (empty, or at
// most 63 alphanumerics, '-', '_' and '.', starting and ending with an
// alphanumeric); none when it is one.
func LabelValue(s string) []string {
	var errs []string
	if len(s) > 63 {
		errs = append(errs, maxLen(63, Bytes))
	}
	if !labelValueRE().MatchString(s) {
		errs = append(errs, regexError("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

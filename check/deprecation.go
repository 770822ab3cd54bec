package check

import (
	"fmt"

	"github.com/sextantdev/sextant/graph"
)

// deprecations checks whether the default channel of p, or that channel's
// head, is deprecated while the package is not. Entries of olm.deprecations
// that name nothing are reported by the structural checks
// (graph.CodeInvalidDeprecation), not here.
func deprecations(catalog string, p *graph.Package) []Finding {
	var fs []Finding
	add := func(code, channel, bundle, msg, brief string) {
		fs = append(fs, Finding{
			Severity: graph.SeverityWarning, Code: code, Catalog: catalog,
			Package: p.Name, Channel: channel, Bundle: bundle, Message: msg, Brief: brief,
			Pos: bundlePos(p, bundle),
		})
	}
	if p.DeprecationsOf(graph.SchemaPackage, "") != nil {
		return fs
	}
	dc := p.Channel(p.DefaultChannel)
	if dc == nil {
		return fs // reported by the structural checks
	}
	if p.DeprecationsOf(graph.SchemaChannel, dc.Name) != nil {
		add(CodeDefaultChannelDeprecated, dc.Name, "",
			fmt.Sprintf("default channel %q is deprecated but package %q is not", dc.Name, p.Name),
			"the default channel is deprecated, the package is not")
		return fs
	}
	head, ok := channelHead(dc)
	if !ok {
		return fs
	}
	switch b := p.Bundle(head); {
	case p.DeprecationsOf(graph.SchemaBundle, head) != nil:
		add(CodeDefaultChannelHeadDeprecated, dc.Name, head,
			fmt.Sprintf("%q, the head of default channel %q, is deprecated (olm.deprecations) but package %q is not", head, dc.Name, p.Name),
			"the default channel's head is deprecated (olm.deprecations), the package is not")
	case b != nil && b.Deprecated:
		add(CodeDefaultChannelHeadDeprecated, dc.Name, head,
			fmt.Sprintf("%q, the head of default channel %q, has the olm.deprecated property: a new subscription to the channel cannot install it", head, dc.Name),
			"the default channel's head has olm.deprecated: new subscriptions cannot install it")
	}
	return fs
}

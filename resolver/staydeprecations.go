package resolver

import (
	"fmt"
	"slices"

	"github.com/sextantdev/sextant/graph"
)

// DeprecationCondition names the Subscription condition OLM v0.28 sets for
// an olm.deprecations entry that concerns the subscription's installed CSV
// (OLM also sets Deprecated whenever one of them is set).
type DeprecationCondition string

// The deprecation conditions, in the order Sextant reports them.
const (
	ConditionPackageDeprecated DeprecationCondition = "PackageDeprecated"
	ConditionChannelDeprecated DeprecationCondition = "ChannelDeprecated"
	ConditionBundleDeprecated  DeprecationCondition = "BundleDeprecated"
)

// Deprecation is an olm.deprecations entry that concerns an operator that
// stays: its package, the channel its subscription follows, or its bundle.
// Alternative, when the catalog has one, says where to move: a channel of
// the package that is not deprecated (the default channel first), or the
// first entry of the channel, head first, that is not deprecated.
type Deprecation struct {
	Condition DeprecationCondition `json:"condition"`
	// Message is the warning, as on plan steps: "channel alpha is
	// deprecated: use stable".
	Message string `json:"message"`
	// Alternative names what to move to, e.g. "channel stable" or
	// "bundle etcdoperator.v0.9.4"; empty when there is none.
	Alternative string `json:"alternative,omitempty"`
}

// String returns "Condition: message", with "; move to ALTERNATIVE" when
// there is one.
func (d Deprecation) String() string {
	s := string(d.Condition) + ": " + d.Message
	if d.Alternative != "" {
		s += "; move to " + d.Alternative
	}
	return s
}

// stayDeprecations returns the deprecations of an installed CSV that stays
// and that a subscription owns, looked up in the channel the subscription
// follows (see subscriptionChannel): package, then channel, then bundle.
func (res *resolution) stayDeprecations(n *instNode) []Deprecation {
	if !n.subscribed {
		return nil
	}
	var s *subNode
	for _, x := range res.subs {
		if x.current == n {
			s = x
			break
		}
	}
	if s == nil {
		return nil
	}
	x := res.r.subscriptionChannel(res, s)
	if x == nil || len(x.pkg.pkg.Deprecations) == 0 {
		return nil
	}
	pkg := x.pkg.pkg
	var pkgD, chD, bD []Deprecation
	for _, d := range pkg.DeprecationsOf(graph.SchemaPackage, "") {
		pkgD = append(pkgD, Deprecation{Condition: ConditionPackageDeprecated, Message: warning("package", pkg.Name, d.Message)})
	}
	for _, d := range pkg.DeprecationsOf(graph.SchemaChannel, x.ch.Name) {
		dep := Deprecation{Condition: ConditionChannelDeprecated, Message: warning("channel", x.ch.Name, d.Message)}
		for _, other := range x.pkg.chans() {
			if other != x && len(other.cands) > 0 && pkg.DeprecationsOf(graph.SchemaChannel, other.ch.Name) == nil {
				dep.Alternative = "channel " + other.ch.Name
				break
			}
		}
		chD = append(chD, dep)
	}
	for _, d := range pkg.DeprecationsOf(graph.SchemaBundle, n.csv.Name) {
		dep := Deprecation{Condition: ConditionBundleDeprecated, Message: warning("bundle", n.csv.Name, d.Message)}
		for _, b := range x.cands {
			if b.Name == n.csv.Name || b.Deprecated || pkg.DeprecationsOf(graph.SchemaBundle, b.Name) != nil {
				continue
			}
			dep.Alternative = fmt.Sprintf("bundle %s (%s, channel %s)", b.Name, b.VersionText, x.ch.Name)
			if b == x.cands[0] {
				dep.Alternative = fmt.Sprintf("bundle %s (%s, the head of channel %s)", b.Name, b.VersionText, x.ch.Name)
			}
			break
		}
		bD = append(bD, dep)
	}
	return slices.Concat(pkgD, chD, bD)
}

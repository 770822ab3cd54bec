package olmv1

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/crd"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/registryv1"
)

// ReasonCRDUpgradeSafety: operator-controller's CRD upgrade safety
// preflight refuses the chosen bundle: a CRD it carries changes the
// cluster's CRD of its name in a way the preflight refuses (DESIGN §17),
// or drops a version the cluster's CRD lists in status.storedVersions
// (DESIGN §12).
const ReasonCRDUpgradeSafety PredictionReason = "CRDUpgradeSafety"

// StoredVersionRefusal is operator-controller's refusal of a bundle whose
// CRD drops the stored versions of l, as its CRD upgrade safety preflight
// (crdify's storedVersionRemoval check) words it.
func StoredVersionRefusal(l cluster.StoredVersionLoss) string {
	return fmt.Sprintf("validating upgrade for CRD %q: storedVersionRemoval: stored versions removed : [%s]", l.CRD.Name, strings.Join(l.Dropped, " "))
}

// Unchecked is a part of OLM v1's CRD upgrade safety preflight that
// could not be predicted for an extension's chosen bundle: what was not
// compared, and why.
type Unchecked struct {
	Extension string `json:"extension"`
	Bundle    string `json:"bundle"`
	// CRD is the CRD not compared in full; "" when none of the bundle's
	// CRDs was (its contents were not found).
	CRD string `json:"crd,omitempty"`
	// Reason says why, in words.
	Reason string `json:"reason"`
}

// maxConditionMessage is the length operator-controller cuts a
// condition's message to, and truncatedSuffix what it ends the cut
// message with (its controllers' truncateMessage).
const (
	maxConditionMessage = 32768
	truncatedSuffix     = "\n\n... [message truncated]"
)

// conditionMessage is msg as operator-controller writes it in a
// condition: cut to 32,768 bytes.
func conditionMessage(msg string) string {
	if len(msg) <= maxConditionMessage {
		return msg
	}
	return msg[:maxConditionMessage-len(truncatedSuffix)] + truncatedSuffix
}

// crdPreflights predicts, for each extension that got a bundle, OLM v1's
// CRD upgrade safety preflight against the cluster's CRDs
// ([Resolver.CRDPreflight]), unless the extension turns it off.
func (r *Resolver) crdPreflights(ctx context.Context, res *Outcome, exts []cluster.ClusterExtension, crds []cluster.CRD) {
	if len(crds) == 0 {
		return
	}
	for i := range res.Extensions {
		x := &res.Extensions[i]
		if x.Error != "" {
			continue
		}
		preds, unchecked := r.CRDPreflight(ctx, &exts[i], r.bundleOf(x), x.Version, crds)
		x.Predictions = append(x.Predictions, preds...)
		res.Unchecked = append(res.Unchecked, unchecked...)
	}
}

// CRDPreflight predicts OLM v1's CRD upgrade safety preflight, which
// operator-controller runs before it installs or upgrades ext to bundle
// b (version: b's version as it records it): each CRD b carries is
// compared with the cluster's CRD of its name in crds (none: nothing to
// break), the cluster's as the API server keeps it, b's as OLM renders it
// (a conversion webhook of the CSV makes its strategy Webhook), by
// crd.CheckUpgrade. It returns one failure per CRD refused, all with
// operator-controller's whole message (every CRD refused, one problem a
// line, in the order b carries them, wrapped as its Progressing
// condition reads and cut as it cuts it), and what it could not compare:
// without b's contents (Options.Bundles), or for a cluster CRD the
// manifests do not hold whole (no schema), only the stored versions are
// compared. Nothing when ext sets the preflight's enforcement to None or
// crds is empty. ctx bounds the reading of b's contents.
func (r *Resolver) CRDPreflight(ctx context.Context, ext *cluster.ClusterExtension, b *graph.Bundle, version string, crds []cluster.CRD) ([]Prediction, []Unchecked) {
	if b == nil || len(crds) == 0 || ext.CRDUpgradeSafety == "None" {
		return nil, nil
	}
	type refusal struct{ v1, why string }
	var refusals []refusal
	var unchecked []Unchecked
	skip := func(name, reason string) {
		unchecked = append(unchecked, Unchecked{Extension: ext.Name, Bundle: b.Name, CRD: name, Reason: reason})
	}
	stored := func(l cluster.StoredVersionLoss) refusal {
		return refusal{StoredVersionRefusal(l), fmt.Sprintf("CRD %s stores %s (status.storedVersions), which the bundle's CRD (versions %s) no longer has: operator-controller's CRD upgrade safety check refuses it; migrate the stored objects and drop the version from status.storedVersions first",
			l.CRD.Name, strings.Join(l.Dropped, ", "), strings.Join(l.Provided, ", "))}
	}
	var contents *registryv1.Bundle
	var err error
	if r.opts.Bundles != nil {
		contents, _, err = r.opts.Bundles.For(ctx, b)
	}
	if contents == nil {
		idx := cluster.IndexCRDs(crds)
		for _, l := range idx.StoredVersionLosses(b.Provides) {
			refusals = append(refusals, stored(l))
		}
		var names []string
		for _, g := range b.Provides {
			if c := idx.Find(g.Group, g.Kind); c != nil && !slices.Contains(names, c.Name) {
				names = append(names, c.Name)
			}
		}
		if len(names) > 0 {
			reason := "its contents were not found"
			var amb *registryv1.AmbiguousError
			switch {
			case errors.As(err, &amb):
				reason = fmt.Sprintf("%d bundle folders hold its CSV", len(amb.Sources))
			case err != nil:
				reason = "its contents cannot be read: " + err.Error()
			}
			skip("", fmt.Sprintf("%s: the cluster's %s compared for stored versions only", reason, crdNames(names)))
		}
	} else {
		byName := make(map[string]*cluster.CRD, len(crds))
		for i := range crds {
			byName[crds[i].Name] = &crds[i]
		}
		for _, ref := range contents.CRDs {
			if ref.APIVersion != crd.APIVersion {
				continue // OLM v1 compares v1 CRDs only
			}
			next, _, err := r.crds.Parse(ref)
			if err != nil {
				skip("", fmt.Sprintf("the CRD of %s does not decode: %v", ref.Where(), firstLine(err)))
				continue
			}
			live := byName[next.Name]
			if live == nil {
				continue // not on the cluster: nothing to break
			}
			if live.Definition == nil {
				versions := make([]string, len(next.Versions))
				for i, v := range next.Versions {
					versions[i] = v.Name
				}
				if dropped := live.StoredVersionsDropped(versions); len(dropped) > 0 {
					refusals = append(refusals, stored(cluster.StoredVersionLoss{CRD: live, Provided: versions, Dropped: dropped}))
				}
				skip(next.Name, fmt.Sprintf("the manifests do not hold the cluster's CRD whole (%v): compared for stored versions only", firstLine(live.DefinitionErr)))
				continue
			}
			u := crd.CheckUpgrade(live.Definition.Live(), contents.Rendered(next))
			if !u.Safe() {
				refusals = append(refusals, refusal{u.Message(), fmt.Sprintf("the bundle's CRD %s changes the cluster's in a way operator-controller's CRD upgrade safety preflight refuses: %s", next.Name, u.Brief())})
			}
		}
	}
	if len(refusals) == 0 {
		return nil, unchecked
	}
	msgs := make([]string, len(refusals))
	for i, rf := range refusals {
		msgs[i] = rf.v1
	}
	// operator-controller checks every CRD and joins what it finds, one
	// CRD a line, in its Progressing condition.
	v1 := conditionMessage(fmt.Sprintf("error for resolved bundle %q with version %q: %s", b.Name, version, strings.Join(msgs, "\n")))
	preds := make([]Prediction, len(refusals))
	for i, rf := range refusals {
		preds[i] = Prediction{Reason: ReasonCRDUpgradeSafety, Severity: SeverityFailure, Bundle: b.Name, Message: rf.why, V1Message: v1}
	}
	return preds, unchecked
}

// crdNames names CRDs: "CRD a", "CRDs a, b".
func crdNames(names []string) string {
	if len(names) == 1 {
		return "CRD " + names[0]
	}
	return "CRDs " + strings.Join(names, ", ")
}

// firstLine is the first line of err's text, with the number of the
// others.
func firstLine(err error) string {
	s := err.Error()
	first, rest, ok := strings.Cut(s, "\n")
	if !ok {
		return s
	}
	return fmt.Sprintf("%s, and %d more", first, strings.Count(rest, "\n")+1)
}

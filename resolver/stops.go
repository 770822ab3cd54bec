package resolver

import (
	"context"
	"fmt"

	"github.com/sextantdev/sextant/cluster"
)

// Stop is a subscription that a settled namespace leaves below the head of
// its channel, and why: the held-back reason when a successor exists but is
// excluded, or that no entry of the channel upgrades from its installed
// CSV. It is plain data and encodes to JSON with the field names below.
type Stop struct {
	Subscription string     `json:"subscription"`
	Package      string     `json:"package"`
	CSV          string     `json:"csv"`
	Version      string     `json:"version"`
	Channel      string     `json:"channel"`
	Catalog      CatalogKey `json:"catalog"`
	// Head is the channel's head and HeadVersion its version.
	Head        string `json:"head"`
	HeadVersion string `json:"headVersion"`
	// Reason says why it stops there, in one sentence.
	Reason string `json:"reason"`
	// HeldBack is the held-back reason, when a successor is excluded.
	HeldBack *HeldBack `json:"heldBack,omitempty"`
}

// String returns "subscription S stops at CSV, below the head HEAD of
// channel C: reason".
func (s Stop) String() string {
	return fmt.Sprintf("subscription %s stops at %s, below the head %s of channel %s: %s", s.Subscription, s.CSV, s.Head, s.Channel, s.Reason)
}

// Stops says where and why the subscriptions of namespace stop short of
// their channels' heads in state — typically the last state of a rollout
// (Rollout's last Round.State): for each subscription whose installed CSV
// is not the head of its channel (the channel it names, else the package's
// default channel, in its catalog, else in the first visible catalog that
// has the package), one Stop, in subscription name order. It resolves once
// and explains the held-back items as ExplainHeldBack does with opts; a
// namespace that does not resolve returns the *ConflictError. State is not
// modified.
func (r *Resolver) Stops(ctx context.Context, namespace string, state *cluster.State, opts HeldBackOptions) ([]Stop, error) {
	plan, err := r.Resolve(ctx, namespace, state)
	if err != nil {
		return nil, err
	}
	if err := r.ExplainHeldBack(ctx, namespace, state, plan, opts); err != nil {
		return nil, err
	}
	held := map[string]*HeldBack{}
	for _, u := range plan.Unchanged {
		if u.HeldBack != nil {
			held[u.CSV] = u.HeldBack
		}
	}
	for _, st := range plan.Steps {
		if st.HeldBack != nil && st.Replaces != "" {
			held[st.Replaces] = st.HeldBack
		}
	}
	res, err := r.prepare(ctx, namespace, state, nil)
	if err != nil {
		return nil, err
	}
	var out []Stop
	for _, s := range res.subs {
		if s.current == nil {
			continue
		}
		x := r.subscriptionChannel(res, s)
		if x == nil || len(x.cands) == 0 {
			continue
		}
		head := x.cands[0]
		csv := s.current.csv
		if head.Name == csv.Name {
			continue
		}
		st := Stop{
			Subscription: s.sub.Name, Package: x.pkg.pkg.Name, CSV: csv.Name, Version: csv.VersionText,
			Channel: x.ch.Name, Catalog: x.pkg.cat.key, Head: head.Name, HeadVersion: head.VersionText,
		}
		switch h := held[csv.Name]; {
		case h != nil:
			st.HeldBack, st.Reason = h, h.Reason
		case len(x.ch.Successors(csv.Name, csv.Version)) == 0:
			st.Reason = fmt.Sprintf("no entry of channel %s upgrades from %s (no replaces, skips or skipRange names it)", x.ch.Name, csv.Name)
		default:
			st.Reason = "its upgrade is in the plan: the namespace has not settled"
		}
		out = append(out, st)
	}
	return out, nil
}

// subscriptionChannel returns the channel a subscription follows: the one
// it names (the package's default channel when it names none) in its
// catalog, or in the first visible catalog that has the package.
func (r *Resolver) subscriptionChannel(res *resolution, s *subNode) *chanIndex {
	catalogs := res.visible
	if s.sub.Source != "" {
		ci := r.byKey[CatalogKey{Namespace: s.sub.SourceNamespace, Name: s.sub.Source}]
		if ci == nil {
			return nil
		}
		catalogs = []*catalogIndex{ci}
	}
	for _, ci := range catalogs {
		pi := ci.pkgs[s.sub.Package]
		if pi == nil {
			continue
		}
		name := s.sub.Channel
		if name == "" {
			name = pi.pkg.DefaultChannel
		}
		if x := pi.channel(name); x != nil {
			return x
		}
	}
	return nil
}

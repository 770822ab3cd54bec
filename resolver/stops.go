package resolver

import (
	"context"
	"fmt"
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

// Stops says where and why the subscriptions of the namespace stop short
// of their channels' heads in the state resolved — typically the last
// state of a rollout (Rollout.Stops): for each subscription whose installed
// CSV is not the head of its channel (the channel it names, else the
// package's default channel, in its catalog, else in the first visible
// catalog that has the package), one Stop, in subscription name order. It
// explains the held-back items as HeldBack does with opts (the same answer:
// asking both costs once). A namespace without a plan returns the
// Resolution's error.
func (s *Resolution) Stops(ctx context.Context, opts HeldBackOptions) ([]Stop, error) {
	if s.err != nil {
		return nil, s.err
	}
	plan, err := s.HeldBack(ctx, opts)
	if err != nil {
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
	s.use(ctx)
	defer s.mu.Unlock()
	res := s.res
	var out []Stop
	for _, sn := range res.subs {
		if sn.current == nil {
			continue
		}
		x := s.r.subscriptionChannel(res, sn)
		if x == nil || len(x.cands) == 0 {
			continue
		}
		head := x.cands[0]
		csv := sn.current.csv
		if head.Name == csv.Name {
			continue
		}
		st := Stop{
			Subscription: sn.sub.Name, Package: x.pkg.pkg.Name, CSV: csv.Name, Version: csv.VersionText,
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
	if named, ok := SubscriptionCatalog(s.sub); ok {
		ci := r.byKey[named]
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

// Package resolver resolves the operators of one namespace: from catalogs,
// the installed ClusterServiceVersions and the Subscriptions of the
// namespace, it computes an ordered install/upgrade [Plan], or a
// [*ConflictError] that names the facts which make one impossible.
//
// Choices are OLM-compatible (Operator Lifecycle Manager v0.28): the same
// candidates in the same preference order, the same uniqueness rules, the
// same search (each dependency's most preferred satisfiable candidate, no
// extra bundles). Unlike OLM the result is deterministic, the context bounds
// every solve, and only what the request can reach — the subscribed
// packages and the transitive closure of their requirements — becomes solver
// input.
//
// A [Resolver] indexes its catalogs once, in [New], and is safe for
// concurrent use by many goroutines.
//
// # A resolution you keep asking
//
// [Resolver.Resolve] returns a [*Resolution]: the plan (or why there is
// none) and what it was resolved from — a private copy of the state and
// the solved problem — so that every follow-up is a method that reuses the
// solution rather than resolving again: [Resolution.Explain],
// [Resolution.HeldBack], [Resolution.Why], [Resolution.Fixes],
// [Resolution.InstallPlan], [Resolution.Apply] and [Resolution.Stops]. A
// [Plan] is plain data the caller owns: one read back from JSON is the same
// plan. [Resolver.Rollout] returns a [*Rollout] (rounds, outcome, final
// state, its last Resolution, stops), and [Resolver.Path] the path a
// cluster at one bundle takes through its channel. The whole answers the
// command line prints — a namespace's plan with its held-back reasons and
// fixes or its explained conflict, a rollout's — are the root package's
// (package sextant: World.Resolve, World.Rollout), which asks these.
//
// # Candidates and preference
//
// A subscription with no installed CSV may take any entry of its channel's
// replacement chain from the head (entries some other entry skips
// excluded), head first; with no channel named, the default channel's
// entries come first, then the other channels' by channel name. A
// startingCSV names the one candidate. A subscription whose installedCSV is
// installed may take the installed CSV's direct successors in the channel
// (replaces, skips, skipRange; head first) or, last, stay. Requirements
// (olm.gvk.required, olm.package.required, olm.label.required and
// olm.constraint, evaluated as a predicate over one bundle; its cel rules
// through Options.CEL, see package celrule) may be met by
// installed CSVs first, then by catalog entries: the dependent's catalog,
// then higher priority, the resolution namespace before the global one,
// catalog name; within a catalog the default channel, package name,
// channel name and position in the chain. As in OLM, the requiring bundle
// (or installed CSV) itself is among the candidates: a bundle that provides
// an API it requires meets its own requirement. Other bundles of its
// package are candidates too but can never be chosen beside it (one bundle
// per package).
//
// # Conflicts and explanations
//
// When no plan exists, Resolve returns a [*ConflictError] whose Facts are
// a minimal set of facts that together make resolution impossible — each
// is one constraint of the solver's minimal core, so without any one of
// them the rest can be met — in words a cluster admin understands and
// with their source (subscription, installed CSV, catalog, channel,
// bundle, property and olm.constraint failureMessage). Its Error method
// prints a one-line verdict ("cannot install widget-operator: …") and a
// derivation ("because …, and …, so …") of at most ten lines;
// [ConflictError.Explanation] returns the same as data, with the whole
// derivation. [Resolution.Explain] adds suggestions: changes to the state —
// drop a startingCSV, switch or clear a channel or a catalog, remove an
// installed CSV no subscription references, remove another subscription —
// each applied to a copy of the state and re-solved, and shown only with
// the plan it gives. Resolve pays nothing for suggestions; Explain pays one
// Resolve per candidate change, up to a fixed count. Explanations depend
// only on the facts and the state: the same input gives the same text.
//
// # Why: held back, the choice made, and what would change it
//
// A plan that succeeds can say why, too. [Resolution.HeldBack] gives
// every choice below its first preference — a subscription that keeps its
// installed CSV although a successor exists, or takes a later candidate,
// and a dependency below the head of its channel — a [HeldBack]: the
// minimal set of facts that excludes the passed-over candidate, found by
// forcing it and taking the solver's minimal core, and a change to the
// state, re-solved and confirmed, that lets it move. [Resolution.Why] says
// why a package, bundle or subscription is in the plan at its version,
// channel and catalog (the chain of subscription and requirements, the
// preference rules, the better-looking candidates passed over) or why it is
// not. [Resolution.Stops] says where and why a settled namespace leaves
// subscriptions below their channels' heads, and [Unchanged.Deprecations]
// reports the olm.deprecations of what stays, as the PackageDeprecated,
// ChannelDeprecated and BundleDeprecated conditions OLM sets. Each costs a
// fixed number of solves per item (one by default), so it is bounded and
// deterministic.
//
// # Errors first
//
// Every call returns its value and an error: check the error first. A few
// return a value with an error on purpose, and only these:
//   - [Resolver.Resolve] returns its *Resolution with every error that says
//     why the namespace has no plan — a [*ConflictError] (which
//     [Resolution.Explain] explains), a [*StuckError], a
//     [*cluster.OperatorGroupError], [*InvalidPackageError] findings, an
//     error wrapping [ErrNoCEL] — the same error as [Resolution.Err]. It
//     returns a nil Resolution only when ctx ended (errors.Is(err,
//     ctx.Err())).
//   - [Resolver.Rollout] returns the rollout so far, [RolloutFailed], with
//     the error of a round without a plan or one wrapping [ErrRoundLimit];
//     a nil Rollout only when ctx ended.
//   - [Resolver.ResolveAll] returns the resolutions so far when ctx ends;
//     each carries its own Err.
//   - [Resolver.ResolveFor] returns the [Application] with an
//     [*UnservedError] or the error of its resolution.
//   - [Resolution.Explain] and [Resolution.Fixes] return what they
//     confirmed before ctx ended (see Confirmed changes).
//
// A caller reads the value only where its error allows it:
//
//	res, err := r.Resolve(ctx, namespace, state)
//	var conflict *resolver.ConflictError
//	switch {
//	case errors.As(err, &conflict):
//		ex, err := res.Explain(ctx, resolver.ExplainOptions{}) // the Resolution explains its conflict
//		…
//	case err != nil:
//		return err
//	}
//	plan := res.Plan()
//
// # Confirmed changes
//
// Three follow-ups propose changes to the cluster state and show only
// those confirmed by resolving again: [Resolution.Explain]'s suggestions
// for a conflict, [Resolution.Fixes] of predicted failures, and the
// [HeldBack.Change] that lets a held-back operator move. They share one
// rule. The candidate changes are listed in rank order (see
// [SuggestionKind]); each is applied to a copy of the state and resolved,
// one resolution each (the Tracer sees it); a candidate with no plan, or
// whose plan does not serve (a fix must leave fewer predicted failures and
// no new one, a held-back change must move the operator), is passed over.
// Trying stops when enough are kept (ExplainOptions.MaxSuggestions; one
// for HeldBack), when the tries are used up (ExplainOptions.MaxTries,
// HeldBackOptions.MaxTries), or when ExplainOptions.Budget has passed; none
// of these is an error, and without a time budget the answer is
// deterministic. When the caller's context ends, before or during a
// resolution, trying stops and the follow-up returns an error e with
// errors.Is(e, ctx.Err()); Explain and Fixes return the changes confirmed
// before it with the error, HeldBack returns no plan.
//
// # Approval and upgrades in flight
//
// As OLM v0.28's catalog operator, one Manual subscription makes the
// namespace's InstallPlan Manual: [Plan.Approval] names the Manual
// subscriptions, each [Step.Approval] the subscription that makes it Manual
// (or the InstallPlan of the input that already holds it), and
// [Plan.Waits] reports a plan that waits for a person. [Resolver.Rollout]
// stops at such a plan unless [RolloutOptions.Approve] is set.
//
// Resolve goes on from what is in flight as OLM does ([Plan.InFlight]): a
// subscription whose currentCSV exists is installed at currentCSV; a CSV
// another CSV replaces is left out (OLM deletes it once its replacement
// succeeds), so it is never a fact of a conflict nor suggested for removal;
// a failed upgrade fails forward when the namespace's OperatorGroup has
// upgradeStrategy TechPreviewUnsafeFailForward, and is a [*StuckError]
// otherwise. A subscription whose installed CSV is not in the state is an
// [*IncompleteError]. [Resolver.InstallPlan] returns the InstallPlan and
// dependency Subscriptions OLM would create for a plan.
//
// # What OLM will fail after resolution
//
// Every step, and every installed CSV that stays, carries its Predictions
// (DESIGN §8): what OLM's olm-operator will do with the CSV — install
// modes against the target namespaces of the namespace's OperatorGroup
// (UnsupportedOperatorGroup, InvalidInstallModes), APIs that an
// OperatorGroup with intersecting targets already provides
// (InterOperatorGroupOwnerConflict,
// CannotModifyStaticOperatorGroupProvidedAPIs), minKubeVersion against
// Options.KubeVersion (RequirementsNotMet), and, as a warning,
// olm.maxOpenShiftVersion against Options.OpenShiftVersion. Plan.Failing
// reports a plan that will not succeed as it is, and Resolution.Fixes finds
// confirmed fixes for it; Plan.Notes says what could not be checked (no
// OperatorGroup, unknown targets, bundles without olm.csv.metadata). The
// other namespaces of the state serve as context; Resolver.ResolveAll
// resolves them all, one after another, the APIs each plan installs
// counting for the namespaces after it. Predictions cost a few percent of a
// resolution (BenchmarkPredictions).
//
// # Where Sextant differs from OLM
//
// The order between catalogs and channels is total, so plans are
// deterministic; the search stops when the context ends; a subscription
// naming a catalog without its namespace (or the reverse) is an input error
// rather than a subscription that silently matches nothing; olm.deprecations
// are reported as step warnings. Besides:
//
//   - After backtracking, OLM v0.28's search does not retry candidates that
//     failed under a guess it has since undone, so it can return a less
//     preferred plan, or an invalid one (a subscription left without a
//     bundle, two bundles of one package); a differential test against OLM
//     found this in about 1 of 2,000 random requests. Sextant's search
//     always returns the most preferred solution as defined above.
//   - A state without any OperatorGroup stands for manifests listed without
//     them: the namespace is taken to have one plain OperatorGroup (see
//     cluster.State.NamespaceOperatorGroup), where OLM would not resolve
//     it. With OperatorGroups, a namespace with subscriptions and not
//     exactly one OperatorGroup fails with a *cluster.OperatorGroupError,
//     as OLM's catalog operator refuses it; an OperatorGroup annotated
//     olm.operatorframework.io/exclude-global-namespace-resolution: "true"
//     hides the global namespace's catalogs, and facts about what it hides
//     say so in their Notes.
//   - A subscription naming no catalog considers every visible catalog in
//     the preference order above. OLM's Subscription API requires both
//     source and sourceNamespace, so a real cluster never has such a
//     subscription; when it does, OLM mixes the catalogs' channels of one
//     name (and fails to order them) and ignores catalog priority, which
//     Sextant does not emulate.
package resolver

package cli

import (
	"strconv"

	"github.com/sextantdev/sextant/check"
)

// The texts of the help topics (see helpTopics). Each line is at most
// helpWidth characters; TestHelpFits holds them to it.

const catalogsTopic = `Catalogs: what --catalog (resolve, rollout, provides, mirror, migrate) and the PATH arguments of
check and graph take.

  --catalog [NAME=]PATH    (repeatable)

PATH is a File-Based Catalog (FBC): a .json, .yaml or .yml file, optionally .gz (a .json file is
JSON, the others YAML whose documents may be JSON), a folder of them read recursively, or "-" for
standard input (then NAME is required: --catalog index=-). A path that does not exist may name a
catalog image instead: REGISTRY/REPO:TAG, REGISTRY/REPO@sha256:..., oci:DIR[:TAG] (an OCI image
layout), docker-archive:FILE (docker save, crane pull); images are read without a container
runtime, and cached ("sextant help global-flags").

NAME defaults to the file or folder name without its extensions
(community-operators-prod.v4.20-index.json.gz → community-operators-prod.v4.20-index), or to the
last element of the image's repository. For resolve, rollout, mirror and migrate, NAME is the name
of the catalog's CatalogSource: a CatalogSource of that name in the manifests gives the catalog
its namespace and priority; without one, the namespace is the spec.sourceNamespace the
subscriptions naming the catalog agree on, else the global namespace, and the priority is 0.
Without --catalog, a subscription's CatalogSource with spec.image is read from that image
(resolve, rollout, migrate).

The global catalog namespace (--global-namespace) is the namespace whose catalogs serve every
namespace: OLM's olm, openshift-marketplace on OpenShift. Without the flag, resolve and rollout
take the one namespace the manifests' CatalogSources and subscriptions point to, and say so in a
note; with none or several, olm.

A package a resolution reaches must be valid as opm serve requires (an olm.package property on
every bundle, versions that parse, a single head per channel, ...): otherwise the resolution is an
input error naming the file and object. --allow-invalid leaves such packages out, and says which.

Not a catalog, and said so once per file: Kubernetes manifests (objects with apiVersion and kind)
are the cluster state, given with -f ("sextant help manifests"); a registry+v1 bundle (a folder
with metadata/annotations.yaml and manifests/, or its manifests/ folder) is not read: opm render
BUNDLE prints its olm.bundle blob, which a catalog holds beside its package's olm.package and
olm.channel blobs. An empty file or a folder with no catalog file is an error.`

const manifestsTopic = `Manifests: what -f (resolve, rollout, mirror, migrate) and --for take.

  -f FILE|FOLDER|-    (repeatable; -R reads folders recursively)

The cluster state as "kubectl get csv,sub,catsrc,og,ip -o yaml" (or -o json) prints it: any mix
of Subscriptions, ClusterServiceVersions, CatalogSources, OperatorGroups and InstallPlans (migrate
reads CustomResourceDefinitions too, with -A: kubectl get csv,sub,catsrc,og,ip,crd -A -o yaml;
mirror reads every namespace), as single objects, several YAML documents, JSON or kind: List. "-"
reads standard input; a folder, every .yaml, .yml and .json file in it. Manifests holding
ClusterExtensions resolve as OLM v1 does ("sextant help v1").

Read as strictly as kubectl apply --validate=strict: an object without kind, a kind the API group
operators.coreos.com does not define, a field the object's schema does not have, a value of the
wrong type are input errors naming file, line, object and field, with the nearest real name
(did you mean "channel"?). status is not checked against the schema: kubectl get -o yaml output
passes whole. Kinds that resolution does not read are listed in a note. An empty file, and a
File-Based Catalog given with -f, are errors that say so.

The namespace (-n) defaults to the one the subscriptions share, else the one the installed CSVs
share; with several, choose one with -n, or resolve each in turn with resolve -A.

OperatorGroups, as OLM reads them: a namespace with subscriptions resolves only with exactly one
OperatorGroup (none or several: no plan, exit 1). When the manifests hold no OperatorGroup at all,
the annotations OLM puts on the CSVs it installs (olm.operatorGroup, olm.operatorNamespace,
olm.targetNamespaces) give the group and its target namespaces, and a note says so; only a
namespace nothing speaks of gets one plain OperatorGroup assumed, its targets unknown. An
OperatorGroup annotated olm.operatorframework.io/exclude-global-namespace-resolution: "true"
leaves the global namespace's catalogs out.`

const bundlesTopic = `Bundles: what --bundles and --bundle-images (check, resolve, rollout, migrate) take.

  --bundles DIR       (repeatable)
  --bundle-images

A File-Based Catalog names each bundle's APIs but holds none of its manifests (CRDs, the CSV's
permissions); the bundles do. DIR is a folder holding registry+v1 bundle folders at any depth (a
bundle folder has metadata/annotations.yaml and its manifests/, as catalog repositories keep
them: community-operators keeps operators/PACKAGE/VERSION/), each read strictly within the size
limits; its problems are noted (the first ten), and a folder that holds no bundle folder is an
error. A catalog's bundle is matched to a folder by its CSV's metadata.name (of several, by
version, then package). A bundle no folder holds is read from its catalog's olm.bundle.object
properties, if it has them, else, with --bundle-images only, from its image (the bundle's image
field), through the image cache, --offline and credentials as catalog images are read. Folders
whose CSV no answer asked for are noted once the answer is given.

check reads them for its crds check; resolve, rollout and migrate where OLM reads a bundle's
manifests: for a ClusterExtension, resolve and migrate compare each CRD of the bundle v1 installs
with the cluster's CRD of its name in -f (kubectl get crd -o yaml) as OLM v1's CRD upgrade safety
preflight does ("sextant help v1"); migrate derives from them the installer service accounts of
operator-controller v1.0 to v1.10 (-o yaml --service-accounts writes them). In resolve and rollout
(OLM v0), a step whose bundle brings a CRD that has custom resources in the manifests (kubectl get
PLURAL -A -o yaml) has them validated against the new CRD's schema, as OLM v0 validates them before
it replaces the CRD: an object that fails fails the InstallPlan (InstallComponentFailed, in OLM's
words); without the bundle's contents a note says they were not validated.`

const upgradesTopic = `Upgrades: approval, upgrades in flight, and what resolve and rollout predict.

Approval and upgrades in flight are read as OLM v0.28 reads them: one subscription with
installPlanApproval Manual makes the namespace's InstallPlan Manual, so every step waits for that
approval (the plan says so and names the subscription); an InstallPlan not finished, a
subscription whose currentCSV exists, a CSV another CSV replaces are listed as "in flight" and
resolution goes on from them; an upgrade that failed stops the namespace (no plan, exit 1) unless
the OperatorGroup's upgradeStrategy is TechPreviewUnsafeFailForward; a subscription whose
installedCSV is not among the CSVs given is incomplete input (exit 2). rollout stops at a plan
that waits for approval (exit 0) unless --approve approves every such plan, as a person approving
each one would.

Predictions, on each step and operator left unchanged:
  --kube-version V         the cluster's Kubernetes version, as the API server reports it
                           (e.g. 1.25.3): steps whose bundle's minKubeVersion is above it will
                           fail (RequirementsNotMet). Default: not checked.
  --openshift-version V    the cluster's OpenShift version (e.g. 4.16): a warning for each
                           operator whose olm.maxOpenShiftVersion blocks the next minor upgrade
                           of OpenShift. Default: not checked.

Beyond OLM: --semver-upgrades lets an installed operator also upgrade to any higher version of its
channel within its major version, as if the catalog had that edge (DESIGN §7), and says so in a
note; --semver-allow-major lets those upgrades cross major versions. OLM follows only the
catalog's replaces, skips and skipRange edges.`

const resolveOutputTopic = `What resolve prints.

Text: the plan, an ordered list of steps (every bundle after the bundles it depends on), the
operators left as they are, and notes; when no plan exists, an explanation: the verdict, the
minimal set of facts that make resolution impossible, as a derivation, and suggested changes that
were re-solved and give a plan (--full prints the whole derivation; --max-suggestions N bounds the
suggestions looked for, 0 for none).

JSON (-o json; -o yaml is the same) is a stable contract, the resolver.Plan type (go doc
./resolver Plan): "namespace", "steps", "unchanged", "approval", "inFlight", "notes", "excluded"
and "fixes", each step and unchanged operator with its "predictions" (and "approval", "heldBack",
"deprecations" where they apply); with no plan, {"namespace": "...", "error": {"message",
"verdict", "facts", "derivation", "suggestions"}}. docs/resolve.md shows every
field.

-A (--all-namespaces) resolves every namespace of the manifests, one after another, each with its
own OperatorGroup: one block per namespace; -o json gives {"namespaces": [...]}.

-o installplan writes, as Kubernetes YAML (installplan-json: JSON), what OLM would create for the
plan: the InstallPlan (generateName install-, spec.approval, spec.approved,
spec.clusterServiceVersionNames, status.phase and status.bundleLookups with each bundle's image)
and the Subscription of each dependency, named <package>-<channel>-<catalog>-<catalog namespace>.

--why NAME (a package, a bundle or installed CSV, or a subscription) prints, instead of the plan,
why it is there at its version, channel and catalog — what put it there, the rules that chose
them, the better-looking candidates passed over — or why it is not (--full: every alternative;
-o json: the resolver.Why value).`

const rolloutOutputTopic = `What rollout prints.

Text: one block per round that changed something, then how the rollout ended (settled, waiting
for approval, no plan with its explanation, or out of rounds) and how many approvals it took. A
round whose plan OLM is predicted to fail (a "will fail" line, as resolve prints it) leaves the
rollout not settled: the last lines name that round's CSVs and the fixes resolve confirms for
the state the round starts from. The rounds after it take the CSV as installed, as OLM records it.

JSON (-o json; -o yaml is the same) is a stable contract; steps and unchanged are those of resolve
("sextant help resolve-output"):

  {"namespace": "...",
   "rounds": [{"round": 1, "approval": {...}, "approved": true,
     "waiting": true, "steps": [...], "unchanged": [...]}],
   "settled": true|false, "waiting": true,
   "failing": [1], "fixes": [...], "stops": [...],
   "error": {"message": "...", ...}}

"settled" is true when the rounds reach a plan with nothing to do and none is predicted to fail.
"failing" lists the rounds OLM is predicted to fail and "fixes" the confirmed fixes of the first
(as resolve gives them). "stops" lists where a settled namespace stays below its channels' heads,
and why. "error" is present when the rollout did not settle: with the explanation's structured
form (as in resolve) when a round has no plan, with the message alone when --max-rounds was
reached or an upgrade failed.`

const forTopic = `resolve --for APP: the operators an application needs.

With --for APP (repeatable: files, folders or "-"), resolve works from an application instead: for
every apiVersion/kind of APP's objects that Kubernetes or OLM does not serve itself, it finds an
installed CSV of the namespace that provides it, else a package an existing subscription asks
for, else the catalog package whose channel head provides it (in the order OLM prefers a
dependency's providers: catalog priority, the namespace's catalogs before the global ones,
catalog name, the default channel, package name), creates the subscriptions a person would create
and resolves them with the state of -f (optional with --for). The namespace defaults to the one
APP's objects share. OLM objects in APP (an OperatorGroup, say) join the cluster state.

-o yaml writes the subscriptions to create, ready for kubectl apply; -o json the whole answer. A
kind nothing provides makes the answer no (exit 1), with near misses. --olm v1 answers in OLM v1
terms ("sextant help v1").`

const v1Topic = `OLM v1: ClusterExtensions (resolve, provides --olm v1, resolve --for --olm v1).

Manifests that hold ClusterExtensions (olm.operatorframework.io/v1) are resolved as
operator-controller resolves them, each extension on its own (no dependencies, no SAT): the
catalogs its selector picks, the channels it names (all when none), its version range (Masterminds
syntax), the successors of status.install.bundle unless upgradeConstraintPolicy is SelfCertified;
deprecated bundles last, the highest version, the highest catalog priority. Each --catalog
NAME=PATH is the ClusterCatalog NAME; a ClusterCatalog object of that name in -f gives its labels,
priority, availabilityMode and Serving condition, and a catalog without one is Available, priority
0, with only the olm.operatorframework.io/metadata.name label. Manifests may hold Subscriptions
too: they are resolved as OLM v0 does, the ClusterExtensions as v1 does, in one answer.
Operator-controller's feature gates, off unless said: --single-own-namespace
(SingleOwnNamespaceInstallSupport: bundles without AllNamespaces install for
spec.config.inline.watchNamespace), --bundle-release (BundleReleaseSupport: an olm.package release
field is the bundle's release, recorded apart as "release"), --no-webhook-provider (turns off
WebhookProviderCertManager and WebhookProviderOpenshiftServiceCA, which are on: bundles with
webhooks are then refused). --feature-set experimental is operator-controller's experimental
install: its CRDs (spec.config, spec.progressDeadlineMinutes) and its gates
SingleOwnNamespaceInstallSupport and BundleReleaseSupport on (--single-own-namespace=false or
--bundle-release=false turns one off).

The boundary is the API server's: a ClusterExtension or ClusterCatalog is refused (exit 2) exactly
where the API server, with the CRDs of operator-controller v1.11.0 and strict field validation (as
kubectl apply asks), refuses it, in its words: unknown fields ("strict decoding error: unknown
field ..."), metadata it cannot decode, then every problem its OpenAPI schema and validation rules
find ('ClusterExtension.olm.operatorframework.io "x" is invalid: spec.namespace: ...'). What it
takes, operator-controller answers extension by extension: an invalid label selector or version
range is that extension's error, and the others are resolved. What the API server changes without
a word is noted (a cluster-scoped object's namespace cleared, spec.serviceAccount ignored).

CRD upgrade safety: with the cluster's CRDs in -f (kubectl get crd -o yaml) and the bundle's
contents (--bundles DIR, --bundle-images, or olm.bundle.object; "sextant help bundles"), each CRD
of the bundle v1 installs is compared with the cluster's CRD of its name as operator-controller's
preflight compares them; a refusal is a CRDUpgradeSafety failure in its words. Without them only
stored versions are compared, and a note says what was not.

Text: one block per ClusterExtension (the choice, why, the bundles passed over — --full lists
every one —, the next upgrades, predictions). JSON (-o json; -o yaml is the same) is a stable
contract, one entry per ClusterExtension, by name:

  {"extensions": [{"name": "...", "package": "...",
     "bundle": "...", "version": "...", "release": "...", "catalog": "CLUSTERCATALOG",
     | "error": "operator-controller's message, word for word",
       "errorKind": "invalid-selector"|"invalid-version-range"|"catalog-not-served"|
         "invalid-installed-version"|"no-bundle"|"same-priority"|"invalid-bundle-version"|
         "dependency",
     "installed": {"name": "...", "version": "...", "release": "..."},
     "action": "install"|"upgrade"|"downgrade"|"stay", "reason": "...",
     "defaultChannelHead": {"bundle": "...", "version": "...", "channel": "..."},
     "passedOver": [{"bundle": "...", "version": "...", "catalog": "...",
       "reason": "channel"|"version-range"|"not-successor"|"deprecated"|
         "invalid-version"|"lower-version"|"same-version"|"other-catalog",
       "detail": "..."}],
     "skippedCatalogs": [{"catalog": "...", "reason": "..."}],
     "deprecations": ["..."],
     "predictions": [{"reason": "APIServices"|"Webhooks"|"InstallMode"|"Configuration"|
       "BundleValidation"|"CRDUpgradeSafety"|"SingleOwnership"|"MinKubeVersion"|
       "MaxOpenShiftVersion", "severity": "failure"|"warning", "bundle": "...",
       "message": "Sextant's words", "v1Message": "operator-controller's, word for word",
       "other": "..."}],
     "next": [{"bundle": "...", "version": "...", "release": "...", "catalog": "...",
       "predictions": [...]} | {"error": "...", "errorKind": "..."}]}]}

"release" appears only with --bundle-release. "v1Message" is the Progressing condition's message
of a refusal operator-controller makes itself at install ("error for resolved bundle ..."); it is
absent for what it never checks and for single ownership.

With Subscriptions too, the v0 answer's object gains the "extensions" field. Exit status: 0 when
every extension gets a bundle with no predicted failure (and v0 has a plan), 1 otherwise, 2 for
unusable input.

resolve --for APP --olm v1 answers an application in v1 terms: for each API, the ClusterExtension
that serves it (one of -f, or one to create naming only the package) or why none would, with the
channels and the highest version range confirmed to get a bundle providing it where the package's
own choice no longer does (fix: lines; "remedies" in JSON), then the resolution with the
extensions to create (-o json: olmv1.APIExtensions, {"apis": [...], "create": [...],
"resolution": {"extensions": [...]}}).

provides --olm v1 API: for each package providing the API, the bundle a ClusterExtension naming
only that package installs (the highest version of every channel, across the catalogs, each a
ClusterCatalog at priority 0), whether that bundle provides the API, or operator-controller's
error. JSON: [{"api": {...}, "package": "...", "bundle": "...", "version": "...", "catalog":
"...", "error": "...", "errorKind": "...", "provides": true, "catalogs": [...]}].`

var checkOutputTopic = `What check prints, and --baseline.

Text lists the findings of each catalog by package, one line per finding within ` + strconv.Itoa(check.DefaultWidth) + ` columns
(severity, code, channel and bundle, brief, position), then a summary line. A finding's message
stands on its own; its brief says the same in a few words for a line that names the package,
channel and bundle already (the dangling name, the version an upgrade comes from, the unmet
requirement), shortened between words when it still does not fit (never inside a name or a
version; a list cut says how many it left out; a suppression's reason is never cut). The same
cause on several bundles is one line with their count and the first and last bundle. --full
prints every finding on its own, with its whole message and file:line. JSON (-o json; -o yaml is
the same) lists every finding, with "message" and "brief"; "groups" says which are one cause:

  {"catalogs": [{"path": "...", "packages": N, "channels": N, "bundles": N,
    "findings": [{"severity": "error"|"warning"|"info", "code": "...",
      "package": "...", "channel": "...", "bundle": "...", "message": "...", "brief": "...",
      "file": "...", "line": N}],
    "summary": {"error": N, "warning": N, "info": N},
    "counts": [{"code": "...", "severity": "...", "count": N}],
    "groups": [{"code": "...", "severity": "...", "package": "...", "channel": "...",
      "message": "...", "brief": "...", "count": N, "first": "...", "last": "...",
      "findings": [N...]}]}]}

With --baseline OLD, the one catalog given (NEW) is compared with OLD, its previous version (a
path, or git:REF[:PATH] read from git history): every finding is marked new or existing ("status":
"new"|"existing" in JSON), the new ones first in every format, and the regressions of the change
are added — package-removed, channel-removed, default-channel-changed, head-removed,
bundle-removed, channel-head-lowered, upgrade-path-lost, no-longer-installable,
requirement-newly-unmet, deprecation-added; an upgrade edge the change adds that drops an API or an
install mode is a new api-dropped-on-upgrade or install-mode-dropped. The catalog gains a
"baseline" object: {"name", "new", "existing", "resolved", "packagesAdded", "packagesRemoved",
"channelsAdded", "channelsRemoved", "bundlesAdded", "bundlesRemoved"}. --fail-on-new applies
--fail-on to the new findings only, so that CI fails on what a change introduces.

-o markdown writes a pull-request comment: counts by severity and code, then the findings by
package (each its brief, the message folded below it), new ones first, long lists folded. -o sarif
writes a SARIF 2.1.0 log for code scanning (GitHub's upload-sarif): one rule per finding code with
its help, one result per finding at its file, line and column with the message (the brief as the
result's property "brief"), the baseline state (new, unchanged, absent) with --baseline. In a git
work tree every file is relative to its top (uriBaseId %SRCROOT%, set in originalUriBaseIds), so
the log is the same from any folder; tool.driver.version is sextant's version.

Suppressions: --config FILE, by default the .sextant.yaml in the catalog's folder or a folder above
it, up to the git repository's top (named on standard error when found). docs/check.md
describes its format, CHECKS.md every finding code.`

// diagramsTopic describes how graph draws.
var diagramsTopic = `How graph draws an upgrade graph.

Nodes are bundles (name and version), in channel order, head first. An edge goes from a bundle to
the entry that upgrades it: solid for replaces, dashed for skips, dotted and labelled with the
range for skipRange. Diagrams draw one edge per pair of bundles, the first of replaces, skips,
skipRange that holds; -o text lists every edge (but see --skip-ranges). Heads and deprecated
bundles (olm.deprecated property or olm.deprecations entry) are marked, and names that an edge
refers to but that are not in the channel are drawn dashed.

A skipRange that spans many entries makes many edges. --skip-ranges labels writes each skipRange
in its entry's box instead (with the number of entries it matches); auto, the default, does so
only when the diagram would have more than ` + strconv.Itoa(maxDiagramEdges) + ` edges — Mermaid's default limit, past which
GitHub shows an error instead of the chart — and says so in a comment. In text, labels give each
skipRange the number of entries it matches instead of their names; auto does so past ` + strconv.Itoa(maxTextSkipRangeEdges) + `
skipRange edges, and says so in a note. --skip-ranges edges always draws them.

--from BUNDLE marks the path a cluster at BUNDLE takes to the channel head: the hops of a
simulated rollout (the bundle installed and subscribed to the channel), drawn as thick edges
labelled with their round, and where and why the path stops short of the head.

-o mermaid prints a raw Mermaid flowchart (a front matter title, then "graph LR"): paste it into a
GitHub comment inside a ` + "```mermaid" + ` fence, or use --fenced to get the fence too. -o dot is for
"dot -Tsvg".`

const globalFlagsText = `Flags every command takes.`

const globalFlagsDetails = `Catalog images ("sextant help catalogs") are kept by digest in the cache (--cache-dir; by
default sextant in the user's cache folder, ~/.cache/sextant on Linux). --pull always (the
default) resolves each tag on its registry once per run and downloads only digests not in the
cache; --pull missing asks the registry only for what the cache lacks (a tag read before is not
resolved again); --pull never reads only the cache. --offline reaches no registry: an image the
cache lacks is an error naming what would be pulled. The cache holds at most --cache-max-size
(default 2 GiB): once an image is written, the least recently read are removed to fit, and a note
names them; a cached copy that cannot be read is read again from the registry, or, with --pull
never or --offline, named for deletion. "sextant cache list" and "sextant cache prune" show and
empty it. Registries are reached over HTTPS only; --insecure HOST[:PORT] (repeatable) allows plain
HTTP to the registries it names. Credentials are read as crane, skopeo and podman read them (the
Docker config file, its credential helpers, else podman's auth.json).

Every catalog and manifest file is read one document at a time, within --max-input-size per file
(uncompressed; for a .gz, what it expands to) and --max-document-size per JSON blob or YAML
document; both take a number of bytes with an optional unit (KiB, MiB, GiB), or -1 for no limit.
Binary data stops a file at its first byte.`

const clusterUpgradeTopic = `cluster-upgrade: an OpenShift cluster's update, minor by minor, with its OLM operators.

Input. The cluster's objects, as kubectl get clusterversion,csv,sub,catsrc,og,ip,crd -A -o yaml
prints them (or a must-gather folder, -f DIR -R); ClusterVersion (config.openshift.io/v1) is read
strictly, its status.desired.version is the cluster's version (--openshift-version replaces it).
The path is every minor from the cluster's to --to: OpenShift updates one minor at a time. --via
names the minors passed as Control Plane Only updates (worker pools paused: EUS to EUS, such as
--to 4.18 --via 4.17); the others are stops, where a person acts. Kubernetes per minor: 4.12 ships
1.25, each minor one more, up to 4.23 with 1.36 (minKubeVersion is checked against the minor's
first release; a later patch of the same minor is a warning: the z-stream decides).

Catalogs per minor. --catalog NAME=PATH|IMAGE is CatalogSource NAME's catalog now; --catalog
NAME@4.18=PATH|IMAGE its catalog at 4.18. Otherwise a default CatalogSource (redhat-operators,
certified-operators, community-operators, and redhat-marketplace up to 4.21, in
openshift-marketplace, annotated operatorframework.io/managed-by: marketplace-operator or with the
platform's index as its image) follows the platform: at 4.N it serves
registry.redhat.io/redhat/<index>:v4.N, as the marketplace operator of each release rewrites it.
A custom, mirrored or digest-pinned CatalogSource keeps its catalog, and the plan says so; a catalog
that does not move at a minor keeps what it served before (redhat-marketplace, no longer a default
at 4.22, stays on the 4.21 index; a catalog given for a minor stays given). The images are read
before the plan is made (cached, --pull); with --offline every image not in the cache is named,
exit 2.

Per hop: OLM v0's gate at the minor the cluster leaves (helpers.go of OLM v0.28: an installed CSV,
copies aside, whose olm.maxOpenShiftVersion in its operatorframework.io/properties annotation is
below the next minor, or invalid, sets the olm ClusterOperator Upgradeable=False, in OLM's words)
and OLM v1's on ClusterExtensions (cluster-olm-operator: the installed bundle's
olm.maxOpenShiftVersion must be above the cluster's minor). At a stop, each blocker is lifted for
every minor up to the next stop: its namespace is rolled out, InstallPlans approved, up to the
first one that supports it (else another channel whose head does; failing both, up to the next
minor only, and the next lift is then made at that minor, between the two updates; else a
decision). The catalogs then move: what OLM does by itself (automatic upgrades), what waits for
approval, predicted failures, subscriptions whose catalog, package, channel or startingCSV is gone
(OLM's reason word for word; the namespace stops resolving, every subscription in it) with the
fixes that make it resolve again, each confirmed by resolving (another channel, another catalog,
deleting the subscription, uninstalling), and subscriptions left off their channel's head with no
upgrade to it (below it, or above it when the next index cut the channel back).
The plan goes on from a stranded namespace with its stranded subscriptions deleted, and says so.
--mirror adds, per hop, the catalog images the cluster's sources pull at the next minor and the
operator images (the mirror set of package mirror) a disconnected cluster needs there, computed
as the plan goes on (stranded subscriptions deleted, said); -o markdown lists them, one a line.

Output: text; -o markdown, a change request with the actions as a checklist; -o json, the plan
(package openshift, type Plan: current, path {target, stops, hops}, at, hops[] {from, to,
controlPlaneOnly, kubernetes, gates[] {engine, next, blockers, condition, reason, message}, ahead,
lifts[], open, sources[], after[] (namespaces), extensions[], mirror}, actions[] {when, kind, text,
decision, options}, notes). Exit 0 when the target is reached with the listed actions, 1 when an
action needs a person's decision, 2 for input the tool cannot use.`

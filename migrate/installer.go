package migrate

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/crd"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/words"
	"github.com/sextantdev/sextant/registryv1"
)

// InstallerReleases names the operator-controller releases that install a
// ClusterExtension as its spec.serviceAccount, for which an [Installer] is
// derived: v1.11.0, the release Sextant targets, ignores the field.
const InstallerReleases = "operator-controller v1.0 to v1.10"

// Installer is the service account a ClusterExtension names for the
// operator-controller releases that install as it ([InstallerReleases]),
// and the permissions it needs to install and upgrade one bundle, derived
// from the bundle's contents as OLM v1's documentation describes
// (docs/howto/derive-service-account.md of operator-controller v1.10.0)
// and as those releases render a registry+v1 bundle:
//
//   - ClusterRole NAME-installer-clusterrole: update on the
//     ClusterExtension's finalizers (for clusters with the
//     OwnerReferencesPermissionEnforcement admission plug-in); list and
//     watch on every kind of object the bundle installs (operator-
//     controller watches them cluster-wide: its PreflightPermissions check
//     asks for both at cluster scope); create on the cluster-scoped kinds,
//     and get, update, patch and delete on each cluster-scoped object by
//     name: the bundle's CRDs, the ClusterRoles and ClusterRoleBindings v1
//     generates from the CSV's clusterPermissions (named as v1 names them,
//     CSVNAME-SERVICEACCOUNT-HASH) and those the bundle ships, and its
//     other cluster-scoped manifests; bind on a role a shipped binding
//     names that the bundle does not carry.
//   - ClusterRole NAME-installer-rbac-clusterrole: every rule of the CSV's
//     clusterPermissions (and, installed for all namespaces, of its
//     permissions, which v1 promotes to ClusterRoles with get, list and
//     watch on namespaces added — from v1.3 on: v1.0 to v1.2 promote them
//     as they are, so their ClusterRoles' names are given too) and of the
//     bundle's ClusterRoles: RBAC lets no one grant a rule they do not
//     hold. Rules written twice are kept once.
//   - Role NAME-installer-role in the install namespace: create, and get,
//     update, patch and delete by name, on the deployments of the CSV, the
//     service accounts of its permissions, and the bundle's namespaced
//     manifests (services, config maps, secrets, roles, …); the rules of
//     the bundle's Roles.
//   - For the CSV's webhooks, what v1 generates with cert-manager as the
//     certificate provider: the validating and mutating webhook
//     configurations (cluster-scoped, named after each generateName), and
//     for each deployment serving a webhook its Service
//     (DEPLOYMENT-service), cert-manager Certificate (…-cert) and Issuer
//     (…-selfsigned-issuer) in the install namespace.
//   - For a watch namespace (SingleNamespace or OwnNamespace), the Roles
//     and RoleBindings v1 generates there from the CSV's permissions: in
//     that namespace's Role (the install namespace's for OwnNamespace),
//     create and management by name of them, and their rules.
//
// Each role is bound to the ServiceAccount NAME-installer of the install
// namespace by a binding of the role's name. The order of every list is
// fixed: the same bundle gives the same objects, byte for byte.
type Installer struct {
	// Bundle is the bundle the permissions are derived from (the one v1
	// installs now); an upgrade to another bundle may need more.
	Bundle string `json:"bundle"`
	// ServiceAccount is spec.serviceAccount.name, in Namespace (the
	// ClusterExtension's spec.namespace).
	ServiceAccount string `json:"serviceAccount"`
	Namespace      string `json:"namespace"`
	// ClusterRoles are the cluster-wide roles, Roles the namespaced ones,
	// each bound to the service account by a binding of its name.
	ClusterRoles []InstallerRole `json:"clusterRoles"`
	Roles        []InstallerRole `json:"roles,omitempty"`
	// NotDerived says what of the bundle the rules leave out: manifests of
	// a kind v1 does not install, CRDs of an API version Kubernetes no
	// longer serves (v1 fails on both); empty when nothing is left out.
	NotDerived []string `json:"notDerived,omitempty"`
}

// InstallerRole is one ClusterRole (Namespace "") or Role of an
// Installer.
type InstallerRole struct {
	Name      string             `json:"name"`
	Namespace string             `json:"namespace,omitempty"`
	Rules     []graph.PolicyRule `json:"rules"`
}

// Kubernetes' groups and verbs the installer's rules name.
const (
	admissionGroup   = "admissionregistration.k8s.io"
	certManagerGroup = "cert-manager.io"
	rbacGroup        = "rbac.authorization.k8s.io"
	crdGroup         = "apiextensions.k8s.io"
	maxResourceName  = 63 // operator-controller's limit on generated names
)

var (
	collectionVerbs  = []string{"list", "watch"}
	createVerbs      = []string{"create"}
	clusterWideVerbs = []string{"create", "list", "watch"}
	objectVerbs      = []string{"get", "update", "patch", "delete"}
)

// kindInfo is what the installer's rules need of a kind v1 installs: its
// resource (plural) and whether it is namespaced.
type kindInfo struct {
	resource   string
	namespaced bool
}

// installableKinds are the kinds of manifests, other than the CSV and
// CRDs, that a registry+v1 bundle may carry and OLM installs
// (operator-registry's supported resources), with their resources and
// scopes on a cluster. The group is the manifest's.
var installableKinds = map[string]kindInfo{
	"Secret":                {"secrets", true},
	"ConfigMap":             {"configmaps", true},
	"ServiceAccount":        {"serviceaccounts", true},
	"Service":               {"services", true},
	"Role":                  {"roles", true},
	"RoleBinding":           {"rolebindings", true},
	"ClusterRole":           {"clusterroles", false},
	"ClusterRoleBinding":    {"clusterrolebindings", false},
	"PrometheusRule":        {"prometheusrules", true},
	"ServiceMonitor":        {"servicemonitors", true},
	"PodDisruptionBudget":   {"poddisruptionbudgets", true},
	"PriorityClass":         {"priorityclasses", false},
	"VerticalPodAutoscaler": {"verticalpodautoscalers", true},
	"ConsoleYAMLSample":     {"consoleyamlsamples", false},
	"ConsoleQuickStart":     {"consolequickstarts", false},
	"ConsoleCLIDownload":    {"consoleclidownloads", false},
	"ConsoleLink":           {"consolelinks", false},
}

// gr is an API group and resource.
type gr struct{ group, resource string }

func (a gr) compare(b gr) int {
	return cmp.Or(cmp.Compare(a.group, b.group), cmp.Compare(a.resource, b.resource))
}

// scope collects the objects of one scope (the cluster, or one
// namespace): for each group and resource, the names of its objects.
type scope map[gr]map[string]bool

func (s scope) add(g gr, name string) {
	if s[g] == nil {
		s[g] = map[string]bool{}
	}
	if name != "" {
		s[g][name] = true
	}
}

func (s scope) keys() []gr {
	ks := make([]gr, 0, len(s))
	for k := range s {
		ks = append(ks, k)
	}
	slices.SortFunc(ks, gr.compare)
	return ks
}

// DeriveInstaller derives the installer service account of the
// ClusterExtension ext, installed in installNamespace and watching
// watchNamespace ("" for all namespaces), for the bundle b: see
// [Installer]. With operator-controller's experimental feature set
// (fs), whose BoxcutterRuntime gate installs through revisions named
// EXT-N, the ClusterRole also updates the revisions' finalizers
// (clusterextensionrevisions/finalizers in v1.8, clusterobjectsets/
// finalizers from v1.9), by no name: N grows with each revision. CRDs are
// parsed through crds (nil: each parsed alone). An error is a CRD of the
// bundle that does not parse, named with its file.
func DeriveInstaller(b *registryv1.Bundle, crds *registryv1.CRDCache, ext, installNamespace, watchNamespace string, fs cluster.FeatureSet) (*Installer, error) {
	if b == nil || b.CSV == nil {
		return nil, fmt.Errorf("derive the installer of ClusterExtension %q: the bundle's contents have no ClusterServiceVersion", ext)
	}
	csv := b.CSV
	in := &Installer{Bundle: csv.Name, ServiceAccount: ext + "-installer", Namespace: installNamespace}
	allNamespaces := watchNamespace == ""
	onCluster, install := scope{}, scope{}
	watch := install
	if !allNamespaces && watchNamespace != installNamespace {
		watch = scope{}
	}

	for _, ref := range b.CRDs {
		name, err := crdNameOf(crds, ref)
		var ve *crd.VersionError
		switch {
		case errors.As(err, &ve):
			// Kubernetes serves apiextensions.k8s.io/v1beta1 no more (since
			// 1.22): the CSV's owned CRDs name it, below.
			in.NotDerived = append(in.NotDerived, fmt.Sprintf("CRD %s:%d is %s, which Kubernetes serves no more (since 1.22): installing it fails", ref.File, ref.Line, ve.APIVersion))
			continue
		case err != nil:
			return nil, fmt.Errorf("derive the installer of ClusterExtension %q: %s: %w", ext, ref.Where(), err)
		}
		onCluster.add(gr{crdGroup, "customresourcedefinitions"}, name)
	}
	for _, name := range csv.OwnedCRDs {
		onCluster.add(gr{crdGroup, "customresourcedefinitions"}, name)
	}

	// What v1 generates from the CSV: deployments, service accounts, and
	// the (cluster) roles and bindings of its permissions.
	for _, d := range csv.Deployments {
		install.add(gr{"apps", "deployments"}, d)
	}
	sas := map[string]bool{}
	for _, p := range slices.Concat(csv.Permissions, csv.ClusterPermissions) {
		if sa := saNameOrDefault(p.ServiceAccountName); sa != "default" {
			sas[sa] = true
		}
	}
	for _, sa := range sortedKeys(sas) {
		install.add(gr{"", "serviceaccounts"}, sa)
	}
	var grant, watchGrant []graph.PolicyRule
	clusterPerms := csv.ClusterPermissions
	if allNamespaces {
		for _, p := range csv.Permissions {
			// v1.0 to v1.2 promote the permissions as they are (the rule
			// on namespaces they mean to add is lost), v1.3 on with it:
			// the names of both.
			name := generatedName(csv.Name, p)
			onCluster.add(gr{rbacGroup, "clusterroles"}, name)
			onCluster.add(gr{rbacGroup, "clusterrolebindings"}, name)
			p.Rules = append(slices.Clip(p.Rules), graph.PolicyRule{
				Verbs: []string{"get", "list", "watch"}, APIGroups: []string{""}, Resources: []string{"namespaces"},
			})
			clusterPerms = append(slices.Clip(clusterPerms), p)
		}
	} else {
		for _, p := range csv.Permissions {
			name := generatedName(csv.Name, p)
			watch.add(gr{rbacGroup, "roles"}, name)
			watch.add(gr{rbacGroup, "rolebindings"}, name)
			watchGrant = append(watchGrant, p.Rules...)
		}
	}
	for _, p := range clusterPerms {
		name := generatedName(csv.Name, p)
		onCluster.add(gr{rbacGroup, "clusterroles"}, name)
		onCluster.add(gr{rbacGroup, "clusterrolebindings"}, name)
		grant = append(grant, p.Rules...)
	}

	// The bundle's other manifests.
	var installGrant []graph.PolicyRule
	shipped := map[string]bool{} // "Kind/name" of the roles the bundle carries
	for _, o := range b.Objects {
		shipped[o.Kind+"/"+o.Name] = true
	}
	clusterBind, installBind := map[string]bool{}, map[gr]map[string]bool{}
	for _, o := range b.Objects {
		k, ok := installableKinds[o.Kind]
		if !ok {
			in.NotDerived = append(in.NotDerived, fmt.Sprintf("%s %q (%s): a kind v1 does not install (it refuses the bundle)", o.Kind, o.Name, o.File))
			continue
		}
		group, _, _ := strings.Cut(o.APIVersion, "/")
		if !strings.Contains(o.APIVersion, "/") {
			group = ""
		}
		g := gr{group, k.resource}
		if k.namespaced {
			install.add(g, o.Name)
		} else {
			onCluster.add(g, o.Name)
		}
		switch o.Kind {
		case "ClusterRole":
			grant = append(grant, o.Rules...)
		case "Role":
			installGrant = append(installGrant, o.Rules...)
		case "ClusterRoleBinding":
			if o.RoleRef != nil && !shipped[o.RoleRef.Kind+"/"+o.RoleRef.Name] {
				clusterBind[o.RoleRef.Name] = true
			}
		case "RoleBinding":
			if o.RoleRef != nil && !shipped[o.RoleRef.Kind+"/"+o.RoleRef.Name] {
				res := gr{rbacGroup, "roles"}
				if o.RoleRef.Kind == "ClusterRole" {
					res = gr{rbacGroup, "clusterroles"}
				}
				if installBind[res] == nil {
					installBind[res] = map[string]bool{}
				}
				installBind[res][o.RoleRef.Name] = true
			}
		}
	}
	// What v1 generates for the CSV's webhooks, with cert-manager as the
	// certificate provider (OpenShift's service CA needs a subset): the
	// admission webhook configurations, and for each deployment serving a
	// webhook its Service, Certificate and Issuer.
	served := map[string]bool{}
	for _, wh := range csv.Webhooks {
		switch wh.Type {
		case graph.WebhookValidating:
			onCluster.add(gr{admissionGroup, "validatingwebhookconfigurations"}, strings.TrimSuffix(wh.GenerateName, "-"))
		case graph.WebhookMutating:
			onCluster.add(gr{admissionGroup, "mutatingwebhookconfigurations"}, strings.TrimSuffix(wh.GenerateName, "-"))
		}
		if served[wh.DeploymentName] {
			continue
		}
		served[wh.DeploymentName] = true
		service := nameWithSuffix(strings.ReplaceAll(wh.DeploymentName, ".", "-"), "service")
		cert := nameWithSuffix(service, "cert")
		if slices.Contains(csv.Deployments, wh.DeploymentName) {
			install.add(gr{"", "services"}, service)
		}
		install.add(gr{certManagerGroup, "certificates"}, cert)
		install.add(gr{certManagerGroup, "issuers"}, nameWithSuffix(cert, "selfsigned-issuer"))
	}

	// The ClusterRole that manages the objects: every kind's list and watch
	// at cluster scope, then cluster-scoped objects by name.
	manage := []graph.PolicyRule{{
		Verbs: []string{"update"}, APIGroups: []string{cluster.APIGroupV1},
		Resources: []string{"clusterextensions/finalizers"}, ResourceNames: []string{ext},
	}}
	if fs == cluster.FeatureSetExperimental {
		manage = append(manage, graph.PolicyRule{
			Verbs: []string{"update"}, APIGroups: []string{cluster.APIGroupV1},
			Resources: []string{"clusterextensionrevisions/finalizers", "clusterobjectsets/finalizers"},
		})
	}
	all := scope{}
	for _, s := range []scope{onCluster, install, watch} {
		for k := range s {
			all.add(k, "")
		}
	}
	for _, k := range all.keys() {
		if names, ok := onCluster[k]; ok {
			manage = append(manage, rule(k, clusterWideVerbs, nil))
			if len(names) > 0 {
				manage = append(manage, rule(k, objectVerbs, sortedKeys(names)))
			}
			continue
		}
		manage = append(manage, rule(k, collectionVerbs, nil))
	}
	if len(clusterBind) > 0 {
		manage = append(manage, rule(gr{rbacGroup, "clusterroles"}, []string{"bind"}, sortedKeys(clusterBind)))
	}
	in.ClusterRoles = append(in.ClusterRoles, InstallerRole{Name: ext + "-installer-clusterrole", Rules: manage})
	if g := dedupe(grant); len(g) > 0 {
		in.ClusterRoles = append(in.ClusterRoles, InstallerRole{Name: ext + "-installer-rbac-clusterrole", Rules: g})
	}

	// The Role of the install namespace, and of the watch namespace.
	nsRules := func(s scope, grant []graph.PolicyRule, bind map[gr]map[string]bool) []graph.PolicyRule {
		var rules []graph.PolicyRule
		for _, k := range s.keys() {
			rules = append(rules, rule(k, createVerbs, nil))
			if names := s[k]; len(names) > 0 {
				rules = append(rules, rule(k, objectVerbs, sortedKeys(names)))
			}
		}
		bk := make([]gr, 0, len(bind))
		for k := range bind {
			bk = append(bk, k)
		}
		slices.SortFunc(bk, gr.compare)
		for _, k := range bk {
			rules = append(rules, rule(k, []string{"bind"}, sortedKeys(bind[k])))
		}
		return append(rules, dedupe(grant)...)
	}
	if !allNamespaces && watchNamespace != installNamespace {
		if r := nsRules(install, installGrant, installBind); len(r) > 0 {
			in.Roles = append(in.Roles, InstallerRole{Name: ext + "-installer-role", Namespace: installNamespace, Rules: r})
		}
		if r := nsRules(watch, watchGrant, nil); len(r) > 0 {
			in.Roles = append(in.Roles, InstallerRole{Name: ext + "-installer-role", Namespace: watchNamespace, Rules: r})
		}
	} else if r := nsRules(install, slices.Concat(installGrant, watchGrant), installBind); len(r) > 0 {
		in.Roles = append(in.Roles, InstallerRole{Name: ext + "-installer-role", Namespace: installNamespace, Rules: r})
	}
	return in, nil
}

// crdNameOf parses a bundle's CRD, through the cache when there is one,
// for its name.
func crdNameOf(c *registryv1.CRDCache, ref registryv1.CRDRef) (string, error) {
	parse := ref.Parse
	if c != nil {
		parse = func() (*crd.Definition, crd.Decoded, error) { return c.Parse(ref) }
	}
	d, _, err := parse()
	if err != nil {
		return "", err
	}
	return d.Name, nil
}

// rule is a rule on one group and resource.
func rule(k gr, verbs, names []string) graph.PolicyRule {
	return graph.PolicyRule{Verbs: slices.Clone(verbs), APIGroups: []string{k.group}, Resources: []string{k.resource}, ResourceNames: names}
}

// dedupe keeps the first of rules written alike.
func dedupe(rules []graph.PolicyRule) []graph.PolicyRule {
	seen := map[string]bool{}
	var out []graph.PolicyRule
	for _, r := range rules {
		key, _ := json.Marshal(r)
		if !seen[string(key)] {
			seen[string(key)] = true
			out = append(out, r)
		}
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// saNameOrDefault is a permission's service account: "default" when it
// names none, as operator-controller reads it.
func saNameOrDefault(name string) string {
	if name == "" {
		return "default"
	}
	return name
}

// generatedName is the name operator-controller v1.0 to v1.11 give the
// (Cluster)Role and (Cluster)RoleBinding of one permission of a CSV:
// "CSVNAME-SERVICEACCOUNT" cut to leave room for "-HASH", HASH the base-36
// SHA-224 of the permission's JSON (encoding/json, as Go encodes
// operator-framework/api's StrategyDeploymentPermissions, newline ended).
func generatedName(csv string, p graph.StrategyPermissions) string {
	base := csv + "-" + saNameOrDefault(p.ServiceAccountName)
	j, _ := json.Marshal(p) // strings and lists of strings: it cannot fail
	sum := sha256.Sum224(append(j, '\n'))
	var i big.Int
	i.SetBytes(sum[:])
	return nameWithSuffix(base, i.Text(36))
}

// nameWithSuffix is "base-suffix", base cut as operator-controller cuts
// it: when base and suffix together pass 63 characters (so that the name
// may be 64 long, as there).
func nameWithSuffix(base, suffix string) string {
	if len(base)+len(suffix) > maxResourceName {
		base = base[:max(maxResourceName-len(suffix)-1, 0)]
	}
	return base + "-" + suffix
}

// Manifests returns the installer's objects as Kubernetes manifests, in
// the order they are applied: the ServiceAccount, then each ClusterRole
// and its ClusterRoleBinding, then each Role and its RoleBinding (a
// binding has its role's name).
func (in *Installer) Manifests() []map[string]any {
	meta := func(name, namespace string) map[string]any {
		m := map[string]any{"name": name}
		if namespace != "" {
			m["namespace"] = namespace
		}
		return m
	}
	subjects := []any{map[string]any{"kind": "ServiceAccount", "name": in.ServiceAccount, "namespace": in.Namespace}}
	out := []map[string]any{{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": meta(in.ServiceAccount, in.Namespace)}}
	add := func(kind string, r InstallerRole) {
		out = append(out,
			map[string]any{"apiVersion": rbacGroup + "/v1", "kind": kind, "metadata": meta(r.Name, r.Namespace), "rules": r.Rules},
			map[string]any{
				"apiVersion": rbacGroup + "/v1", "kind": kind + "Binding", "metadata": meta(r.Name, r.Namespace),
				"roleRef":  map[string]any{"apiGroup": rbacGroup, "kind": kind, "name": r.Name},
				"subjects": subjects,
			})
	}
	for _, r := range in.ClusterRoles {
		add("ClusterRole", r)
	}
	for _, r := range in.Roles {
		add("Role", r)
	}
	return out
}

// Summary says in one line what the installer holds: "ServiceAccount
// operators/x-installer: ClusterRole x-installer-clusterrole (12 rules),
// ClusterRole x-installer-rbac-clusterrole (9 rules), Role
// operators/x-installer-role (8 rules)".
func (in *Installer) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ServiceAccount %s/%s:", in.Namespace, in.ServiceAccount)
	sep := " "
	for _, r := range in.ClusterRoles {
		fmt.Fprintf(&b, "%sClusterRole %s (%s)", sep, r.Name, words.Plural(len(r.Rules), "rule"))
		sep = ", "
	}
	for _, r := range in.Roles {
		fmt.Fprintf(&b, "%sRole %s/%s (%s)", sep, r.Namespace, r.Name, words.Plural(len(r.Rules), "rule"))
	}
	return b.String()
}

// installer derives e's Installer from the contents of the bundle v1
// installs now, found in bundles; or says in e.InstallerNotDerived why
// not. A blocked entry gets neither.
func (b *builder) installer(ctx context.Context, bundles *registryv1.Set, e *Entry) {
	if e.Verdict == Blocked {
		return
	}
	g := b.v1Bundle(e.V1Now.Catalog, e.Package, e.V1Now.Bundle)
	if g == nil {
		e.InstallerNotDerived = "v1 installs no bundle"
		return
	}
	var contents *registryv1.Bundle
	var problems []error
	var err error
	if bundles != nil {
		contents, problems, err = bundles.For(ctx, g)
	}
	switch {
	case err != nil:
		e.InstallerNotDerived = fmt.Sprintf("the contents of bundle %s cannot be read: %v", g.Name, err)
		return
	case len(problems) > 0:
		e.InstallerNotDerived = fmt.Sprintf("the contents of bundle %s cannot all be read: %v", g.Name, problems[0])
		if len(problems) > 1 {
			e.InstallerNotDerived += fmt.Sprintf(" (and %d more problems)", len(problems)-1)
		}
		return
	case contents == nil:
		e.InstallerNotDerived = NotDerivedNoContents
		return
	}
	x := &e.ClusterExtension
	in, err := DeriveInstaller(contents, &b.crdCache, x.Name, x.Namespace, x.WatchNamespace, b.featureSet)
	if err != nil {
		e.InstallerNotDerived = err.Error()
		return
	}
	e.Installer = in
}

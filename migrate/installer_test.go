package migrate

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/registryv1"
)

// bundleFS is a bundle folder: its CSV (spec given as YAML) and extra
// manifests.
func bundleFS(csvSpec string, manifests ...string) fstest.MapFS {
	fsys := fstest.MapFS{
		"metadata/annotations.yaml": {Data: []byte("annotations:\n  operators.operatorframework.io.bundle.mediatype.v1: registry+v1\n  operators.operatorframework.io.bundle.package.v1: op\n")},
		"manifests/csv.yaml":        {Data: []byte("apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: op.v1.0.0\nspec:\n" + csvSpec)},
	}
	for i, m := range manifests {
		fsys["manifests/m"+string(rune('a'+i))+".yaml"] = &fstest.MapFile{Data: []byte(m)}
	}
	return fsys
}

const testCSVSpec = `  version: 1.0.0
  installModes:
  - {type: AllNamespaces, supported: true}
  - {type: SingleNamespace, supported: true}
  - {type: OwnNamespace, supported: true}
  install:
    strategy: deployment
    spec:
      deployments:
      - name: op-controller
        spec: {template: {spec: {serviceAccountName: op}}}
      clusterPermissions:
      - serviceAccountName: op
        rules:
        - {apiGroups: [example.com], resources: [widgets], verbs: ["*"]}
      permissions:
      - serviceAccountName: op
        rules:
        - {apiGroups: [coordination.k8s.io], resources: [leases], verbs: [get, create, update]}
        - {apiGroups: [example.com], resources: [widgets], verbs: ["*"]}
`

const (
	testCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`
	testV1beta1CRD = "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata: {name: gadgets.example.com}\nspec: {group: example.com}\n"
	testService    = "apiVersion: v1\nkind: Service\nmetadata: {name: op-metrics}\n"
	testReader     = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: op-metrics-reader}
rules:
- {nonResourceURLs: [/metrics], verbs: [get]}
`
	testAuthBinding = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: op-auth}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "system:auth-delegator"}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
`
	testPriorityClass = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: op-high}\nvalue: 1000\n"
	testDeployment    = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: stray}\n"
)

// allows reports whether rules allow verb on a group's resource (the
// object name, "" for a collection), as Kubernetes' RBAC authorizer
// matches a rule.
func allows(rules []graph.PolicyRule, verb, group, resource, name string) bool {
	has := func(list []string, v string) bool { return slices.Contains(list, v) || slices.Contains(list, "*") }
	for _, r := range rules {
		if has(r.Verbs, verb) && has(r.APIGroups, group) && has(r.Resources, resource) &&
			(len(r.ResourceNames) == 0 || name != "" && slices.Contains(r.ResourceNames, name)) {
			return true
		}
	}
	return false
}

// rulesIn are the installer's rules that hold in namespace ns ("": the
// cluster scope).
func rulesIn(in *Installer, ns string) []graph.PolicyRule {
	var rs []graph.PolicyRule
	for _, r := range in.ClusterRoles {
		rs = append(rs, r.Rules...)
	}
	for _, r := range in.Roles {
		if ns != "" && r.Namespace == ns {
			rs = append(rs, r.Rules...)
		}
	}
	return rs
}

func TestDeriveInstaller(t *testing.T) {
	// The names operator-controller v1.0 to v1.11 give the (cluster) roles
	// of the CSV's permissions.
	clusterName := generatedName("op.v1.0.0", graph.StrategyPermissions{ServiceAccountName: "op", Rules: []graph.PolicyRule{
		{Verbs: []string{"*"}, APIGroups: []string{"example.com"}, Resources: []string{"widgets"}},
	}})
	nsRules := []graph.PolicyRule{
		{Verbs: []string{"get", "create", "update"}, APIGroups: []string{"coordination.k8s.io"}, Resources: []string{"leases"}},
		{Verbs: []string{"*"}, APIGroups: []string{"example.com"}, Resources: []string{"widgets"}},
	}
	promotedName := generatedName("op.v1.0.0", graph.StrategyPermissions{ServiceAccountName: "op", Rules: append(slices.Clone(nsRules),
		graph.PolicyRule{Verbs: []string{"get", "list", "watch"}, APIGroups: []string{""}, Resources: []string{"namespaces"}})})
	roleName := generatedName("op.v1.0.0", graph.StrategyPermissions{ServiceAccountName: "op", Rules: nsRules})

	type access struct{ verb, group, resource, name, ns string }
	tests := []struct {
		name           string
		csvExtra       string // more of the CSV's spec
		featureSet     cluster.FeatureSet
		manifests      []string
		install, watch string
		roles          []string // "ns/name" of the Roles
		allowed        []access
		denied         []access
		notDerived     string
	}{{
		name:      "all namespaces",
		manifests: []string{testCRD, testService, testReader, testAuthBinding, testPriorityClass},
		install:   "ops",
		roles:     []string{"ops/op-installer-role"},
		allowed: []access{
			{"update", "olm.operatorframework.io", "clusterextensions/finalizers", "op", ""},
			{"create", "apiextensions.k8s.io", "customresourcedefinitions", "", ""},
			{"delete", "apiextensions.k8s.io", "customresourcedefinitions", "widgets.example.com", ""},
			{"patch", "rbac.authorization.k8s.io", "clusterroles", clusterName, ""},
			{"patch", "rbac.authorization.k8s.io", "clusterroles", promotedName, ""},
			{"update", "rbac.authorization.k8s.io", "clusterrolebindings", promotedName, ""},
			{"update", "rbac.authorization.k8s.io", "clusterrolebindings", roleName, ""}, // v1.0 to v1.2's name
			{"get", "rbac.authorization.k8s.io", "clusterroles", "op-metrics-reader", ""},
			{"bind", "rbac.authorization.k8s.io", "clusterroles", "system:auth-delegator", ""},
			{"get", "scheduling.k8s.io", "priorityclasses", "op-high", ""},
			{"list", "apps", "deployments", "", ""},
			{"watch", "", "services", "", ""},
			{"create", "apps", "deployments", "", "ops"},
			{"update", "apps", "deployments", "op-controller", "ops"},
			{"delete", "", "serviceaccounts", "op", "ops"},
			{"patch", "", "services", "op-metrics", "ops"},
			// what the generated roles grant, held cluster-wide
			{"create", "coordination.k8s.io", "leases", "", ""},
			{"list", "", "namespaces", "", ""},
			{"deletecollection", "example.com", "widgets", "", ""},
			{"get", "", "/metrics", "", ""},
		},
		denied: []access{
			{"update", "olm.operatorframework.io", "clusterobjectsets/finalizers", "op-1", ""},
			{"update", "olm.operatorframework.io", "clusterextensions/finalizers", "other", ""},
			{"delete", "apiextensions.k8s.io", "customresourcedefinitions", "gadgets.example.com", ""},
			{"create", "apps", "deployments", "", "default"},
			{"update", "apps", "deployments", "other", "ops"},
			{"create", "rbac.authorization.k8s.io", "roles", "", "ops"},
			{"bind", "rbac.authorization.k8s.io", "clusterroles", "cluster-admin", ""},
		},
	}, {
		name:       "experimental feature set: revisions",
		featureSet: cluster.FeatureSetExperimental,
		install:    "ops",
		roles:      []string{"ops/op-installer-role"},
		allowed: []access{
			{"update", "olm.operatorframework.io", "clusterobjectsets/finalizers", "op-1", ""},
			{"update", "olm.operatorframework.io", "clusterextensionrevisions/finalizers", "op-7", ""},
		},
		denied: []access{
			{"delete", "olm.operatorframework.io", "clusterobjectsets/finalizers", "op-1", ""},
		},
	}, {
		name:    "single namespace",
		install: "ops", watch: "apps",
		roles: []string{"ops/op-installer-role", "apps/op-installer-role"},
		allowed: []access{
			{"patch", "rbac.authorization.k8s.io", "clusterroles", clusterName, ""},
			{"create", "rbac.authorization.k8s.io", "roles", "", "apps"},
			{"update", "rbac.authorization.k8s.io", "roles", roleName, "apps"},
			{"delete", "rbac.authorization.k8s.io", "rolebindings", roleName, "apps"},
			{"list", "rbac.authorization.k8s.io", "roles", "", ""},
			{"create", "coordination.k8s.io", "leases", "", "apps"},
			{"update", "apps", "deployments", "op-controller", "ops"},
		},
		denied: []access{
			{"create", "coordination.k8s.io", "leases", "", ""},
			{"create", "coordination.k8s.io", "leases", "", "ops"},
			{"patch", "rbac.authorization.k8s.io", "clusterroles", promotedName, ""},
			{"create", "rbac.authorization.k8s.io", "roles", "", "ops"},
		},
	}, {
		name:    "own namespace",
		install: "ops", watch: "ops",
		roles: []string{"ops/op-installer-role"},
		allowed: []access{
			{"update", "rbac.authorization.k8s.io", "roles", roleName, "ops"},
			{"create", "coordination.k8s.io", "leases", "", "ops"},
			{"update", "apps", "deployments", "op-controller", "ops"},
		},
		denied: []access{
			{"create", "coordination.k8s.io", "leases", "", ""},
		},
	}, {
		name: "webhooks",
		csvExtra: `  webhookdefinitions:
  - {type: ValidatingAdmissionWebhook, generateName: vwidgets.example.com-, deploymentName: op-controller}
  - {type: MutatingAdmissionWebhook, generateName: mwidgets.example.com, deploymentName: op-controller}
  - {type: ConversionWebhook, generateName: cwidgets.example.com, deploymentName: op.converter, conversionCRDs: [widgets.example.com]}
`,
		manifests: []string{testCRD},
		install:   "ops",
		roles:     []string{"ops/op-installer-role"},
		allowed: []access{
			{"create", "admissionregistration.k8s.io", "validatingwebhookconfigurations", "", ""},
			{"patch", "admissionregistration.k8s.io", "validatingwebhookconfigurations", "vwidgets.example.com", ""},
			{"delete", "admissionregistration.k8s.io", "mutatingwebhookconfigurations", "mwidgets.example.com", ""},
			{"update", "", "services", "op-controller-service", "ops"},
			{"get", "cert-manager.io", "certificates", "op-controller-service-cert", "ops"},
			{"get", "cert-manager.io", "issuers", "op-controller-service-cert-selfsigned-issuer", "ops"},
			{"get", "cert-manager.io", "certificates", "op-converter-service-cert", "ops"},
			{"list", "cert-manager.io", "issuers", "", ""},
		},
		denied: []access{
			{"get", "", "services", "op-converter-service", "ops"}, // op.converter is no deployment of the CSV
			{"get", "admissionregistration.k8s.io", "validatingwebhookconfigurations", "cwidgets.example.com", ""},
		},
	}, {
		name:      "a v1beta1 CRD, named by the CSV",
		csvExtra:  "  customresourcedefinitions:\n    owned:\n    - {name: gadgets.example.com, version: v1beta1, kind: Gadget}\n",
		manifests: []string{testV1beta1CRD},
		install:   "ops",
		roles:     []string{"ops/op-installer-role"},
		allowed: []access{
			{"delete", "apiextensions.k8s.io", "customresourcedefinitions", "gadgets.example.com", ""},
		},
		notDerived: "CRD manifests/ma.yaml:1 is apiextensions.k8s.io/v1beta1, which Kubernetes serves no more (since 1.22): installing it fails",
	}, {
		name:      "a kind v1 does not install",
		manifests: []string{testDeployment},
		install:   "ops",
		roles:     []string{"ops/op-installer-role"},
		denied: []access{
			{"update", "apps", "deployments", "stray", "ops"},
		},
		notDerived: `Deployment "stray" (manifests/ma.yaml): a kind v1 does not install (it refuses the bundle)`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, problems := registryv1.Loader{}.ReadFS(bundleFS(testCSVSpec+tt.csvExtra, tt.manifests...), registryv1.Source{Kind: registryv1.FromFolder, Path: "op"})
			if len(problems) > 0 {
				t.Fatal(problems)
			}
			in, err := DeriveInstaller(b, nil, "op", tt.install, tt.watch, tt.featureSet)
			if err != nil {
				t.Fatal(err)
			}
			if in.ServiceAccount != "op-installer" || in.Namespace != tt.install || in.Bundle != "op.v1.0.0" {
				t.Errorf("service account %s/%s for %s", in.Namespace, in.ServiceAccount, in.Bundle)
			}
			var roles []string
			for _, r := range in.Roles {
				roles = append(roles, r.Namespace+"/"+r.Name)
			}
			if !slices.Equal(roles, tt.roles) {
				t.Errorf("roles %v, want %v", roles, tt.roles)
			}
			for _, a := range tt.allowed {
				ok := allows(rulesIn(in, a.ns), a.verb, a.group, a.resource, a.name)
				if a.resource == "/metrics" {
					ok = slices.ContainsFunc(rulesIn(in, ""), func(r graph.PolicyRule) bool { return slices.Contains(r.NonResourceURLs, "/metrics") })
				}
				if !ok {
					t.Errorf("%+v not allowed", a)
				}
			}
			for _, a := range tt.denied {
				if allows(rulesIn(in, a.ns), a.verb, a.group, a.resource, a.name) {
					t.Errorf("%+v allowed", a)
				}
			}
			if got := strings.Join(in.NotDerived, "; "); got != tt.notDerived {
				t.Errorf("not derived %q, want %q", got, tt.notDerived)
			}
			again, _ := DeriveInstaller(b, nil, "op", tt.install, tt.watch, tt.featureSet)
			if !slices.EqualFunc(in.Manifests(), again.Manifests(), func(a, b map[string]any) bool { return jsonText(a) == jsonText(b) }) {
				t.Error("two derivations differ")
			}
		})
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestNameWithSuffix: a generated name is cut as operator-controller
// cuts it, the suffix kept whole: only when base and suffix together pass
// 63 characters, so that base-suffix may be 64 long, as there.
func TestNameWithSuffix(t *testing.T) {
	tests := []struct{ base, suffix, want string }{
		{"op-controller", "service", "op-controller-service"},
		{strings.Repeat("a", 60), "service", strings.Repeat("a", 55) + "-service"},
		{strings.Repeat("b", 56), "service", strings.Repeat("b", 56) + "-service"},
		{strings.Repeat("c", 55), "service", strings.Repeat("c", 55) + "-service"},
	}
	for _, tt := range tests {
		if got := nameWithSuffix(tt.base, tt.suffix); got != tt.want {
			t.Errorf("nameWithSuffix(%q, %q) = %q, want %q", tt.base, tt.suffix, got, tt.want)
		}
	}
}

// FuzzDeriveInstaller derives the installer of any bundle the reader
// takes (a CSV's spec and one manifest): it never panics, the same
// bundle gives the same objects, and every object the bundle installs
// — its CSV's deployments, its manifests of a kind v1 installs — may be
// updated by name in its scope, and every rule of its cluster
// permissions is held.
func FuzzDeriveInstaller(f *testing.F) {
	f.Add(testCSVSpec, testService, "")
	f.Add(testCSVSpec, testReader, "apps")
	f.Add(testCSVSpec, testAuthBinding, "ops")
	f.Add(testCSVSpec+"  webhookdefinitions:\n  - {type: ValidatingAdmissionWebhook, generateName: v-, deploymentName: op-controller}\n", testCRD, "")
	f.Add("  version: 1.0.0\n", testPriorityClass, "")
	f.Fuzz(func(t *testing.T, spec, manifest, watch string) {
		b, _ := registryv1.Loader{MaxDocument: 1 << 16}.ReadFS(bundleFS(spec, manifest), registryv1.Source{Kind: registryv1.FromFolder, Path: "op"})
		if b == nil || b.CSV == nil {
			return
		}
		in, err := DeriveInstaller(b, nil, "op", "ops", watch, "")
		if err != nil {
			if !strings.Contains(err.Error(), "manifests/") {
				t.Fatalf("an error that names no manifest: %v", err)
			}
			return
		}
		again, _ := DeriveInstaller(b, nil, "op", "ops", watch, "")
		if jsonText(in.Manifests()) != jsonText(again.Manifests()) {
			t.Fatal("two derivations differ")
		}
		for _, d := range b.CSV.Deployments {
			if !allows(rulesIn(in, "ops"), "update", "apps", "deployments", d) {
				t.Errorf("deployment %q may not be updated", d)
			}
		}
		for _, o := range b.Objects {
			k, ok := installableKinds[o.Kind]
			if !ok || o.Name == "" {
				continue
			}
			group, _, found := strings.Cut(o.APIVersion, "/")
			if !found {
				group = ""
			}
			ns := ""
			if k.namespaced {
				ns = "ops"
			}
			if !allows(rulesIn(in, ns), "update", group, k.resource, o.Name) {
				t.Errorf("%s %q may not be updated", o.Kind, o.Name)
			}
		}
		held := jsonText(in.ClusterRoles)
		for _, p := range b.CSV.ClusterPermissions {
			for _, r := range p.Rules {
				if !strings.Contains(held, jsonText(r)) {
					t.Errorf("cluster permission rule %s not held", jsonText(r))
				}
			}
		}
	})
}

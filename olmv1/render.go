package olmv1

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/kubename"
)

// renderChecks makes the checks operator-controller's registry+v1 renderer
// makes of a bundle's manifests before it renders them, in its order and
// with its messages: deployments (unique, DNS-1123 names), CRDs (unique,
// the owned ones present), webhooks (conversion webhooks only for
// AllNamespaces-only bundles, deployments that exist, unique and DNS-1123
// names, one conversion webhook per CRD, only owned CRDs converted, no
// forbidden rules), and the kinds of the other manifests (others: neither
// the CSV nor a CRD).
func renderChecks(csv *graph.CSVManifest, crds []string, others []graph.ObjectRef, modes modeSet) []error {
	var errs []error
	for _, check := range []func() []error{
		func() []error {
			return duplicates(csv.Deployments, "cluster service version contains duplicate strategy deployment spec '%s'")
		},
		func() []error { return deploymentNames(csv.Deployments) },
		func() []error { return duplicates(crds, "bundle contains duplicate custom resource definition '%s'") },
		func() []error { return missingOwnedCRDs(csv.OwnedCRDs, crds) },
		func() []error { return conversionWebhookModes(csv.Webhooks, modes) },
		func() []error { return webhookDeployments(csv.Webhooks, csv.Deployments) },
		func() []error { return webhookNameDuplicates(csv.Webhooks) },
		func() []error { return webhookNames(csv.Webhooks) },
		func() []error { return conversionCRDSharing(csv.Webhooks) },
		func() []error { return conversionCRDsOwned(csv.Webhooks, csv.OwnedCRDs) },
		func() []error { return webhookRules(csv.Webhooks) },
		func() []error { return unsupportedKinds(others) },
	} {
		errs = append(errs, check()...)
	}
	return errs
}

// duplicates reports each name listed more than once, sorted.
func duplicates(names []string, format string) []error {
	seen := map[string]int{}
	for _, n := range names {
		seen[n]++
	}
	var errs []error
	for _, n := range slices.Sorted(maps.Keys(seen)) {
		if seen[n] > 1 {
			errs = append(errs, fmt.Errorf(format, n))
		}
	}
	return errs
}

// subdomainErrors returns what Kubernetes says of a name that is not a
// DNS-1123 subdomain, sorted; none for a valid one.
func subdomainErrors(s string) []string {
	errs := kubename.DNS1123Subdomain(s, kubename.Characters)
	slices.Sort(errs)
	return errs
}

func deploymentNames(deps []string) []error {
	var errs []error
	for _, d := range slices.Compact(slices.Sorted(slices.Values(deps))) {
		if e := subdomainErrors(d); len(e) > 0 {
			errs = append(errs, fmt.Errorf("invalid cluster service version strategy deployment name '%s': %s", d, strings.Join(e, ", ")))
		}
	}
	return errs
}

func missingOwnedCRDs(owned, crds []string) []error {
	var missing []string
	for _, n := range owned {
		if !slices.Contains(crds, n) {
			missing = append(missing, n)
		}
	}
	var errs []error
	for _, n := range slices.Compact(slices.Sorted(slices.Values(missing))) {
		errs = append(errs, fmt.Errorf("cluster service definition references owned custom resource definition '%s' not found in bundle", n))
	}
	return errs
}

func conversionWebhookModes(whs []graph.WebhookDefinition, modes modeSet) []error {
	if len(modes) == 1 && modes[graph.InstallModeAllNamespaces] {
		return nil
	}
	var errs []error
	for _, wh := range whs {
		if wh.Type == graph.WebhookConversion {
			errs = append(errs, fmt.Errorf("bundle contains conversion webhook %q and supports install modes %s - conversion webhooks are only supported for bundles that only support AllNamespaces install mode", wh.GenerateName, modes))
		}
	}
	return errs
}

func webhookDeployments(whs []graph.WebhookDefinition, deps []string) []error {
	byDep := map[string][]graph.WebhookDefinition{}
	for _, wh := range whs {
		if !slices.Contains(deps, wh.DeploymentName) {
			byDep[wh.DeploymentName] = append(byDep[wh.DeploymentName], wh)
		}
	}
	var errs []error
	for _, d := range slices.Sorted(maps.Keys(byDep)) {
		list := byDep[d]
		slices.SortStableFunc(list, func(a, b graph.WebhookDefinition) int {
			return cmp.Or(cmp.Compare(a.Type, b.Type), cmp.Compare(a.GenerateName, b.GenerateName))
		})
		for _, wh := range list {
			errs = append(errs, fmt.Errorf("webhook of type '%s' with name '%s' references non-existent deployment '%s'", wh.Type, wh.GenerateName, wh.DeploymentName))
		}
	}
	return errs
}

// webhooksByType groups the webhooks' names by type.
func webhooksByType(whs []graph.WebhookDefinition) map[graph.WebhookType][]string {
	out := map[graph.WebhookType][]string{}
	for _, wh := range whs {
		out[wh.Type] = append(out[wh.Type], wh.GenerateName)
	}
	return out
}

func webhookNameDuplicates(whs []graph.WebhookDefinition) []error {
	by := webhooksByType(whs)
	var errs []error
	for _, t := range slices.Sorted(maps.Keys(by)) {
		errs = append(errs, duplicates(by[t], "duplicate webhook '%s' of type '"+string(t)+"'")...)
	}
	return errs
}

func webhookNames(whs []graph.WebhookDefinition) []error {
	by := webhooksByType(whs)
	var errs []error
	for _, t := range slices.Sorted(maps.Keys(by)) {
		for _, n := range slices.Compact(slices.Sorted(slices.Values(by[t]))) {
			if e := subdomainErrors(n); len(e) > 0 {
				errs = append(errs, fmt.Errorf("webhook of type '%s' has invalid name '%s': %s", t, n, strings.Join(e, ",")))
			}
		}
	}
	return errs
}

func conversionCRDSharing(whs []graph.WebhookDefinition) []error {
	byCRD := map[string][]string{}
	for _, wh := range whs {
		if wh.Type != graph.WebhookConversion {
			continue
		}
		for _, crd := range wh.ConversionCRDs {
			byCRD[crd] = append(byCRD[crd], wh.GenerateName)
		}
	}
	var errs []error
	for _, crd := range slices.Sorted(maps.Keys(byCRD)) {
		if names := byCRD[crd]; len(names) > 1 {
			errs = append(errs, fmt.Errorf("conversion webhooks [%s] reference same custom resource definition '%s'", strings.Join(slices.Sorted(slices.Values(names)), ","), crd))
		}
	}
	return errs
}

func conversionCRDsOwned(whs []graph.WebhookDefinition, owned []string) []error {
	var conv []graph.WebhookDefinition
	for _, wh := range whs {
		if wh.Type == graph.WebhookConversion {
			conv = append(conv, wh)
		}
	}
	slices.SortStableFunc(conv, func(a, b graph.WebhookDefinition) int { return cmp.Compare(a.GenerateName, b.GenerateName) })
	var errs []error
	for _, wh := range conv {
		for _, crd := range slices.Sorted(slices.Values(wh.ConversionCRDs)) {
			if !slices.Contains(owned, crd) {
				errs = append(errs, fmt.Errorf("conversion webhook '%s' references custom resource definition '%s' not owned bundle", wh.GenerateName, crd))
			}
		}
	}
	return errs
}

// forbiddenAdmissionResources are the resources of admissionregistration.k8s.io
// an admission webhook may not intercept.
var forbiddenAdmissionResources = []string{"*", "mutatingwebhookconfiguration", "mutatingwebhookconfigurations",
	"validatingwebhookconfiguration", "validatingwebhookconfigurations"}

func webhookRules(whs []graph.WebhookDefinition) []error {
	var errs []error
	for _, wh := range whs {
		if wh.Type == graph.WebhookConversion {
			continue
		}
		for _, rule := range wh.Rules {
			for _, g := range rule.APIGroups {
				if g == cluster.APIGroupV1 || g == "*" {
					errs = append(errs, fmt.Errorf("webhook %q contains forbidden rule: admission webhook rules cannot reference API group %q", wh.GenerateName, g))
				}
				if g != "admissionregistration.k8s.io" {
					continue
				}
				for _, res := range rule.Resources {
					if slices.Contains(forbiddenAdmissionResources, strings.ToLower(res)) {
						errs = append(errs, fmt.Errorf("webhook %q contains forbidden rule: admission webhook rules cannot reference resource %q for API group %q", wh.GenerateName, res, g))
					}
				}
			}
		}
	}
	return errs
}

// bundleKinds are the kinds of manifest a registry+v1 bundle may carry
// besides its CSV and CRDs (operator-registry's supported resources).
var bundleKinds = []string{"ClusterRole", "ClusterRoleBinding", "ConfigMap", "ConsoleCLIDownload", "ConsoleLink",
	"ConsolePlugin", "ConsoleQuickStart", "ConsoleYAMLSample", "NetworkPolicy", "PodDisruptionBudget", "PodMonitor",
	"PriorityClass", "PrometheusRule", "Role", "RoleBinding", "Secret", "Service", "ServiceAccount", "ServiceMonitor",
	"VerticalPodAutoscaler"}

func unsupportedKinds(others []graph.ObjectRef) []error {
	var errs []error
	for _, o := range others {
		if !slices.Contains(bundleKinds, o.Kind) {
			errs = append(errs, fmt.Errorf("unsupported resource %q with kind %q", o.Name, o.Kind))
		}
	}
	return errs
}

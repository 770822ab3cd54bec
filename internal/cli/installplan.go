package cli

import (
	"fmt"
	"io"

	"github.com/sextantdev/sextant/resolver"
)

// writeInstallPlan writes the objects OLM would create for plan (resolve
// -o installplan, or installplan-json): a Kubernetes List holding the
// InstallPlan and the dependency Subscriptions. When an InstallPlan in
// flight already holds every step, or there is no step, the List is empty
// and a YAML comment says why.
func writeInstallPlan(w io.Writer, format string, res *resolver.Resolution) error {
	ip, err := res.InstallPlan()
	if err != nil {
		return err
	}
	plan := res.Plan()
	var m map[string]any
	var note string
	switch {
	case ip != nil:
		m = ip.Manifest()
	case len(plan.Steps) == 0:
		note = fmt.Sprintf("# namespace %s: nothing to do, so OLM creates no InstallPlan\n", plan.Namespace)
	default:
		note = fmt.Sprintf("# namespace %s: InstallPlans in flight already hold every step, so OLM creates no other\n", plan.Namespace)
	}
	if m == nil {
		m = map[string]any{"apiVersion": "v1", "kind": "List", "items": []any{}}
	}
	if format == "installplan-json" {
		return writeJSON(w, m)
	}
	if _, err := io.WriteString(w, note); err != nil {
		return err
	}
	return writeEncoded(w, "yaml", m)
}

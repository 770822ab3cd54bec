package olmv1

import (
	"fmt"
	"strings"

	"github.com/sextantdev/sextant/cluster"
)

// ReasonCRDUpgradeSafety: the chosen bundle drops a version that a CRD of
// the cluster lists in status.storedVersions, and operator-controller's
// CRD upgrade safety preflight refuses it (DESIGN §12).
const ReasonCRDUpgradeSafety PredictionReason = "CRDUpgradeSafety"

// StoredVersionRefusal is operator-controller's refusal of a bundle whose
// CRD drops the stored versions of l, as its CRD upgrade safety preflight
// (crdify's storedVersionRemoval check) words it.
func StoredVersionRefusal(l cluster.StoredVersionLoss) string {
	return fmt.Sprintf("validating upgrade for CRD %q: storedVersionRemoval: stored versions removed : [%s]", l.CRD.Name, strings.Join(l.Dropped, " "))
}

// storedVersions predicts, for each extension that got a bundle, the
// refusal of a bundle whose CRDs drop a version the cluster's CRDs store
// (unless the extension turns the preflight off with crdUpgradeSafety
// enforcement None).
func (r *Resolver) storedVersions(res *Outcome, exts []cluster.ClusterExtension, crds []cluster.CRD) {
	if len(crds) == 0 {
		return
	}
	idx := cluster.IndexCRDs(crds)
	for i := range res.Extensions {
		x := &res.Extensions[i]
		if x.Error != "" || exts[i].CRDUpgradeSafety == "None" {
			continue
		}
		b := r.bundleOf(x)
		if b == nil {
			continue
		}
		losses := idx.StoredVersionLosses(b.Provides)
		msgs := make([]string, len(losses))
		for i, l := range losses {
			msgs[i] = StoredVersionRefusal(l)
		}
		// operator-controller checks every CRD and joins what it finds, one
		// CRD a line, in its Progressing condition.
		v1 := fmt.Sprintf("error for resolved bundle %q with version %q: %s", b.Name, x.Version, strings.Join(msgs, "\n"))
		for _, l := range losses {
			why := fmt.Sprintf("CRD %s stores %s (status.storedVersions), which the bundle's CRD (versions %s) no longer has: operator-controller's CRD upgrade safety check refuses it; migrate the stored objects and drop the version from status.storedVersions first",
				l.CRD.Name, strings.Join(l.Dropped, ", "), strings.Join(l.Provided, ", "))
			x.Predictions = append(x.Predictions, Prediction{Reason: ReasonCRDUpgradeSafety, Severity: SeverityFailure, Bundle: b.Name, Message: why, V1Message: v1})
		}
	}
}

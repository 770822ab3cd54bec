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
func (r *Resolver) storedVersions(res *Resolution, exts []cluster.ClusterExtension, crds []cluster.CRD) {
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
		for _, l := range idx.StoredVersionLosses(b.Provides) {
			x.Predictions = append(x.Predictions, Prediction{Reason: ReasonCRDUpgradeSafety, Severity: SeverityFailure, Bundle: b.Name, Message: StoredVersionRefusal(l)})
		}
	}
}

package predict

import (
	"fmt"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/internal/words"
)

// ReasonInstallComponentFailed: the step's bundle no longer provides a
// version that a CRD of the cluster lists in status.storedVersions, and
// OLM's catalog operator fails the InstallPlan that would update the CRD
// (the InstallPlan's reason, not a CSV's: the CSV is never created).
const ReasonInstallComponentFailed Reason = "InstallComponentFailed"

// StoredVersion is the failure of a step installing bundle that would
// update the CRD of l dropping its stored versions l.Dropped: OLM v0.28's
// words (lib/crd/storage.go, which names one dropped version), then what
// the bundle provides and what to do (DESIGN §12).
func StoredVersion(bundle string, l cluster.StoredVersionLoss) Prediction {
	return Prediction{Reason: ReasonInstallComponentFailed, Severity: SeverityFailure,
		Message: fmt.Sprintf("risk of data loss updating %q: new CRD removes version %s that is listed as a stored version on the existing CRD (%s provides %s in %s only, and status.storedVersions lists %s: migrate the stored objects and remove %s from status.storedVersions first)",
			l.CRD.Name, l.Dropped[0], bundle, l.CRD.Kind, words.Join(l.Provided, "and"), words.Join(l.CRD.StoredVersions, "and"), words.Join(l.Dropped, "and"))}
}

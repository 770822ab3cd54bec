package migrate_test

import (
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/migrate"
)

// textReport is a report made by hand: a ClusterCatalog without an image,
// a blocked subscription whose v1 reason holds a backquote and a control
// character, a subscription ready with changes whose name holds a table's
// separator, and a note.
func textReport() *migrate.Report {
	return &migrate.Report{
		Summary:         migrate.Summary{Subscriptions: 2, ReadyWithChanges: 1, Blocked: 1},
		ClusterCatalogs: []cluster.ClusterCatalog{{Name: "olm-community", Priority: -100}},
		Subscriptions: []migrate.Entry{
			{Namespace: "ops", Name: "a", Package: "a", Source: "olm/community", Installed: "a.v1.0.0", InstalledVersion: "1.0.0",
				Verdict: migrate.Blocked,
				Blocks:  []migrate.Block{{Kind: migrate.BlockNoBundle, Message: "v1 finds no bundle", V1Reason: "no bundles found for `a`\x1b[31m"}},
				ClusterExtension: cluster.ClusterExtension{Name: "a", Namespace: "ops", ServiceAccount: "a-installer", Package: "a",
					Selector: &cluster.LabelSelector{MatchLabels: map[string]string{cluster.MetadataNameLabel: "olm-community"}}},
				V0Next: migrate.Pick{}, V1Now: migrate.Pick{Error: "no bundles found for package \"a\""}},
			{Namespace: "ops", Name: "b|c", Package: "b", Channel: "stable", Source: "olm/community", Installed: "b.v1.0.0",
				Verdict: migrate.ReadyWithChanges,
				Changes: []migrate.Change{{Kind: migrate.ChangeVersionPin, Message: "pinned to 1.0.0"}},
				Lost:    []migrate.Loss{{Kind: migrate.LostManualApproval, Message: "no approval in v1"}},
				ClusterExtension: cluster.ClusterExtension{Name: "b", Namespace: "ops", ServiceAccount: "b-installer", Package: "b",
					Channels: []string{"stable"}, Version: "1.0.0", WatchNamespace: "ops"},
				V0Next:      migrate.Pick{Bundle: "b.v1.1.0", Version: "1.1.0", Catalog: "olm/community", Failures: []string{"RequirementsNotMet: too old"}},
				V1Now:       migrate.Pick{Bundle: "b.v1.0.0", Version: "1.0.0", Catalog: "olm-community"},
				V1Next:      migrate.Pick{},
				Differences: []migrate.Difference{{Kind: migrate.DiffVersion, Message: "v0 ends on 1.1.0, v1 on 1.0.0"}}},
		},
		Notes: []string{"no OperatorGroup in the manifests"},
	}
}

// TestReportWriteText: the text of a report made by hand, line by line —
// a ClusterCatalog without an image says what to write, a v1 reason with a
// control character is quoted, a pick's failures follow it, v1 next is
// left out when v1 finds nothing now, the notes come before the summary.
func TestReportWriteText(t *testing.T) {
	var b strings.Builder
	if err := textReport().WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `ClusterCatalogs (one per CatalogSource in use, highest priority first):
  olm-community: image (none: write spec.source.image.ref), priority -100

namespace ops
  a: blocked
    installed a.v1.0.0 1.0.0 (package a, channel none (the default), catalog olm/community)
    block (no-bundle): v1 finds no bundle
      v1 says: "no bundles found for ` + "`a`" + `\x1b[31m"
    v0 next: nothing
    v1 now:  no bundle: no bundles found for package "a"
    becomes ClusterExtension a: package a, catalog olm-community, namespace ops, service account a-installer
  b|c: ready with changes
    installed b.v1.0.0 (package b, channel stable, catalog olm/community)
    change (version-pin): pinned to 1.0.0
    lost (manual-approval): no approval in v1
    v0 next: b.v1.1.0 1.1.0 (catalog olm/community); will fail: RequirementsNotMet: too old
    v1 now:  b.v1.0.0 1.0.0 (catalog olm-community)
    v1 next: nothing
    differs (version): v0 ends on 1.1.0, v1 on 1.0.0
    becomes ClusterExtension b: package b, channel stable, version "1.0.0", namespace ops, service account b-installer, watchNamespace ops

note: no OperatorGroup in the manifests

2 subscriptions: 0 ready, 1 ready with changes, 1 blocked
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestReportWriteMarkdown: the Markdown of the same report — a table cell
// escapes "|", a v1 reason in code has its backquotes replaced and a
// control character quoted as the text quotes it, the details list only
// the entries that are not ready, and the notes close the document.
func TestReportWriteMarkdown(t *testing.T) {
	var b strings.Builder
	if err := textReport().WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	want := `# Moving from OLM v0 to OLM v1

2 subscriptions: 0 ready, 1 ready with changes, 1 blocked.

## ClusterCatalogs

| name | image | priority |
|---|---|---|
| olm-community | (none: write spec.source.image.ref) | -100 |

## Namespace ops

| subscription | verdict | installed | v0 next | v1 now |
|---|---|---|---|---|
| a | blocked | a.v1.0.0 | nothing | no bundle: no bundles found for package "a" |
| b\|c | ready with changes | b.v1.0.0 | b.v1.1.0 1.1.0 | b.v1.0.0 1.0.0 |

### ops/a: blocked

- **block (no-bundle)**: v1 finds no bundle — v1: ` + "`" + `"no bundles found for 'a'\x1b[31m"` + "`" + `
- becomes ClusterExtension a: package a, catalog olm-community, namespace ops, service account a-installer

### ops/b\|c: ready with changes

- change (version-pin): pinned to 1.0.0
- lost (manual-approval): no approval in v1
- differs (version): v0 ends on 1.1.0, v1 on 1.0.0
- becomes ClusterExtension b: package b, channel stable, version "1.0.0", namespace ops, service account b-installer, watchNamespace ops

## Notes

- no OperatorGroup in the manifests
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestSummaryString: the summary counts every verdict.
func TestSummaryString(t *testing.T) {
	s := migrate.Summary{Subscriptions: 26, Ready: 9, ReadyWithChanges: 6, Blocked: 11}
	if got, want := s.String(), "26 subscriptions: 9 ready, 6 ready with changes, 11 blocked"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
}

package check

import (
	"fmt"

	"github.com/sextantdev/sextant/graph"
)

// SeverityCounts counts findings by severity. Its JSON form is
// {"error": N, "warning": N, "info": N}.
type SeverityCounts struct {
	// Error counts the findings of severity error or above.
	Error int `json:"error"`
	// Warning counts the warnings.
	Warning int `json:"warning"`
	// Info counts the rest.
	Info int `json:"info"`
}

// CountSeverities counts fs by severity. The sextant command counts its
// findings with it.
func CountSeverities(fs []Finding) SeverityCounts {
	var s SeverityCounts
	for _, f := range fs {
		switch {
		case f.Severity >= graph.SeverityError:
			s.Error++
		case f.Severity == graph.SeverityWarning:
			s.Warning++
		default:
			s.Info++
		}
	}
	return s
}

// CatalogReports is a Report split by catalog, as `sextant check` prints
// it. Its JSON form is {"catalogs": [CatalogReport...]}.
type CatalogReports struct {
	// Catalogs holds one report per input, in input order.
	Catalogs []CatalogReport `json:"catalogs"`
}

// CatalogReport is what was found in one catalog. Its JSON form is
//
//	{"path": "...", "packages": N, "channels": N, "bundles": N,
//	 "findings": [Finding...], "summary": {"error": N, "warning": N, "info": N},
//	 "counts": [{"code": "...", "severity": "...", "count": N}],
//	 "groups": [Group...],
//	 "baseline": {...}, "resolved": [Finding...], "suppressed": [Finding...],
//	 "crds": CRDSummary}
//
// where findings and counts are never null, and groups, baseline, resolved,
// suppressed and crds are left out when empty. Findings are listed one by one
// whether or not they are in a group; a group's "findings" index them.
type CatalogReport struct {
	// Path is the catalog's Input.Name.
	Path string `json:"path"`
	// Packages, Channels and Bundles count what the catalog holds.
	Packages int `json:"packages"`
	Channels int `json:"channels"`
	Bundles  int `json:"bundles"`
	// Findings are the catalog's findings in report order (by package,
	// channel, bundle, code).
	Findings []Finding `json:"findings"`
	// Summary counts Findings by severity.
	Summary SeverityCounts `json:"summary"`
	// Counts holds one entry per code found, sorted by code.
	Counts []CodeCount `json:"counts"`
	// Groups are the causes found on several bundles (GroupFindings of
	// Findings): their Findings index Findings.
	Groups []Group `json:"groups,omitempty"`
	// Baseline compares the catalog with its baseline; nil without one.
	Baseline *BaselineSummary `json:"baseline,omitempty"`
	// Resolved lists the baseline's findings the catalog no longer has.
	Resolved []Finding `json:"resolved,omitempty"`
	// Suppressed lists the findings the suppressions accept, each with its
	// Suppression.
	Suppressed []Finding `json:"suppressed,omitempty"`
	// CRDs counts what the CRDs check compared (CatalogSummary.CRDs).
	CRDs *CRDSummary `json:"crds,omitempty"`
}

// ByCatalog splits the report by catalog, in input order. It returns an
// error when the findings are not in report order (sorted by catalog in
// input order), which a Report from Run always is.
func (r *Report) ByCatalog() (*CatalogReports, error) {
	out := &CatalogReports{Catalogs: make([]CatalogReport, len(r.Catalogs))}
	fs := r.Findings
	for i, sum := range r.Catalogs {
		n := 0
		for n < len(fs) && fs[n].Catalog == sum.Name {
			n++
		}
		c := CatalogReport{
			Path:     sum.Name,
			Packages: sum.Packages,
			Channels: sum.Channels,
			Bundles:  sum.Bundles,
			Findings: fs[:n:n],
			Summary:  CountSeverities(fs[:n]),
			Counts:   sum.Counts,
			Baseline: sum.Baseline,
			Groups:   GroupFindings(fs[:n]),
			CRDs:     sum.CRDs,
		}
		if c.Findings == nil {
			c.Findings = []Finding{}
		}
		if c.Counts == nil {
			c.Counts = []CodeCount{}
		}
		for _, f := range r.Resolved {
			if f.Catalog == sum.Name {
				c.Resolved = append(c.Resolved, f)
			}
		}
		for _, f := range r.Suppressed {
			if f.Catalog == sum.Name {
				c.Suppressed = append(c.Suppressed, f)
			}
		}
		out.Catalogs[i] = c
		fs = fs[n:]
	}
	if len(fs) > 0 {
		return nil, fmt.Errorf("check: %d findings of catalog %q out of report order", len(fs), fs[0].Catalog)
	}
	return out, nil
}

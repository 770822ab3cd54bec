package olmv1

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
)

// The reasons of the predictions of operator-controller's install checks
// (its registry+v1 manifest provider and bundle renderer), in the order it
// makes them: it reports the first that fails.
const (
	// ReasonAPIServices: the bundle owns API services (an aggregated API
	// server), which OLM v1 does not install.
	ReasonAPIServices PredictionReason = "APIServices"
	// ReasonWebhooks: the bundle defines webhooks and operator-controller
	// runs with no certificate provider to serve them.
	ReasonWebhooks PredictionReason = "Webhooks"
	// ReasonConfiguration: spec.config.inline does not fit the schema
	// operator-controller derives from the bundle's install modes.
	ReasonConfiguration PredictionReason = "Configuration"
	// ReasonBundleValidation: the bundle's manifests fail one of the checks
	// operator-controller's renderer makes (webhooks, deployments, CRDs).
	ReasonBundleValidation PredictionReason = "BundleValidation"
)

// modeSet is a bundle's install modes as operator-controller reads them:
// a mode is supported when any entry lists it as supported.
type modeSet map[graph.InstallModeType]bool

func v1Modes(list []graph.InstallMode) modeSet {
	s := modeSet{}
	for _, m := range list {
		if m.Supported {
			s[m.Type] = true
		}
	}
	return s
}

// String lists the supported modes sorted, as operator-controller prints a
// set of them: [AllNamespaces OwnNamespace].
func (s modeSet) String() string {
	names := make([]string, 0, len(s))
	for t := range s {
		names = append(names, string(t))
	}
	slices.Sort(names)
	return "[" + strings.Join(names, " ") + "]"
}

// words names the supported modes for Sextant's messages.
func (s modeSet) words() string {
	if len(s) == 0 {
		return "no install mode"
	}
	return s.String()
}

// installFacts are what operator-controller's install checks read of a
// bundle: its CSV manifest when the catalog carries it (olm.bundle.object),
// else what olm.csv.metadata records of the CSV.
type installFacts struct {
	modes      modeSet
	modesKnown bool
	ownedAPIs  []graph.APIServiceDescription
	csv        *graph.CSVManifest // nil: webhooks, deployments and owned CRDs are not known
	crds       []string           // the names of the bundle's CRD manifests (with csv)
	others     []graph.ObjectRef  // its manifests that are neither a CSV nor a CRD (with csv)
	manErr     error              // why some olm.bundle.object did not decode
}

// readInstallFacts reads b's install facts from its CSV record; what the
// catalog does not record stays unknown.
func readInstallFacts(b *graph.Bundle) installFacts {
	rec, err := b.CSVRecord()
	f := installFacts{manErr: err, modesKnown: rec.ModesKnown, ownedAPIs: rec.OwnedAPIServices}
	if rec.ModesKnown {
		f.modes = v1Modes(rec.InstallModes)
	}
	if !rec.FromManifest {
		return f
	}
	f.csv = rec.Manifests.CSV
	for _, o := range rec.Manifests.Objects {
		switch o.Kind {
		case cluster.KindCRD:
			f.crds = append(f.crds, o.Name)
		case cluster.KindCSV:
		default:
			f.others = append(f.others, o)
		}
	}
	return f
}

// installRefusal returns the prediction of operator-controller's refusal
// to install b (whose recorded version is version) for ext, or nil when
// its checks pass on what the catalog records. Its checks run in this
// order, and operator-controller reports the first that fails: owned API
// services, webhooks without a certificate provider, install modes,
// spec.config.inline against the bundle's configuration schema, the
// renderer's checks of the manifests.
func (r *Resolver) installRefusal(ext *cluster.ClusterExtension, b *graph.Bundle, version string) *Prediction {
	f := readInstallFacts(b)
	if f.manErr != nil {
		return &Prediction{Reason: ReasonBundleValidation, Severity: SeverityWarning, Bundle: b.Name,
			Message: fmt.Sprintf("the bundle's manifests (olm.bundle.object) do not decode, so its install checks are not predicted: %v", f.manErr)}
	}
	p := &Prediction{Severity: SeverityFailure, Bundle: b.Name}
	refuse := func(reason PredictionReason, v1 string, format string, args ...any) *Prediction {
		p.Reason = reason
		p.V1Message = fmt.Sprintf("error for resolved bundle %q with version %q: %s", b.Name, version, v1)
		p.Message = fmt.Sprintf(format, args...)
		return p
	}
	if len(f.ownedAPIs) > 0 {
		return refuse(ReasonAPIServices, "unsupported bundle: apiServiceDefintions are not supported",
			"the bundle owns API service(s) %s: OLM v1 installs no aggregated API server", apiServiceWords(f.ownedAPIs))
	}
	if f.csv != nil && len(f.csv.Webhooks) > 0 && r.opts.NoWebhookProvider {
		return refuse(ReasonWebhooks, "unsupported bundle: webhookDefinitions are not supported",
			"the bundle defines %d webhook(s) and operator-controller runs with no certificate provider (WebhookProviderCertManager and WebhookProviderOpenshiftServiceCA both off)", len(f.csv.Webhooks))
	}
	if !f.modesKnown {
		return nil
	}
	all, own, single := f.modes[graph.InstallModeAllNamespaces], f.modes[graph.InstallModeOwnNamespace], f.modes[graph.InstallModeSingleNamespace]
	if !r.opts.SingleOwnNamespace && !all {
		return refuse(ReasonInstallMode, "unsupported bundle: bundle does not support AllNamespaces install mode",
			"the bundle supports %s, not AllNamespaces, and operator-controller runs without its SingleOwnNamespaceInstallSupport feature gate (off by default)", f.modes.words())
	}
	if !all && !own && !single {
		return refuse(ReasonInstallMode, "unsupported bundle: bundle must support at least one of [AllNamespaces SingleNamespace OwnNamespace] install modes",
			"the bundle supports %s: OLM v1 installs for all namespaces, one namespace or its own, never for several", f.modes.words())
	}
	if r.opts.SingleOwnNamespace || ext.Config != nil {
		if msg, why := configRefusal(ext, f.modes); msg != "" {
			return refuse(ReasonConfiguration, "invalid ClusterExtension configuration: invalid configuration: "+msg, "%s", why)
		}
	}
	if f.csv != nil {
		if errs := renderChecks(f.csv, f.crds, f.others, f.modes); len(errs) > 0 {
			return refuse(ReasonBundleValidation, errors.Join(errs...).Error(),
				"the bundle's manifests fail %d of the checks operator-controller makes before it renders them", len(errs))
		}
	}
	return nil
}

// apiServiceWords names API services: "v1beta1.metrics.k8s.io (metrics.k8s.io/v1beta1 NodeMetrics), …".
func apiServiceWords(list []graph.APIServiceDescription) string {
	parts := make([]string, len(list))
	for i, d := range list {
		parts[i] = fmt.Sprintf("%s (%s)", d.Name, d.GVK())
	}
	return strings.Join(parts, ", ")
}

// namespacePattern is the pattern operator-controller's configuration
// schema gives watchNamespace.
var namespacePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`) })

// configRefusal checks spec.config.inline (ext.Config, "{}" when absent)
// against the configuration schema operator-controller derives from the
// bundle's install modes, as its JSON schema validator reports it: v1's
// message ("" when the configuration is valid) and Sextant's words.
//
// The schema: watchNamespace is no field at all when the bundle supports
// neither OwnNamespace nor SingleNamespace; it is required when the bundle
// lacks AllNamespaces, and may be null otherwise; a namespace name (1 to
// 63 characters, DNS-1123 label), the install namespace itself when the
// bundle supports OwnNamespace and not SingleNamespace, another one when it
// supports SingleNamespace and not OwnNamespace. deploymentConfig is not
// accepted (operator-controller's DeploymentConfig feature gate is off by
// default), nor any other field. Of several unknown fields v1 names one at
// random (its map order); Sextant names the first by name.
func configRefusal(ext *cluster.ClusterExtension, modes modeSet) (msg, why string) {
	cfg := map[string]json.RawMessage{}
	if ext.Config != nil {
		if err := json.Unmarshal(ext.Config, &cfg); err != nil {
			return "", ""
		}
	}
	all, own, single := modes[graph.InstallModeAllNamespaces], modes[graph.InstallModeOwnNamespace], modes[graph.InstallModeSingleNamespace]
	configurable := own || single
	var errs []string
	raw, present := cfg["watchNamespace"]
	isNull := present && string(raw) == "null"
	switch {
	case !configurable:
	case !all && (!present || isNull):
		errs = append(errs, `required field "watchNamespace" is missing`)
		why = fmt.Sprintf("the bundle supports %s, not AllNamespaces: spec.config.inline.watchNamespace must name the namespace it watches", modes)
	case !all:
		errs = watchNamespaceErrors(raw, ext.Namespace, own, single)
	case present && !isNull:
		if se := watchNamespaceErrors(raw, ext.Namespace, own, single); len(se) > 0 {
			errs = append(errs, `invalid value for field "watchNamespace"`,
				fmt.Sprintf(`invalid type for field "watchNamespace": got %s, want null`, schemaKind(raw)))
			if len(se) > 1 {
				errs = append(errs, "validation failed")
			}
			errs = append(errs, se...)
		}
	}
	if len(errs) > 0 && why == "" {
		why = watchNamespaceWords(raw, ext.Namespace, modes, own, single)
	}
	var unknown []string
	for k := range cfg {
		if k != "watchNamespace" || !configurable {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		errs = append(errs, fmt.Sprintf("unknown field %q", unknown[0]))
		w := fmt.Sprintf("spec.config.inline has field(s) %s that the bundle's configuration does not have", strings.Join(unknown, ", "))
		if !configurable && slices.Contains(unknown, "watchNamespace") {
			w = fmt.Sprintf("the bundle supports %s, neither OwnNamespace nor SingleNamespace: it has no watchNamespace to configure, and spec.config.inline has field(s) %s", modes, strings.Join(unknown, ", "))
		}
		if len(unknown) > 1 {
			w += " (operator-controller names one of them, at random)"
		}
		why = strings.TrimPrefix(why+"; "+w, "; ")
	}
	switch len(errs) {
	case 0:
		return "", ""
	case 1:
		return errs[0], why
	}
	return "multiple errors found:\n  - " + strings.Join(errs, "\n  - "), why
}

// watchNamespaceErrors checks a watchNamespace value that is present
// against its schema: a string, then the install-mode format (which alone
// is reported when it fails), then its length and pattern.
func watchNamespaceErrors(raw json.RawMessage, installNS string, own, single bool) []string {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return []string{fmt.Sprintf(`invalid type for field "watchNamespace": got %s, want string`, schemaKind(raw))}
	}
	switch {
	case own && !single && s != installNS:
		return []string{fmt.Sprintf(`invalid format for field "watchNamespace": %s is not valid ownNamespaceInstallMode: invalid value %q: must be %q (the namespace where the operator is installed) because this operator only supports OwnNamespace install mode`, schemaQuote(s), s, installNS)}
	case single && !own && s == installNS:
		return []string{fmt.Sprintf(`invalid format for field "watchNamespace": %s is not valid singleNamespaceInstallMode: invalid value %q: must be different from %q (the install namespace) because this operator uses SingleNamespace install mode to watch a different namespace`, schemaQuote(s), s, installNS)}
	}
	var errs []string
	if n := utf8.RuneCountInString(s); n < 1 {
		errs = append(errs, fmt.Sprintf(`field "watchNamespace" must have minimum length of 1 (len=%d)`, n))
	} else if n > 63 {
		errs = append(errs, fmt.Sprintf(`field "watchNamespace" must have maximum length of 63 (len=%d)`, n))
	}
	if !namespacePattern().MatchString(s) {
		errs = append(errs, fmt.Sprintf(`field "watchNamespace" must match pattern %q`, namespacePattern().String()))
	}
	return errs
}

// watchNamespaceWords says in Sextant's words why a watchNamespace does not
// fit the bundle.
func watchNamespaceWords(raw json.RawMessage, installNS string, modes modeSet, own, single bool) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "spec.config.inline.watchNamespace is not a string"
	}
	switch {
	case own && !single && s != installNS:
		return fmt.Sprintf("watchNamespace %q is not the install namespace %q, and the bundle supports %s: OwnNamespace, not SingleNamespace", s, installNS, modes)
	case single && !own && s == installNS:
		return fmt.Sprintf("watchNamespace %q is the install namespace, and the bundle supports %s: SingleNamespace, not OwnNamespace", s, modes)
	}
	return fmt.Sprintf("watchNamespace %q is not a namespace name (1 to 63 lower case letters, digits and '-')", s)
}

// schemaKind names the JSON type of a value as the schema validator does.
func schemaKind(raw json.RawMessage) string {
	switch c := strings.TrimSpace(string(raw)); {
	case c == "null":
		return "null"
	case c == "true" || c == "false":
		return "boolean"
	case strings.HasPrefix(c, `"`):
		return "string"
	case strings.HasPrefix(c, "["):
		return "array"
	case strings.HasPrefix(c, "{"):
		return "object"
	}
	return "number"
}

// schemaQuote quotes a string as the schema validator's messages do:
// Go's quoting, with double quotes left bare and single quotes escaped,
// between single quotes.
func schemaQuote(s string) string {
	q := strconv.Quote(s)
	q = strings.ReplaceAll(q, `\"`, `"`)
	q = strings.ReplaceAll(q, `'`, `\'`)
	return "'" + q[1:len(q)-1] + "'"
}

package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/sextantdev/sextant/internal/fastyaml"
)

// TypeBundleObject is the property type that carries one manifest of the
// bundle (its "data", base64: a YAML or JSON object). Older opm versions
// wrote one for each manifest of a bundle image, the ClusterServiceVersion
// among them; newer ones write olm.csv.metadata instead.
const TypeBundleObject = "olm.bundle.object"

// WebhookType is the type of a CSV's webhook definition.
type WebhookType string

// The webhook types of a CSV's spec.webhookdefinitions.
const (
	WebhookValidating WebhookType = "ValidatingAdmissionWebhook"
	WebhookMutating   WebhookType = "MutatingAdmissionWebhook"
	WebhookConversion WebhookType = "ConversionWebhook"
)

// WebhookRule is the part of an admission webhook's rule that OLM checks:
// the API groups and resources it intercepts.
type WebhookRule struct {
	APIGroups []string `json:"apiGroups,omitempty"`
	Resources []string `json:"resources,omitempty"`
}

// WebhookDefinition is one of a CSV's spec.webhookdefinitions.
type WebhookDefinition struct {
	Type           WebhookType `json:"type"`
	GenerateName   string      `json:"generateName"`
	DeploymentName string      `json:"deploymentName,omitempty"`
	// ConversionCRDs are the CRDs a conversion webhook converts.
	ConversionCRDs []string      `json:"conversionCRDs,omitempty"`
	Rules          []WebhookRule `json:"rules,omitempty"`
}

// CSVManifest is what Sextant reads of a bundle's ClusterServiceVersion
// manifest itself (an olm.bundle.object property, or the manifest of a
// bundle folder or image, package registryv1): the parts OLM v1 checks
// before it installs a bundle, and what the operator is granted.
type CSVManifest struct {
	Name string `json:"name"`
	// Version is spec.version as written.
	Version string `json:"version,omitempty"`
	// InstallModes in the order the CSV lists them.
	InstallModes          []InstallMode         `json:"installModes,omitempty"`
	APIServiceDefinitions APIServiceDefinitions `json:"apiServiceDefinitions"`
	Webhooks              []WebhookDefinition   `json:"webhooks,omitempty"`
	// Deployments names the deployments of spec.install.spec.deployments,
	// in order.
	Deployments []string `json:"deployments,omitempty"`
	// OwnedCRDs names the CRDs of spec.customresourcedefinitions.owned, in
	// order.
	OwnedCRDs []string `json:"ownedCRDs,omitempty"`
	// Permissions and ClusterPermissions are spec.install.spec's
	// permissions (in the operator's namespace) and clusterPermissions,
	// in order: the rules each of the operator's service accounts is
	// granted.
	Permissions        []StrategyPermissions `json:"permissions,omitempty"`
	ClusterPermissions []StrategyPermissions `json:"clusterPermissions,omitempty"`
}

// StrategyPermissions are the rules a CSV grants one service account of
// the operator (an entry of spec.install.spec.permissions or
// clusterPermissions).
type StrategyPermissions struct {
	ServiceAccountName string       `json:"serviceAccountName"`
	Rules              []PolicyRule `json:"rules"`
}

// PolicyRule is a Kubernetes RBAC rule (rbac.authorization.k8s.io/v1
// PolicyRule).
type PolicyRule struct {
	Verbs           []string `json:"verbs"`
	APIGroups       []string `json:"apiGroups,omitempty"`
	Resources       []string `json:"resources,omitempty"`
	ResourceNames   []string `json:"resourceNames,omitempty"`
	NonResourceURLs []string `json:"nonResourceURLs,omitempty"`
}

// ObjectRef names one manifest of a bundle.
type ObjectRef struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
}

// BundleManifests are the manifests a bundle carries in its olm.bundle.object
// properties.
type BundleManifests struct {
	// Objects names every manifest, in property order.
	Objects []ObjectRef
	// CSV is the first ClusterServiceVersion among them; nil when there is
	// none.
	CSV *CSVManifest
}

// objectHeader is what Manifests reads of every manifest.
type objectHeader struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name string `json:"name"`
	} `json:"metadata"`
}

// csvDocument is the part of a ClusterServiceVersion manifest that
// CSVManifest keeps.
type csvDocument struct {
	Metadata struct {
		Name string `json:"name"`
	} `json:"metadata"`
	Spec *struct {
		Version               string                `json:"version"`
		InstallModes          []InstallMode         `json:"installModes"`
		APIServiceDefinitions APIServiceDefinitions `json:"apiservicedefinitions"`
		WebhookDefinitions    []WebhookDefinition   `json:"webhookdefinitions"`
		Install               struct {
			Spec struct {
				Deployments []struct {
					Name string `json:"name"`
				} `json:"deployments"`
				Permissions        []StrategyPermissions `json:"permissions"`
				ClusterPermissions []StrategyPermissions `json:"clusterPermissions"`
			} `json:"spec"`
		} `json:"install"`
		CustomResourceDefinitions struct {
			Owned []struct {
				Name string `json:"name"`
			} `json:"owned"`
		} `json:"customresourcedefinitions"`
	} `json:"spec"`
}

// Manifests decodes the bundle's olm.bundle.object properties, afresh on
// each call (they hold whole manifests); the result belongs to the caller.
// It is nil when the bundle has no such property. A property that does not
// decode is reported ("property 3 (olm.bundle.object): ...", every one,
// joined) and the others are still read.
func (b *Bundle) Manifests() (*BundleManifests, error) {
	var m *BundleManifests
	var errs []error
	for i, p := range b.Properties {
		if p.Type != TypeBundleObject {
			continue
		}
		if m == nil {
			m = new(BundleManifests)
		}
		if err := m.add(p.Value); err != nil {
			errs = append(errs, fmt.Errorf("property %d (%s): %w", i, TypeBundleObject, err))
		}
	}
	return m, errors.Join(errs...)
}

// add decodes one olm.bundle.object value.
func (m *BundleManifests) add(v []byte) error {
	var obj struct {
		Data []byte `json:"data"`
	}
	if err := json.Unmarshal(v, &obj); err != nil {
		return fmt.Errorf("value: %w", err)
	}
	doc := bytes.TrimSpace(obj.Data)
	if len(doc) == 0 || doc[0] != '{' {
		j, err := fastyaml.ToJSON(doc)
		if err != nil {
			return fmt.Errorf("data: %w", err)
		}
		doc = j
	}
	var h objectHeader
	if err := json.Unmarshal(doc, &h); err != nil {
		return fmt.Errorf("data: %w", err)
	}
	m.Objects = append(m.Objects, ObjectRef{APIVersion: h.APIVersion, Kind: h.Kind, Name: h.Metadata.Name})
	if h.Kind != "ClusterServiceVersion" || m.CSV != nil {
		return nil
	}
	c, err := DecodeCSVManifest(doc)
	if err != nil {
		return fmt.Errorf("ClusterServiceVersion %q: %w", h.Metadata.Name, err)
	}
	m.CSV = c
	return nil
}

// DecodeCSVManifest reads a ClusterServiceVersion manifest, as JSON text,
// into a CSVManifest: the manifest's other fields are not read. A field
// of the wrong type is an error naming it ("field
// spec.installModes.supported: is a string, want a boolean"); the
// manifest is not read then.
func DecodeCSVManifest(doc []byte) (*CSVManifest, error) {
	var h csvDocument
	if err := json.Unmarshal(doc, &h); err != nil {
		return nil, fieldError(err)
	}
	c := &CSVManifest{Name: h.Metadata.Name}
	if sp := h.Spec; sp != nil {
		c.Version = sp.Version
		c.InstallModes = sp.InstallModes
		c.APIServiceDefinitions = sp.APIServiceDefinitions
		c.Webhooks = sp.WebhookDefinitions
		for _, dep := range sp.Install.Spec.Deployments {
			c.Deployments = append(c.Deployments, dep.Name)
		}
		for _, crd := range sp.CustomResourceDefinitions.Owned {
			c.OwnedCRDs = append(c.OwnedCRDs, crd.Name)
		}
		c.Permissions = sp.Install.Spec.Permissions
		c.ClusterPermissions = sp.Install.Spec.ClusterPermissions
	}
	return c, nil
}

// fieldError says which field of a manifest has the wrong type, in the
// words of the other readers, for an error of encoding/json.
func fieldError(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field == "" {
		return err
	}
	want := "a " + te.Type.Kind().String()
	switch te.Type.Kind() {
	case reflect.Slice:
		want = "a list"
	case reflect.Struct, reflect.Map:
		want = "an object"
	case reflect.Bool:
		want = "a boolean"
	case reflect.Int, reflect.Int64, reflect.Float64:
		want = "a number"
	}
	is := te.Value
	switch is {
	case "array":
		is = "a list"
	case "object":
		is = "an object"
	case "bool":
		is = "a boolean"
	default:
		if strings.HasPrefix(is, "number") {
			is = "a number"
		} else {
			is = "a " + is
		}
	}
	return fmt.Errorf("field %s: is %s, want %s", te.Field, is, want)
}

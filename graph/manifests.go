package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

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
// manifest itself (an olm.bundle.object property): the parts OLM v1 checks
// before it installs a bundle.
type CSVManifest struct {
	Name string `json:"name"`
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
// CSVManifest keeps besides its name (objectHeader's).
type csvDocument struct {
	Spec *struct {
		InstallModes          []InstallMode         `json:"installModes"`
		APIServiceDefinitions APIServiceDefinitions `json:"apiservicedefinitions"`
		WebhookDefinitions    []WebhookDefinition   `json:"webhookdefinitions"`
		Install               struct {
			Spec struct {
				Deployments []struct {
					Name string `json:"name"`
				} `json:"deployments"`
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
	var d csvDocument
	if err := json.Unmarshal(doc, &d); err != nil {
		return fmt.Errorf("ClusterServiceVersion %q: %w", h.Metadata.Name, err)
	}
	c := &CSVManifest{Name: h.Metadata.Name}
	if sp := d.Spec; sp != nil {
		c.InstallModes = sp.InstallModes
		c.APIServiceDefinitions = sp.APIServiceDefinitions
		c.Webhooks = sp.WebhookDefinitions
		for _, dep := range sp.Install.Spec.Deployments {
			c.Deployments = append(c.Deployments, dep.Name)
		}
		for _, crd := range sp.CustomResourceDefinitions.Owned {
			c.OwnedCRDs = append(c.OwnedCRDs, crd.Name)
		}
	}
	m.CSV = c
	return nil
}

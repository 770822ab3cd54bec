package graph

import (
	"fmt"

	"github.com/sextantdev/sextant/graph/internal/jsonscan"
)

// APIServiceDescription is one API service of a CSV's
// spec.apiservicedefinitions: an API served by an aggregated API server
// (an APIService) rather than a CRD.
type APIServiceDescription struct {
	Name           string `json:"name"`
	Group          string `json:"group"`
	Version        string `json:"version"`
	Kind           string `json:"kind"`
	DeploymentName string `json:"deploymentName,omitempty"`
}

// GVK returns the API's group, version and kind.
func (d APIServiceDescription) GVK() GVK {
	return GVK{Group: d.Group, Version: d.Version, Kind: d.Kind}
}

// APIServiceDefinitions is a CSV's spec.apiservicedefinitions (olm.csv.metadata
// copies it as apiServiceDefinitions): the API services the operator serves
// itself (Owned) and those it needs from others (Required), each in the
// order written.
type APIServiceDefinitions struct {
	Owned    []APIServiceDescription `json:"owned,omitempty"`
	Required []APIServiceDescription `json:"required,omitempty"`
}

// scanAPIServiceDefinitions reads an {owned, required} object (null: none);
// on an error, what could be read.
func scanAPIServiceDefinitions(s *jsonscan.Scanner, in *interner) (d *APIServiceDefinitions, err error) {
	d = new(APIServiceDefinitions)
	err = scanObject(s, func(key []byte) (err error) {
		switch string(key) {
		case "owned":
			d.Owned, err = scanAPIServiceDescriptions(s, in)
		case "required":
			d.Required, err = scanAPIServiceDescriptions(s, in)
		default:
			return s.Skip()
		}
		if err != nil {
			err = fmt.Errorf("field %q: %w", key, err)
		}
		return err
	})
	return d, err
}

// scanAPIServiceDescriptions reads an array of API service descriptions;
// on an error, the elements up to and including the faulty one.
func scanAPIServiceDescriptions(s *jsonscan.Scanner, in *interner) ([]APIServiceDescription, error) {
	return scanList(s, func() (APIServiceDescription, error) {
		var f [5]string
		err := scanStringFields(s, in, f[:], "name", "group", "version", "kind", "deploymentName")
		return APIServiceDescription{Name: f[0], Group: f[1], Version: f[2], Kind: f[3], DeploymentName: f[4]}, err
	})
}

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
func scanAPIServiceDescriptions(s *jsonscan.Scanner, in *interner) (list []APIServiceDescription, err error) {
	err = scanArray(s, func(i int) error {
		var d APIServiceDescription
		err := scanObject(s, func(key []byte) error {
			var p *string
			switch string(key) {
			case "name":
				p = &d.Name
			case "group":
				p = &d.Group
			case "version":
				p = &d.Version
			case "kind":
				p = &d.Kind
			case "deploymentName":
				p = &d.DeploymentName
			default:
				return s.Skip()
			}
			v, err := scanString(s, in)
			*p = v
			if err != nil {
				return fmt.Errorf("field %q: %w", key, err)
			}
			return nil
		})
		list = append(list, d)
		if err != nil {
			return fmt.Errorf("element %d: %w", i, err)
		}
		return nil
	})
	return list, err
}

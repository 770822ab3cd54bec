package sextant

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/internal/fileerr"
)

// ApplicationConflictError is an OLM object both in the application's
// manifests (Input.For) and in the cluster state.
type ApplicationConflictError struct {
	Object cluster.Ref
}

func (e *ApplicationConflictError) Error() string {
	return fmt.Sprintf("%s %q is in the application and in the cluster state", e.Object.Kind, e.Object.Namespace+"/"+e.Object.Name)
}

// EmptyApplicationError is an application (Input.For) without any object.
type EmptyApplicationError struct {
	Files []string
}

func (e *EmptyApplicationError) Error() string {
	return fmt.Sprintf("the application has no object (%s)", strings.Join(e.Files, ", "))
}

// readApplication reads the objects of the application's files, and
// their OLM objects (OperatorGroups, Subscriptions, …) as cluster state.
func (l *loader) readApplication(files []File) ([]cluster.Object, *cluster.State, error) {
	ins, err := l.listManifests(files)
	if err != nil {
		return nil, nil, err
	}
	var objs []cluster.Object
	state := &cluster.State{}
	var errs []error
	for _, in := range ins {
		o, err := l.decodeObjects(in)
		if err != nil {
			errs = appendErrors(errs, fileerr.Name(err, in.name))
			continue
		}
		objs = append(objs, o...)
		s, err := l.decodeManifests(in)
		if err != nil {
			errs = appendErrors(errs, fileerr.Name(err, in.name))
			continue
		}
		state.CSVs = append(state.CSVs, s.CSVs...)
		state.Subscriptions = append(state.Subscriptions, s.Subscriptions...)
		state.CatalogSources = append(state.CatalogSources, s.CatalogSources...)
		state.OperatorGroups = append(state.OperatorGroups, s.OperatorGroups...)
		state.InstallPlans = append(state.InstallPlans, s.InstallPlans...)
	}
	if len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	if len(objs) == 0 {
		e := &EmptyApplicationError{}
		for _, f := range files {
			e.Files = append(e.Files, f.name())
		}
		return nil, nil, e
	}
	return objs, state, nil
}

// mergeApplication adds the application's OLM objects to the cluster
// state; an object in both is an error.
func mergeApplication(dst, app *cluster.State) error {
	var errs []error
	// Not app.Ignored: the application's own kinds are what For reads.
	for _, r := range dst.Merge(&cluster.State{CSVs: app.CSVs, Subscriptions: app.Subscriptions, CatalogSources: app.CatalogSources, OperatorGroups: app.OperatorGroups, InstallPlans: app.InstallPlans}) {
		errs = append(errs, &ApplicationConflictError{Object: r})
	}
	dst.Sort()
	return errors.Join(errs...)
}

// appNamespace returns the namespace the application's objects share, or
// "" when none has one; several are a *NamespaceError.
func appNamespace(objs []cluster.Object) (string, error) {
	var nss []string
	for _, o := range objs {
		if o.Namespace != "" {
			nss = append(nss, o.Namespace)
		}
	}
	slices.Sort(nss)
	nss = slices.Compact(nss)
	if len(nss) > 1 {
		return "", &NamespaceError{Namespaces: nss, What: "application's objects"}
	}
	if len(nss) == 1 {
		return nss[0], nil
	}
	return "", nil
}

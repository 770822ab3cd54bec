package cluster

import (
	_ "embed"
	"fmt"
	"slices"
)

// KindClusterVersion is the kind of OpenShift's ClusterVersion
// (config.openshift.io/v1): the cluster's version, which the Cluster
// Version Operator reports and updates.
const KindClusterVersion = "ClusterVersion"

// APIGroupOpenShiftConfig is the API group of OpenShift's configuration
// kinds. Decode reads its ClusterVersion (version v1); its other kinds are
// noted as ignored.
const APIGroupOpenShiftConfig = "config.openshift.io"

// The states of an entry of a ClusterVersion's status.history.
const (
	// UpdateCompleted: every component of the release was rolled out.
	UpdateCompleted UpdateState = "Completed"
	// UpdatePartial: the update to this version has not finished (it is
	// in progress, or was abandoned for a later one).
	UpdatePartial UpdateState = "Partial"
)

// UpdateState is the state of an entry of a ClusterVersion's
// status.history: [UpdateCompleted] or [UpdatePartial].
type UpdateState string

// ClusterVersion is OpenShift's ClusterVersion (config.openshift.io/v1),
// cluster-scoped; a cluster has one, named "version". It says which
// release the cluster runs and which it is updating to. The zero value
// names no version.
type ClusterVersion struct {
	Name string `json:"name"`
	// ClusterID is spec.clusterID, which the API server requires.
	ClusterID string `json:"clusterID"`
	// Channel is spec.channel, the update channel ("stable-4.16",
	// "eus-4.16", …; "" when absent).
	Channel string `json:"channel,omitempty"`
	// DesiredUpdate is spec.desiredUpdate.version: the release an admin
	// asked to update to ("" when absent).
	DesiredUpdate string `json:"desiredUpdate,omitempty"`
	// Desired is status.desired.version: the release the Cluster Version
	// Operator is reconciling the cluster to — the cluster's version once
	// the update to it completes ("" when absent).
	Desired string `json:"desired,omitempty"`
	// History is status.history in the order written, newest first.
	History []UpdateHistory `json:"history,omitempty"`
}

// UpdateHistory is an entry of a ClusterVersion's status.history.
type UpdateHistory struct {
	State   UpdateState `json:"state"`
	Version string      `json:"version"`
}

// Updating reports whether the newest entry of the history is Partial: an
// update to it has started and not completed.
func (v *ClusterVersion) Updating() bool {
	return len(v.History) > 0 && v.History[0].State == UpdatePartial
}

// ClusterVersion returns the ClusterVersion named name, or nil. The result
// points into s.
func (s *State) ClusterVersion(name string) *ClusterVersion {
	return find(s.ClusterVersions, clusterVersionKey, "", name)
}

func clusterVersionKey(v ClusterVersion) (string, string) { return "", v.Name }

func cloneClusterVersion(v ClusterVersion) ClusterVersion {
	v.History = slices.Clone(v.History)
	return v
}

// schemaOpenShiftText is the field table of ClusterVersion, in the format
// of schemaText, written by internal/schemagen from openshift/api's CRD.
//
//go:embed schema_openshift.txt
var schemaOpenShiftText string

// clusterVersion reads a ClusterVersion, strictly: its fields checked
// against openshift/api's CRD (cluster/schema_openshift.txt), the fields
// it reads for their type.
func (d *decoder) clusterVersion(o *object, apiVersion string, m map[string]any, line int) {
	o.kind = KindClusterVersion
	want := APIGroupOpenShiftConfig + "/v1"
	if apiVersion != want {
		o.nameFrom(m)
		o.errorf("apiVersion", "ClusterVersion is %q, want %q (the only version the API server serves)", apiVersion, want)
		return
	}
	n := d.nerrs()
	meta, ok := o.obj(m, "metadata", "metadata")
	if !ok {
		if _, present := m["metadata"]; !present {
			o.errorf("metadata", "missing")
		}
		return
	}
	o.name, _ = o.str(meta, "name", "metadata.name")
	if o.name == "" {
		o.errorf("metadata.name", "missing")
	}
	if ns, _ := o.str(meta, "namespace", "metadata.namespace"); ns != "" {
		o.errorf("metadata.namespace", "%q: a ClusterVersion is cluster-scoped and has no namespace", ns)
	}
	if d.nerrs() > n || !d.define(o, objectKey{KindClusterVersion, "", o.name}, line) {
		return
	}
	o.checkSchema(APIGroupOpenShiftConfig, KindClusterVersion, m)
	v := ClusterVersion{Name: o.name}
	spec, _ := o.obj(m, "spec", "spec")
	status, _ := o.obj(m, "status", "status")
	if spec == nil {
		o.errorf("spec", "missing: the API server requires spec.clusterID")
	} else if v.ClusterID, _ = o.str(spec, "clusterID", "spec.clusterID"); v.ClusterID == "" {
		o.errorf("spec.clusterID", "missing: the API server requires it")
	}
	v.Channel, _ = o.str(spec, "channel", "spec.channel")
	if du, ok := o.obj(spec, "desiredUpdate", "spec.desiredUpdate"); ok {
		v.DesiredUpdate, _ = o.str(du, "version", "spec.desiredUpdate.version")
	}
	if desired, ok := o.obj(status, "desired", "status.desired"); ok {
		v.Desired, _ = o.str(desired, "version", "status.desired.version")
	}
	history, _ := o.arr(status, "history", "status.history")
	for i, raw := range history {
		field := fmt.Sprintf("status.history[%d]", i)
		h, ok := as[map[string]any](o, raw, field)
		if !ok {
			continue
		}
		var e UpdateHistory
		state, _ := o.str(h, "state", field+".state")
		e.Version, _ = o.str(h, "version", field+".version")
		switch e.State = UpdateState(state); e.State {
		case UpdateCompleted, UpdatePartial:
		default:
			o.errorf(field+".state", "%q, want Completed or Partial", state)
		}
		v.History = append(v.History, e)
	}
	if d.nerrs() == n {
		d.state.ClusterVersions = append(d.state.ClusterVersions, v)
	}
}

// clusterVersionManifest writes v as Decode reads it.
func clusterVersionManifest(v *ClusterVersion) map[string]any {
	m := map[string]any{
		"apiVersion": APIGroupOpenShiftConfig + "/v1",
		"kind":       KindClusterVersion,
		"metadata":   map[string]any{"name": v.Name},
	}
	spec := map[string]any{"clusterID": v.ClusterID}
	setNonEmpty(spec, "channel", v.Channel)
	if v.DesiredUpdate != "" {
		spec["desiredUpdate"] = map[string]any{"version": v.DesiredUpdate}
	}
	m["spec"] = spec
	status := map[string]any{}
	if v.Desired != "" {
		status["desired"] = map[string]any{"version": v.Desired}
	}
	if v.History != nil {
		history := make([]any, len(v.History))
		for i, h := range v.History {
			history[i] = map[string]any{"state": string(h.State), "version": h.Version}
		}
		status["history"] = history
	}
	if len(status) > 0 {
		m["status"] = status
	}
	return m
}

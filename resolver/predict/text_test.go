package predict_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/resolver/predict"
)

// TestPredictionString: a prediction as text is its reason and message,
// as OLM's status would read (the severity is said by where it is
// printed).
func TestPredictionString(t *testing.T) {
	p := predict.Prediction{Reason: predict.ReasonRequirementsNotMet, Severity: predict.SeverityFailure,
		Message: "minKubeVersion 1.99.0 is above the cluster's Kubernetes 1.30.0", OperatorGroup: "ns/og"}
	if got, want := p.String(), "RequirementsNotMet: minKubeVersion 1.99.0 is above the cluster's Kubernetes 1.30.0"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
}

// TestFailing: a warning alone is not failing; one failure among warnings
// is.
func TestFailing(t *testing.T) {
	warn := predict.Prediction{Reason: predict.ReasonMaxOpenShiftVersion, Severity: predict.SeverityWarning}
	fail := predict.Prediction{Reason: predict.ReasonUnsupportedOperatorGroup, Severity: predict.SeverityFailure}
	for _, tt := range []struct {
		ps   []predict.Prediction
		want bool
	}{
		{nil, false},
		{[]predict.Prediction{warn}, false},
		{[]predict.Prediction{warn, fail}, true},
	} {
		if got := predict.Failing(tt.ps); got != tt.want {
			t.Errorf("Failing(%v) = %v, want %v", tt.ps, got, tt.want)
		}
	}
}

// TestNoteText: a note is its text — as a string and in JSON, where it is
// a JSON string; read back, it has the text and no code.
func TestNoteText(t *testing.T) {
	n := predict.Note{Code: predict.NoteTargetsUnknown, Text: `OperatorGroup "og" selects its "targets" by label`}
	if got := n.String(); got != n.Text {
		t.Errorf("String = %q, want the text %q", got, n.Text)
	}
	b, err := json.Marshal([]predict.Note{n})
	if err != nil {
		t.Fatal(err)
	}
	if want := `["OperatorGroup \"og\" selects its \"targets\" by label"]`; string(b) != want {
		t.Errorf("JSON = %s, want %s", b, want)
	}
	var back []predict.Note
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back) != 1 || back[0] != (predict.Note{Text: n.Text}) {
		t.Errorf("read back %#v, want the text without a code", back)
	}
	if err := json.Unmarshal([]byte(`{"code":"x"}`), &back[0]); err == nil {
		t.Error("a note read from a JSON object: no error, want one (a note is a string)")
	}
}

// TestParsePlatform: both versions read; "" leaves one unknown; every
// version that does not parse is reported, naming which.
func TestParsePlatform(t *testing.T) {
	p, err := predict.ParsePlatform("v1.30.2", "4.16")
	if err != nil {
		t.Fatal(err)
	}
	if p.Kube == nil || p.Kube.String() != "1.30.2" || p.OpenShift == nil || p.OpenShift.String() != "4.16.0" {
		t.Errorf("ParsePlatform = %v, %v; want 1.30.2, 4.16.0", p.Kube, p.OpenShift)
	}
	p, err = predict.ParsePlatform("", "")
	if err != nil || p.Kube != nil || p.OpenShift != nil {
		t.Errorf("ParsePlatform(\"\", \"\") = %+v, %v; want nothing known, no error", p, err)
	}
	_, err = predict.ParsePlatform("one", "two")
	if err == nil {
		t.Fatal("ParsePlatform(one, two): no error")
	}
	for _, want := range []string{"kube version", `openshift version "two"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q (every bad version is reported)", err, want)
		}
	}
}

package cluster_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sextantdev/sextant/cluster"
)

// apiServerCase is one object of testdata/apiserver.jsonl with what the
// Kubernetes API server (apiextensions-apiserver v0.36.2, with the CRDs of
// operator-controller v1.11.0 and strict field validation, as `kubectl
// apply` asks) answers to its create: it takes it (ok), or it cannot decode
// it (unknown fields, or a metadata field of the wrong type: decode), or it
// refuses it as invalid (errors, one per problem, in its words). The cases
// were written by hand and picked from random objects so as to cover every
// kind of problem the API server finds; their answers were taken from the
// API server's own code.
type apiServerCase struct {
	Name       string          `json:"name"`
	FeatureSet string          `json:"featureSet"`
	Object     json.RawMessage `json:"object"`
	Want       struct {
		OK      bool     `json:"ok"`
		Unknown []string `json:"unknown"`
		Errors  []string `json:"errors"`
		Decode  string   `json:"decode"`
	} `json:"want"`
}

// TestAPIServerBoundary: Decode takes exactly the ClusterExtensions and
// ClusterCatalogs the API server takes, and refuses the others with the
// API server's problems, word for word (the unknown fields, the metadata
// the API server cannot decode, or every field error).
func TestAPIServerBoundary(t *testing.T) {
	f, err := os.Open("testdata/apiserver.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var c apiServerCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		n++
		t.Run(c.Name, func(t *testing.T) {
			l := cluster.Loader{V1FeatureSet: cluster.FeatureSet(c.FeatureSet)}
			_, err := l.Decode(context.Background(), strings.NewReader(string(c.Object)), "in.json")
			var unknown, errs, decode, other []string
			for _, e := range flatten(err) {
				var ue *cluster.UnknownFieldError
				var fe *cluster.FieldError
				var me *cluster.MetadataTypeError
				switch {
				case errors.As(e, &ue):
					unknown = append(unknown, ue.Field)
				case errors.As(e, &fe):
					errs = append(errs, fe.Error())
				case errors.As(e, &me):
					decode = append(decode, me.Error())
				default:
					other = append(other, e.Error())
				}
			}
			slices.Sort(unknown)
			slices.Sort(errs)
			switch {
			case len(other) > 0:
				t.Errorf("errors the API server does not give: %q", other)
			case c.Want.OK != (err == nil):
				t.Errorf("accepted = %v, the API server's = %v (%v)", err == nil, c.Want.OK, err)
			case len(c.Want.Unknown) > 0:
				if !slices.Equal(unknown, c.Want.Unknown) {
					t.Errorf("unknown fields %q, want %q", unknown, c.Want.Unknown)
				}
			case c.Want.Decode != "":
				if len(decode) != 1 || !strings.HasSuffix(c.Want.Decode, ": "+decode[0]) {
					t.Errorf("decode error %q, want the end of %q", decode, c.Want.Decode)
				}
			case !slices.Equal(errs, c.Want.Errors) || len(unknown) > 0:
				t.Errorf("errors\n%s\nwant\n%s", strings.Join(errs, "\n"), strings.Join(c.Want.Errors, "\n"))
			}
		})
	}
	if err := sc.Err(); err != nil || n < 200 {
		t.Fatalf("read %d cases: %v", n, err)
	}
}

// flatten returns the errors joined in err, one by one.
func flatten(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}

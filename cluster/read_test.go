package cluster_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/sextantdev/sextant/cluster"
	"github.com/sextantdev/sextant/graph"
	"github.com/sextantdev/sextant/internal/testcatalog"
)

const sub = "apiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata: {name: s, namespace: ns}\nspec: {name: etcd}\n"
const subJSON = `{"apiVersion":"operators.coreos.com/v1alpha1","kind":"Subscription","metadata":{"name":"j","namespace":"ns"},"spec":{"name":"etcd"}}`

// zeros reads NUL bytes for ever, like /dev/zero.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func TestRead(t *testing.T) {
	tests := []struct {
		name    string
		reason  string
		file    string
		loader  cluster.Loader
		in      io.Reader
		subs    int
		wantErr string
	}{
		{name: "yaml in a .json file", reason: "a .json file is parsed as JSON, and the error says JSON", file: "in.json",
			in: strings.NewReader(sub), wantErr: "in.json:1: invalid JSON: invalid character 'a' looking for beginning of value"},
		{name: "json stream then yaml", reason: "a YAML stream whose first document is JSON", file: "in.yaml",
			in: strings.NewReader(subJSON + "\n" + subJSON[:len(subJSON)-1] + `,"x":1}` + "\n---\n" + strings.Replace(sub, "name: s", "name: y", 1)), wantErr: "defined twice"},
		{name: "json documents in yaml", file: "in.yaml",
			in: strings.NewReader(sub + "---\n" + subJSON + "\n"), subs: 2},
		{name: "crlf markers", file: "in.yaml",
			in: strings.NewReader(strings.ReplaceAll(sub+"---\n"+strings.Replace(sub, "name: s", "name: t", 1), "\n", "\r\n")), subs: 2},
		{name: "value on the marker line", file: "in.yaml",
			in: strings.NewReader("--- " + subJSON + "\n"), subs: 1},
		{name: "dev zero", reason: "binary data fails at once", file: "/dev/zero", in: zeros{}, wantErr: "/dev/zero:1: binary data (byte 0x00)"},
		{name: "dev zero as json", file: "zero.json", in: zeros{}, wantErr: "zero.json:1: binary data (byte 0x00)"},
		{name: "over the input limit", file: "in.yaml", loader: cluster.Loader{MaxBytes: 100},
			in: strings.NewReader(sub + "---\n" + sub), wantErr: "in.yaml: input is larger than the limit of 100 bytes (uncompressed)"},
		{name: "over the document limit", file: "in.yaml", loader: cluster.Loader{MaxDocument: 100},
			in: strings.NewReader("a: 1\n---\n" + sub), wantErr: "in.yaml:3: document is larger than the limit of 100 bytes"},
		{name: "over the document limit, json", file: "in.json", loader: cluster.Loader{MaxDocument: 100},
			in: strings.NewReader(subJSON), wantErr: "in.json:1: document is larger than the limit of 100 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tt.loader.Decode(context.Background(), tt.in, tt.file)
			if testcatalog.WantErr(t, err, tt.wantErr) {
				return
			}
			if len(s.Subscriptions) != tt.subs {
				t.Errorf("%d subscriptions, want %d", len(s.Subscriptions), tt.subs)
			}
		})
	}
}

func TestReadLimitErrorType(t *testing.T) {
	_, err := cluster.Loader{MaxDocument: 10}.Decode(context.Background(), strings.NewReader(sub), "in.yaml")
	var le *graph.LimitError
	if !errors.As(err, &le) || le.What != "document" || le.Limit != 10 {
		t.Errorf("error %v: LimitError %+v", err, le)
	}
}

func TestReadCancel(t *testing.T) {
	var b bytes.Buffer
	n := 100000
	if testing.Short() {
		n = 10000
	}
	for i := range n {
		fmt.Fprintf(&b, "---\napiVersion: operators.coreos.com/v1alpha1\nkind: Subscription\nmetadata: {name: s%d, namespace: ns}\nspec: {name: etcd}\n", i)
	}
	testcatalog.CheckCancel(t, 10*time.Millisecond, testcatalog.CancelBudget, func(ctx context.Context) error {
		_, err := cluster.Loader{}.Decode(ctx, &b, "big.yaml")
		return err
	})
}

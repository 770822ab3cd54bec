package jsonscan

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/sextantdev/sextant/internal/testcatalog"
)

var seeds = []string{
	`{}`, `[]`, `{"a":1}`, `{"a":[1,2,{"b":null}],"c":"d\u00e9\n"}`, `"\ud83d\ude00"`, `"\ud83d"`,
	`-0.5e+10`, `01`, `1.`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `tru`, `"\x"`, "\"a\tb\"", `{"a":"b"`,
	`  {"schema":"olm.package","name":"x"}  `, `1e`, `-`, `[[[]]]`, `{"\"":"\\"}`,
}

func TestSkipAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range seeds {
		checkSkip(t, []byte(in))
	}
}

func FuzzSkip(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkSkip)
}

// checkSkip checks that Skip accepts exactly what encoding/json accepts, and
// that String and Unescape agree with encoding/json on strings.
func checkSkip(t *testing.T, in []byte) {
	s := Scanner{Data: in}
	err := s.Skip()
	ok := err == nil && s.AtEnd()
	if want := json.Valid(in); ok != want {
		t.Fatalf("Skip(%q): ok=%v (err %v), json.Valid=%v", in, ok, err, want)
	}
	if !ok {
		return
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, in); err != nil {
		t.Fatal(err)
	}
	if got := AppendCompact(nil, in); !bytes.Equal(got, compact.Bytes()) {
		t.Fatalf("AppendCompact(%q) = %q, want %q", in, got, compact.Bytes())
	}
	if !utf8.Valid(in) {
		return
	}
	s = Scanner{Data: in}
	if s.Peek() == '"' {
		raw, esc, err := s.String()
		if err != nil {
			t.Fatal(err)
		}
		var want string
		if err := json.Unmarshal(in, &want); err != nil {
			t.Fatal(err)
		}
		got := string(raw)
		if esc {
			got = string(Unescape(nil, raw))
		}
		if got != want {
			t.Fatalf("string %q: got %q, want %q", in, got, want)
		}
	}
}

func TestObjectWalk(t *testing.T) {
	tests := []struct {
		name string
		next func(s *Scanner, first bool) (key []byte, ok bool, err error)
	}{
		{name: "NextKey", next: func(s *Scanner, first bool) ([]byte, bool, error) {
			k, esc, ok, err := s.NextKey(first)
			if esc {
				k = Unescape(nil, k)
			}
			return k, ok, err
		}},
		{name: "NextKeyUnescaped", next: (*Scanner).NextKeyUnescaped},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := []byte(`{"a": "x", "b" : [1, {"c":true}], "d\n":null}`)
			s := Scanner{Data: in}
			if err := s.BeginObject(); err != nil {
				t.Fatal(err)
			}
			var keys []string
			for first := true; ; first = false {
				k, ok, err := tt.next(&s, first)
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				keys = append(keys, string(k))
				v, err := s.Value()
				if err != nil {
					t.Fatal(err)
				}
				keys = append(keys, string(v))
			}
			want := []string{"a", `"x"`, "b", `[1, {"c":true}]`, "d\n", "null"}
			if len(keys) != len(want) {
				t.Fatalf("got %q, want %q", keys, want)
			}
			for i := range want {
				if keys[i] != want[i] {
					t.Fatalf("got %q, want %q", keys, want)
				}
			}
			if !s.AtEnd() {
				t.Fatal("not at end")
			}
		})
	}
}

func TestSyntaxErrorOffset(t *testing.T) {
	tests := []struct {
		in   string
		off  int
		name string
	}{
		{name: "bad literal", in: `[true, fals]`, off: 11},
		{name: "truncated", in: `{"a": [1, 2`, off: 11},
		{name: "missing colon", in: `{"a" 1}`, off: 5},
		{name: "control char", in: "\"a\nb\"", off: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Scanner{Data: []byte(tt.in)}
			err := s.Skip()
			se, ok := err.(*SyntaxError)
			if !ok {
				t.Fatalf("err = %v, want a *SyntaxError", err)
			}
			if se.Offset != tt.off {
				t.Errorf("offset = %d, want %d (%v)", se.Offset, tt.off, se)
			}
		})
	}
}

// BenchmarkSkipCatalog skips every blob of the shipped community catalog:
// the scanner's raw speed.
func BenchmarkSkipCatalog(b *testing.B) {
	data := testcatalog.Read(b, "community-operators-prod.v4.20-index.json.gz")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		s := Scanner{Data: data}
		for !s.AtEnd() {
			if err := s.Skip(); err != nil {
				b.Fatal(err)
			}
		}
	}
}

package txtar

import (
	"bytes"
	"testing"
)

func TestParseFormat(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		comment string
		files   []File
		out     string
	}{
		{
			name:    "comment and two files",
			in:      "a comment\n-- a.yaml --\nx: 1\n-- b --\ny\n",
			comment: "a comment\n",
			files:   []File{{"a.yaml", []byte("x: 1\n")}, {"b", []byte("y\n")}},
			out:     "a comment\n-- a.yaml --\nx: 1\n-- b --\ny\n",
		},
		{
			name:  "no trailing newline is added on format",
			in:    "-- a --\nx",
			files: []File{{"a", []byte("x")}},
			out:   "-- a --\nx\n",
		},
		{
			name:    "not a marker",
			in:      "--a--\n-- --\n",
			comment: "--a--\n-- --\n",
			out:     "--a--\n-- --\n",
		},
		{
			name:  "empty file",
			in:    "-- a --\n-- b --\nz\n",
			files: []File{{"a", []byte{}}, {"b", []byte("z\n")}},
			out:   "-- a --\n-- b --\nz\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := Parse([]byte(tt.in))
			if string(a.Comment) != tt.comment {
				t.Errorf("comment = %q, want %q", a.Comment, tt.comment)
			}
			if len(a.Files) != len(tt.files) {
				t.Fatalf("files = %d, want %d", len(a.Files), len(tt.files))
			}
			for i, f := range a.Files {
				if f.Name != tt.files[i].Name || !bytes.Equal(f.Data, tt.files[i].Data) {
					t.Errorf("file %d = %q %q, want %q %q", i, f.Name, f.Data, tt.files[i].Name, tt.files[i].Data)
				}
			}
			if got := string(Format(a)); got != tt.out {
				t.Errorf("Format = %q, want %q", got, tt.out)
			}
		})
	}
}

func TestGetSet(t *testing.T) {
	a := Parse([]byte("-- want --\nold\n"))
	a.Set("want", []byte("new\n"))
	a.Set("extra", []byte("e\n"))
	if d, _ := a.Get("want"); string(d) != "new\n" {
		t.Errorf("Get(want) = %q", d)
	}
	if _, ok := a.Get("missing"); ok {
		t.Error("Get(missing) found something")
	}
	if got := string(Format(a)); got != "-- want --\nnew\n-- extra --\ne\n" {
		t.Errorf("Format = %q", got)
	}
}

func FuzzParseFormat(f *testing.F) {
	f.Add([]byte("c\n-- a --\nx\n-- b --\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a := Parse(data)
		b := Parse(Format(a))
		if len(a.Files) != len(b.Files) {
			t.Fatalf("round trip changed file count: %d → %d", len(a.Files), len(b.Files))
		}
		for i := range a.Files {
			if a.Files[i].Name != b.Files[i].Name {
				t.Fatalf("round trip changed name %q → %q", a.Files[i].Name, b.Files[i].Name)
			}
		}
	})
}

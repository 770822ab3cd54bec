package docstream

import (
	"bytes"
	"fmt"
	"io"
	"testing"
	"testing/iotest"
)

// splitAll returns every document and error of a splitter, as text.
func splitAll(next func() (Doc, error)) ([]Doc, []string) {
	var docs []Doc
	var errs []string
	for range 1 << 16 {
		d, err := next()
		if err == io.EOF {
			return docs, errs
		}
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		d.Text = bytes.Clone(d.Text)
		docs = append(docs, d)
	}
	panic("no end")
}

// takeAll is splitAll keeping each document's text with Take, the
// splitter told the stream's size (Expect).
func takeAll(in []byte, max int64) ([]Doc, []string) {
	y := NewYAML(bytes.NewReader(in), max, 0, 1)
	y.Expect(int64(len(in)))
	var docs []Doc
	var errs []string
	for {
		d, err := y.Next()
		if err == io.EOF {
			return docs, errs
		}
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		d.Text = y.Take()
		docs = append(docs, d)
	}
}

// FuzzYAML splits arbitrary input and checks properties:
//   - reading it one byte at a time (line by line: nothing is buffered
//     ahead) gives the same documents and errors, and so does reading it
//     told its size, each text taken;
//   - each document's text is the input at its TextOffset (the "---" of a
//     "--- value" line blanked), its content offset within it, and its
//     lines counted right;
//   - no document is over the limit.
func FuzzYAML(f *testing.F) {
	for _, s := range []string{"a: 1\n---\nb: 2\n", "--- {a: 1}\n...\n# c\n", "\xef\xbb\xbfa: 1\r\n---\r\n", "a\x00b", "... x\n---\n\n", "x: |\n  ---\n---  \n"} {
		f.Add([]byte(s), int64(0))
		f.Add([]byte(s), int64(4))
	}
	f.Fuzz(func(t *testing.T, in []byte, max int64) {
		max %= 64
		docs, errs := splitAll(NewYAML(bytes.NewReader(in), max, 0, 1).Next)
		docs1, errs1 := splitAll(NewYAML(iotest.OneByteReader(bytes.NewReader(in)), max, 0, 1).Next)
		if fmt.Sprint(docs) != fmt.Sprint(docs1) || fmt.Sprint(errs) != fmt.Sprint(errs1) {
			t.Fatalf("one byte at a time: %+v %q, want %+v %q", docs1, errs1, docs, errs)
		}
		if docs2, errs2 := takeAll(in, max); fmt.Sprint(docs) != fmt.Sprint(docs2) || fmt.Sprint(errs) != fmt.Sprint(errs2) {
			t.Fatalf("sized, taken: %+v %q, want %+v %q", docs2, errs2, docs, errs)
		}
		for _, d := range docs {
			if max > 0 && int64(len(d.Text)) > max {
				t.Fatalf("document of %d bytes over the limit %d", len(d.Text), max)
			}
			end := d.TextOffset + int64(len(d.Text))
			if d.TextOffset < 0 || end > int64(len(in)) {
				t.Fatalf("document at %d..%d outside the input of %d bytes", d.TextOffset, end, len(in))
			}
			src := in[d.TextOffset:end]
			if !bytes.Equal(src, d.Text) && !(bytes.HasPrefix(src, []byte("---")) && bytes.Equal(src[3:], d.Text[3:])) {
				t.Fatalf("document text %q is not the input %q", d.Text, src)
			}
			if d.Offset < d.TextOffset || d.Offset >= end {
				t.Fatalf("content offset %d outside the document %d..%d", d.Offset, d.TextOffset, end)
			}
			if want := 1 + bytes.Count(in[:d.Offset], []byte("\n")); d.Line != want {
				t.Fatalf("line %d, want %d", d.Line, want)
			}
			if want := 1 + bytes.Count(in[:d.TextOffset], []byte("\n")); d.TextLine != want {
				t.Fatalf("text line %d, want %d", d.TextLine, want)
			}
		}
	})
}

// FuzzJSON splits arbitrary input into JSON values and checks that reading
// it in halves, or told its size, gives the same values, that each value is the input at its
// offset, and that the values and the white space between them make up the
// input up to the first fatal error.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{`{"a":"}"} [1,{"b":"\""}] 3 "s" null`, `{"a": [1`, "}, {}", "\xef\xbb\xbf{}", "{}\x00{}", `12{}"x"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		docs, errs := splitAll(NewJSON(bytes.NewReader(in), 0, 0, 1).Next)
		docs1, errs1 := splitAll(NewJSON(iotest.HalfReader(bytes.NewReader(in)), 0, 0, 1).Next)
		if fmt.Sprint(docs) != fmt.Sprint(docs1) || fmt.Sprint(errs) != fmt.Sprint(errs1) {
			t.Fatalf("in halves: %+v %q, want %+v %q", docs1, errs1, docs, errs)
		}
		sized := NewJSON(bytes.NewReader(in), 0, 0, 1)
		sized.Expect(int64(len(in)))
		if docs2, errs2 := splitAll(sized.Next); fmt.Sprint(docs) != fmt.Sprint(docs2) || fmt.Sprint(errs) != fmt.Sprint(errs2) {
			t.Fatalf("sized: %+v %q, want %+v %q", docs2, errs2, docs, errs)
		}
		prev := int64(0)
		if bytes.HasPrefix(in, []byte("\xef\xbb\xbf")) {
			prev = 3
		}
		for _, d := range docs {
			end := d.Offset + int64(len(d.Text))
			if d.Offset < prev || end > int64(len(in)) || !bytes.Equal(in[d.Offset:end], d.Text) || len(d.Text) == 0 {
				t.Fatalf("value %q at %d is not the input there", d.Text, d.Offset)
			}
			if len(bytes.Trim(in[prev:d.Offset], " \t\r\n")) != 0 {
				t.Fatalf("bytes %q between values lost", in[prev:d.Offset])
			}
			if want := 1 + bytes.Count(in[:d.Offset], []byte("\n")); d.Line != want {
				t.Fatalf("line %d, want %d", d.Line, want)
			}
			prev = end
		}
		if len(errs) == 0 && len(bytes.Trim(in[prev:], " \t\r\n")) != 0 {
			t.Fatalf("input %q after the last value lost", in[prev:])
		}
	})
}

package docstream

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

type got struct {
	text       string
	line       int
	offset     int64
	textLine   int
	textOffset int64
	json       bool
}

// collectYAML splits in, read one byte at a time, with splitAll.
func collectYAML(in string, max int64) ([]got, []string) {
	docs, errs := splitAll(NewYAML(iotest.OneByteReader(strings.NewReader(in)), max, 0, 1).Next)
	var out []got
	for _, d := range docs {
		out = append(out, got{string(d.Text), d.Line, d.Offset, d.TextLine, d.TextOffset, d.JSON})
	}
	return out, errs
}

func TestYAML(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   []got
		errs   []string
		reason string
	}{
		{name: "one", in: "a: 1\n", want: []got{{"a: 1\n", 1, 0, 1, 0, false}}},
		{name: "markers", in: "---\na: 1\n---\nb: 2\n...\n", want: []got{{"a: 1\n", 2, 4, 2, 4, false}, {"b: 2\n", 4, 13, 4, 13, false}}},
		{name: "crlf", in: "a: 1\r\n---\r\nb: 2\r\n", want: []got{{"a: 1\r\n", 1, 0, 1, 0, false}, {"b: 2\r\n", 3, 11, 3, 11, false}},
			reason: "a marker line may end in a carriage return"},
		{name: "marker with trailing space and comment", in: "a: 1\n--- # next\nb: 2\n", want: []got{{"a: 1\n", 1, 0, 1, 0, false}, {"b: 2\n", 3, 16, 3, 16, false}}},
		{name: "value on marker line", in: "a: 1\n--- {b: 2}\n", want: []got{{"a: 1\n", 1, 0, 1, 0, false}, {"    {b: 2}\n", 2, 5, 2, 5, true}},
			reason: "the marker is blanked so columns and offsets stay"},
		{name: "value on first marker line", in: "--- |\n  text\n", want: []got{{"    |\n  text\n", 1, 0, 1, 0, false}}},
		{name: "comment-only documents skipped", in: "# c\n---\n\n# d\n---\na: 1\n", want: []got{{"a: 1\n", 6, 17, 6, 17, false}}},
		{name: "comments before content belong to the document", in: "---\n# head\na: 1", want: []got{{"# head\na: 1", 3, 11, 2, 4, false}}},
		{name: "no final newline", in: "a: 1", want: []got{{"a: 1", 1, 0, 1, 0, false}}},
		{name: "byte order mark", in: "\xef\xbb\xbfa: 1\n", want: []got{{"a: 1\n", 1, 3, 1, 3, false}}},
		{name: "json document", in: "{\"a\": 1}\n---\n[1]\n", want: []got{{"{\"a\": 1}\n", 1, 0, 1, 0, true}, {"[1]\n", 3, 13, 3, 13, true}}},
		{name: "not markers", in: "----\na: ---\n--x\n", want: []got{{"----\na: ---\n--x\n", 1, 0, 1, 0, false}}},
		{name: "content after end marker", in: "a: 1\n... b\nc: 2\n", want: []got{{"a: 1\n", 1, 0, 1, 0, false}, {"c: 2\n", 3, 11, 3, 11, false}},
			errs: []string{`content after the document end marker "..."`}},
		{name: "binary", in: "a: 1\n---\nb: \x00\n---\nc: 3\n", want: []got{{"a: 1\n", 1, 0, 1, 0, false}}, errs: []string{"binary data (byte 0x00), not YAML or JSON text"},
			reason: "binary data ends the stream at once"},
		{name: "too large", in: "a: 1\n---\nb: 0123456789\n---\nc: 3\n", want: []got{{"a: 1\n", 1, 0, 1, 0, false}}, errs: []string{"document is larger than the limit of 10 bytes"}},
		{name: "long line too large", in: strings.Repeat("x", 200000), errs: []string{"document is larger than the limit of 10 bytes"}},
		{name: "empty", in: ""},
		{name: "only markers", in: "---\n---\n...\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			max := int64(0)
			if strings.Contains(tt.name, "too large") {
				max = 10
			}
			docs, errs := collectYAML(tt.in, max)
			if len(docs) != len(tt.want) {
				t.Fatalf("got %d documents %+v, want %d %+v", len(docs), docs, len(tt.want), tt.want)
			}
			for i := range docs {
				if docs[i] != tt.want[i] {
					t.Errorf("document %d = %+v, want %+v", i, docs[i], tt.want[i])
				}
			}
			if len(errs) != len(tt.errs) {
				t.Fatalf("errors %v, want %v", errs, tt.errs)
			}
			for i := range errs {
				if errs[i] != tt.errs[i] {
					t.Errorf("error %d = %q, want %q", i, errs[i], tt.errs[i])
				}
			}
		})
	}
}

// TestYAMLTake: a document's text taken stays the caller's while the
// splitter reads on, large or small, and a stream told its size that
// holds one large document reads it into one buffer, given away.
func TestYAMLTake(t *testing.T) {
	large := "a:\n" + strings.Repeat("- "+strings.Repeat("x", 70)+"\n", 20000)
	for _, in := range []string{large, large + "---\nb: 1\n---\n" + large} {
		y := NewYAML(strings.NewReader(in), 0, 0, 1)
		y.Expect(int64(len(in)))
		var texts []string
		var taken [][]byte
		for {
			d, err := y.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			text := y.Take()
			if in == large && (&text[0] != &d.Text[0] || cap(text) != len(text)) {
				t.Errorf("the document's text was copied, or its buffer is of %d bytes, not %d", cap(text), len(text))
			}
			texts, taken = append(texts, string(text)), append(taken, text)
		}
		for i := range taken {
			if string(taken[i]) != texts[i] {
				t.Fatalf("text %d changed once the next were read", i)
			}
		}
		if len(texts) == 3 && (texts[0] != large || texts[1] != "b: 1\n" || texts[2] != large) {
			t.Fatalf("texts: %d, %.20q, %.20q", len(texts), texts[0], texts[1])
		}
	}
}

func TestYAMLLongLines(t *testing.T) {
	long := "a: " + strings.Repeat("x", 300000) + "\n"
	docs, errs := collectYAML(long+"---\n"+long, 0)
	if len(errs) != 0 || len(docs) != 2 || docs[0].text != long || docs[1].text != long || docs[1].line != 3 {
		t.Fatalf("long lines: %d documents, errors %v", len(docs), errs)
	}
}

func TestJSON(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
		errs []string
	}{
		{name: "concatenated", in: `{"a":"}"}{"b":[1,{"c":"\""}]}` + "\n [2] 3 \"s\" null", want: []string{`{"a":"}"}`, `{"b":[1,{"c":"\""}]}`, `[2]`, `3`, `"s"`, `null`}},
		{name: "scalar before object", in: `12{}`, want: []string{`12`, `{}`}},
		{name: "cut", in: `{"a": [1`, want: []string{`{"a": [1`}},
		{name: "stray", in: `}, {}`, want: []string{`}`, `,`, `{}`}},
		{name: "bom", in: "\xef\xbb\xbf{}", want: []string{`{}`}},
		{name: "binary", in: "{}\x00{}", want: []string{`{}`}, errs: []string{"binary data (byte 0x00), not YAML or JSON text"}},
		{name: "too large", in: `{} {"a": "0123456789"} {}`, want: []string{`{}`}, errs: []string{"document is larger than the limit of 10 bytes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			max := int64(0)
			if tt.name == "too large" {
				max = 10
			}
			values, errs := splitAll(NewJSON(iotest.HalfReader(strings.NewReader(tt.in)), max, 0, 1).Next)
			var docs []string
			for _, d := range values {
				docs = append(docs, string(d.Text))
			}
			if strings.Join(docs, "|") != strings.Join(tt.want, "|") || strings.Join(errs, "|") != strings.Join(tt.errs, "|") {
				t.Errorf("got %q %q, want %q %q", docs, errs, tt.want, tt.errs)
			}
		})
	}
}

func TestJSONLines(t *testing.T) {
	j := NewJSON(strings.NewReader("\n{\n}\n\n  {}\n5\n"), 0, 0, 1)
	var lines []int
	for {
		d, err := j.Next()
		if err != nil {
			break
		}
		lines = append(lines, d.Line)
	}
	if len(lines) != 3 || lines[0] != 2 || lines[1] != 5 || lines[2] != 6 {
		t.Errorf("lines %v, want [2 5 6]", lines)
	}
}

func TestLimitReader(t *testing.T) {
	for _, tt := range []struct {
		n, limit int
		over     bool
	}{{10, 10, false}, {11, 10, true}, {0, 10, false}, {1 << 20, 1000, true}, {5, 0, false}} {
		r := LimitReader(iotest.HalfReader(strings.NewReader(strings.Repeat("x", tt.n))), int64(tt.limit))
		b, err := io.ReadAll(r)
		var tl *TooLargeError
		if tt.over != errors.As(err, &tl) {
			t.Errorf("n=%d limit=%d: err %v", tt.n, tt.limit, err)
		}
		if tt.over && len(b) > tt.limit {
			t.Errorf("n=%d limit=%d: read %d bytes", tt.n, tt.limit, len(b))
		}
	}
	if got := (&TooLargeError{What: "input", Limit: 1 << 30}).Error(); got != "input is larger than the limit of 1 GiB (uncompressed)" {
		t.Errorf("message %q", got)
	}
}

func TestLimit(t *testing.T) {
	tests := []struct {
		name   string
		n, def int64
		want   int64
	}{
		{name: "zero is the default", n: 0, def: 64, want: 64},
		{name: "negative is no limit", n: -1, def: 64, want: 0},
		{name: "positive is the limit", n: 10, def: 64, want: 10},
		{name: "zero default of a negative limit", n: -5, def: 0, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Limit(tt.n, tt.def); got != tt.want {
				t.Errorf("Limit(%d, %d) = %d, want %d", tt.n, tt.def, got, tt.want)
			}
		})
	}
}

// TestReadAll: ReadAll reads a stream whole, read in pieces or at once,
// and stops at a binary byte or over the limit, saying where.
func TestReadAll(t *testing.T) {
	large := strings.Repeat("a: bc\n", 100000)
	for _, r := range []func(string) io.Reader{
		func(s string) io.Reader { return strings.NewReader(s) },
		func(s string) io.Reader { return iotest.HalfReader(strings.NewReader(s)) },
	} {
		if got, err := ReadAll(r(large), 0); err != nil || string(got) != large {
			t.Fatalf("ReadAll: %d bytes, %v; want %d", len(got), err, len(large))
		}
		var be *BinaryError
		if _, err := ReadAll(r(large+"x\n\x00"), 0); !errors.As(err, &be) || be.Line != 100002 || be.Offset != int64(len(large)+2) {
			t.Fatalf("ReadAll of binary data: %v (%+v), want a *BinaryError at line 100002", err, be)
		}
		var le *TooLargeError
		if _, err := ReadAll(r(large), 1000); !errors.As(err, &le) || le.Limit != 1000 {
			t.Fatalf("ReadAll over the limit: %v, want a *TooLargeError", err)
		}
	}
}

// A line longer than the document limit is refused once the limit's worth
// of it has been read, in a buffer that never outgrows the limit.
func TestYAMLLongLineOverLimit(t *testing.T) {
	const limit = 4 << 20
	for _, lead := range []string{"", "a: b\n---\n"} {
		r := &countReader{r: io.MultiReader(strings.NewReader(lead+"a: "), strings.NewReader(strings.Repeat("x", 16<<20)))}
		y := NewYAML(r, limit, 0, 1)
		var err error
		for err == nil {
			_, err = y.Next()
		}
		var tl *TooLargeError
		if !errors.As(err, &tl) || tl.What != "document" || tl.Line != 1+strings.Count(lead, "\n") {
			t.Fatalf("error %v, want the document at line %d over the limit", err, 1+strings.Count(lead, "\n"))
		}
		if r.n > limit+2*64<<10 {
			t.Errorf("read %d bytes, want at most the limit and a buffer, %d", r.n, limit+64<<10)
		}
		if cap(y.buf) > limit {
			t.Errorf("document buffer of %d bytes, over the limit %d", cap(y.buf), limit)
		}
	}
}

type countReader struct {
	r io.Reader
	n int
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// A line longer than the reader's buffer is read once into the document's
// buffer: a document of one long line costs about its size in memory, not
// twice (a buffer for the line, then the document's).
func TestYAMLLongLineReadInPlace(t *testing.T) {
	const size = 8 << 20
	text := "a: b\nc: " + strings.Repeat("x", size) + "\nd: e\n"
	y := NewYAML(strings.NewReader(text), 0, 0, 1)
	y.Expect(int64(len(text)))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	doc, err := y.Next()
	runtime.ReadMemStats(&after)
	if err != nil || string(doc.Text) != text {
		t.Fatalf("Next: %d bytes, %v; want the whole text", len(doc.Text), err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > size*3/2 {
		t.Errorf("read a document of %d bytes allocating %d bytes, want at most %d", len(text), got, size*3/2)
	}
}

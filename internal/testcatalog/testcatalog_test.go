package testcatalog

import (
	"bytes"
	"os"
	"testing"
)

// TestRead runs two folders below the module root, so it checks that Path
// walks up to the root and that Read decompresses the file.
func TestRead(t *testing.T) {
	data := Read(t, "community-operators-prod.declared.problems.json.gz")
	if !bytes.HasPrefix(bytes.TrimSpace(data), []byte(`{`)) {
		t.Fatalf("decompressed problems file does not start with a JSON object: %.40q", data)
	}
	if _, err := os.Stat(Path(t, "community-operators-prod.v4.20-index.json.gz")); err != nil {
		t.Fatal(err)
	}
}

package router_test

import (
	"bytes"
	"encoding/json"
	"testing"
)

// indent re-indents a JSON body for a readable golden file, member order
// kept.
func indent(t *testing.T, body []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := json.Indent(&b, body, "", "  "); err != nil {
		t.Fatalf("not JSON: %v: %s", err, body)
	}
	b.WriteByte('\n')
	return b.Bytes()
}

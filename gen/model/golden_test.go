package model

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/model.golden.json")

// updating reports whether goldens are rewritten: -update, or
// SRGEN_UPDATE_GOLDEN=1 for runs over packages that lack the flag.
func updating() bool { return *update || os.Getenv("SRGEN_UPDATE_GOLDEN") == "1" }

// TestModelGolden pins the model's JSON dump, so a reviewer sees every
// semantic change to the specs as a diff of testdata/model.golden.json.
func TestModelGolden(t *testing.T) {
	got, err := repoModel(t).JSON()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "model.golden.json")
	if updating() {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update or SRGEN_UPDATE_GOLDEN=1)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("model JSON mismatch (-want +got):\n%s", cmp.Diff(string(want), string(got)))
	}
}

// TestModelJSONDeterministic builds twice and requires identical bytes.
func TestModelJSONDeterministic(t *testing.T) {
	a, err := repoModel(t).JSON()
	if err != nil {
		t.Fatal(err)
	}
	b, err := repoModel(t).JSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("two builds of the same specs gave different JSON")
	}
}

package model

import (
	"bytes"
	"testing"

	"github.com/vllm-sr/systemone/runtime/testkit"
)

// TestModelGolden pins the model's JSON dump, so a reviewer sees every
// semantic change to the specs as a diff of testdata/model.golden.json.
func TestModelGolden(t *testing.T) {
	got, err := repoModel(t).JSON()
	if err != nil {
		t.Fatal(err)
	}
	testkit.GoldenCheck(t, "testdata/model.golden.json", got)
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

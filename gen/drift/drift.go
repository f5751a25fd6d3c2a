package drift

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"

	"github.com/vllm-sr/systemone/gen/model"
)

// CompareFile reads the document at path and compares it.
func CompareFile(m *model.Model, path string) (Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Report{Source: path}, err
	}
	return Compare(m, data, path)
}

// Compare checks data, a published OpenAPI document in JSON or YAML,
// against the model's description of the standard; source names the
// document in the report. A document whose sha256 is the recorded one is
// not compared: it is the one the description was checked against.
func Compare(m *model.Model, data []byte, source string) (Report, error) {
	spec := m.Spec(model.SpecStandard)
	if spec == nil || spec.Source == nil {
		return Report{Source: source}, fmt.Errorf("the model has no standard spec with a source")
	}
	sum := sha256.Sum256(data)
	r := Report{Source: source, SHA256: hex.EncodeToString(sum[:]), Recorded: spec.Source.SHA256}
	if r.Matches() {
		return r, nil
	}
	ours, notes, err := expected(m)
	if err != nil {
		return r, err
	}
	var listed []string
	for _, c := range spec.Source.Components {
		listed = append(listed, c.Name)
	}
	pub, err := readDocument(data, listed)
	if err != nil {
		return r, fmt.Errorf("%s: not an OpenAPI document srgen drift can read: %w", source, err)
	}
	var c comparer
	c.documents(ours, pub, listed)
	r.Differences, r.Known = settleKnown(c.out, notes.known)
	for i, d := range r.Differences {
		if d.Change == Added && d.Facet == "property" && notes.proseOnly[d.Where+"."+d.Item] {
			r.Differences[i].Note = "the spec describes it from the prose docs only (documented_in)"
		}
	}
	return r, nil
}

// settleKnown keeps the known differences the document still bears out.
// A difference at a known point means the document no longer says what
// the spec's reading says: the known one goes, and the difference names
// the conflict the reading came from, so the maintainer revisits it.
func settleKnown(diffs []Difference, known []Known) ([]Difference, []Known) {
	var kept []Known
	for _, k := range known {
		moved := false
		for i := range diffs {
			if k.at(diffs[i]) {
				moved = true
				diffs[i].Reading, diffs[i].Conflict = true, k.Conflict
			}
		}
		if !moved {
			kept = append(kept, k)
		}
	}
	return diffs, kept
}

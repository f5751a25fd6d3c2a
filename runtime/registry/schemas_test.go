package registry

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/target"
)

// fakeCodec is a target codec whose traits the test chooses; NewSchemas
// only reads its traits.
type fakeCodec struct {
	target.Codec
	id        table.SchemaID
	stateless bool
}

func (c fakeCodec) Traits() target.Traits {
	return target.Traits{Schema: c.id, Stateless: c.stateless}
}

type fakeDeviation struct {
	target.Deviation
	id      string
	schemas []table.SchemaID
}

func (d fakeDeviation) ID() string                      { return d.id }
func (d fakeDeviation) AppliesTo(s table.SchemaID) bool { return slices.Contains(d.schemas, s) }
func (d fakeDeviation) RewriteRequest(*target.WireCall) (ir.Diagnostics, error) {
	return nil, nil
}

var specs = []table.SpecHash{
	{Schema: "systemone/0.2", Path: "specs/std.yaml", SHA256: strings.Repeat("a", 64)},
	{Schema: "vllm-sr/5.0", Path: "specs/ext.yaml", SHA256: strings.Repeat("b", 64)},
}

func std() Schema {
	ref := SpecRef{Path: "specs/std.yaml", SHA256: strings.Repeat("a", 64)}
	return Schema{ID: "systemone/0.2", Spec: ref, Target: fakeCodec{id: "systemone/0.2", stateless: true}}
}

func ext() Schema {
	ref := SpecRef{Path: "specs/ext.yaml", SHA256: strings.Repeat("b", 64)}
	return Schema{ID: "vllm-sr/5.0", Spec: ref, Listener: listener.V50, Target: fakeCodec{id: "vllm-sr/5.0", stateless: true}}
}

func stateText() target.Deviation {
	return fakeDeviation{id: "state_text", schemas: []table.SchemaID{"systemone/0.2"}}
}

func TestNewAndLookups(t *testing.T) {
	r, err := NewSchemas([]Schema{ext(), std()}, []target.Deviation{stateText()}, specs)
	if err != nil {
		t.Fatal(err)
	}
	if got := JoinIDs(r.IDs()); got != "systemone/0.2, vllm-sr/5.0" {
		t.Errorf("IDs %s", got)
	}
	if got := JoinIDs(r.ListenerIDs()); got != "vllm-sr/5.0" {
		t.Errorf("listener IDs %s", got)
	}
	if _, err := r.Target("vllm-sr/4.0"); err == nil || err.Error() != `unknown target schema "vllm-sr/4.0"; supported: systemone/0.2, vllm-sr/5.0` {
		t.Errorf("target error %v", err)
	}
	if _, err := r.Schema("systemone/0.3"); err == nil || err.Error() != `unknown schema "systemone/0.3"; supported: systemone/0.2, vllm-sr/5.0` {
		t.Errorf("schema error %v", err)
	}
	if _, err := r.Listener("systemone/0.2"); err == nil || err.Error() != `unknown listener schema "systemone/0.2"; supported: vllm-sr/5.0` {
		t.Errorf("listener error %v", err)
	}
	devs, errs := r.Deviations("systemone/0.2", []string{"state_text"})
	if len(errs) != 0 || len(devs) != 1 || devs[0].ID() != "state_text" {
		t.Errorf("deviations %v %v", devs, errs)
	}
	_, errs = r.Deviations("vllm-sr/5.0", []string{"state_text", "fix_it", "state_text"})
	want := []string{
		`deviation "state_text" does not apply to vllm-sr/5.0`,
		`unknown deviation "fix_it"; supported: state_text`,
		`deviation "state_text" is listed twice`,
	}
	if got := errorTexts(errs); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestNewSchemasRefuses(t *testing.T) {
	cases := []struct {
		name    string
		schemas func() []Schema
		devs    []target.Deviation
		want    string
	}{
		{"no codec", func() []Schema { s := std(); s.Target = nil; return []Schema{s} }, nil, `schema 0 ("systemone/0.2"): has no codec`},
		{"bad ID", func() []Schema {
			s := std()
			s.ID = "systemone-0.2"
			s.Target = fakeCodec{id: s.ID, stateless: true}
			return []Schema{s}
		}, nil, `schema "systemone-0.2": the ID matches neither name/major.minor nor internal`},
		{"codec of another ID", func() []Schema {
			s := std()
			s.Target = fakeCodec{id: "vllm-sr/5.0", stateless: true}
			return []Schema{s}
		}, nil, `its target codec speaks "vllm-sr/5.0"`},
		{"listener of another ID", func() []Schema { s := std(); s.Listener = listener.V50; return []Schema{s} }, nil, `its listener codec speaks "vllm-sr/5.0"`},
		{"not stateless", func() []Schema {
			s := std()
			s.Target = fakeCodec{id: s.ID}
			return []Schema{s}
		}, nil, `schema "systemone/0.2": its target codec is not stateless`},
		{"duplicate", func() []Schema { return []Schema{std(), std()} }, nil, `schema "systemone/0.2": registered twice`},
		{"wrong sha256", func() []Schema {
			s := std()
			s.Spec.SHA256 = strings.Repeat("c", 64)
			s.Target = fakeCodec{id: s.ID, stateless: true}
			return []Schema{s}
		}, nil, `specification specs/std.yaml: sha256 ` + strings.Repeat("c", 64) + `, but the generated tables were built from ` + strings.Repeat("a", 64)},
		{"unknown spec", func() []Schema {
			s := std()
			s.Spec.Path = "specs/other.yaml"
			s.Target = fakeCodec{id: s.ID, stateless: true}
			return []Schema{s}
		}, nil, `specification specs/other.yaml is not one the generated tables were built from`},
		{"no spec", func() []Schema {
			s := std()
			s.Spec = SpecRef{}
			s.Target = fakeCodec{id: s.ID, stateless: true}
			return []Schema{s}
		}, nil, `names no specification`},
		{"nil deviation", func() []Schema { return []Schema{std()} }, []target.Deviation{nil}, `deviation 0: is nil`},
		{"deviation for an unregistered schema", func() []Schema { return []Schema{ext()} }, []target.Deviation{stateText()}, `deviation "state_text": applies to no registered target schema`},
		{"deviation twice", func() []Schema { return []Schema{std()} }, []target.Deviation{stateText(), stateText()}, `deviation "state_text": registered twice`},
		{"bad deviation ID", func() []Schema { return []Schema{std()} }, []target.Deviation{fakeDeviation{id: "State-Text", schemas: []table.SchemaID{"systemone/0.2"}}}, `deviation "State-Text": an ID is lower-case`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := NewSchemas(c.schemas(), c.devs, specs)
			if err == nil || r != nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}

func TestVerifySpecFiles(t *testing.T) {
	root := t.TempDir()
	body := []byte("openapi: 3.1.0\n")
	sum := sha256.Sum256(body)
	ref := SpecRef{Path: "specs/std.yaml", SHA256: hex.EncodeToString(sum[:])}
	s := Schema{ID: "systemone/0.2", Spec: ref, Target: fakeCodec{id: "systemone/0.2", stateless: true}}
	r, err := NewSchemas([]Schema{s}, nil, []table.SpecHash{{Schema: s.ID, Path: ref.Path, SHA256: ref.SHA256}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "specs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "specs", "std.yaml"), body, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := r.VerifySpecFiles(root); err != nil {
		t.Fatalf("the right bytes are refused: %v", err)
	}
	if err := os.WriteFile(filepath.Join(root, "specs", "std.yaml"), append(body, '#'), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := r.VerifySpecFiles(root); err == nil || !strings.Contains(err.Error(), "specs/std.yaml has sha256") {
		t.Fatalf("changed bytes: got %v", err)
	}
}

func errorTexts(errs []error) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Error()
	}
	return out
}

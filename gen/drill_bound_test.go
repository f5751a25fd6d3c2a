package gen

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// drillBoundField is the drill's member with runtime semantics: no
// passive, so srgen binds it to an IR field.
var drillBoundField = drillField{"  question_type:\n", `    - name: drill_bound
      type: string
      since: "5.0"
      families: all
      on_systemone_0_2: stripped
      description: The drill's member with runtime semantics.
`}

// drillBoundIR is the field the naming rule gives question.drill_bound,
// added to the copy's IR (hand-written by design) after the question's
// last extension field.
const drillBoundIR = "\tRate             *int64\n"

// drillBoundCheck is a test the drill adds to the copy, outside
// runtime/shapes: the internal form's Reader reads drill_bound into
// ir.Question.DrillBound, not into Extra, and the Writer writes it from
// that field (a value set in the IR, not the one read, comes out).
const drillBoundCheck = `package drillcheck

import (
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/shapes"
)

func TestDrillBoundMember(t *testing.T) {
	const body = ` + "`" + `{"model":"vllm-sr/vela3-fast","state":"Open a ticket.","questions":{"urgent":{"type":"noul","instructions":"Is it urgent?","drill_bound":"b1"}}}` + "`" + `
	r, _, err := shapes.DecodeRequest([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	q := &r.Questions[0]
	if q.DrillBound == nil || *q.DrillBound != "b1" {
		t.Fatalf("DrillBound = %v, want b1", q.DrillBound)
	}
	if len(q.Extra) != 0 {
		t.Fatalf("the bound member went to Extra: %v", q.Extra)
	}
	same, err := shapes.EncodeRequest(r)
	if err != nil || string(same) != body {
		t.Fatalf("internal → internal = %s, %v; want the body back", same, err)
	}
	b2 := "b2"
	q.DrillBound = &b2
	out, err := shapes.EncodeRequest(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), ` + "`" + `"drill_bound":"b2"` + "`" + `) {
		t.Fatalf("the writer did not write the IR field: %s", out)
	}
	q.DrillBound = nil
	if out, _ := shapes.EncodeRequest(r); strings.Contains(string(out), "drill_bound") {
		t.Fatalf("the writer wrote an absent member: %s", out)
	}
}
`

// drillBoundMember adds drill_bound to the copy's spec. srgen refuses it
// while the IR has no field for it, naming the two functions to write by
// hand and the field the naming rule looks for; once the copy's IR has
// that field, make generate writes its read and write, the module builds
// with no edit to runtime/shapes, the copy's shapes tests pass, and a
// body carrying it is read into the field and written from it.
func drillBoundMember(t *testing.T, root string) {
	t.Helper()
	extendSpec(t, filepath.Join(root, "specs/systemone/vllm-sr-5.0.extensions.yaml"), []drillField{drillBoundField})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	gen := exec.CommandContext(ctx, "go", "run", "./cmd/srgen", "generate")
	gen.Dir = root
	out, err := gen.CombinedOutput()
	if err == nil {
		t.Fatal("srgen bound a member the IR has no field for")
	}
	for _, want := range []string{"readQuestionDrillBound", "writeQuestionDrillBound", "ir.Question has no field DrillBound"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("srgen's refusal does not name %s:\n%s", want, out)
		}
	}

	irFile := filepath.Join(root, "runtime/ir/request.go")
	src, err := os.ReadFile(irFile)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(src), drillBoundIR) != 1 {
		t.Fatalf("the copy's ir.Question has no single %q line to add the field after", strings.TrimSpace(drillBoundIR))
	}
	src = []byte(strings.Replace(string(src), drillBoundIR, drillBoundIR+"\tDrillBound       *string\n", 1))
	if err := os.WriteFile(irFile, src, 0o644); err != nil {
		t.Fatal(err)
	}
	shapesBefore := shapesHandFiles(t, root)
	run(t, root, "go", "run", "./cmd/srgen", "generate")
	if after := shapesHandFiles(t, root); after != shapesBefore {
		t.Error("make generate changed a hand-written file of runtime/shapes")
	}
	run(t, root, "go", "build", "./...")
	mustWrite(t, filepath.Join(root, "drillcheck", "bound_test.go"), drillBoundCheck)
	run(t, root, "go", "test", "-count=1", "-short", "./runtime/shapes/", "./drillcheck/")
	bin := t.TempDir()
	run(t, root, "go", "build", "-o", bin, "./cmd/vllm-sr")
	const body = `{"model":"vllm-sr/vela3-fast","state":"Open a ticket.","questions":{"urgent":{"type":"noul","instructions":"Is it urgent?","drill_bound":"b1"}}}`
	if back := convertBody(t, bin, "vllm-sr/5.0", "vllm-sr/5.0", body); back != body {
		t.Errorf("the vllm-sr/5.0 writer changed a body with the bound member:\n got %s\nwant %s", back, body)
	}
	if standard := convertBody(t, bin, "vllm-sr/5.0", "systemone/0.2", body); strings.Contains(standard, "drill_bound") {
		t.Errorf("systemone/0.2 kept the stripped bound member: %s", standard)
	}
}

// shapesHandFiles is every hand-written file of the copy's runtime/shapes,
// concatenated with its name (srgen's zz_generated files left out).
func shapesHandFiles(t *testing.T, root string) string {
	t.Helper()
	dir := filepath.Join(root, "runtime/shapes")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), "zz_generated.") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(e.Name() + "\n" + string(data))
	}
	return b.String()
}

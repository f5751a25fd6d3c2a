package emit_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The oracle is a slow reference validator: it interprets the model's
// validation view of the repository's specs (maps, slices of path
// segments, decoded strings) instead of running generated code. The
// validators srgen emitted into generated/validate must report exactly
// what it reports. It lives here, beside the emitter, so that generated/
// imports nothing but the runtime leaves, even in its tests.

var (
	oracleOnce    sync.Once
	oracleSchemas []model.SchemaValidation
	oracleErr     error
)

func loadOracle(t testing.TB) []model.SchemaValidation {
	t.Helper()
	oracleOnce.Do(func() {
		m, err := model.LoadDir("../..")
		if err != nil {
			oracleErr = err
			return
		}
		oracleSchemas, oracleErr = m.Validations()
	})
	if oracleErr != nil {
		t.Fatalf("load the specs: %v", oracleErr)
	}
	return oracleSchemas
}

type oracle struct {
	objects  map[string]model.ObjectCheck
	problems []table.Problem
}

// oracleCheck validates v as the root object root of schema s.
func oracleCheck(s model.SchemaValidation, root string, v jsonvalue.Value) []table.Problem {
	o := &oracle{objects: map[string]model.ObjectCheck{}}
	for _, obj := range s.Objects {
		o.objects[obj.Name] = obj
	}
	o.value(model.ValueCheck{Kinds: []model.Kind{model.KindObject}, Expected: "object", Object: root}, nil, v)
	return o.problems
}

func (o *oracle) add(path []string, p table.Problem) {
	if len(o.problems) >= table.MaxProblems {
		return
	}
	for _, seg := range path {
		p.Path += "/" + strings.ReplaceAll(strings.ReplaceAll(seg, "~", "~0"), "/", "~1")
	}
	o.problems = append(o.problems, p)
}

func with(path []string, seg string) []string {
	return append(append([]string(nil), path...), seg)
}

func (o *oracle) object(name string, path []string, v jsonvalue.Value) {
	obj := o.objects[name]
	if obj.Variants != nil && obj.Variants.Present != "" {
		if _, ok := v.Get(obj.Variants.Present); ok {
			o.object(obj.Variants.PresentObject, path, v)
			return
		}
	}
	if obj.Variants != nil {
		if d, ok := v.Get(obj.Variants.Member); ok && d.Kind() == jsonvalue.KindString {
			for _, variant := range obj.Variants.Variants {
				if d.Str() == variant.Value {
					o.object(variant.Object, path, v)
					return
				}
			}
		}
	}
	seen := map[string]bool{}
	for _, m := range v.Members() {
		here := with(path, m.Name)
		if mc, ok := findMember(obj.Members, m.Name); ok {
			seen[m.Name] = true
			if !mc.Discriminator {
				o.value(mc.Value, here, m.Value)
			}
			continue
		}
		if rc, ok := findRemoved(obj.Removed, m.Name); ok {
			o.add(here, table.Problem{Reason: table.ReasonRemovedForm, Member: m.Name, Replacement: rc.Replacement})
			continue
		}
		if !obj.Open {
			o.add(here, table.Problem{Reason: table.ReasonUnknownMember, Member: m.Name})
		}
	}
	for _, mc := range obj.Members {
		if mc.Required && !seen[mc.Name] && !anySeen(seen, obj.Members, mc.RequiredUnless) {
			o.add(with(path, mc.Name), table.Problem{Reason: table.ReasonMissingMember, Member: mc.Name})
		}
	}
}

// anySeen: one of names was present and is a member the object allows.
func anySeen(seen map[string]bool, members []model.MemberCheck, names []string) bool {
	for _, n := range names {
		if _, allowed := findMember(members, n); allowed && seen[n] {
			return true
		}
	}
	return false
}

func findMember(ms []model.MemberCheck, name string) (model.MemberCheck, bool) {
	for _, m := range ms {
		if m.Name == name {
			return m, true
		}
	}
	return model.MemberCheck{}, false
}

func findRemoved(rs []model.RemovedCheck, name string) (model.RemovedCheck, bool) {
	for _, r := range rs {
		if r.Name == name {
			return r, true
		}
	}
	return model.RemovedCheck{}, false
}

var jsonKinds = map[model.Kind]jsonvalue.Kind{
	model.KindString: jsonvalue.KindString, model.KindNumber: jsonvalue.KindNumber, model.KindInteger: jsonvalue.KindNumber,
	model.KindBoolean: jsonvalue.KindBool, model.KindObject: jsonvalue.KindObject, model.KindArray: jsonvalue.KindArray,
}

func (o *oracle) value(vc model.ValueCheck, path []string, v jsonvalue.Value) {
	if len(vc.Kinds) == 0 {
		return
	}
	if v.Kind() == jsonvalue.KindNull {
		if !vc.Nullable {
			o.add(path, table.Problem{Reason: table.ReasonNotAllowedNull, Expected: vc.Expected})
		}
		return
	}
	allowed := map[jsonvalue.Kind]bool{}
	onlyInteger := true
	for _, k := range vc.Kinds {
		allowed[jsonKinds[k]] = true
		onlyInteger = onlyInteger && k != model.KindNumber
	}
	if !allowed[v.Kind()] {
		o.add(path, table.Problem{Reason: table.ReasonWrongType, Expected: vc.Expected})
		return
	}
	switch v.Kind() {
	case jsonvalue.KindString:
		if len(vc.Enum) > 0 && !contains(vc.Enum, v.Str()) {
			o.add(path, table.Problem{Reason: table.ReasonNotInEnum, Expected: vc.ExpectedEnum})
		}
	case jsonvalue.KindNumber:
		o.number(vc, onlyInteger, path, v)
	case jsonvalue.KindObject:
		o.count(vc, path, v.Len())
		if vc.Object != "" {
			o.object(vc.Object, path, v)
		}
		for _, m := range v.Members() {
			if vc.Values != nil {
				o.value(*vc.Values, with(path, m.Name), m.Value)
			}
		}
	case jsonvalue.KindArray:
		o.count(vc, path, v.Len())
		for i, item := range v.Items() {
			if vc.Items != nil {
				o.value(*vc.Items, with(path, strconv.Itoa(i)), item)
			}
		}
	}
}

func (o *oracle) number(vc model.ValueCheck, integer bool, path []string, v jsonvalue.Value) {
	var f float64
	var text string
	if integer {
		n, ok := v.Int()
		if !ok {
			o.add(path, table.Problem{Reason: table.ReasonWrongType, Expected: vc.Expected})
			return
		}
		f, text = float64(n), strconv.FormatInt(n, 10)
	} else {
		if len(vc.Enum) == 0 && vc.Minimum == nil && vc.Maximum == nil {
			return
		}
		var ok bool
		if f, ok = v.Float(); !ok {
			o.add(path, table.Problem{Reason: table.ReasonWrongType, Expected: vc.Expected})
			return
		}
		text = strconv.FormatFloat(f, 'g', -1, 64)
	}
	switch {
	case len(vc.Enum) > 0 && !contains(vc.Enum, text):
		o.add(path, table.Problem{Reason: table.ReasonNotInEnum, Expected: vc.ExpectedEnum})
	case vc.Minimum != nil && f < *vc.Minimum:
		o.add(path, table.Problem{Reason: table.ReasonBelowMinimum, Limit: int64(*vc.Minimum)})
	case vc.Maximum != nil && f > *vc.Maximum:
		o.add(path, table.Problem{Reason: table.ReasonAboveMaximum, Limit: int64(*vc.Maximum)})
	}
}

func (o *oracle) count(vc model.ValueCheck, path []string, n int) {
	switch {
	case vc.MinCount != nil && n < *vc.MinCount:
		o.add(path, table.Problem{Reason: table.ReasonTooFew, Limit: int64(*vc.MinCount)})
	case vc.MaxCount != nil && n > *vc.MaxCount:
		o.add(path, table.Problem{Reason: table.ReasonTooMany, Limit: int64(*vc.MaxCount)})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// compareWithOracle runs both body kinds (request, batch) of every schema
// the model validates on v and reports any difference.
func compareWithOracle(t testing.TB, schemas []model.SchemaValidation, v jsonvalue.Value) {
	t.Helper()
	for _, s := range schemas {
		if diff := cmp.Diff(oracleCheck(s, s.Request, v), validate.Request(s.Schema, v)); diff != "" {
			t.Errorf("Request %s differs from the oracle (-oracle +generated):\n%s", s.Schema, diff)
		}
		if s.Batch == "" {
			continue
		}
		if diff := cmp.Diff(oracleCheck(s, s.Batch, v), validate.BatchRequest(s.Schema, v)); diff != "" {
			t.Errorf("BatchRequest %s differs from the oracle (-oracle +generated):\n%s", s.Schema, diff)
		}
	}
	for _, s := range schemas {
		for _, r := range []struct {
			name, root string
			check      func(table.SchemaID, jsonvalue.Value) []table.Problem
		}{
			{"Response", s.Response, validate.Response}, {"BatchResponse", s.BatchResponse, validate.BatchResponse},
			{"Answer", s.Answer, validate.Answer}, {"ErrorBody", s.Error, validate.ErrorBody},
			{"Listing", s.Listing, validate.Listing}, {"Health", s.Health, validate.Health},
		} {
			if r.root == "" {
				continue
			}
			if diff := cmp.Diff(oracleCheck(s, r.root, v), r.check(s.Schema, v)); diff != "" {
				t.Errorf("%s %s differs from the oracle (-oracle +generated):\n%s", r.name, s.Schema, diff)
			}
		}
	}
}

// oracleBodies are the bodies both validators are compared on: the
// gen/validatetest tests' bodies (testdata/oracle/bodies.json, and their
// replies, testdata/oracle/replies.json), the decisions' own
// (testdata/oracle/decisions.json), every JSON file of generated/corpus
// and the upstream replies of runtime/target's golden cases.
func oracleBodies(t testing.TB) [][]byte {
	t.Helper()
	var bodies [][]byte
	for _, file := range []string{"testdata/oracle/bodies.json", "testdata/oracle/decisions.json", "testdata/oracle/replies.json"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var list []string
		if err := json.Unmarshal(data, &list); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, b := range list {
			bodies = append(bodies, []byte(b))
		}
	}
	err := filepath.WalkDir(filepath.Join("..", "..", "generated", "corpus"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".json" || d.Name() == "manifest.json" {
			return err
		}
		data, err := os.ReadFile(path)
		bodies = append(bodies, data)
		return err
	})
	if err != nil {
		t.Fatalf("read the corpus: %v", err)
	}
	replies, _ := filepath.Glob(filepath.Join("..", "..", "runtime", "target", "testdata", "*", "*", "replies.json"))
	for _, file := range replies {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var list []struct {
			Body json.RawMessage `json:"body"`
		}
		if err := json.Unmarshal(data, &list); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, r := range list {
			if len(r.Body) > 0 {
				bodies = append(bodies, r.Body)
			}
		}
	}
	if len(replies) == 0 {
		t.Fatal("no replies of runtime/target's golden cases")
	}
	return bodies
}

func TestGeneratedValidatorsMatchOracle(t *testing.T) {
	schemas := loadOracle(t)
	bodies := oracleBodies(t)
	if len(bodies) < 100 {
		t.Fatalf("only %d bodies; the test data is missing", len(bodies))
	}
	for _, body := range bodies {
		v, err := jsonvalue.Decode(body, jsonvalue.Options{})
		if err != nil {
			t.Fatalf("test body is not JSON: %v\n%s", err, body)
		}
		compareWithOracle(t, schemas, v)
	}
}

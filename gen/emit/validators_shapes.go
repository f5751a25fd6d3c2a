package emit

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/vllm-sr/systemone/gen/model"
)

// One function per distinct object shape. Schemas share most of their
// object checks (vllm-sr/4.0 and internal check a noul question the same
// way), so the validators file holds one function per shape: the class of
// object checks, over every schema, whose functions have identical bodies
// once each callee is replaced by its own shape. Every caller calls the
// shape's function.
//
// Shapes are found bottom-up, depth first through the callees, so a shape
// shared by two schemas makes their callers equal candidates too (two
// identical question checks can make two request checks identical).
//
// A shape is named after its first object check in schema order, then in
// the schema's object order, and written where that check used to be:
// standard02QuestionNoulCriteria checks the noul criteria of every schema.
// Both orders are the model's, so names and output are deterministic. The
// exported entry points (RequestVllmSR40, ...) stay one per schema.

// objectRef is one object check of one schema.
type objectRef struct {
	schema int    // index in the schema order
	name   string // model.ObjectCheck.Name
}

// shape is one emitted function and the object checks it serves.
type shape struct {
	fn    string      // Go function name
	users []objectRef // in schema order, then object order; users[0] names fn
}

// shapeSet maps every object check of the schemas to its shape.
type shapeSet struct {
	schemas []model.SchemaValidation
	objects []map[string]model.ObjectCheck // per schema, by name
	shapeOf map[objectRef]int              // index in shapes
	shapes  []shape                        // in the order they are written

	// Used while finding shapes only.
	ids      map[objectRef]int // provisional shape id
	byBody   map[string]int    // body rendered with placeholders → id
	building map[objectRef]bool
	pinned   map[objectRef]int // recursive checks: an id of their own
	next     int
	err      error
}

// findShapes groups every object check of schemas into shapes.
func findShapes(schemas []model.SchemaValidation) (*shapeSet, error) {
	set := &shapeSet{
		schemas: schemas, shapeOf: map[objectRef]int{},
		ids: map[objectRef]int{}, byBody: map[string]int{}, building: map[objectRef]bool{}, pinned: map[objectRef]int{},
	}
	for _, s := range schemas {
		byName := map[string]model.ObjectCheck{}
		for _, obj := range s.Objects {
			byName[obj.Name] = obj
		}
		set.objects = append(set.objects, byName)
		// The roots are called by name too (writeDispatch).
		for _, root := range []string{s.Request, s.Batch, s.Response, s.BatchResponse, s.Answer, s.Error, s.Listing, s.Health} {
			if _, ok := byName[root]; root != "" && !ok {
				return nil, fmt.Errorf("schema %s: no object check %q", s.Schema, root)
			}
		}
	}
	for i, s := range schemas {
		for _, obj := range s.Objects {
			set.resolve(objectRef{i, obj.Name})
			if set.err != nil {
				return nil, set.err
			}
		}
	}
	// Number the shapes in first-user order; a provisional id only says
	// which checks are equal.
	byID := map[int]int{}
	for i, s := range schemas {
		for _, obj := range s.Objects {
			ref := objectRef{i, obj.Name}
			k, ok := byID[set.ids[ref]]
			if !ok {
				k = len(set.shapes)
				byID[set.ids[ref]] = k
				set.shapes = append(set.shapes, shape{fn: objectFunc(s, obj.Name)})
			}
			set.shapes[k].users = append(set.shapes[k].users, ref)
			set.shapeOf[ref] = k
		}
	}
	set.ids, set.byBody, set.building, set.pinned = nil, nil, nil, nil
	return set, nil
}

// resolve gives ref its provisional shape id, first resolving its
// callees (through the placeholder callee function). A check reached again
// while its body is being built is recursive: it is pinned to an id of its
// own, which the callers' placeholders name, and never shares a function.
func (set *shapeSet) resolve(ref objectRef) int {
	if id, ok := set.ids[ref]; ok {
		return id
	}
	if set.building[ref] {
		if _, ok := set.pinned[ref]; !ok {
			set.pinned[ref] = set.newID()
		}
		return set.pinned[ref]
	}
	obj, ok := set.objects[ref.schema][ref.name]
	if !ok {
		set.fail(fmt.Errorf("schema %s: no object check %q", set.schemas[ref.schema].Schema, ref.name))
		return -1
	}
	set.building[ref] = true
	body, err := objectBody(obj, func(callee string) string {
		return "shape_" + strconv.Itoa(set.resolve(objectRef{ref.schema, callee}))
	})
	delete(set.building, ref)
	if err != nil {
		set.fail(fmt.Errorf("schema %s: object %s: %w", set.schemas[ref.schema].Schema, ref.name, err))
		return -1
	}
	id, pinned := set.pinned[ref]
	if !pinned {
		key, err := renderBody(body)
		if err != nil {
			set.fail(fmt.Errorf("schema %s: object %s: %w", set.schemas[ref.schema].Schema, ref.name, err))
			return -1
		}
		if id, ok = set.byBody[key]; !ok {
			id = set.newID()
			set.byBody[key] = id
		}
	}
	set.ids[ref] = id
	return id
}

func (set *shapeSet) newID() int { set.next++; return set.next }

// fail keeps the first error; resolve cannot return one through the
// callee function.
func (set *shapeSet) fail(err error) {
	if set.err == nil {
		set.err = err
	}
}

// renderBody is the Go text of an object function body, the key two
// checks are compared on.
func renderBody(body []jen.Code) (string, error) {
	var buf bytes.Buffer
	if err := jen.Func().Id("_").Params(objectParams()...).Block(body...).Render(&buf); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// funcName names the function that checks object check name of schema i.
func (set *shapeSet) funcName(i int, name string) string {
	return set.shapes[set.shapeOf[objectRef{i, name}]].fn
}

// callee names the functions schema i's checks call.
func (set *shapeSet) callee(i int) calleeFunc {
	return func(name string) string { return set.funcName(i, name) }
}

// writeShapes writes one function per shape, in first-user order.
func writeShapes(f *jen.File, set *shapeSet) error {
	for _, sh := range set.shapes {
		first := sh.users[0]
		body, err := objectBody(set.objects[first.schema][first.name], set.callee(first.schema))
		if err != nil {
			return fmt.Errorf("object %s: %w", first.name, err)
		}
		f.Comment(set.describe(sh))
		f.Func().Id(sh.fn).Params(objectParams()...).Block(body...)
	}
	return nil
}

// describe is a shape function's comment: which objects of which schemas
// it checks.
func (set *shapeSet) describe(sh shape) string {
	var names []string
	schemasOf := map[string][]string{}
	for _, u := range sh.users {
		if _, ok := schemasOf[u.name]; !ok {
			names = append(names, u.name)
		}
		schemasOf[u.name] = append(schemasOf[u.name], string(set.schemas[u.schema].Schema))
	}
	var parts []string
	for _, name := range names {
		parts = append(parts, fmt.Sprintf("%s %s object under %s", article(name), name, joinAnd(schemasOf[name])))
	}
	return fmt.Sprintf("%s checks the members of %s.", sh.fn, strings.Join(parts, ", and of "))
}

// article is the indefinite article before an object check's name.
func article(name string) string {
	if name != "" && strings.ContainsRune("aeiou", rune(name[0])) {
		return "an"
	}
	return "a"
}

func joinAnd(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

package emit

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"path"
	"strings"
)

// The hand-written Go the bind emitter reads, as Kubernetes'
// conversion-gen reads the package it generates into: the functions of the
// bind package (runtime/shapes) that are not srgen's, and the structs of
// the IR (runtime/ir) and of the bind package. From them it learns which
// member functions are written by hand (a hand-written function of the
// convention's name always wins, and srgen writes none for it), which
// object a level's read and write state binds (its first field), and the
// Go type of the IR field a member binds.

// irDir is the IR package's directory, relative to the bind source's root.
const irDir = "runtime/ir"

// goStruct is one struct type: its fields in declaration order.
type goStruct struct {
	fields []goField
}

// goField is one field: its name, its type as Go source with the IR's
// types qualified (ir.Probability; the bind package's own unqualified).
type goField struct {
	name, typ string
}

// handSource is what the bind emitter knows of the hand-written Go.
type handSource struct {
	// funcs are the bind package's hand-written functions and methods by
	// name, each body printed as one line of Go.
	funcs map[string]string
	// docs are the hand-written functions' doc comments by name ("" for
	// none).
	docs map[string]string
	// methods are the method names of each of the bind package's types.
	methods map[string]map[string]bool
	// structs are the struct types by qualified name ("ir.Answer") or, for
	// the bind package's, bare name ("answerRead").
	structs map[string]goStruct
	// aliases map a bind package alias to the type it names
	// (legacyErrorWrite = errorWrite).
	aliases map[string]string
	// underlying is the underlying type of each defined non-struct type
	// ("ir.Coverage": "string").
	underlying map[string]string
}

// readHandSource parses the bind package's hand-written files (every .go
// file under bindDir but its tests and srgen's zz_generated ones) and the
// IR's, from src.
func readHandSource(src fs.FS, bindDir string) (*handSource, error) {
	h := &handSource{funcs: map[string]string{}, docs: map[string]string{}, methods: map[string]map[string]bool{},
		structs: map[string]goStruct{}, aliases: map[string]string{}, underlying: map[string]string{}}
	if err := h.readPackage(src, bindDir, ""); err != nil {
		return nil, err
	}
	if err := h.readPackage(src, irDir, "ir"); err != nil {
		return nil, err
	}
	return h, nil
}

// readPackage reads the package in dir; qualifier is "" for the bind
// package, whose functions are read too, and "ir" for the IR.
func (h *handSource) readPackage(src fs.FS, dir, qualifier string) error {
	entries, err := fs.ReadDir(src, dir)
	if err != nil {
		return fmt.Errorf("bind source: %w", err)
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, "zz_generated.") {
			continue
		}
		data, err := fs.ReadFile(src, path.Join(dir, name))
		if err != nil {
			return fmt.Errorf("bind source: %w", err)
		}
		f, err := parser.ParseFile(fset, path.Join(dir, name), data, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			return fmt.Errorf("bind source: %w", err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if qualifier == "" {
					h.addFunc(fset, d)
				}
			case *ast.GenDecl:
				h.addTypes(d, qualifier)
			}
		}
	}
	return nil
}

func (h *handSource) addFunc(fset *token.FileSet, d *ast.FuncDecl) {
	h.funcs[d.Name.Name] = printBody(fset, d.Body)
	h.docs[d.Name.Name] = d.Doc.Text()
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return
	}
	recv := d.Recv.List[0].Type
	if star, ok := recv.(*ast.StarExpr); ok {
		recv = star.X
	}
	if id, ok := recv.(*ast.Ident); ok {
		if h.methods[id.Name] == nil {
			h.methods[id.Name] = map[string]bool{}
		}
		h.methods[id.Name][d.Name.Name] = true
	}
}

func (h *handSource) addTypes(d *ast.GenDecl, qualifier string) {
	for _, spec := range d.Specs {
		ts, ok := spec.(*ast.TypeSpec)
		if !ok {
			continue
		}
		name := qualify(qualifier, ts.Name.Name)
		st, isStruct := ts.Type.(*ast.StructType)
		switch {
		case ts.Assign.IsValid():
			h.aliases[name] = typeString(ts.Type, qualifier)
		case isStruct:
			h.structs[name] = structOf(st, qualifier)
		default:
			h.underlying[name] = typeString(ts.Type, qualifier)
		}
	}
}

func structOf(st *ast.StructType, qualifier string) goStruct {
	var s goStruct
	for _, f := range st.Fields.List {
		typ := typeString(f.Type, qualifier)
		for _, n := range f.Names {
			s.fields = append(s.fields, goField{name: n.Name, typ: typ})
		}
	}
	return s
}

func qualify(qualifier, name string) string {
	if qualifier == "" {
		return name
	}
	return qualifier + "." + name
}

// predeclared are the builtin types a field of a bound member may have.
var predeclared = map[string]bool{"string": true, "bool": true, "int": true, "int64": true, "float64": true, "byte": true, "any": true, "error": true}

// typeString is a type expression as Go source, its package's own named
// types qualified by qualifier; a form no binding uses is "?".
func typeString(e ast.Expr, qualifier string) string {
	switch e := e.(type) {
	case *ast.Ident:
		if predeclared[e.Name] {
			return e.Name
		}
		return qualify(qualifier, e.Name)
	case *ast.StarExpr:
		return "*" + typeString(e.X, qualifier)
	case *ast.ArrayType:
		if e.Len == nil {
			return "[]" + typeString(e.Elt, qualifier)
		}
	case *ast.SelectorExpr:
		if pkg, ok := e.X.(*ast.Ident); ok {
			return pkg.Name + "." + e.Sel.Name
		}
	}
	return "?"
}

// printBody prints a function body as one line: its statements' Go,
// whitespace collapsed, so two bodies compare by what they say.
func printBody(fset *token.FileSet, body *ast.BlockStmt) string {
	if body == nil {
		return ""
	}
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, body); err != nil {
		return ""
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// stateObject is the object a level's read or write state binds: the
// state's first field, when it is (a pointer to) a struct the source
// declares. It returns the field's name and the struct's name.
func (h *handSource) stateObject(state string) (field, object string, ok bool) {
	if target, alias := h.aliases[state]; alias {
		state = target
	}
	st, found := h.structs[state]
	if !found || len(st.fields) == 0 {
		return "", "", false
	}
	first := st.fields[0]
	object = strings.TrimPrefix(first.typ, "*")
	if _, isStruct := h.structs[object]; !isStruct {
		return "", "", false
	}
	return first.name, object, true
}

// boundField is the field of object that binds a member: the one the
// naming rule names (the member's Go CamelCase, as its vocab constant
// spells it after the level's prefix). The rule is the only way: a member
// bound to a field of another name is judgement, a hand-written function,
// so no spec name is ever typed into the IR.
func (h *handSource) boundField(object, camel string) (goField, bool) {
	st := h.structs[object]
	for _, f := range st.fields {
		if f.name == camel {
			return f, true
		}
	}
	return goField{}, false
}

package configschema

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strconv"
	"strings"
)

// Source is the file whose types state router.yaml's keys, relative to
// the repository root, and Root the type that is the whole file.
const (
	Source = "runtime/routerconfig/file.go"
	Root   = "fileForm"
)

// form is a struct type of Source: an object of router.yaml.
type form struct {
	Name   string
	Doc    string
	Fields []field
}

// field is one key of a form.
type field struct {
	Key  string
	Doc  string
	Type ast.Expr
	Tag  tag
}

// tag is a field's schema tag, parsed.
type tag struct {
	Required, Nullable, NullValues bool
	// Excludes is a key this one may not be given with.
	Excludes string
	// WithKey and WithValue: this key is given exactly when WithKey is
	// WithValue (with=action:route).
	WithKey, WithValue string
	Min, Max, ValueMin *float64
	Enum               []string
	Pattern, Keys      string
	// KeyEnum are the words a mapping's keys may be.
	KeyEnum []string
	OneOf   []string
}

// parse reads the struct types of src, by name.
func parse(src []byte, words map[string][]string) (map[string]*form, error) {
	f, err := parser.ParseFile(token.NewFileSet(), Source, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	forms := map[string]*form{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			ts := s.(*ast.TypeSpec)
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				continue
			}
			doc := g.Doc
			if ts.Doc != nil {
				doc = ts.Doc
			}
			fm := &form{Name: ts.Name.Name, Doc: docText(doc, ts.Name.Name, "")}
			for _, fl := range st.Fields.List {
				fd, err := readField(ts.Name.Name, fl, words)
				if err != nil {
					return nil, err
				}
				fm.Fields = append(fm.Fields, fd)
			}
			forms[fm.Name] = fm
		}
	}
	if forms[Root] == nil {
		return nil, fmt.Errorf("%s: no type %s", Source, Root)
	}
	return forms, nil
}

func readField(typ string, fl *ast.Field, words map[string][]string) (field, error) {
	if len(fl.Names) != 1 || fl.Tag == nil {
		return field{}, fmt.Errorf("%s: a field of %s needs one name and a tag", Source, typ)
	}
	name := fl.Names[0].Name
	raw, err := strconv.Unquote(fl.Tag.Value)
	if err != nil {
		return field{}, fmt.Errorf("%s: %s.%s: %v", Source, typ, name, err)
	}
	st := reflect.StructTag(raw)
	key := st.Get("yaml")
	if key == "" {
		return field{}, fmt.Errorf("%s: %s.%s has no yaml tag", Source, typ, name)
	}
	t, err := parseTag(st.Get("schema"))
	if err != nil {
		return field{}, fmt.Errorf("%s: %s.%s: %v", Source, typ, name, err)
	}
	// enum=@name takes the words of a list the specifications give.
	if len(t.Enum) == 1 && strings.HasPrefix(t.Enum[0], "@") {
		list, ok := words[t.Enum[0][1:]]
		if !ok || len(list) == 0 {
			return field{}, fmt.Errorf("%s: %s.%s: enum=%s names no word list the specifications give", Source, typ, name, t.Enum[0])
		}
		t.Enum = list
	}
	if fl.Doc == nil {
		return field{}, fmt.Errorf("%s: %s.%s has no doc comment, which the schema's description is", Source, typ, name)
	}
	return field{Key: key, Doc: docText(fl.Doc, name, key), Type: fl.Type, Tag: t}, nil
}

// docText is a doc comment as one paragraph. A type's drops its leading
// "name is " ("fileForm is a router.yaml" reads "A router.yaml"); a
// field's has its Go name replaced by the key ("AdminAddress moves"
// reads "admin_address moves").
func docText(g *ast.CommentGroup, name, key string) string {
	if g == nil {
		return ""
	}
	text := strings.Join(strings.Fields(g.Text()), " ")
	if key != "" {
		if rest, ok := strings.CutPrefix(text, name+" "); ok {
			return key + " " + rest
		}
		return text
	}
	if rest, ok := strings.CutPrefix(text, name+" is "); ok && rest != "" {
		return strings.ToUpper(rest[:1]) + rest[1:]
	}
	return text
}

func parseTag(s string) (tag, error) {
	var t tag
	if s == "" {
		return t, nil
	}
	for _, item := range strings.Split(s, ";") {
		name, value, _ := strings.Cut(item, "=")
		switch name {
		case "required":
			t.Required = true
		case "nullable":
			t.Nullable = true
		case "nullvalues":
			t.NullValues = true
		case "excludes":
			t.Excludes = value
		case "with":
			var ok bool
			if t.WithKey, t.WithValue, ok = strings.Cut(value, ":"); !ok {
				return t, fmt.Errorf("schema tag %s: want with=KEY:VALUE", item)
			}
		case "min", "max", "valuemin":
			v, err := strconv.ParseFloat(value, 64)
			if err != nil {
				return t, fmt.Errorf("schema tag %s: %v", item, err)
			}
			*map[string]**float64{"min": &t.Min, "max": &t.Max, "valuemin": &t.ValueMin}[name] = &v
		case "enum":
			t.Enum = strings.Split(value, "|")
		case "pattern":
			t.Pattern = value
		case "keys":
			t.Keys = value
		case "keyenum":
			t.KeyEnum = strings.Split(value, "|")
		case "oneof":
			t.OneOf = strings.Split(value, "|")
		default:
			return t, fmt.Errorf("schema tag: unknown item %q", item)
		}
	}
	return t, nil
}

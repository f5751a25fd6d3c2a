package emit

import (
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/vllm-sr/systemone/runtime/table"
)

// This file holds the jennifer helpers the Go emitters share: one struct
// literal per line, zero members left out, slices one element a line.

// pair is one member of a struct literal; a nil value is left out.
type pair struct {
	name  string
	value jen.Code
}

// structLit renders {Name: v, ...} on one line, skipping nil values.
func structLit(pairs ...pair) *jen.Statement {
	return jen.ValuesFunc(func(g *jen.Group) {
		for _, p := range pairs {
			if p.value != nil {
				g.Id(p.name).Op(":").Add(p.value)
			}
		}
	})
}

// sliceLit renders []T{ e1, e2, ... } with one element a line.
func sliceLit(elemType jen.Code, elems []jen.Code) *jen.Statement {
	return jen.Index().Add(elemType).ValuesFunc(func(g *jen.Group) {
		for _, e := range elems {
			g.Line().Add(e)
		}
		if len(elems) > 0 {
			g.Line()
		}
	})
}

func tableType(name string) *jen.Statement { return jen.Qual(tablePath, name) }

// optStr is a string member, left out when empty.
func optStr(s string) jen.Code {
	if s == "" {
		return nil
	}
	return jen.Lit(s)
}

// optBool is a bool member, left out when false.
func optBool(b bool) jen.Code {
	if !b {
		return nil
	}
	return jen.True()
}

// optInt is an int member, left out when zero.
func optInt(n int) jen.Code {
	if n == 0 {
		return nil
	}
	return jen.Lit(n)
}

// strList is []string{...} on one line, left out when empty.
func strList(xs []string) jen.Code {
	if len(xs) == 0 {
		return nil
	}
	return jen.Index().String().ValuesFunc(func(g *jen.Group) {
		for _, x := range xs {
			g.Lit(x)
		}
	})
}

// typedList is []table.T{...} of string values, left out when empty.
func typedList[T ~string](typeName string, xs []T) jen.Code {
	if len(xs) == 0 {
		return nil
	}
	return jen.Index().Add(tableType(typeName)).ValuesFunc(func(g *jen.Group) {
		for _, x := range xs {
			g.Lit(string(x))
		}
	})
}

func families(xs []table.Family) jen.Code { return typedList("Family", xs) }

func questionTypes(xs []table.QuestionType) jen.Code { return typedList("QuestionType", xs) }

func schemaIDs(xs []table.SchemaID) jen.Code { return typedList("SchemaID", xs) }

// switchCase is one case of a generated switch: its string labels and body.
type switchCase struct {
	labels []string
	body   []jen.Code
}

// stringSwitch renders switch on subject with one case per entry; cases
// with no labels are skipped.
func stringSwitch(subject jen.Code, cases []switchCase) *jen.Statement {
	return jen.Switch(subject).BlockFunc(func(g *jen.Group) {
		for _, c := range cases {
			if len(c.labels) == 0 {
				continue
			}
			g.CaseFunc(func(g *jen.Group) {
				for _, l := range c.labels {
					g.Lit(l)
				}
			}).Block(c.body...)
		}
	})
}

// docComment renders text as consecutive // lines (jennifer would render a
// multi-line Comment as a /* */ block).
func docComment(text string) *jen.Statement {
	s := jen.Null()
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			s.Line()
		}
		s.Comment(line)
	}
	return s
}

// fileComment adds text to f as consecutive // lines.
func fileComment(f *jen.File, text string) {
	for _, line := range strings.Split(text, "\n") {
		f.Comment(line)
	}
}

// packageComment adds the package doc to f as consecutive // lines.
func packageComment(f *jen.File, text string) {
	for _, line := range strings.Split(text, "\n") {
		f.PackageComment(line)
	}
}

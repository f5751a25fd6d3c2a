package emit

import (
	"errors"
	"fmt"
	"io/fs"
	"path"

	"github.com/vllm-sr/systemone/gen/model"
)

// Options say where the artifacts go. Directories are repository-relative
// and slash-separated.
type Options struct {
	// GeneratedDir holds the generated Go packages, the corpus and the
	// Python tables.
	GeneratedDir string
	// DocsDir holds the generated reference Markdown.
	DocsDir string
	// GoPackage is the import path of GeneratedDir.
	GoPackage string
	// BindDir is the runtime package the request shapes' binding is
	// generated into, and BindPackage its import path; empty: no binding
	// is written.
	BindDir, BindPackage string
	// BindSource is the repository tree the binding's hand-written Go is
	// read from (BindDir's own files, and runtime/ir's): srgen writes a
	// default for every bound member function it does not declare
	// (bind_defaults.go). Nil: every bound member calls a hand-written
	// function and srgen writes none (the emitter fixtures').
	BindSource fs.FS
}

// DefaultOptions are this repository's layout.
func DefaultOptions() Options {
	return Options{
		GeneratedDir: "generated",
		DocsDir:      "docs/reference",
		GoPackage:    "github.com/vllm-sr/systemone/generated",
		BindDir:      "runtime/shapes",
		BindPackage:  "github.com/vllm-sr/systemone/runtime/shapes",
	}
}

// goPackage returns the directory and import path of a generated package.
func (o Options) goPackage(name string) (dir, importPath string) {
	return path.Join(o.GeneratedDir, name), o.GoPackage + "/" + name
}

// Emitters is the ordered table of every artifact srgen writes.
func Emitters(o Options) []Emitter {
	return []Emitter{
		{Name: "fields", Emit: o.fields},
		{Name: "tables", Emit: o.tables},
		{Name: "strip", Emit: o.strip},
		{Name: "validators", Emit: o.validators},
		{Name: "hashes", Emit: o.hashes},
		{Name: "vocab", Emit: o.vocab},
		{Name: "bind", Emit: o.bind},
		{Name: "python", Emit: o.python},
		{Name: "corpus", Emit: o.corpus},
		{Name: "catalog", Emit: o.catalog},
		{Name: "docs", Emit: o.docs},
		{Name: "openapi", Emit: o.openapi},
	}
}

// All runs every emitter in table order and returns their files in that
// order. It reports every emitter's failure at once, each named.
func All(m *model.Model, emitters []Emitter) ([]File, error) {
	var files []File
	var errs []error
	for _, e := range emitters {
		out, err := e.Emit(m)
		if err != nil {
			errs = append(errs, fmt.Errorf("emitter %s: %w", e.Name, err))
			continue
		}
		files = append(files, out...)
	}
	return files, errors.Join(errs...)
}

// Docs is the reference-docs emitter alone, for `srgen docs`.
func Docs(o Options) Emitter { return Emitter{Name: "docs", Emit: o.docs} }

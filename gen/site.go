package gen

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/vllm-sr/systemone/gen/docsite"
	"github.com/vllm-sr/systemone/gen/emit"
	"github.com/vllm-sr/systemone/gen/model"
)

// SiteFiles returns the doc site (package docsite) of the repository at
// root: a landing page opened by README.md's first paragraph, its guides
// from docs/ and docs/design/, and as its reference exactly the files
// `srgen generate` writes under docs/reference (every emitter's, so an
// emitter added there, such as the OpenAPI document's, is on the site too,
// and router.yaml's schema and reference page)
// plus the frozen vllm-sr/4.0 OpenAPI document. Paths are relative to the
// site's root.
func SiteFiles(m *model.Model, root string) ([]emit.File, error) {
	o := emit.DefaultOptions()
	// The site mirrors docs/: its reference/ is docs/reference.
	if path.Base(o.DocsDir) != docsite.ReferenceDir {
		return nil, fmt.Errorf("the site's %s/ mirrors %s, which has another name", docsite.ReferenceDir, o.DocsDir)
	}
	files, err := allFiles(m, root, o)
	if err != nil {
		return nil, err
	}
	var ref []emit.File
	for _, f := range files {
		if rel, ok := strings.CutPrefix(f.Path, o.DocsDir+"/"); ok {
			ref = append(ref, emit.File{Path: rel, Data: f.Data})
		}
	}
	contract := m.Spec(model.SpecContract40)
	if contract == nil {
		return nil, fmt.Errorf("the model has no %s specification", model.SpecContract40)
	}
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(contract.Path)))
	if err != nil {
		return nil, err
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		return nil, err
	}
	return docsite.Assemble(docsite.Input{
		Docs:      os.DirFS(filepath.Join(root, path.Dir(o.DocsDir))),
		Readme:    readme,
		Reference: ref,
		Frozen:    []docsite.Frozen{{Name: emit.OpenAPIFileName(contract.SchemaID), Source: contract.Path, Data: data}},
	})
}

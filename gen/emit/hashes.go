package emit

import (
	"fmt"
	"regexp"

	"github.com/dave/jennifer/jen"

	"github.com/vllm-sr/systemone/gen/model"
)

var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// hashes writes generated/fieldtable/zz_generated.hashes.go: each
// specification's repository path and sha256, which the runtime's registry
// checks at start-up.
func (o Options) hashes(m *model.Model) ([]File, error) {
	dir, importPath := o.goPackage("fieldtable")
	f := newGoFile(importPath, "fieldtable", specPaths(m))
	rows := make([]jen.Code, len(m.Specs))
	consts := make([]jen.Code, 0, 2*len(m.Specs))
	for i, s := range m.Specs {
		if !sha256Hex.MatchString(s.SHA256) {
			return nil, fmt.Errorf("spec %s: sha256 %q is not 64 lowercase hex digits", s.Path, s.SHA256)
		}
		name := "Spec" + model.SchemaGoName(s.SchemaID)
		consts = append(consts,
			jen.Comment(fmt.Sprintf("%sPath is the specification of %s.", name, s.SchemaID)),
			jen.Id(name+"Path").Op("=").Lit(s.Path),
			jen.Comment(fmt.Sprintf("%sSHA256 is the sha256 of %s.", name, s.Path)),
			jen.Id(name+"SHA256").Op("=").Lit(s.SHA256),
		)
		rows[i] = structLit(
			pair{"Schema", jen.Lit(string(s.SchemaID))},
			pair{"Path", jen.Id(name + "Path")},
			pair{"SHA256", jen.Id(name + "SHA256")},
		)
	}
	f.Const().Defs(consts...)
	fileComment(f, "SpecHashes are the specifications in spec order: standard, extensions, 4.0 contract.")
	f.Var().Id("SpecHashes").Op("=").Add(sliceLit(tableType("SpecHash"), rows))
	file, err := render(dir+"/zz_generated.hashes.go", f)
	return []File{file}, err
}

package emit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"

	"github.com/dave/jennifer/jen"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// ManifestFormat is the format member of generated/corpus/manifest.json.
const ManifestFormat = "srgen-corpus-manifest/1"

// corpus writes the round-trip golden corpus: each case's body as compact
// JSON at generated/corpus/<kind>/<name>.json (member order and number
// literals as written in the spec), manifest.json, and the Go index
// zz_generated.corpus.go that embeds them.
func (o Options) corpus(m *model.Model) ([]File, error) {
	dir, importPath := o.goPackage("corpus")
	if len(m.Corpus.Cases) == 0 {
		return nil, fmt.Errorf("the model has no corpus cases")
	}
	var files []File
	var embedDirs []string
	for _, c := range m.Corpus.Cases {
		if c.Body.Kind() != jsonvalue.KindObject {
			return nil, fmt.Errorf("corpus case %q: body is %s, not an object", c.Name, c.Body.Kind())
		}
		files = append(files, File{Path: path.Join(dir, c.Path), Data: jsonvalue.Compact(c.Body)})
		if top := firstSegment(c.Path); !containsString(embedDirs, top) {
			embedDirs = append(embedDirs, top)
		}
	}
	manifest, err := corpusManifest(m, files)
	if err != nil {
		return nil, err
	}
	files = append(files, File{Path: path.Join(dir, "manifest.json"), Data: manifest})
	index, err := render(path.Join(dir, "zz_generated.corpus.go"), corpusIndex(m, importPath, embedDirs))
	if err != nil {
		return nil, err
	}
	return append(files, index), nil
}

func corpusIndex(m *model.Model, importPath string, embedDirs []string) *jen.File {
	f := newGoFile(importPath, "corpus", m.Corpus.Files)
	packageComment(f, "Package corpus is the round-trip golden corpus: requests in the internal\n"+
		"wire form, as canonical compact JSON, embedded with their index. It is\n"+
		"generated from specs/corpus: edit the specs, not this package.")
	f.Anon("embed")
	embed := "//go:embed manifest.json"
	for _, d := range embedDirs {
		embed += " " + d
	}
	fileComment(f, "FS holds manifest.json and every case's JSON at its Path.")
	fileComment(f, embed)
	f.Var().Id("FS").Qual("embed", "FS")
	rows := make([]jen.Code, len(m.Corpus.Cases))
	for i, c := range m.Corpus.Cases {
		rows[i] = structLit(
			pair{"Name", jen.Lit(c.Name)},
			pair{"Path", jen.Lit(c.Path)},
			pair{"Kind", jen.Lit(string(c.Kind))},
			pair{"Family", optStr(string(c.Family))},
			pair{"Form", optStr(c.Form)},
			pair{"Endpoint", jen.Lit(c.Endpoint)},
		)
	}
	fileComment(f, "Cases are every corpus request, in the order the spec files list them.")
	f.Var().Id("Cases").Op("=").Add(sliceLit(tableType("CorpusCase"), rows))
	return f
}

// corpusManifest is canonical JSON (sorted keys, two-space indent, final
// newline) describing each case and the sha256 of its bytes.
func corpusManifest(m *model.Model, files []File) ([]byte, error) {
	cases := make([]map[string]any, len(m.Corpus.Cases))
	for i, c := range m.Corpus.Cases {
		sum := sha256.Sum256(files[i].Data)
		entry := map[string]any{
			"name":        c.Name,
			"kind":        string(c.Kind),
			"endpoint":    c.Endpoint,
			"path":        c.Path,
			"source":      c.Source,
			"description": c.Description,
			"sha256":      hex.EncodeToString(sum[:]),
		}
		if c.Family != "" {
			entry["family"] = string(c.Family)
		}
		if c.Form != "" {
			entry["form"] = c.Form
		}
		cases[i] = entry
	}
	forms := make([]map[string]any, len(m.Corpus.Forms))
	for i, f := range m.Corpus.Forms {
		forms[i] = map[string]any{"name": f.Name, "description": f.Description, "removed": f.Removed}
	}
	return canonicalJSON(map[string]any{
		"format":  ManifestFormat,
		"sources": m.Corpus.Files,
		"forms":   forms,
		"cases":   cases,
	})
}

// canonicalJSON encodes v with sorted keys, two-space indent and a final
// newline, without HTML escaping.
func canonicalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func firstSegment(p string) string {
	for i := 0; i < len(p); i++ {
		if p[i] == '/' {
			return p[:i]
		}
	}
	return p
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

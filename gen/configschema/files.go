package configschema

import (
	"fmt"
	"path"

	"github.com/vllm-sr/systemone/gen/emit"
	"github.com/vllm-sr/systemone/gen/model"
)

// The files written under the reference-doc dir, and the guide the page
// links to (relative to that dir).
const (
	SchemaFile = "router-config.schema.json"
	PageFile   = "router-config.md"
	Guide      = "../router-config.md"
)

// Words are the word lists of the specifications file.go's enums may
// name (enum=@features): the listing's feature words, which a deployment
// without a card declares as its capabilities.
func Words(m *model.Model) map[string][]string {
	var features []string
	for _, f := range m.Features {
		features = append(features, f.Feature)
	}
	return map[string][]string{"features": features}
}

// Files returns the schema and its reference page under docsDir, from
// src, the bytes of Source, and words (Words).
func Files(src []byte, docsDir string, words map[string][]string) ([]emit.File, error) {
	schema, err := Schema(src, words)
	if err != nil {
		return nil, fmt.Errorf("router.yaml's schema: %w", err)
	}
	page, err := Page(schema, emit.MarkdownHeader, SchemaFile, Guide)
	if err != nil {
		return nil, fmt.Errorf("router.yaml's reference page: %w", err)
	}
	return []emit.File{
		{Path: path.Join(docsDir, SchemaFile), Data: schema},
		{Path: path.Join(docsDir, PageFile), Data: page},
	}, nil
}

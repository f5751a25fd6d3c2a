package configschema

import (
	"fmt"
	"path"

	"github.com/vllm-sr/systemone/gen/emit"
)

// The files written under the reference-doc dir, and the guide the page
// links to (relative to that dir).
const (
	SchemaFile = "router-config.schema.json"
	PageFile   = "router-config.md"
	Guide      = "../router-config.md"
)

// Files returns the schema and its reference page under docsDir, from
// src, the bytes of Source.
func Files(src []byte, docsDir string) ([]emit.File, error) {
	schema, err := Schema(src)
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

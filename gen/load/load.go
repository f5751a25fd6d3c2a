package load

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"

	"go.yaml.in/yaml/v3"
)

// Paths are the slash-separated paths of the spec files and their format
// schemas, relative to the root of the fs.FS they are read from.
type Paths struct {
	Standard         string
	Extensions       string
	Contract         string
	StandardSchema   string
	ExtensionsSchema string
}

// DefaultPaths are the repository's own spec files.
func DefaultPaths() Paths {
	return Paths{
		Standard:         "specs/systemone/systemone-0.2.schema.yaml",
		Extensions:       "specs/systemone/vllm-sr-5.0.extensions.yaml",
		Contract:         "specs/systemone/vllm-sr-4.0.openapi.yaml",
		StandardSchema:   "specs/standard.schema.json",
		ExtensionsSchema: "specs/extensions.schema.json",
	}
}

// File is one spec file's path, bytes and their sha256.
type File struct {
	Path string
	// SHA256 is the lowercase hex sha256 of Data.
	SHA256 string
	Data   []byte
}

// Specs are the three raw specifications.
type Specs struct {
	Standard   *Standard
	Extensions *Extensions
	Contract   *Contract
	// Paths they were read from.
	Paths Paths
}

// LoadDir loads the default spec paths from a repository root directory.
func LoadDir(root string) (*Specs, error) {
	return Load(os.DirFS(root), DefaultPaths())
}

// Load reads, checks and decodes the three specs from fsys. It returns
// every problem found as a Problems error; the Specs it returns alongside
// an error are nil.
func Load(fsys fs.FS, paths Paths) (*Specs, error) {
	var ps Problems
	stdSchema := readFormatSchema(fsys, paths.StandardSchema, &ps)
	extSchema := readFormatSchema(fsys, paths.ExtensionsSchema, &ps)
	specs := &Specs{Paths: paths}
	if f, ok := readFile(fsys, paths.Standard, &ps); ok {
		if root := checkYAML(f, stdSchema, &ps); root != nil {
			specs.Standard = decodeStandard(f, root, &ps)
		}
	}
	if f, ok := readFile(fsys, paths.Extensions, &ps); ok {
		if root := checkYAML(f, extSchema, &ps); root != nil {
			specs.Extensions = decodeExtensions(f, root, &ps)
		}
	}
	if f, ok := readFile(fsys, paths.Contract, &ps); ok {
		specs.Contract = loadContract(f, &ps)
	}
	if err := ps.Err(); err != nil {
		return nil, err
	}
	return specs, nil
}

// checkYAML parses a YAML spec and validates it against its format schema;
// it returns the root node only when the file has no problems.
func checkYAML(f File, schema *formatSchema, ps *Problems) *yaml.Node {
	before := len(*ps)
	root := parseYAML(f.Path, f.Data, ps)
	if root == nil || schema == nil {
		return nil
	}
	schema.validate(f.Path, root, ps)
	if len(*ps) != before {
		return nil
	}
	return root
}

func readFile(fsys fs.FS, path string, ps *Problems) (File, bool) {
	data, err := fs.ReadFile(fsys, path)
	if err != nil {
		ps.Add(Position{File: path}, "cannot read: %v", err)
		return File{}, false
	}
	sum := sha256.Sum256(data)
	return File{Path: path, SHA256: hex.EncodeToString(sum[:]), Data: data}, true
}

func readFormatSchema(fsys fs.FS, path string, ps *Problems) *formatSchema {
	f, ok := readFile(fsys, path, ps)
	if !ok {
		return nil
	}
	s, err := compileFormatSchema(f.Path, f.Data)
	if err != nil {
		if more, ok := AsProblems(err); ok {
			*ps = append(*ps, more...)
		} else {
			ps.Add(Position{File: path}, "%v", err)
		}
		return nil
	}
	return s
}

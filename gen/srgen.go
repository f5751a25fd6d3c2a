package gen

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"

	"github.com/vllm-sr/systemone/gen/configschema"
	"github.com/vllm-sr/systemone/gen/emit"
	"github.com/vllm-sr/systemone/gen/load"
	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/gen/write"
)

// Config is one generator run.
type Config struct {
	// Root is the repository root; specs are read and outputs written
	// relative to it.
	Root string
	// GeneratedDir, DocsDir and GoPackage say where the artifacts go
	// (emit.Options); zero values take emit.DefaultOptions.
	GeneratedDir string
	DocsDir      string
	GoPackage    string
	// Check diffs the output against the disk and writes nothing.
	Check bool
}

// Result is what a run found or did.
type Result struct {
	// Files are every file the run produced, in emitter order.
	Files []emit.File
	// Changes are the files that differed: written and removed by a
	// generate run, only reported by a check run. Sorted by path.
	Changes []write.Change
}

// Stale reports whether a check run found the disk out of date.
func (r Result) Stale() bool { return len(r.Changes) > 0 }

// options fills the zero values of c from the defaults.
func (c Config) options() emit.Options {
	o := emit.DefaultOptions()
	if c.GeneratedDir != "" {
		o.GeneratedDir = c.GeneratedDir
	}
	if c.DocsDir != "" {
		o.DocsDir = c.DocsDir
	}
	if c.GoPackage != "" {
		o.GoPackage = c.GoPackage
	}
	return o
}

// Ownership is what a run with options o may write and remove: generated
// Go files anywhere under the generated dir and in the bind dir, and
// everything under the corpus, Python and reference-doc dirs.
func Ownership(o emit.Options) write.Ownership {
	return write.Ownership{
		GeneratedRoots: bindRoot(o, o.GeneratedDir),
		OwnedDirs: []string{
			path.Join(o.GeneratedDir, "corpus"),
			path.Join(o.GeneratedDir, "python"),
			o.DocsDir,
		},
	}
}

// bindRoot adds, to the generated roots, the runtime package srgen writes
// the request shapes' binding into (its zz_generated files alone are
// srgen's).
func bindRoot(o emit.Options, roots ...string) []string {
	if o.BindDir != "" {
		roots = append(roots, o.BindDir)
	}
	return roots
}

// Build loads the specs and the corpus under root and returns the model.
func Build(root string) (*model.Model, error) {
	fsys := os.DirFS(root)
	specs, err := load.Load(fsys, load.DefaultPaths())
	if err != nil {
		return nil, fmt.Errorf("load specs:\n%w", err)
	}
	m, err := model.Build(specs)
	if err != nil {
		return nil, fmt.Errorf("build model:\n%w", err)
	}
	corpus, err := load.LoadCorpus(fsys)
	if err != nil {
		return nil, fmt.Errorf("load corpus:\n%w", err)
	}
	if m.Corpus, err = model.BuildCorpus(m, corpus); err != nil {
		return nil, fmt.Errorf("build corpus:\n%w", err)
	}
	catalog, err := load.LoadCatalog(fsys)
	if err != nil {
		return nil, fmt.Errorf("load model catalogue:\n%w", err)
	}
	if m.Catalog, err = model.BuildCatalog(m, catalog); err != nil {
		return nil, fmt.Errorf("build model catalogue:\n%w", err)
	}
	return m, nil
}

// Run is load → model → emit → write. With Check it writes nothing and
// returns the changes a generate run would make.
func Run(ctx context.Context, c Config) (Result, error) {
	if c.Root == "" {
		return Result{}, errors.New("config: Root is empty")
	}
	m, err := Build(c.Root)
	if err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	o := c.options()
	o.BindSource = os.DirFS(c.Root)
	own := Ownership(o)
	files, err := allFiles(m, c.Root, o)
	if err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	disk := write.OSFS{Root: c.Root}
	var changes []write.Change
	if c.Check {
		changes, err = write.Diff(disk, own, files)
	} else {
		changes, err = write.Apply(disk, own, files)
	}
	return Result{Files: files, Changes: changes}, err
}

// allFiles are every emitter's files and router.yaml's schema and
// reference page (package configschema), read from the Go types under
// root that state the file's keys.
func allFiles(m *model.Model, root string, o emit.Options) ([]emit.File, error) {
	files, err := emit.All(m, emit.Emitters(o))
	if err != nil {
		return nil, err
	}
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(configschema.Source)))
	if err != nil {
		return nil, err
	}
	config, err := configschema.Files(src, o.DocsDir, configschema.Words(m))
	if err != nil {
		return nil, err
	}
	return append(files, config...), nil
}

// WriteDocs writes the doc site into the directory out (`srgen docs
// --out DIR`, SiteFiles) and returns what it changed. out may hold other
// files (the Docusaurus project's, the user's): srgen replaces the files it
// writes and removes only the ones its previous run wrote there and this
// one does not, by the manifest it keeps in out (write.ApplyManifest).
func WriteDocs(ctx context.Context, root, out string) ([]write.Change, error) {
	m, err := Build(root)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	files, err := SiteFiles(m, root)
	if err != nil {
		return nil, err
	}
	return write.ApplyManifest(write.OSFS{Root: out}, files)
}

// Lint loads the specs and the corpus and builds the model, which runs
// every spec check, and writes nothing.
func Lint(root string) error {
	_, err := Build(root)
	return err
}

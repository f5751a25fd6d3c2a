package registry

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// VerifySpecFiles hashes each registered schema's specification file under
// root (the repository root, or a directory laid out like it) and reports
// every file whose bytes are not those its codec was built against.
func (r *Schemas) VerifySpecFiles(root string) error {
	var errs []error
	var done []string
	for _, s := range r.schemas {
		if slices.Contains(done, s.Spec.Path) {
			continue
		}
		done = append(done, s.Spec.Path)
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(s.Spec.Path)))
		if err != nil {
			errs = append(errs, fmt.Errorf("schema %q: %w", s.ID, err))
			continue
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != s.Spec.SHA256 {
			errs = append(errs, fmt.Errorf("schema %q: %s has sha256 %s, the codec was built against %s; run make generate",
				s.ID, s.Spec.Path, got, s.Spec.SHA256))
		}
	}
	return errors.Join(errs...)
}

package docsite

import (
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"strings"
)

// schemeRE matches a link with a scheme (https:, mailto:), which leaves
// the tree and is not checked.
var schemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// LinkTarget resolves a relative link of the file name against the tree:
// the file it names (slash-separated, relative to the tree's root; name
// itself for "#anchor") and the anchor. external is true for a link with
// a scheme, which names no file of the tree.
func LinkTarget(name, target string) (file, anchor string, external bool, err error) {
	if schemeRE.MatchString(target) || strings.HasPrefix(target, "//") {
		return "", "", true, nil
	}
	p, anchor, _ := strings.Cut(target, "#")
	if p, err = url.PathUnescape(p); err != nil {
		return "", "", false, fmt.Errorf("link %q: %v", target, err)
	}
	switch {
	case p == "":
		return name, anchor, false, nil
	case strings.HasPrefix(p, "/"):
		// A site-absolute path means another file on GitHub than on the
		// site; a relative one means the same file in both.
		return "", "", false, fmt.Errorf("link %q: an absolute path; link relative to the file", target)
	}
	file = path.Join(path.Dir(name), p)
	if file == ".." || strings.HasPrefix(file, "../") {
		return "", "", false, fmt.Errorf("link %q leaves the tree (%s)", target, file)
	}
	return file, anchor, false, nil
}

// CheckLinks checks every relative link of the Markdown file name in
// fsys: the file it names exists (a file, not a directory), and an anchor
// names a heading of that file, which must then be Markdown. Each error
// names the file and line.
func CheckLinks(fsys fs.FS, name string) []error {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return []error{err}
	}
	var errs []error
	docs := map[string]Doc{name: Scan(data)}
	for _, l := range docs[name].Links {
		if err := checkLink(fsys, name, l.Target, docs); err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: %w", name, l.Line, err))
		}
	}
	return errs
}

// checkLink checks one link; docs caches the files already scanned.
func checkLink(fsys fs.FS, name, target string, docs map[string]Doc) error {
	file, anchor, external, err := LinkTarget(name, target)
	if external || err != nil {
		return err
	}
	fi, err := fs.Stat(fsys, file)
	switch {
	case err != nil:
		return fmt.Errorf("link %q: %s does not exist", target, file)
	case fi.IsDir():
		return fmt.Errorf("link %q: %s is a directory; link a file", target, file)
	case anchor == "":
		return nil
	case path.Ext(file) != ".md":
		return fmt.Errorf("link %q: an anchor into %s, which is not Markdown", target, file)
	}
	d, ok := docs[file]
	if !ok {
		data, err := fs.ReadFile(fsys, file)
		if err != nil {
			return err
		}
		d = Scan(data)
		docs[file] = d
	}
	if !d.Anchors[anchor] {
		return fmt.Errorf("link %q: %s has no heading #%s", target, file, anchor)
	}
	return nil
}

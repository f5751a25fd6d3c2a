package load

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Position is a place in a spec file. Line and Column are 1-based; zero
// means unknown (the whole file).
type Position struct {
	File   string
	Line   int
	Column int
}

// String returns file:line:column, or just the file when the line is unknown.
func (p Position) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)
}

// Problem is one thing wrong with a spec.
type Problem struct {
	Pos Position
	Msg string
}

func (p Problem) Error() string { return p.Pos.String() + ": " + p.Msg }

// Problems is every problem found, reported at once. It is an error when
// it is not empty.
type Problems []Problem

// Add records a problem at pos.
func (ps *Problems) Add(pos Position, format string, args ...any) {
	*ps = append(*ps, Problem{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Err returns the problems sorted by position as one error, or nil.
func (ps Problems) Err() error {
	if len(ps) == 0 {
		return nil
	}
	sorted := append(Problems(nil), ps...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i].Pos, sorted[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	return sorted
}

// Error lists one problem a line.
func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap exposes each problem to errors.Is and errors.As.
func (ps Problems) Unwrap() []error {
	errs := make([]error, len(ps))
	for i, p := range ps {
		errs[i] = p
	}
	return errs
}

// AsProblems returns the problems an error carries, if it is (or wraps)
// a Problems.
func AsProblems(err error) (Problems, bool) {
	var ps Problems
	if errors.As(err, &ps) {
		return ps, true
	}
	return nil, false
}

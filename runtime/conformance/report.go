package conformance

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Result is one case's outcome.
type Result struct {
	// Name is the case's short name, such as question/choice.
	Name   string `json:"name"`
	Method string `json:"method"`
	Path   string `json:"path"`
	OK     bool   `json:"ok"`
	// Status is the answer's HTTP status; 0 when none came.
	Status int `json:"status"`
	// Reason says why the case failed: every check that did not hold,
	// separated by "; ". Empty when it passed.
	Reason string `json:"reason,omitempty"`
}

// Report is a run's outcome: every case in the order run.
type Report struct {
	URL    string `json:"url"`
	Schema string `json:"schema"`
	// Model is the model the requests named; "" when they named none.
	Model   string   `json:"model"`
	Passed  int      `json:"passed"`
	Failed  int      `json:"failed"`
	Results []Result `json:"cases"`
}

func (r *Report) add(res Result) {
	r.Results = append(r.Results, res)
	if res.OK {
		r.Passed++
	} else {
		r.Failed++
	}
}

// WriteText writes one line per case, ok or FAIL, then the method, path
// and name of its request, and the reason of a failure; then a summary
// line.
func (r *Report) WriteText(w io.Writer) error {
	var widths [3]int
	for _, res := range r.Results {
		for i, cell := range []string{res.Method, res.Path, res.Name} {
			widths[i] = max(widths[i], len(cell))
		}
	}
	for _, res := range r.Results {
		line := fmt.Sprintf("%-4s  %-*s  %-*s  %-*s  %s", verdict(res), widths[0], res.Method, widths[1], res.Path,
			widths[2], res.Name, oneLine(res.Reason))
		if _, err := fmt.Fprintln(w, strings.TrimRight(line, " ")); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, r.Summary())
	return err
}

func verdict(res Result) string {
	if res.OK {
		return "ok"
	}
	return "FAIL"
}

// Summary is the report's last line: the counts, the schema, the server
// and the model.
func (r *Report) Summary() string {
	return fmt.Sprintf("%d cases: %d ok, %d FAIL (%s at %s, model %s)",
		len(r.Results), r.Passed, r.Failed, r.Schema, r.URL, cmp.Or(r.Model, "(none)"))
}

// WriteJSON writes the report as one indented JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// oneLine keeps a failure's text on its line: an answer's own words may
// hold line breaks.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

package main

import (
	"fmt"
	"io"
	"net/http"
	"slices"

	"github.com/spf13/cobra"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/engine"
	"github.com/vllm-sr/systemone/runtime/table"
)

// headersFlag makes convert print the headers the target needs.
const headersFlag = "headers"

// addHeadersFlag registers --headers on the convert command.
func addHeadersFlag(cmd *cobra.Command) {
	cmd.Flags().Bool(headersFlag, false,
		"also print the headers the target needs with the body (such as TypeSafe-Danger-Zone-Long-Context: true), as Name: value lines on standard error")
}

// translate converts body for the convert command. With --headers it
// first prints the target's headers to standard error, so they are out
// before the caller writes the body to standard output; on an error it
// prints nothing.
func translate(cmd *cobra.Command, eng *engine.Engine, from, to table.SchemaID, deviations []string, body []byte) ([]byte, error) {
	res, err := eng.Translate(from, to, deviations, body)
	if err != nil {
		return nil, err
	}
	if printHeaders, _ := cmd.Flags().GetBool(headersFlag); printHeaders {
		if err := writeHeaders(cmd.ErrOrStderr(), res.Header); err != nil {
			return nil, err
		}
	}
	return res.Body, nil
}

// standardSpelling maps the canonical form of each header a target codec
// sets to the standard's own spelling (http.Header keeps the canonical
// "Typesafe-..."; HTTP names are case-insensitive, and people read the
// standard's).
var standardSpelling = map[string]string{
	http.CanonicalHeaderKey(vocab.HeaderLongContext): vocab.HeaderLongContext,
	http.CanonicalHeaderKey(vocab.HeaderImages):      vocab.HeaderImages,
}

// writeHeaders writes h as "Name: value" lines, one per value, sorted by
// name so the output is deterministic.
func writeHeaders(w io.Writer, h http.Header) error {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		shown := name
		if s, ok := standardSpelling[name]; ok {
			shown = s
		}
		for _, v := range h[name] {
			if _, err := fmt.Fprintf(w, "%s: %s\n", shown, v); err != nil {
				return err
			}
		}
	}
	return nil
}

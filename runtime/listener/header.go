package listener

import (
	"net/http"
	"strings"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
)

// longContextHeader is the standard's long-context request header and the
// value that turns it on, taken from the generated removed-form table
// ("TypeSafe-Danger-Zone-Long-Context: true" replaces options.long_context).
var longContextName, longContextValue = func() (string, string) {
	f, _ := fieldtable.Replacement(table.LevelOptions, vocab.OptionsLongContext)
	name, value, _ := strings.Cut(f.ReplacedBy, ": ")
	return http.CanonicalHeaderKey(name), value
}()

// LongContext reports whether the request asks to read past the model's
// validated length with the standard's header.
func LongContext(h http.Header) bool {
	return longContextName != "" && strings.EqualFold(strings.TrimSpace(h.Get(longContextName)), longContextValue)
}

// ApplyLongContext sets Options.LongContext from the header, creating the
// options when the body has none. It leaves options alone without it.
func ApplyLongContext(o **ir.Options, h http.Header) {
	if !LongContext(h) {
		return
	}
	if *o == nil {
		*o = &ir.Options{}
	}
	on := true
	(*o).LongContext = &on
}

package ir

import (
	"strconv"
	"strings"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// DumpRequest writes a request as readable, deterministic text: one line
// per field, content as compact JSON, asset data by size only, and each
// object's recorded Layout. Golden tests and debugging read it; no codec
// parses it.
func DumpRequest(r *Request) string {
	var d dumper
	d.request(r, 0)
	return d.b.String()
}

// DumpBatch writes a batch the way DumpRequest writes a request.
func DumpBatch(b *Batch) string {
	var d dumper
	d.line(0, "batch") //vocab:not-spec the dump's own heading word
	field(&d, 1, vocab.BatchModel, b.Model, strconv.Quote)
	for i := range b.Items {
		d.line(1, "item "+strconv.Quote(b.Items[i].Name))
		d.request(&b.Items[i].Request, 2)
	}
	d.options(b.Options, 1)
	d.object(1, b.Extra, &b.Layout)
	return d.b.String()
}

type dumper struct{ b strings.Builder }

func (d *dumper) line(depth int, text string) {
	for range depth {
		d.b.WriteString("  ")
	}
	d.b.WriteString(text)
	d.b.WriteByte('\n')
}

// field writes name and the value p points at, formatted, unless p is nil.
func field[T any](d *dumper, depth int, name string, p *T, format func(T) string) {
	if p != nil {
		d.line(depth, name+" "+format(*p))
	}
}

func formatInt(n int64) string         { return strconv.FormatInt(n, 10) }
func formatFloat(f float64) string     { return strconv.FormatFloat(f, 'g', -1, 64) }
func formatWord[T ~string](w T) string { return string(w) }

// content writes name and v as compact JSON, unless v is absent.
func (d *dumper) content(depth int, name string, v jsonvalue.Value) {
	if v.IsValid() {
		d.line(depth, name+" "+string(jsonvalue.Compact(v)))
	}
}

// members writes each member as "NAME": VALUE, one level deeper.
func (d *dumper) members(depth int, ms []jsonvalue.Member) {
	for _, m := range ms {
		d.line(depth+1, strconv.Quote(m.Name)+": "+string(jsonvalue.Compact(m.Value)))
	}
}

func (d *dumper) request(r *Request, depth int) {
	d.line(depth, "request") //vocab:not-spec the dump's heading for a request, a level not a member
	in := depth + 1
	field(d, in, vocab.RequestModel, r.Model, strconv.Quote)
	d.content(in, vocab.RequestState, r.State)
	if r.States != nil {
		d.line(in, vocab.RequestStates)
		d.members(in, r.States)
	}
	d.line(in, vocab.RequestRoles+" "+string(r.Roles.Mode))
	for _, p := range r.Roles.Parts {
		d.line(in+1, strconv.Quote(p.Key)+": "+string(p.Role))
	}
	for i := range r.Questions {
		d.question(&r.Questions[i], in)
	}
	for i := range r.Assets {
		d.asset(&r.Assets[i], in)
	}
	d.options(r.Options, in)
	d.object(in, r.Extra, &r.Layout)
}

func (d *dumper) question(q *Question, depth int) {
	d.line(depth, "question "+strconv.Quote(q.Name))
	in := depth + 1
	if q.Type != "" {
		d.line(in, vocab.QuestionType+" "+string(q.Type))
	}
	d.content(in, vocab.QuestionInstructions, q.Instructions)
	if q.Criteria.Present() {
		d.line(in, vocab.QuestionCriteria+" "+string(q.Criteria.Form))
		d.members(in, q.Criteria.Keyed)
		for i, v := range q.Criteria.Levels {
			d.line(in+1, strconv.Itoa(i)+": "+string(jsonvalue.Compact(v)))
		}
	}
	field(d, in, vocab.QuestionPreset, q.Preset, strconv.Quote)
	field(d, in, vocab.QuestionHead, q.Head, formatWord)
	field(d, in, vocab.QuestionDecisionAdapter, q.DecisionAdapter, strconv.FormatBool)
	if q.Over != nil {
		quoted := make([]string, len(q.Over))
		for i, k := range q.Over {
			quoted[i] = strconv.Quote(k)
		}
		d.line(in, vocab.QuestionOver+" ["+strings.Join(quoted, ", ")+"]")
	}
	field(d, in, vocab.QuestionOverflow, q.Overflow, formatWord)
	field(d, in, vocab.QuestionRequireFullInput, q.RequireFullInput, strconv.FormatBool)
	field(d, in, vocab.QuestionThreshold, q.Threshold, formatFloat)
	field(d, in, vocab.QuestionAt, q.At, formatFloat)
	field(d, in, vocab.QuestionRate, q.Rate, formatInt)
	d.object(in, q.Extra, &q.Layout)
}

func (d *dumper) asset(a *Asset, depth int) {
	d.line(depth, "asset "+strconv.Quote(a.Placeholder))
	in := depth + 1
	d.line(in, vocab.AssetType+" "+string(a.Type))
	field(d, in, vocab.AssetFormat, a.Format, strconv.Quote)
	if a.DataBase64.IsValid() {
		d.line(in, "data "+strconv.Itoa(len(a.DataBase64.Str()))+" base64 characters")
	}
	d.object(in, a.Extra, &a.Layout)
}

func (d *dumper) options(o *Options, depth int) {
	if o == nil {
		return
	}
	d.line(depth, vocab.RequestOptions)
	in := depth + 1
	field(d, in, vocab.OptionsDeadlineMs, o.DeadlineMs, formatInt)
	field(d, in, vocab.OptionsReturnMeta, o.ReturnMeta, strconv.FormatBool)
	field(d, in, vocab.OptionsMaxTokens, o.MaxTokens, formatInt)
	field(d, in, vocab.OptionsLongContext, o.LongContext, strconv.FormatBool)
	d.object(in, o.Extra, &o.Layout)
}

// object writes what every object ends with: the members no IR field
// binds, each as extra NAME VALUE, then its recorded Layout.
func (d *dumper) object(depth int, extra []jsonvalue.Member, l *Layout) {
	for _, m := range extra {
		d.line(depth, "extra "+strconv.Quote(m.Name)+" "+string(jsonvalue.Compact(m.Value)))
	}
	if l.IsZero() {
		return
	}
	names := make([]string, len(l.Members))
	for i, m := range l.Members {
		names[i] = m.Name
	}
	d.line(depth, "layout ["+strings.Join(names, " ")+"]")
	if l.Entry != nil {
		d.line(depth+1, "name written "+string(l.Entry.RawName))
	}
	for _, m := range l.Members {
		if m.RawName != nil {
			d.line(depth+1, m.Name+" name written "+string(m.RawName))
		}
		if m.Raw != nil {
			d.line(depth+1, m.Name+" written "+string(m.Raw)+" for "+string(m.Canon))
		}
	}
}

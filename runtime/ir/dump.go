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
	d.line(0, "batch")
	d.optString(1, vocab.BatchModel, b.Model)
	for i := range b.Items {
		d.line(1, "item "+strconv.Quote(b.Items[i].Name))
		d.request(&b.Items[i].Request, 2)
	}
	d.options(b.Options, 1)
	d.extra(1, b.Extra)
	d.layout(&b.Layout, 1)
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

func (d *dumper) request(r *Request, depth int) {
	d.line(depth, "request") //vocab:not-spec the dump's heading for a request, a level not a member
	in := depth + 1
	d.optString(in, vocab.RequestModel, r.Model)
	d.content(in, vocab.RequestState, r.State)
	if r.States != nil {
		d.line(in, vocab.RequestStates)
		for _, m := range r.States {
			d.line(in+1, strconv.Quote(m.Name)+": "+string(jsonvalue.Compact(m.Value)))
		}
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
	d.extra(in, r.Extra)
	d.layout(&r.Layout, in)
}

func (d *dumper) question(q *Question, depth int) {
	d.line(depth, "question "+strconv.Quote(q.Name))
	in := depth + 1
	if q.Type != "" {
		d.line(in, vocab.QuestionType+" "+string(q.Type))
	}
	d.content(in, vocab.QuestionInstructions, q.Instructions)
	switch q.Criteria.Form {
	case CriteriaNull:
		d.line(in, vocab.QuestionCriteria+" null")
	case CriteriaKeyed:
		d.line(in, vocab.QuestionCriteria+" keyed")
		for _, m := range q.Criteria.Keyed {
			d.line(in+1, strconv.Quote(m.Name)+": "+string(jsonvalue.Compact(m.Value)))
		}
	case CriteriaLevels:
		d.line(in, vocab.QuestionCriteria+" levels")
		for i, v := range q.Criteria.Levels {
			d.line(in+1, strconv.Itoa(i)+": "+string(jsonvalue.Compact(v)))
		}
	}
	d.optString(in, vocab.QuestionPreset, q.Preset)
	if q.Head != nil {
		d.line(in, vocab.QuestionHead+" "+string(*q.Head))
	}
	d.optBool(in, vocab.QuestionDecisionAdapter, q.DecisionAdapter)
	if q.Over != nil {
		quoted := make([]string, len(q.Over))
		for i, k := range q.Over {
			quoted[i] = strconv.Quote(k)
		}
		d.line(in, vocab.QuestionOver+" ["+strings.Join(quoted, ", ")+"]")
	}
	if q.Overflow != nil {
		d.line(in, vocab.QuestionOverflow+" "+string(*q.Overflow))
	}
	d.optBool(in, vocab.QuestionRequireFullInput, q.RequireFullInput)
	d.optFloat(in, vocab.QuestionThreshold, q.Threshold)
	d.optFloat(in, vocab.QuestionAt, q.At)
	d.optInt(in, vocab.QuestionRate, q.Rate)
	d.extra(in, q.Extra)
	d.layout(&q.Layout, in)
}

func (d *dumper) asset(a *Asset, depth int) {
	d.line(depth, "asset "+strconv.Quote(a.Placeholder))
	in := depth + 1
	d.line(in, vocab.AssetType+" "+string(a.Type))
	d.optString(in, vocab.AssetFormat, a.Format)
	if a.Data.IsValid() {
		d.line(in, "data "+strconv.Itoa(len(a.Data.Str()))+" base64 characters")
	}
	d.extra(in, a.Extra)
	d.layout(&a.Layout, in)
}

func (d *dumper) options(o *Options, depth int) {
	if o == nil {
		return
	}
	d.line(depth, vocab.RequestOptions)
	in := depth + 1
	d.optInt(in, vocab.OptionsDeadlineMs, o.DeadlineMs)
	d.optBool(in, vocab.OptionsReturnMeta, o.ReturnMeta)
	d.optInt(in, vocab.OptionsMaxTokens, o.MaxTokens)
	d.optBool(in, vocab.OptionsLongContext, o.LongContext)
	d.extra(in, o.Extra)
	d.layout(&o.Layout, in)
}

func (d *dumper) layout(l *Layout, depth int) {
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

// extra writes the members no IR field binds, each as extra NAME VALUE.
func (d *dumper) extra(depth int, ms []jsonvalue.Member) {
	for _, m := range ms {
		d.line(depth, "extra "+strconv.Quote(m.Name)+" "+string(jsonvalue.Compact(m.Value)))
	}
}

func (d *dumper) content(depth int, name string, v jsonvalue.Value) {
	if v.IsValid() {
		d.line(depth, name+" "+string(jsonvalue.Compact(v)))
	}
}

func (d *dumper) optString(depth int, name string, s *string) {
	if s != nil {
		d.line(depth, name+" "+strconv.Quote(*s))
	}
}

func (d *dumper) optBool(depth int, name string, b *bool) {
	if b != nil {
		d.line(depth, name+" "+strconv.FormatBool(*b))
	}
}

func (d *dumper) optInt(depth int, name string, n *int64) {
	if n != nil {
		d.line(depth, name+" "+strconv.FormatInt(*n, 10))
	}
}

func (d *dumper) optFloat(depth int, name string, f *float64) {
	if f != nil {
		d.line(depth, name+" "+strconv.FormatFloat(*f, 'g', -1, 64))
	}
}

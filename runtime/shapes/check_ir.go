package shapes

import (
	"errors"
	"math"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The encoder's checks: an IR that the internal form cannot carry as
// written is refused rather than written as a body DecodeRequest would
// refuse. These are the IR invariants other codecs must keep.

func invalidIR(path ir.Path, reason ir.Reason, message string) error {
	return &ir.ProtocolError{Category: ir.CategoryInvalidIR, Reason: reason, Path: path, Message: message}
}

// prefixPath puts an error of a nested request under its place in the
// bundle.
func prefixPath(err error, prefix ir.Path) error {
	var pe *ir.ProtocolError
	if errors.As(err, &pe) {
		out := *pe
		out.Path = append(append(ir.Path(nil), prefix...), pe.Path...)
		return &out
	}
	return err
}

func checkRequest(r *ir.Request) error {
	switch {
	case r.State.IsValid() == (r.States != nil):
		return invalidIR(ir.Path{{Name: vocab.RequestState}}, ir.ReasonConflict, "a request has exactly one of state and states")
	case r.State.IsValid() && !isContent(r.State):
		return invalidIR(ir.Path{{Name: vocab.RequestState}}, ir.ReasonWrongType, "must be a string, an object or an array")
	case r.States != nil && len(r.States) == 0:
		return invalidIR(ir.Path{{Name: vocab.RequestStates}}, ir.ReasonEmpty, "must have at least one state")
	case len(r.Questions) == 0:
		return invalidIR(ir.Path{{Name: vocab.RequestQuestions}}, ir.ReasonEmpty, "a request has at least one question")
	}
	for _, s := range r.States {
		if !isContent(s.Value) {
			return invalidIR(ir.Path{{Name: vocab.RequestStates}, {Name: s.Name}}, ir.ReasonWrongType, "must be a string, an object or an array")
		}
	}
	if err := checkRoles(r.Roles); err != nil {
		return err
	}
	for i := range r.Questions {
		if err := checkQuestion(&r.Questions[i]); err != nil {
			return err
		}
	}
	if err := checkOptions(r.Options, ir.Path{{Name: vocab.RequestOptions}}); err != nil {
		return err
	}
	return checkAssets(r.Assets)
}

func isContent(v jsonvalue.Value) bool {
	k := v.Kind()
	return k == jsonvalue.KindString || k == jsonvalue.KindObject || k == jsonvalue.KindArray
}

func checkRoles(roles ir.Roles) error {
	path := ir.Path{{Name: vocab.RequestRoles}}
	if !roles.Mode.Valid() {
		return invalidIR(path, ir.ReasonUnsetMode, "the roles mode is not set")
	}
	if roles.Mode != ir.RoleModeExplicit && len(roles.Parts) > 0 {
		return invalidIR(path, ir.ReasonConflict, "only explicit roles have parts")
	}
	for i, p := range roles.Parts {
		if !p.Role.Valid() {
			return invalidIR(path.Key(p.Key), ir.ReasonUnknownValue, "must be user, context or answer")
		}
		for _, prev := range roles.Parts[:i] {
			if prev.Key == p.Key {
				return invalidIR(path.Key(p.Key), ir.ReasonConflict, "a state key has one role")
			}
		}
	}
	return nil
}

func checkQuestion(q *ir.Question) error {
	path := ir.Path{{Name: vocab.RequestQuestions}, {Name: q.Name}}
	if q.Type == "" && q.Preset == nil {
		return invalidIR(path.Key(vocab.QuestionType), ir.ReasonMissingMember, "is required unless the question names a preset")
	}
	if q.Instructions.IsValid() && !q.Instructions.IsNull() && !isContent(q.Instructions) {
		return invalidIR(path.Key(vocab.QuestionInstructions), ir.ReasonWrongType, "must be content or null")
	}
	if err := checkCriteriaForm(q, path.Key(vocab.QuestionCriteria)); err != nil {
		return err
	}
	switch {
	case q.Head != nil && !q.Head.Valid():
		return invalidIR(path.Key(vocab.QuestionHead), ir.ReasonUnknownValue, "must be router or broad")
	case q.Overflow != nil && !q.Overflow.Valid():
		return invalidIR(path.Key(vocab.QuestionOverflow), ir.ReasonUnknownValue, "must be window or truncate")
	case q.Threshold != nil && !unitInterval(*q.Threshold):
		return invalidIR(path.Key(vocab.QuestionThreshold), ir.ReasonOutOfRange, "must be between 0 and 1")
	case q.At != nil && !isSecond(*q.At):
		return invalidIR(path.Key(vocab.QuestionAt), ir.ReasonOutOfRange, "must be a finite number of seconds, at least 0")
	case q.Rate != nil && *q.Rate != 1 && *q.Rate != 2:
		return invalidIR(path.Key(vocab.QuestionRate), ir.ReasonOutOfRange, "must be 1 or 2")
	}
	return checkTypeBound(q, path)
}

// checkTypeBound refuses a type-bound extension field on another type, as
// the decoder does.
func checkTypeBound(q *ir.Question, path ir.Path) error {
	for _, b := range [...]struct {
		set        bool
		name, what string
		types      questionTypes
	}{
		{q.Head != nil, vocab.QuestionHead, "span questions", forSpan},
		{q.DecisionAdapter != nil, vocab.QuestionDecisionAdapter, "choice, noul and score questions", forChoice | forNoul | forScore},
		{q.Threshold != nil, vocab.QuestionThreshold, "set and span questions", forSet | forSpan},
		{q.At != nil, vocab.QuestionAt, "box questions", forBox},
		{q.Rate != nil, vocab.QuestionRate, "track questions", forTrack},
	} {
		if b.set && q.Type != "" && typeBit(q.Type)&b.types == 0 {
			return invalidIR(path.Key(b.name), ir.ReasonNotAllowedHere, "applies to "+b.what+" only")
		}
	}
	return nil
}

func checkOptions(o *ir.Options, path ir.Path) error {
	switch {
	case o == nil:
		return nil
	case o.DeadlineMs != nil && *o.DeadlineMs < 0:
		return invalidIR(path.Key(vocab.OptionsDeadlineMs), ir.ReasonOutOfRange, "must be at least 0")
	case o.MaxTokens != nil && *o.MaxTokens < 1:
		return invalidIR(path.Key(vocab.OptionsMaxTokens), ir.ReasonOutOfRange, "must be at least 1")
	}
	return nil
}

// checkCriteriaForm checks that the criteria's shape is one the question
// type takes, as the decoder does.
func checkCriteriaForm(q *ir.Question, path ir.Path) error {
	c := &q.Criteria
	var ok bool
	switch c.Form {
	case "":
		return nil
	case ir.CriteriaNull:
		ok = q.Type == table.QuestionNoul || q.Type == ""
	case ir.CriteriaLevels:
		ok = q.Type == table.QuestionScore || q.Type == ""
	case ir.CriteriaKeyed:
		ok = q.Type != table.QuestionScore && q.Type != table.QuestionBox && q.Type != table.QuestionTrack
	}
	if !ok {
		return invalidIR(path, ir.ReasonWrongType, "the criteria form does not fit the question type")
	}
	for _, m := range c.Keyed {
		if !m.Value.IsNull() && !isContent(m.Value) {
			return invalidIR(path.Key(m.Name), ir.ReasonWrongType, "must be content or null")
		}
	}
	for i, v := range c.Levels {
		if !isContent(v) {
			return invalidIR(path.At(i), ir.ReasonWrongType, "must be content")
		}
	}
	return nil
}

func checkAssets(assets []ir.Asset) error {
	for i := range assets {
		a := &assets[i]
		path := ir.Path{{Name: vocab.RequestAssets}, {Name: a.Placeholder}}
		switch {
		case !a.Type.Valid():
			return invalidIR(path.Key(vocab.AssetType), ir.ReasonUnknownValue, "must be image or video")
		case a.Format == nil:
			return invalidIR(path.Key(vocab.AssetFormat), ir.ReasonMissingMember, "is required")
		case a.DataBase64.Kind() != jsonvalue.KindString:
			return invalidIR(path.Key(vocab.AssetDataBase64), ir.ReasonWrongType, "must be a base64 string")
		}
		for _, prev := range assets[:i] {
			if prev.Placeholder == a.Placeholder {
				return invalidIR(path, ir.ReasonConflict, "a placeholder names one asset")
			}
		}
	}
	return nil
}

func isSecond(f float64) bool { return f >= 0 && f <= math.MaxFloat64 }

package llm

import (
	"embed"
	"strconv"
	"strings"
	"text/template"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/modelcheck"
	"github.com/vllm-sr/systemone/runtime/table"
)

// PromptsVersion names the templates of prompts/: meta reports
// <PromptsVersion>/<type> for each question on return_meta, and a
// calibration file is fitted for one version. Any change to a template
// changes the version (TestPromptsGolden pins every template's output).
const PromptsVersion = "systemone-llm/1"

//go:embed prompts/*.tmpl
var promptFiles embed.FS

var prompts = template.Must(template.New("").Option("missingkey=error").ParseFS(promptFiles, "prompts/*.tmpl"))

// option is one labelled line of a prompt.
type option struct {
	Label string
	Text  string
}

// promptData is what a question's template reads.
type promptData struct {
	State        string
	Instructions string
	Options      []option
}

// prompt is one question's (or one set label's) messages and the labels
// its answer position is read for.
type prompt struct {
	name   string // <version>/<type>
	system string
	user   string
	labels []string
	// texts are the options' own texts, and cloze the prompt without the
	// options, for continuation scoring.
	texts []string
	cloze string
}

// Letters label a choice's options; a choice of more needs continuations.
const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// Noul labels.
const (
	labelYes = "Yes"
	labelNo  = "No"
)

func render(name string, data any) string {
	var b strings.Builder
	if err := prompts.ExecuteTemplate(&b, name, data); err != nil {
		// The templates are embedded and pinned by a test: a failure here
		// is a build defect, not a request's.
		panic("llm: template " + name + ": " + err.Error())
	}
	return strings.TrimRight(b.String(), "\n")
}

// systemPrompt is the system message every question is asked with.
var systemPrompt = render("system.tmpl", nil)

// renderState writes what the question reads by its roles: one part (the
// whole state, or a state without roles) as itself; parts of an object
// state each under a heading of its role and key, so the Router's part
// names (request, history, candidate, answer, ...) keep their meaning.
func renderState(in modelcheck.Input) string {
	if len(in.Parts) == 1 && in.Parts[0].Key == "" {
		return "Content:\n" + in.Parts[0].Text
	}
	var b strings.Builder
	for i, p := range in.Parts {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(roleTitle(p.Role))
		if p.Key != "" {
			b.WriteString(" (" + p.Key + ")")
		}
		b.WriteString(":\n")
		b.WriteString(p.Text)
	}
	return b.String()
}

func roleTitle(r ir.Role) string {
	switch r {
	case ir.RoleContext:
		return "Context"
	case ir.RoleAnswer:
		return "The answer under check"
	}
	return "The user's content"
}

// criterionText is an option as a prompt lists it: its key, then its
// description when it has one.
func criterionText(key string, desc string) string {
	if desc == "" {
		return key
	}
	return key + ": " + desc
}

// questionPrompt builds the prompt of a noul, choice or score question
// from its plan: the labels are Yes/No, letters or level numbers.
func questionPrompt(plan *modelcheck.Plan, instructions string) prompt {
	data := promptData{State: renderState(plan.Input), Instructions: instructions}
	var labels, texts []string
	switch plan.Type {
	case table.QuestionNoul:
		labels = []string{labelYes, labelNo}
		texts = []string{labelYes, labelNo}
		data.Options = []option{{labelYes, "The answer is yes."}, {labelNo, "The answer is no."}}
		for _, m := range plan.Criteria.Keyed {
			if d := describe(m); d != "" && m.Name == vocab.NoulCriteriaTrue {
				data.Options[0].Text = d
			} else if d != "" && m.Name == vocab.NoulCriteriaFalse {
				data.Options[1].Text = d
			}
		}
	case table.QuestionChoice:
		for i, m := range plan.Criteria.Keyed {
			text := criterionText(m.Name, describe(m))
			texts = append(texts, text)
			labels = append(labels, labelAt(i))
			data.Options = append(data.Options, option{Label: labelAt(i), Text: text})
		}
	case table.QuestionScore:
		for i, l := range plan.Criteria.Levels {
			text := modelcheck.Render(l)
			texts = append(texts, text)
			labels = append(labels, strconv.Itoa(i))
			data.Options = append(data.Options, option{Label: strconv.Itoa(i), Text: text})
		}
	}
	return prompt{name: PromptsVersion + "/" + string(plan.Type), system: systemPrompt,
		user: render(string(plan.Type)+".tmpl", data), labels: labels, texts: texts, cloze: cloze(data)}
}

// cloze is the completion prompt whose continuations are the options'
// texts: the question without its options, ending in "Answer:".
func cloze(data promptData) string {
	return render("continuation.tmpl", struct{ System, State, Instructions string }{systemPrompt, data.State, data.Instructions})
}

// labelAt is the i-th choice label: a letter, or past Z a number, which
// marks a choice the labels cannot carry (answered by continuations).
func labelAt(i int) string {
	if i < len(letters) {
		return letters[i : i+1]
	}
	return strconv.Itoa(i + 1)
}

// setPrompt builds one label's Yes/No prompt of a set question.
func setPrompt(plan *modelcheck.Plan, instructions string, m jsonvalue.Member) prompt {
	data := promptData{State: renderState(plan.Input), Instructions: instructions,
		Options: []option{{labelYes, "It applies: " + criterionText(m.Name, describe(m))}, {labelNo, "It does not apply."}}}
	return prompt{name: PromptsVersion + "/" + string(table.QuestionSet), system: systemPrompt,
		user: render("set.tmpl", data), labels: []string{labelYes, labelNo}, texts: []string{labelYes, labelNo}}
}

func describe(m jsonvalue.Member) string {
	if m.Value.IsNull() || !m.Value.IsValid() {
		return ""
	}
	return modelcheck.Render(m.Value)
}

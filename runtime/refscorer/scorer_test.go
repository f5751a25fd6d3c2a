package refscorer

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/runtime/distribution"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/table"
)

var valueComparer = cmp.Comparer(jsonvalue.Equal)

func decide(t *testing.T, s *Scorer, model, body string) *ir.Response {
	t.Helper()
	req, _, err := shapes.DecodeRequest([]byte(body))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	m, ok := catalog.Model(model)
	if !ok {
		t.Fatalf("no model %s", model)
	}
	resp, err := s.Decide(context.Background(), m, req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func answer(t *testing.T, resp *ir.Response, name string) ir.Answer {
	t.Helper()
	for _, a := range resp.Answers {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("no answer %q", name)
	return ir.Answer{}
}

const everyType = `{"state":{"request":"Hi, I'm Dana Reyes, call me on +1 415 555 0199 about order 7731.","history":"Earlier: the user upgraded."},
	"roles":{"request":"user","history":"context"},
	"questions":{
		"team":{"type":"choice","instructions":"Which team?","criteria":{"billing":"Payments","engineering":"Bugs","other":null}},
		"urgent":{"type":"noul","instructions":"Does it block work?"},
		"frustration":{"type":"score","instructions":"How frustrated?","criteria":["Calm","Annoyed","Angry","Furious"]},
		"topics":{"type":"set","instructions":"Which topics?","criteria":{"billing":null,"outage":null,"account":null}},
		"pii":{"type":"span","preset":"pii","instructions":"Which words identify a person?","criteria":{"PERSON":null,"PHONE":null},"head":"broad","require_full_input":true}},
	"options":{"return_meta":true}}`

func TestDecideIsDeterministic(t *testing.T) {
	s := &Scorer{}
	first := decide(t, s, "vllm-sr/vela2", everyType)
	for i := 0; i < 3; i++ {
		again := decide(t, s, "vllm-sr/vela2", everyType)
		if d := cmp.Diff(first, again, valueComparer, cmp.FilterPath(func(p cmp.Path) bool {
			return p.Last().String() == ".Meta"
		}, cmp.Ignore())); d != "" {
			t.Fatalf("a second run differs (-first +again):\n%s", d)
		}
	}
	if len(first.Answers) != 5+3 {
		t.Errorf("%d answers, want 5 and a noul per set label", len(first.Answers))
	}
	// Names play no part: the same question under another name gets the
	// same answer.
	renamed := decide(t, s, "vllm-sr/vela2", strings.Replace(everyType, `"team":`, `"routing":`, 1))
	if d := cmp.Diff(answer(t, first, "team").Probabilities, answer(t, renamed, "routing").Probabilities); d != "" {
		t.Errorf("renaming a question changed its answer:\n%s", d)
	}
}

func units4(p float64) int64 { return int64(math.Round(p * distribution.Units)) }

func TestChoiceAndScoreAnswers(t *testing.T) {
	resp := decide(t, &Scorer{}, "vllm-sr/vela2", everyType)
	team := answer(t, resp, "team")
	var sum int64
	best := team.Probabilities[0]
	for _, p := range team.Probabilities {
		sum += units4(p.P)
		if p.P > best.P {
			best = p
		}
	}
	if sum != distribution.Units {
		t.Errorf("choice probabilities sum to %d units", sum)
	}
	if *team.Choice != best.Key {
		t.Errorf("choice %s is not the most probable option %s", *team.Choice, best.Key)
	}
	ps := []float64{team.Probabilities[0].P, team.Probabilities[1].P, team.Probabilities[2].P}
	if want := distribution.Round4((3*best.P - 1) / 2); *team.Confidence != want || *team.Confidence != distribution.Round4(distribution.ChoiceConfidence(ps)) {
		t.Errorf("choice confidence %v, want %v", *team.Confidence, want)
	}
	if team.AbstainProbability == nil || *team.AbstainProbability < 0 || *team.AbstainProbability >= 0.2 {
		t.Errorf("vela2 reports an abstain probability in [0, 0.2): %v", team.AbstainProbability)
	}

	f := answer(t, resp, "frustration")
	sum, expected := int64(0), 0.0
	var p []float64
	for i, x := range f.Probabilities {
		if x.Key != []string{"0", "1", "2", "3"}[i] {
			t.Errorf("level key %q at %d", x.Key, i)
		}
		sum += units4(x.P)
		expected += float64(i) * x.P
		p = append(p, x.P)
	}
	if sum != distribution.Units || *f.Score != distribution.Round4(expected) || *f.Confidence != distribution.Round4(distribution.ScoreConfidence(p)) {
		t.Errorf("score %v (want %v), confidence %v, sum %d", *f.Score, distribution.Round4(expected), *f.Confidence, sum)
	}
	if len(f.Legend) != 4 || f.Legend[3].Name != "3" || f.Legend[3].Value.Str() != "Furious" {
		t.Errorf("legend does not echo the levels: %+v", f.Legend)
	}
	if u := answer(t, resp, "urgent"); u.Noul == nil || *u.Noul <= 0 || *u.Noul >= 1 {
		t.Errorf("noul %v is not a probability", u.Noul)
	}
}

func TestSetAnswers(t *testing.T) {
	resp := decide(t, &Scorer{}, "vllm-sr/vela2", everyType)
	if len(resp.Sets) != 1 || len(resp.Sets[0].Probabilities) != 3 {
		t.Fatalf("sets = %+v", resp.Sets)
	}
	set := resp.Sets[0]
	var selected []string
	highest := 0.0
	for _, p := range set.Probabilities {
		if p.P >= 0.5 {
			selected = append(selected, p.Key)
		}
		highest = max(highest, p.P)
		if n := answer(t, resp, "topics."+p.Key); *n.Noul != p.P || n.Type != table.QuestionNoul {
			t.Errorf("label noul %s = %v, want %v", p.Key, *n.Noul, p.P)
		}
	}
	if d := cmp.Diff(selected, set.Selected, cmp.Comparer(func(a, b []string) bool { return strings.Join(a, ",") == strings.Join(b, ",") })); d != "" {
		t.Errorf("selected labels are not those at or above the threshold:\n%s", d)
	}
	if *answer(t, resp, "topics").Noul != highest {
		t.Errorf("set noul is not the highest label probability")
	}
	if resp.Thresholds[0] != (ir.QuestionThreshold{Question: "topics", Threshold: 0.5}) {
		t.Errorf("thresholds = %+v", resp.Thresholds)
	}
}

// TestSpanOffsetsAreCodePoints: every span's text is exactly the text read
// at [start, end) in code points, with emoji and accented letters before
// and inside the spans.
func TestSpanOffsetsAreCodePoints(t *testing.T) {
	answerText := strings.Repeat("Zoë 😀 met José Ñúñez at the café in Zürich, 🇫🇷 then called +33 6 12 34 56 78. ", 6)
	body := `{"state":{"request":"Who called?","context":"Ignore me.","answer":"` + answerText + `"},
		"roles":{"request":"user","context":"context","answer":"answer"},
		"questions":{"pii":{"type":"span","preset":"pii","criteria":{"PERSON":null,"PHONE":null,"EMAIL":null},"require_full_input":true}}}`
	resp := decide(t, &Scorer{}, "vllm-sr/vela3", body)
	if a := resp.Answers[0]; a.Type != table.QuestionNoul || a.Noul == nil {
		t.Errorf("a span answers as a noul: got type %q, noul %v", a.Type, a.Noul)
	}
	runes := []rune(answerText)
	spans := resp.Spans[0].Spans
	if len(spans) == 0 {
		t.Fatal("no spans over 90 words")
	}
	highest := 0.0
	for i, s := range spans {
		if s.Start < 0 || s.End > int64(len(runes)) || s.Start >= s.End {
			t.Fatalf("span %+v outside the answer part", s)
		}
		if got := string(runes[s.Start:s.End]); got != s.Text {
			t.Errorf("span %+v: text at its offsets is %q", s, got)
		}
		if s.Probability < 0.5 {
			t.Errorf("span %+v is below the threshold", s)
		}
		if i > 0 && s.Start < spans[i-1].Start {
			t.Errorf("spans out of order at %d", i)
		}
		highest = max(highest, s.Probability)
	}
	pii := answer(t, resp, "pii")
	if *pii.Noul < highest || pii.InputCoverage != ir.CoverageComplete {
		t.Errorf("span noul %v below a span's %v, or coverage %q", *pii.Noul, highest, pii.InputCoverage)
	}
	if resp.SpanHeads != nil {
		t.Errorf("vela3 has no broad span head, yet span_heads = %+v", resp.SpanHeads)
	}
	if resp := decide(t, &Scorer{}, "vllm-sr/vela2", everyType); len(resp.SpanHeads) != 1 || resp.SpanHeads[0].Head != ir.SpanHeadBroad {
		t.Errorf("vela2 reports the span head: %+v", resp.SpanHeads)
	}
}

func TestRolesAndOverChangeTheInputRead(t *testing.T) {
	const state = `"state":{"a":"The refund window is 30 days.","b":"Our offices close on holidays."}`
	q := func(extra string) string {
		return `{` + state + `,"roles":{"a":"user","b":"context"},"questions":{"n":{"type":"noul","instructions":"Relevant?"` + extra + `}}}`
	}
	noulOf := func(body string) float64 { return *answer(t, decide(t, &Scorer{}, "vllm-sr/vela2", body), "n").Noul }
	whole, overA, overB := noulOf(q("")), noulOf(q(`,"over":["a"]`)), noulOf(q(`,"over":["b"]`))
	if whole == overA || overA == overB || whole == overB {
		t.Errorf("over does not change what is read: %v %v %v", whole, overA, overB)
	}
	swapped := noulOf(`{` + state + `,"roles":{"a":"context","b":"user"},"questions":{"n":{"type":"noul","instructions":"Relevant?"}}}`)
	none := noulOf(`{` + state + `,"roles":null,"questions":{"n":{"type":"noul","instructions":"Relevant?"}}}`)
	if swapped == whole || none == whole {
		t.Errorf("roles do not change what is read: %v %v %v", whole, swapped, none)
	}
	// A family that is not role-aware reads the whole state as the user's
	// content, so roles change nothing there.
	d1 := func(roles string) float64 {
		return *answer(t, decide(t, &Scorer{}, "vllm-sr/decision2", `{`+state+`,"roles":`+roles+`,"questions":{"n":{"type":"noul"}}}`), "n").Noul
	}
	if d1(`{"a":"context","b":"user"}`) != d1(`null`) {
		t.Error("roles changed a decision2 answer")
	}
}

func mp4Base64(seconds uint32) string {
	box := func(kind string, payload []byte) []byte {
		out := binary.BigEndian.AppendUint32(nil, uint32(8+len(payload)))
		return append(append(out, kind...), payload...)
	}
	mvhd := make([]byte, 20)
	binary.BigEndian.PutUint32(mvhd[12:], 600)
	binary.BigEndian.PutUint32(mvhd[16:], seconds*600)
	return base64.StdEncoding.EncodeToString(append(box("ftyp", []byte("isom")), box("moov", box("mvhd", mvhd))...))
}

func TestBoxAndTrackAnswers(t *testing.T) {
	body := `{"state":["⟦v⟧","Follow the cyclist."],"roles":null,
		"assets":{"⟦v⟧":{"type":"video","format":"mp4","data_base64":"` + mp4Base64(3) + `"}},
		"questions":{"van":{"type":"box","instructions":"The van","at":2.0},"cyclist":{"type":"track","rate":2}}}`
	resp := decide(t, &Scorer{}, "vllm-sr/vela3-d3", body)
	b := answer(t, resp, "van").Box
	if b == nil || !(0 <= b.Top && b.Top < b.Bottom && b.Bottom <= 1 && 0 <= b.Left && b.Left < b.Right && b.Right <= 1) {
		t.Fatalf("box %+v is not ordered fractions", b)
	}
	track := answer(t, resp, "cyclist").Track
	moments, _ := track.Get("moments")
	if n := len(moments.Items()); n != 7 { // 0, 0.5, …, 3.0 seconds
		t.Errorf("%d moments at rate 2 over 3 seconds, want 7", n)
	}
	last, _ := moments.Items()[6].Get("second")
	if f, _ := last.Float(); f != 3 {
		t.Errorf("last moment at %v s, want 3", f)
	}
}

func TestFailedQuestionsAnswerWithTheirError(t *testing.T) {
	resp := decide(t, &Scorer{}, "vllm-sr/decision1", `{"state":{"a":"x"},"roles":null,
		"questions":{"ok":{"type":"noul"},"bad":{"type":"noul","over":["a"]},"pre":{"preset":"domain"}}}`)
	bad := answer(t, resp, "bad")
	if bad.Error != ir.QuestionErrorInvalidQuestion || bad.Reason != "over_not_answered" || bad.Message == "" || bad.Noul != nil {
		t.Errorf("failed answer = %+v", bad)
	}
	if ok := answer(t, resp, "ok"); ok.Error != "" || ok.Noul == nil {
		t.Errorf("a valid question beside a failed one: %+v", ok)
	}
	pre := answer(t, resp, "pre")
	if pre.Type != table.QuestionChoice || len(pre.Probabilities) != 6 {
		t.Errorf("a preset-only question answers with the preset's type and canonical criteria: %+v", pre)
	}
}

// fakeClock advances step on every reading.
type fakeClock struct {
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time { c.t = c.t.Add(c.step); return c.t }

func TestDeadline(t *testing.T) {
	body := `{"state":"x","roles":null,"options":{"deadline_ms":25},"questions":{
		"a":{"type":"noul"},"b":{"type":"noul"},"c":{"type":"noul"},"d":{"type":"choice","criteria":{"x":null,"y":null}}}}`
	clock := &fakeClock{t: time.Unix(0, 0), step: 10 * time.Millisecond}
	resp := decide(t, &Scorer{Now: clock.now}, "vllm-sr/decision2", body)
	// start at 10 ms; a starts at 20, b at 30 (within 25 ms of the
	// start), c at 40 is late, and d after it is not run either.
	for name, late := range map[string]bool{"a": false, "b": false, "c": true, "d": true} {
		a := answer(t, resp, name)
		if late != (a.Error == ir.QuestionErrorDeadlineExceeded) || (late && a.Reason != "deadline_passed") {
			t.Errorf("%s: error %q reason %q, late %t", name, a.Error, a.Reason, late)
		}
	}
	if answer(t, resp, "d").Type != table.QuestionChoice {
		t.Error("a late answer keeps its question's type")
	}

	req, _, _ := shapes.DecodeRequest([]byte(`{"state":"x","roles":null,"questions":{"a":{"type":"noul"}}}`))
	m, _ := catalog.Model("vllm-sr/decision2")
	expired, cancel := context.WithDeadline(context.Background(), time.Unix(1, 0))
	defer cancel()
	resp, err := (&Scorer{}).Decide(expired, m, req)
	if err != nil || resp.Answers[0].Error != ir.QuestionErrorDeadlineExceeded {
		t.Errorf("past the context's deadline: %v, %+v", err, resp)
	}
	canceled, stop := context.WithCancel(context.Background())
	stop()
	if _, err := (&Scorer{}).Decide(canceled, m, req); !errors.Is(err, context.Canceled) {
		t.Errorf("a canceled context: err = %v", err)
	}
	if _, err := (&Scorer{}).Decide(context.Background(), m, &ir.Request{States: []jsonvalue.Member{}}); !errors.Is(err, ErrStatesForm) {
		t.Errorf("a states-form request: err = %v", err)
	}
}

func TestMetaAndUsage(t *testing.T) {
	resp := decide(t, &Scorer{Device: "cpu:0"}, "vllm-sr/vela2", everyType)
	want := map[string]string{"model": "vllm-sr/vela2", "family": "vela2", "revision": "vela2-2026.04-r6",
		"precision": "bf16", "engine": "reference-scorer", "device": "cpu:0"}
	for k, v := range want {
		if got, _ := resp.Meta.Get(k); got.Str() != v {
			t.Errorf("meta.%s = %q, want %q", k, got.Str(), v)
		}
	}
	if _, ok := resp.Meta.Get("timings"); !ok {
		t.Error("meta has no timings")
	}
	again := decide(t, &Scorer{}, "vllm-sr/vela2", everyType)
	if resp.Usage == nil || resp.Usage.InputTokens <= 0 || resp.Usage.InputTokens != again.Usage.InputTokens || resp.Usage.OutputTokens != again.Usage.OutputTokens {
		t.Errorf("usage %+v is not a deterministic positive count", resp.Usage)
	}
	if noMeta := decide(t, &Scorer{}, "vllm-sr/vela2", strings.Replace(everyType, `"return_meta":true`, `"return_meta":false`, 1)); noMeta.Meta.IsValid() {
		t.Error("meta without return_meta")
	}
}

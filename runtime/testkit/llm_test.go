package testkit

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The fake LLM backend's tests: the toy model's numbers, then each
// flavor's shapes, caps and errors, then the faults.

const llmTestUser = "Message: I was charged twice, please refund me.\n" +
	"Which team should handle it?\n" +
	"A) billing refund charged\n" +
	"B) security jailbreak\n" +
	"C) shipping delivery"

var llmTestMsgs = []map[string]any{
	{"role": "system", "content": "Answer with the letter of the best option."},
	{"role": "user", "content": llmTestUser},
}

func llmDo(t *testing.T, method, url string, body any, header ...string) (int, http.Header, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading: %v", method, url, err)
	}
	return resp.StatusCode, resp.Header, raw
}

func llmDecode(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("reply is not a JSON object: %v: %.300s", err, raw)
	}
	return v
}

// llmPath walks a decoded reply: keys and list indexes.
func llmPath(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("at %v: %T is not an object", path, v)
			}
			if _, ok := m[k]; !ok {
				t.Fatalf("at %v: no key %q in %v", path, k, keys(m))
			}
			v = m[k]
		case int:
			l, ok := v.([]any)
			if !ok || k >= len(l) {
				t.Fatalf("at %v: %T has no index %d", path, v, k)
			}
			v = l[k]
		}
	}
	return v
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestLLMTokenize(t *testing.T) {
	for in, want := range map[string][]string{
		"Yes":                              {"Yes"},
		" Yes":                             {" Yes"},
		"A) billing refund":                {"A", ")", " billing", " refund"},
		"12 apples\n\nok":                  {"1", "2", " apples", "\n\n", "ok"},
		"x  y":                             {"x", " ", " y"},
		"<|im_start|>user\nhi<|im_end|>\n": {"<|im_start|>", "user", "\n", "hi", "<|im_end|>", "\n"},
		"<think>\n\n</think>\n\n":          {"<think>", "\n\n", "</think>", "\n\n"},
		"end. ":                            {"end", ".", " "},
	} {
		got := LLMTokenize(in)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("LLMTokenize(%q) = %q, want %q", in, got, want)
		}
		if strings.Join(got, "") != in {
			t.Errorf("LLMTokenize(%q) does not join back", in)
		}
	}
}

// TestLLMAnswerLogitsRule checks the rule the fake's header promises, so a
// test of the engine may rely on it: evidence 2/3 for A (charged, refund
// occur in the message), 0 for B and C; spelling offsets; noise bounded.
func TestLLMAnswerLogitsRule(t *testing.T) {
	msgs := []LLMMessage{{"system", "Answer with the letter of the best option."}, {"user", llmTestUser}}
	prompt := LLMRenderChat(msgs, false, false)
	toks, logits := LLMAnswerLogits(prompt, llmTestUser, msgs[0].Content+"\n"+llmTestUser)
	got := map[string]float64{}
	for i, tok := range toks {
		got[tok] = logits[i]
	}
	want := map[string]float64{"A": 8.0 / 3, " A": 8.0/3 - 0.7, "a": 8.0/3 - 2, " a": 8.0/3 - 2.7,
		"B": 0, " B": -0.7, "b": -2, " b": -2.7, "C": 0, " C": -0.7, "c": -2, " c": -2.7}
	for tok, w := range want {
		g, ok := got[tok]
		if !ok || math.Abs(g-w) > 0.05+1e-12 {
			t.Errorf("logit(%q) = %v (present %v), want %v ± 0.05", tok, g, ok, w)
		}
		if n := llmNoise(prompt, tok); math.Abs(g-w-n) > 1e-12 {
			t.Errorf("logit(%q) - rule = %v, want the noise %v", tok, g-w, n)
		}
	}
	for _, f := range []struct {
		tok string
		l   float64
	}{{"\n", -1}, {"The", -3}, {" The", -3}, {"I", -3}, {"Sure", -3}, {"<think>", -3}} {
		if got[f.tok] != f.l {
			t.Errorf("filler %q logit %v, want %v", f.tok, got[f.tok], f.l)
		}
	}
	if len(toks) != len(want)+6 {
		t.Errorf("%d candidates, want %d: %q", len(toks), len(want)+6, toks)
	}
}

// TestLLMLabelLines checks which lines offer options and what
// counts as evidence.
func TestLLMLabelLines(t *testing.T) {
	user := "Is this spam? Win a free cruise now\nYes: free cruise prize\nNo: ordinary mail\nNote: be careful\n10. ten\n"
	toks, logits := LLMAnswerLogits("p", user, user)
	got := map[string]float64{}
	for i, tok := range toks {
		got[tok] = logits[i]
	}
	if math.Abs(got["Yes"]-4*2.0/3) > 0.05 { // free, cruise found; prize not
		t.Errorf("Yes logit %v, want 8/3 ± 0.05", got["Yes"])
	}
	if math.Abs(got["No"]) > 0.05 || math.Abs(got["NO"]+2) > 0.05 || math.Abs(got[" no"]+2.7) > 0.05 {
		t.Errorf("No spellings %v %v %v", got["No"], got["NO"], got[" no"])
	}
	if _, ok := got["Note"]; ok {
		t.Error("a four-letter word before ':' is not a label")
	}
	if _, ok := got["1"]; !ok {
		t.Error("label 10 offers its first token 1")
	}
}

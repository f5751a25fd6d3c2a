package testkit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func llmChatReq() map[string]any {
	return map[string]any{"model": "qwen3-8b", "messages": llmTestMsgs, "max_tokens": 1, "logprobs": true, "top_logprobs": 5}
}

// TestLLMFaults: each fault answers as it says, on every flavor, and
// the next call after SetFault("") is whole again.
func TestLLMFaults(t *testing.T) {
	for _, flavor := range []LLMFlavor{LLMVLLM, LLMLlamaCpp, LLMOllama, LLMOpenAI} {
		t.Run(string(flavor), func(t *testing.T) {
			b := NewLLMBackend(t, LLMBackendOptions{Flavor: flavor, RetryAfter: "7"})
			url := b.URL() + "/chat/completions"
			for _, c := range []struct {
				fault  LLMFault
				status int
				check  func(raw []byte, h http.Header) string
			}{
				{LLMNoLogprobs, 200, func(raw []byte, _ http.Header) string {
					var v struct {
						Choices []struct {
							Message  map[string]any
							Logprobs any
						}
					}
					if err := json.Unmarshal(raw, &v); err != nil || len(v.Choices) != 1 || v.Choices[0].Logprobs != nil || v.Choices[0].Message["content"] != "A" {
						return "want an answer without logprobs"
					}
					return ""
				}},
				{LLMMalformed, 200, func(raw []byte, _ http.Header) string {
					if json.Valid(raw) {
						return "want a body that is not JSON"
					}
					return ""
				}},
				{LLMOversized, 200, func(raw []byte, _ http.Header) string {
					if len(raw) <= 8<<20 || !json.Valid(raw) {
						return "want valid JSON of more than 8 MiB"
					}
					return ""
				}},
				{LLMOverloaded, 429, retryAfter},
				{LLMBusy, 503, retryAfter},
				{LLMServerError, 500, func(raw []byte, _ http.Header) string {
					if !json.Valid(raw) || !bytes.Contains(raw, []byte(`"error"`)) {
						return "want the flavor's error envelope"
					}
					return ""
				}},
				{LLMLoading, 503, func(raw []byte, _ http.Header) string {
					if string(raw) != `{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}` {
						return "want llama.cpp's Loading model"
					}
					return ""
				}},
			} {
				b.SetFault(c.fault)
				st, h, raw := llmDo(t, "POST", url, llmChatReq())
				if st != c.status {
					t.Errorf("%s: status %d, want %d: %.200s", c.fault, st, c.status, raw)
				} else if msg := c.check(raw, h); msg != "" {
					t.Errorf("%s: %s: %.200s", c.fault, msg, raw)
				}
			}
			b.SetFault(LLMLoading)
			if st, _, raw := llmDo(t, "GET", b.URL()+"/models", nil); st != 200 ||
				(flavor == LLMLlamaCpp && !strings.Contains(string(raw), `"meta":null`)) {
				t.Errorf("loading: /v1/models answered %d %s, want 200 (llama.cpp: meta null)", st, raw)
			}
			for _, p := range []string{"/health", "/props", "/"} {
				if st, _, _ := llmDo(t, "GET", strings.TrimSuffix(b.URL(), "/v1")+p, nil); st != 503 {
					t.Errorf("loading: %s answered %d, want 503", p, st)
				}
			}
			b.SetFault(LLMBusy)
			if st, _, _ := llmDo(t, "GET", b.URL()+"/models", nil); st != 200 {
				t.Errorf("busy: /v1/models answered %d, want 200 (faults other than loading hit completions only)", st)
			}
			b.SetFault("")
			if st, _, _ := llmDo(t, "POST", url, llmChatReq()); st != 200 {
				t.Errorf("no fault: %d", st)
			}
		})
	}
}

func retryAfter(raw []byte, h http.Header) string {
	if h.Get("Retry-After") != "7" || !json.Valid(raw) {
		return "want JSON and the Retry-After the options set"
	}
	return ""
}

func TestLLMFaultCutAndHang(t *testing.T) {
	b := NewLLMBackend(t, LLMBackendOptions{})
	b.SetFault(LLMCut)
	raw, _ := json.Marshal(llmChatReq())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", b.URL()+"/chat/completions", bytes.NewReader(raw))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || err == nil || json.Valid(body) || len(body) == 0 {
		t.Errorf("cut: status %d, read error %v, %d bytes", resp.StatusCode, err, len(body))
	}

	b.SetFault(LLMHang)
	ctx2, cancel2 := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel2()
	req, _ = http.NewRequestWithContext(ctx2, "POST", b.URL()+"/chat/completions", bytes.NewReader(raw))
	start := time.Now()
	_, err = http.DefaultClient.Do(req)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 3*time.Second {
		t.Errorf("hang: %v after %v, want the client's deadline", err, time.Since(start))
	}
	deadline := time.Now().Add(3 * time.Second)
	for b.InFlight() != 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	calls := b.Calls()
	if b.InFlight() != 0 || len(calls) != 2 || calls[0].Status != 200 || calls[1].Status != 0 {
		t.Errorf("after the hang: in flight %d, calls %+v", b.InFlight(), calls)
	}
}

// TestLLMAuthCallsConcurrency: the API key, the record of calls and the
// concurrency counters under a fixed latency.
func TestLLMAuthCallsConcurrency(t *testing.T) {
	for _, c := range []struct {
		flavor LLMFlavor
		body   string
	}{
		{LLMVLLM, `{"error":"Unauthorized"}`},
		{LLMLlamaCpp, `{"error":{"code":401,"message":"Invalid API Key","type":"authentication_error"}}`},
	} {
		b := NewLLMBackend(t, LLMBackendOptions{Flavor: c.flavor, APIKey: "k3y"})
		st, _, raw := llmDo(t, "POST", b.URL()+"/chat/completions", llmChatReq())
		if st != 401 || string(raw) != c.body {
			t.Errorf("%s without the key: %d %s", c.flavor, st, raw)
		}
		if st, _, raw := llmDo(t, "POST", b.URL()+"/chat/completions", llmChatReq(), "Authorization", "Bearer k3y"); st != 200 {
			t.Errorf("%s with the key: %d %s", c.flavor, st, raw)
		}
	}

	b := NewLLMBackend(t, LLMBackendOptions{Latency: 100 * time.Millisecond})
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			raw, _ := json.Marshal(llmChatReq())
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, "POST", b.URL()+"/chat/completions", bytes.NewReader(raw))
			req.Header.Set("X-Test", "yes")
			if resp, err := http.DefaultClient.Do(req); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	calls := b.Calls()
	if b.MaxInFlight() != 4 || b.InFlight() != 0 || len(calls) != 4 {
		t.Errorf("max in flight %d, in flight %d, %d calls; want 4, 0, 4", b.MaxInFlight(), b.InFlight(), len(calls))
	}
	for _, c := range calls {
		if c.Method != "POST" || c.Path != "/v1/chat/completions" || c.Status != 200 || c.Header.Get("X-Test") != "yes" ||
			!strings.Contains(string(c.Body), `"top_logprobs":5`) {
			t.Errorf("call %+v", c)
		}
	}
}

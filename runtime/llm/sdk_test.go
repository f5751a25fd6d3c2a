package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/testkit"
)

// sdkDir is the official JavaScript SDK (@typesafe-ai/sdk 0.6.0, pinned)
// and the script the model runtime's interop test drives it with
// (runtime/srun/sdk_test.go); .ci/run installs it.
var sdkDir = filepath.Join("..", "srun", "testdata", "sdkjs")

// TestOfficialJavaScriptSDK: the official SDK gets its noul, choice and
// score answers, the listing and a 404 from the LLM-backed runtime
// unchanged.
func TestOfficialJavaScriptSDK(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed; .ci/run installs it, and this test needs it")
	}
	if _, err := os.Stat(filepath.Join(sdkDir, "node_modules", "@typesafe-ai", "sdk")); err != nil {
		t.Skip("the SDK is not installed: npm ci --prefix runtime/srun/testdata/sdkjs (.ci/run does)")
	}
	s := serve(t, testkit.LLMBackendOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "sdk_test.mjs", s.url, "qwen3-8b")
	cmd.Dir = sdkDir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node sdk_test.mjs: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	var out struct {
		SystemOne *struct {
			Model   string                     `json:"model"`
			Answers map[string]json.RawMessage `json:"answers"`
		} `json:"systemone"`
		SystemOneError any `json:"systemone_error"`
		Models         []struct {
			Name string `json:"name"`
		} `json:"models"`
		UnknownModel struct {
			Status int `json:"status"`
		} `json:"unknown_model"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	if out.SystemOne == nil {
		t.Fatalf("systemOne failed: %v", out.SystemOneError)
	}
	for _, name := range []string{"urgent", "bare", "team", "severity"} {
		var a struct {
			Type  string   `json:"type"`
			Noul  *float64 `json:"noul"`
			Score *float64 `json:"score"`
		}
		if err := json.Unmarshal(out.SystemOne.Answers[name], &a); err != nil || a.Type == "" {
			t.Errorf("%s: %s", name, out.SystemOne.Answers[name])
		}
	}
	if len(out.Models) != 1 || out.Models[0].Name != "qwen3-8b" || out.UnknownModel.Status != 404 {
		t.Errorf("listing %+v, unknown model %+v", out.Models, out.UnknownModel)
	}
}

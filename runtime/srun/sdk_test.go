package srun_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/srun"
)

// sdkDir holds the official JavaScript SDK, @typesafe-ai/sdk pinned to
// 0.6.0 by package-lock.json, and the script that drives it.
const sdkDir = "testdata/sdkjs"

// sdkOutput is what sdk_test.mjs prints.
type sdkOutput struct {
	SystemOne *struct {
		Model     string                     `json:"model"`
		Answers   map[string]json.RawMessage `json:"answers"`
		Usage     map[string]float64         `json:"usage"`
		RequestID string                     `json:"requestId"`
	} `json:"systemone"`
	SystemOneError any `json:"systemone_error"`
	Models         []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		ReleaseDate string `json:"release_date"`
	} `json:"models"`
	ModelsError  any `json:"models_error"`
	UnknownModel struct {
		Status int    `json:"status"`
		Class  string `json:"class"`
	} `json:"unknown_model"`
}

// The official JavaScript SDK 0.6.0 works against the server unchanged:
// noul, choice and score questions, the model listing, and an error.
func TestOfficialJavaScriptSDK(t *testing.T) {
	node, errNode := exec.LookPath("node")
	npm, errNpm := exec.LookPath("npm")
	if errNode != nil || errNpm != nil {
		t.Skip("node and npm are not installed; .ci/run installs them, and this test needs them")
	}
	if _, err := os.Stat(filepath.Join(sdkDir, "node_modules", "@typesafe-ai", "sdk")); err != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund")
		cmd.Dir = sdkDir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci: %v\n%s", err, out)
		}
	}
	s := start(t, srun.Config{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "sdk_test.mjs", s.url, fast)
	cmd.Dir = sdkDir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node sdk_test.mjs: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	var out sdkOutput
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("the script's output is not JSON: %v\n%s", err, stdout.String())
	}
	if out.SystemOne == nil {
		t.Fatalf("systemOne failed: %v", out.SystemOneError)
	}
	checkSDKAnswers(t, &out)
	if out.ModelsError != nil || len(out.Models) != 1 || out.Models[0].Name != fast ||
		out.Models[0].Description == "" || out.Models[0].ReleaseDate == "" {
		t.Errorf("models.list: %+v %v", out.Models, out.ModelsError)
	}
	if out.UnknownModel.Status != 404 || out.UnknownModel.Class != "NotFoundError" {
		t.Errorf("an unknown model: %+v", out.UnknownModel)
	}
}

func checkSDKAnswers(t *testing.T, out *sdkOutput) {
	t.Helper()
	r := out.SystemOne
	if r.Model != fast || !requestID.MatchString(r.RequestID) || r.Usage["input_tokens"] <= 0 {
		t.Errorf("model %q, request id %q, usage %v", r.Model, r.RequestID, r.Usage)
	}
	for _, name := range []string{"urgent", "bare"} {
		var a struct {
			Type string   `json:"type"`
			Noul *float64 `json:"noul"`
		}
		_ = json.Unmarshal(r.Answers[name], &a)
		if a.Type != "noul" || a.Noul == nil || *a.Noul < 0 || *a.Noul > 1 {
			t.Errorf("%s: %s", name, r.Answers[name])
		}
	}
	var team struct {
		Type          string             `json:"type"`
		Choice        string             `json:"choice"`
		Confidence    float64            `json:"confidence"`
		Probabilities map[string]float64 `json:"probabilities"`
	}
	_ = json.Unmarshal(r.Answers["team"], &team)
	options := []string{"billing", "engineering", "other"}
	if team.Type != "choice" || !slices.Contains(options, team.Choice) || len(team.Probabilities) != 3 ||
		!sumsToOne(team.Probabilities) || team.Confidence < 0 || team.Confidence > 1 {
		t.Errorf("team: %s", r.Answers["team"])
	}
	var severity struct {
		Type          string             `json:"type"`
		Score         float64            `json:"score"`
		Probabilities map[string]float64 `json:"probabilities"`
		Legend        map[string]string  `json:"legend"`
	}
	_ = json.Unmarshal(r.Answers["severity"], &severity)
	if severity.Type != "score" || severity.Score < 0 || severity.Score > 2 || len(severity.Probabilities) != 3 ||
		!sumsToOne(severity.Probabilities) || severity.Legend["2"] != "critical" {
		t.Errorf("severity: %s", r.Answers["severity"])
	}
}

// sumsToOne allows the standard's two-decimal rounding.
func sumsToOne(p map[string]float64) bool {
	sum := 0.0
	for _, v := range p {
		sum += v
	}
	return math.Abs(sum-1) <= 0.02
}

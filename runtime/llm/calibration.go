package llm

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"

	"github.com/vllm-sr/systemone/runtime/table"
)

// CalibrationFormat names the calibration file's format.
const CalibrationFormat = "vllm-srun-calibration/1"

// Calibration is what `vllm-srun calibrate` fits and `serve --calibration`
// applies: a temperature per question type and per preset, by which the
// labels' log-probabilities are divided before the softmax. A
// temperature above 1 softens an over-confident model, below 1 sharpens
// it. docs/serving-an-llm.md describes the file.
type Calibration struct {
	Format string `json:"format"`
	// Model and Prompts are what it was fitted for: the backend's model
	// and the prompt templates' version.
	Model   string `json:"model"`
	Prompts string `json:"prompts"`
	// Temperatures are keyed by question type (noul, choice, score, set)
	// and by preset:<name> for a preset question, which takes its
	// preset's before its type's.
	Temperatures map[string]float64 `json:"temperatures"`
	// Report is the fit's measures, before and after, on the held-out
	// split.
	Report []GroupReport `json:"report,omitempty"`
}

// GroupReport is one temperature's fit: its group, the items it was fitted
// and tested on, and the measures on the held-out items at temperature 1
// (Before) and at the fitted temperature (After).
type GroupReport struct {
	Group       string   `json:"group"`
	Temperature float64  `json:"temperature"`
	Train       int      `json:"train"`
	Test        int      `json:"test"`
	Before      Measures `json:"before"`
	After       Measures `json:"after"`
}

// Measures are a set of predictions' accuracy (the most probable label is
// the expected one), log loss (mean −ln p of the expected label), Brier
// score (mean Σ (p − 1[expected])²) and expected calibration error (ten
// equal-width bins of the top probability: Σ |accuracy − confidence| ·
// share of items).
type Measures struct {
	Accuracy float64 `json:"accuracy"`
	LogLoss  float64 `json:"log_loss"`
	Brier    float64 `json:"brier"`
	ECE      float64 `json:"ece"`
}

// calibrationKey is a question's temperature key.
func calibrationKey(t table.QuestionType, preset string) string {
	if preset != "" {
		return "preset:" + preset
	}
	return string(t)
}

// Temperature is the temperature of a question of type t with preset (""
// for none): its preset's, else its type's, else 1.
func (c *Calibration) Temperature(t table.QuestionType, preset string) float64 {
	if c == nil {
		return 1
	}
	if preset != "" {
		if v, ok := c.Temperatures[calibrationKey(t, preset)]; ok {
			return v
		}
	}
	if v, ok := c.Temperatures[string(t)]; ok {
		return v
	}
	return 1
}

// LoadCalibration reads a calibration file, refusing one of another
// format or with a temperature that is not a positive finite number.
func LoadCalibration(path string) (*Calibration, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c Calibration
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%s: not a calibration file: %w", path, err)
	}
	if c.Format != CalibrationFormat {
		return nil, fmt.Errorf("%s: format %q, want %q", path, c.Format, CalibrationFormat)
	}
	keys := make([]string, 0, len(c.Temperatures))
	for k := range c.Temperatures {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if v := c.Temperatures[k]; !(v > 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%s: temperatures.%s is %v, want a positive number", path, k, v)
		}
	}
	return &c, nil
}

// Save writes c as indented JSON.
func (c *Calibration) Save(path string) error {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

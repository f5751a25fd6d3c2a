package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/llm"
	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/table"
)

// calibrateFlags are calibrate's own flags beside the backend's.
type calibrateFlags struct {
	llm          llmFlags
	data, out    string
	holdoutEvery int
	maxLineBytes int
}

func newCalibrate() *cobra.Command {
	var f calibrateFlags
	cmd := &cobra.Command{
		Use:   "calibrate --llm-url URL --llm-model MODEL --data FILE.jsonl --out FILE",
		Short: "Fit an LLM backend's temperatures on labelled System One requests",
		Long: "calibrate asks the backend every labelled question of --data (one JSON object a line:\n" +
			`{"request": <a System One request>, "expected": {"<question>": <answer>}}, where an answer is` + "\n" +
			"a noul's true or false, a choice's option key, a score's level index or a set's array of labels),\n" +
			"fits a temperature per question type and per preset by log loss on the training split, and\n" +
			"writes them to --out with accuracy, log loss, Brier score and ECE before and after on the\n" +
			"held-out split (every --holdout-every-th question). `vllm-srun serve --calibration FILE` applies it.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return f.run(cmd) },
	}
	fl := cmd.Flags()
	f.llm.register(fl)
	fl.StringVar(&f.data, "data", "", "the labelled requests, JSON lines")
	fl.StringVar(&f.out, "out", "", "the calibration file to write")
	fl.IntVar(&f.holdoutEvery, "holdout-every", 5, "hold out every N-th sample for the measures (N >= 2)")
	fl.IntVar(&f.maxLineBytes, "max-line-bytes", 32<<20, "the longest line of --data read")
	for _, name := range []string{"llm-url", "llm-model", "data", "out"} {
		_ = cmd.MarkFlagRequired(name)
	}
	return cmd
}

func (f *calibrateFlags) run(cmd *cobra.Command) error {
	if f.holdoutEvery < 2 {
		return fmt.Errorf("--holdout-every must be at least 2, got %d", f.holdoutEvery)
	}
	cfg, err := f.llm.config()
	if err != nil {
		return err
	}
	cfg.Calibration = nil // the fit starts from the raw log-probabilities
	log, logs, err := front.NewLogger(cmd.ErrOrStderr(), "text", "warn")
	if err != nil {
		return err
	}
	defer logs.Close()
	cfg.Logger = log
	e, err := llm.New(cfg)
	if err != nil {
		return err
	}
	in, err := os.Open(f.data)
	if err != nil {
		return err
	}
	defer in.Close()
	model, err := e.Connect(cmd.Context())
	if err != nil {
		return err
	}
	var samples []llm.Sample
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), f.maxLineBytes)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		s, err := f.sample(cmd, e, model, sc.Bytes())
		if err != nil {
			return fmt.Errorf("%s:%d: %w", f.data, line, err)
		}
		samples = append(samples, s...)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", f.data, err)
	}
	if len(samples) == 0 {
		return fmt.Errorf("%s: no labelled question", f.data)
	}
	c := &llm.Calibration{Format: llm.CalibrationFormat, Model: cfg.Model, Prompts: llm.PromptsVersion, Temperatures: map[string]float64{}}
	for _, r := range llm.Fit(samples, f.holdoutEvery) {
		c.Temperatures[r.Group] = r.Temperature
		c.Report = append(c.Report, r)
	}
	slices.SortFunc(c.Report, func(a, b llm.GroupReport) int { return strings.Compare(a.Group, b.Group) })
	if err := c.Save(f.out); err != nil {
		return err
	}
	printReport(cmd.OutOrStdout(), c, len(samples))
	return nil
}

// sample reads one line and asks its labelled questions.
func (f *calibrateFlags) sample(cmd *cobra.Command, e *llm.Engine, model table.Model, line []byte) ([]llm.Sample, error) {
	v, err := jsonvalue.Decode(line, jsonvalue.Options{})
	if err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	reqValue, ok := v.Get("request")
	expected, ok2 := v.Get("expected")
	if !ok || !ok2 || expected.Kind() != jsonvalue.KindObject {
		return nil, errors.New(`a line is {"request": {...}, "expected": {...}}`)
	}
	req, _, err := shapes.DecodeRequest(jsonvalue.Compact(reqValue))
	if err != nil {
		return nil, fmt.Errorf("request: %w", err)
	}
	return e.Samples(cmd.Context(), model, req, expected)
}

func printReport(w io.Writer, c *llm.Calibration, n int) {
	fmt.Fprintf(w, "%d samples; temperatures fitted on the training split, measured on the held-out one:\n", n)
	fmt.Fprintf(w, "%-20s %8s %6s %6s   %-34s   %-34s\n", "group", "T", "train", "test", "before: acc  logloss  brier  ece", "after: acc  logloss  brier  ece")
	for _, r := range c.Report {
		fmt.Fprintf(w, "%-20s %8.4f %6d %6d   %.3f  %.4f  %.4f  %.4f   %.3f  %.4f  %.4f  %.4f\n", r.Group, r.Temperature, r.Train, r.Test,
			r.Before.Accuracy, r.Before.LogLoss, r.Before.Brier, r.Before.ECE, r.After.Accuracy, r.After.LogLoss, r.After.Brier, r.After.ECE)
	}
}

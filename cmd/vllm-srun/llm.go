package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/vllm-sr/systemone/runtime/llm"
	"github.com/vllm-sr/systemone/runtime/srun"
)

// llmFlags are serve's and calibrate's flags for an LLM backend.
type llmFlags struct {
	url             string
	model           string
	name            string
	apiKeyEnv       string
	backend         string
	maxConcurrency  int
	maxLogprobs     int
	reasoningTokens int
	maxInputTokens  int64
	calibration     string
	callTimeout     time.Duration
	connectTimeout  time.Duration
}

func (f *llmFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&f.url, "llm-url", "", "serve an LLM of the OpenAI-compatible server at this base URL (ending in /v1) instead of a catalogue model")
	fl.StringVar(&f.model, "llm-model", "", "the backend's model id, as its GET /v1/models lists it (with --llm-url)")
	fl.StringVar(&f.name, "name", "", "the name the LLM is served as (default: --llm-model)")
	fl.StringVar(&f.apiKeyEnv, "llm-api-key-env", "", "the environment variable holding the backend's API key, sent as a bearer token")
	fl.StringVar(&f.backend, "llm-backend", string(llm.FlavorAuto), "the backend's server, for the path it gets: "+flavors()+" (auto reads it from GET /v1/models)")
	fl.IntVar(&f.maxConcurrency, "max-concurrency", llm.DefaultMaxConcurrency, "backend calls in flight at once, across requests")
	fl.IntVar(&f.maxLogprobs, "llm-max-logprobs", llm.DefaultMaxLogprobs, "the most top_logprobs a vLLM backend accepts (its --max-logprobs)")
	fl.IntVar(&f.reasoningTokens, "llm-reasoning-tokens", 0, "tokens a reasoning model may think before its answer (0: thinking is turned off)")
	fl.Int64Var(&f.maxInputTokens, "max-input-tokens", 0, "the validated input length in tokens (0: the vllm-sr/llm card's, within the backend's context)")
	fl.StringVar(&f.calibration, "calibration", "", "a calibration file of `vllm-srun calibrate` (default: temperature 1)")
	fl.DurationVar(&f.callTimeout, "llm-timeout", llm.DefaultCallTimeout, "how long one backend call may take")
	fl.DurationVar(&f.connectTimeout, "llm-connect-timeout", llm.DefaultConnectTimeout, "how long start-up waits for the backend to list the model")
}

func flavors() string {
	s := make([]string, len(llm.Flavors))
	for i, f := range llm.Flavors {
		s[i] = string(f)
	}
	return strings.Join(s, ", ")
}

// config is the engine's configuration, or one line naming the flag that
// cannot work.
func (f *llmFlags) config() (llm.Config, error) {
	if f.model == "" {
		return llm.Config{}, errors.New("--llm-url needs --llm-model, the backend's model id")
	}
	if f.maxConcurrency < 1 {
		return llm.Config{}, fmt.Errorf("--max-concurrency must be at least 1, got %d", f.maxConcurrency)
	}
	if f.maxLogprobs < 1 {
		return llm.Config{}, fmt.Errorf("--llm-max-logprobs must be at least 1, got %d", f.maxLogprobs)
	}
	if f.reasoningTokens < 0 || f.maxInputTokens < 0 {
		return llm.Config{}, errors.New("--llm-reasoning-tokens and --max-input-tokens must not be negative")
	}
	if f.callTimeout <= 0 || f.connectTimeout <= 0 {
		return llm.Config{}, errors.New("--llm-timeout and --llm-connect-timeout must be positive")
	}
	cfg := llm.Config{URL: f.url, Model: f.model, Name: f.name, Flavor: llm.Flavor(f.backend),
		MaxConcurrency: f.maxConcurrency, MaxLogprobs: f.maxLogprobs, ReasoningTokens: f.reasoningTokens,
		MaxInputTokens: f.maxInputTokens, CallTimeout: f.callTimeout, ConnectTimeout: f.connectTimeout}
	if f.apiKeyEnv != "" {
		key, ok := os.LookupEnv(f.apiKeyEnv)
		if !ok || key == "" {
			return llm.Config{}, fmt.Errorf("--llm-api-key-env %s: the variable is not set", f.apiKeyEnv)
		}
		cfg.APIKey = key
	}
	if f.calibration != "" {
		c, err := llm.LoadCalibration(f.calibration)
		if err != nil {
			return llm.Config{}, fmt.Errorf("--calibration: %w", err)
		}
		cfg.Calibration = c
	}
	return cfg, nil
}

// engine plugs the LLM engine into the server's configuration when
// --llm-url is given.
func (f *llmFlags) engine(cfg *srun.Config) error {
	if f.url == "" {
		return nil
	}
	c, err := f.config()
	if err != nil {
		return err
	}
	c.Logger = cfg.Logger
	e, err := llm.New(c)
	if err != nil {
		return err
	}
	cfg.Engine, cfg.EngineName, cfg.Model = e, llm.EngineName, e.Model().Name
	return nil
}

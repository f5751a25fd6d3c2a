package srun

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/vllm-sr/systemone/generated/corpus"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/table"
)

// SelfTest runs the served model's family self-test requests (from the
// generated corpus, in the internal form) through the engine, and marks
// the server ready when every question of every request is answered. A
// family's self-tests cover all its sizes; a case asking a question type,
// preset, medium or the decision adapter this model's card does not list
// is not this model's and is skipped, but at least one case must apply. A failure leaves the server
// not ready and names the case and question.
func (s *Server) SelfTest(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.SelfTestTimeout)
	defer cancel()
	cases := 0
	for _, c := range corpus.Cases {
		if c.Kind != table.CorpusFamilySelfTest || c.Family != s.model.Family {
			continue
		}
		ran, err := s.selfTestCase(ctx, c)
		if err != nil {
			return fmt.Errorf("self-test %s: %w", c.Name, err)
		}
		if ran {
			cases++
		}
	}
	if cases == 0 {
		return fmt.Errorf("self-test: the corpus has no self-test of family %s that %s answers", s.model.Family, s.model.Name)
	}
	s.ready.Store(true)
	return nil
}

// selfTestCase asks the served model one self-test request, as its
// family's own model, and requires an answer to every question. It
// reports false, without running it, for a case the card does not cover.
func (s *Server) selfTestCase(ctx context.Context, c table.CorpusCase) (bool, error) {
	body, err := corpus.FS.ReadFile(c.Path)
	if err != nil {
		return false, err
	}
	req, _, err := shapes.DecodeRequest(body)
	if err != nil {
		return false, err
	}
	if !covers(&s.model.Card, req) {
		s.log.Info("self-test skipped: the card does not cover it", slog.String("case", c.Name))
		return false, nil
	}
	name := s.model.Name
	req.Model = &name
	resp, err := s.engine.Decide(ctx, s.model, req)
	if err != nil {
		return false, err
	}
	resp = s.finish(req, resp, time.Now(), 0)
	for _, a := range resp.Answers {
		if a.Error != "" {
			return false, fmt.Errorf("question %q failed: %s (%s)", a.Name, a.Error, cmp.Or(a.Reason, string(a.Error)))
		}
	}
	return true, nil
}

// covers reports whether card lists every question type and preset req
// asks, every medium its assets are, and the decision adapter when a
// question opts in to it (a family's smaller sizes may ship without it).
func covers(card *table.Card, req *ir.Request) bool {
	for i := range req.Questions {
		q := &req.Questions[i]
		if q.Type != "" && !card.Answers(q.Type) {
			return false
		}
		if q.DecisionAdapter != nil && *q.DecisionAdapter && !card.DecisionAdapter {
			return false
		}
		if q.Preset != nil {
			if _, ok := card.Preset(*q.Preset); !ok {
				return false
			}
		}
	}
	for i := range req.Assets {
		if !card.Reads(table.Modality(req.Assets[i].Type)) {
			return false
		}
	}
	return true
}

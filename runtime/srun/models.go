package srun

import (
	"log/slog"
	"net/http"

	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/modelcheck"
	"github.com/vllm-sr/systemone/runtime/table"
)

// handleModels answers GET /v1/models with the served model, in the
// client's schema: the standard's name, description and release_date,
// and the extension's version, features and card.
func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	if _, backend := s.engine.(Backend); backend && !s.Ready() {
		// The card is complete once the backend was read (connect).
		s.writeError(w, nil, starting())
		return
	}
	body, err := s.codec.AnswerListing(&ir.Listing{Models: []ir.ListedModel{listedModel(s.model)}})
	if err != nil {
		s.log.LogAttrs(r.Context(), slog.LevelError, "listing not writable", slog.String("error", err.Error())) //vocab:not-spec slog attribute key
		s.writeError(w, nil, unwritableAnswer())
		return
	}
	front.WriteJSON(w, http.StatusOK, body)
}

// listedModel is m as GET /v1/models lists it: its features and card as
// the Router lists a deployment of it (modelcheck.Features, CardValue).
func listedModel(m table.Model) ir.ListedModel {
	version := ExtensionVersion
	return ir.ListedModel{
		Name:        m.Name,
		Description: m.Description,
		ReleaseDate: m.ReleaseDate,
		Version:     &version,
		Features:    modelcheck.Features(&m.Card),
		Card:        modelcheck.CardValue(&m.Card),
	}
}

package router

import (
	"cmp"
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/modelcheck"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// models answers GET /v1/models with the served APIs' models only: the
// System One listing (in the listener's schema) when it serves systemone,
// and the OpenAI data list of the LLM models it serves.
func (h *listenerHandler) models(w http.ResponseWriter, req *http.Request) {
	var body jsonvalue.Value
	if api := h.systemone; api != nil {
		listing := h.router.systemOneListing(req.Context(), api)
		raw, err := api.Codec.AnswerListing(listing)
		if err == nil {
			body, err = jsonvalue.Decode(raw, jsonvalue.Options{MaxDepth: 128})
		}
		if err != nil {
			h.answerError(w, h.errors, nil, internalError(vocab.ReasonUnwritableListing, "the listing could not be written"))
			return
		}
	} else {
		body, _ = jsonvalue.Object()
	}
	if models, any := h.llmModels(); any {
		body = withData(body, models)
	}
	front.WriteJSON(w, http.StatusOK, jsonvalue.Compact(body))
}

// systemOneModels answers GET /v1/systemone/models: the System One
// listing alone, in the listener's schema, as GET /v1/models lists it
// without the OpenAI data list of the LLM models the listener serves.
func (h *listenerHandler) systemOneModels(w http.ResponseWriter, req *http.Request, api *routerconfig.ListenerAPI) {
	if req.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		h.answerError(w, api, nil, listener.ErrorOf(ir.ErrorMethodNotAllowed, vocab.ReasonMethodNotAllowed, "this endpoint takes GET"))
		return
	}
	raw, err := api.Codec.AnswerListing(h.router.systemOneListing(req.Context(), api))
	if err != nil {
		h.answerError(w, api, nil, internalError(vocab.ReasonUnwritableListing, "the listing could not be written"))
		return
	}
	front.WriteJSON(w, http.StatusOK, raw)
}

// systemOneListing lists the deployment and pool keys a client of api can
// name, sorted. Every entry carries the extension set version the Router
// answers with and its features in the vocabulary's order (target.Listed):
// a deployment's capabilities, the words routing uses (its card's, as
// vllm-srun lists them, else its declared ones, else its upstream
// listing's, else its schema's); a pool's, every member's. A deployment
// carries its upstream listing's release date and card where the upstream
// lists its model, else its catalogue model's; a pool the newest of its
// members' (listedPool).
func (r *Router) systemOneListing(ctx context.Context, api *routerconfig.ListenerAPI) *ir.Listing {
	out := &ir.Listing{}
	for _, name := range r.servedModels(api) {
		if d, ok := r.cfg.Deployment(name); ok {
			out.Models = append(out.Models, r.listedDeployment(ctx, d))
			continue
		}
		if p, ok := r.cfg.Pool(name); ok {
			out.Models = append(out.Models, r.listedPool(ctx, p))
		}
	}
	return out
}

// servedModels are the deployment and pool keys a client of api can name,
// sorted: the API's models list, else every deployment and pool.
func (r *Router) servedModels(api *routerconfig.ListenerAPI) []string {
	names := api.Models
	if names == nil {
		for _, d := range r.cfg.Deployments {
			names = append(names, d.Name)
		}
		for _, p := range r.cfg.Pools {
			names = append(names, p.Name)
		}
	}
	names = slices.Clone(names)
	slices.Sort(names)
	return names
}

func (r *Router) listedDeployment(ctx context.Context, d *routerconfig.Deployment) ir.ListedModel {
	m := ir.ListedModel{Name: d.Name, Description: "System One deployment of " + d.Model + " (" + string(d.Schema) + ")",
		Version: new(extensionVersion)}
	if known, ok := catalog.Model(d.Model); ok {
		m.ReleaseDate, m.Card = known.ReleaseDate, modelcheck.CardValue(&known.Card)
	}
	if e, ok := r.listings.Entry(ctx, d); ok {
		m.ReleaseDate = cmp.Or(e.ReleaseDate, m.ReleaseDate)
		if e.Card.IsValid() {
			m.Card = e.Card
		}
		if e.Description != "" {
			m.Description = e.Description
		}
	}
	m.Features = tc.Listed(r.capabilities(ctx, d))
	return m
}

// listedPool lists a pool with its members' features and the newest of
// their release dates: the standard's listing requires one on every
// entry, and a pool may route to a model as new as its newest member.
func (r *Router) listedPool(ctx context.Context, p *routerconfig.Pool) ir.ListedModel {
	var caps tc.CapabilitySet
	released := ""
	for _, member := range p.Members {
		if d, ok := r.cfg.Deployment(member); ok {
			caps = append(caps, r.capabilities(ctx, d)...)
			released = max(released, r.listedDeployment(ctx, d).ReleaseDate)
		}
	}
	return ir.ListedModel{Name: p.Name, Version: new(extensionVersion), Features: tc.Listed(caps), ReleaseDate: released,
		Description: "pool routed by capability over " + strings.Join(p.Members, ", ")}
}

// llmModels are the LLM models the listener serves, sorted: each served
// LLM API's listed models, or for an API listing none every model an
// upstream of that API serves. any is false when it serves no LLM API.
func (h *listenerHandler) llmModels() (models []string, any bool) {
	for i := range h.lst.APIs {
		a := &h.lst.APIs[i]
		if a.API.Kind != registry.KindLLM {
			continue
		}
		any = true
		if a.Models != nil {
			models = append(models, a.Models...)
			continue
		}
		for _, u := range h.router.cfg.Upstreams {
			if u.API == a.API.Name {
				models = append(models, u.Models...)
			}
		}
	}
	slices.Sort(models)
	return slices.Compact(models), any
}

// withData adds the OpenAI list to a listing object: the models join its
// data list when it has one (a vllm-sr/4.0 listing), else object and data
// members are added in front.
func withData(body jsonvalue.Value, models []string) jsonvalue.Value {
	entries := make([]jsonvalue.Value, len(models))
	for i, m := range models {
		entries[i], _ = jsonvalue.Object(
			jsonvalue.Member{Name: vocab.LegacyListItemID, Value: jsonvalue.String(m)},
			jsonvalue.Member{Name: vocab.LegacyListItemObject, Value: jsonvalue.String("model")}, //vocab:not-spec "model" is OpenAI's object type value
			jsonvalue.Member{Name: vocab.LegacyListItemOwnedBy, Value: jsonvalue.String("vllm-sr")},
		)
	}
	members := slices.Clone(body.Members())
	for i := range members {
		if members[i].Name == vocab.ListingData && members[i].Value.Kind() == jsonvalue.KindArray {
			members[i].Value = jsonvalue.Array(append(slices.Clone(members[i].Value.Items()), entries...)...)
			out, _ := jsonvalue.Object(members...)
			return out
		}
	}
	front := []jsonvalue.Member{
		{Name: vocab.ListingObject, Value: jsonvalue.String("list")},
		{Name: vocab.ListingData, Value: jsonvalue.Array(entries...)},
	}
	out, _ := jsonvalue.Object(append(front, members...)...)
	return out
}

package router

import (
	"context"
	"errors"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	"github.com/vllm-sr/systemone/runtime/table"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// capabilities are what d answers and reads: its card's (resolved at
// load), else its declared ones, else its upstream listing's features
// (fetched once and cached), else everything its schema carries.
func (r *Router) capabilities(ctx context.Context, d *routerconfig.Deployment) tc.CapabilitySet {
	if d.Card != nil || d.Declared != nil {
		return d.Capabilities
	}
	if l, ok := r.listings.Entry(ctx, d); ok && l.Features != nil {
		return featureCapabilities(l.Features, d.Codec.Traits().Capabilities)
	}
	return d.Capabilities
}

// featureCapabilities keeps the listing's features that name a capability
// the deployment's schema carries.
func featureCapabilities(features []string, carried tc.CapabilitySet) tc.CapabilitySet {
	var out tc.CapabilitySet
	for _, f := range features {
		if c := tc.Capability(f); carried.Has(c) {
			out = append(out, c)
		}
	}
	return out
}

// target is d as a plan target, with the capabilities r resolved (read
// only, as the rest of the target: routerconfig.Deployment.Target).
func target(d *routerconfig.Deployment, caps tc.CapabilitySet) tc.Target {
	t := d.Target()
	t.Capabilities = caps
	return t
}

// missing lists what b asks for that d cannot carry (its schema) or answer
// (caps: question types and media), with paths inside the batch body;
// nil when d can take b.
func missing(d *routerconfig.Deployment, caps tc.CapabilitySet, b *ir.Batch) []tc.Missing {
	var out []tc.Missing
	// A codec that checks what its schema carries (systemone/0.2) also
	// applies the capabilities to the question types, so only media are
	// checked below.
	_, carries := d.Codec.(tc.CarryChecker)
	if carries {
		if ce, ok := errors.AsType[*tc.CarryError](tc.CheckCarry(d.Codec, b, target(d, caps))); ok {
			out = append(out, ce.Missing...)
		}
	}
	for i := range b.Items {
		r := &b.Items[i].Request
		at := ir.Path{{Name: vocab.BatchRequests}, {Name: b.Items[i].Name}}
		if !carries {
			out = append(out, unansweredTypes(r, caps, at)...)
		}
		out = append(out, unreadMedia(r, caps, at)...)
	}
	return out
}

// unansweredTypes lists the questions whose type caps do not answer.
func unansweredTypes(r *ir.Request, caps tc.CapabilitySet, at ir.Path) []tc.Missing {
	var out []tc.Missing
	for i := range r.Questions {
		q := &r.Questions[i]
		typ := questionType(q)
		if typ != "" && !caps.Has(tc.Capability(typ)) {
			out = append(out, tc.Missing{What: string(typ) + " question", Path: at.Key(vocab.RequestQuestions).Key(q.Name).Key(vocab.QuestionType)})
		}
	}
	return out
}

// questionType is q's type, or the type its preset implies.
func questionType(q *ir.Question) table.QuestionType {
	if q.Type != "" || q.Preset == nil {
		return q.Type
	}
	if p, ok := catalog.Preset(*q.Preset); ok {
		return p.Type
	}
	return ""
}

// unreadMedia lists the assets whose medium caps do not read, one per
// medium.
func unreadMedia(r *ir.Request, caps tc.CapabilitySet, at ir.Path) []tc.Missing {
	var out []tc.Missing
	seen := map[ir.AssetType]bool{}
	for i := range r.Assets {
		t := r.Assets[i].Type
		if seen[t] || caps.Has(tc.Capability(t)) {
			continue
		}
		seen[t] = true
		out = append(out, tc.Missing{What: string(t) + " asset", Path: at.Key(vocab.RequestAssets).Key(r.Assets[i].Placeholder)})
	}
	return out
}

// unbatched drops the requests.<item> prefix from paths of a single
// request's batch.
func unbatched(m []tc.Missing, single bool) []tc.Missing {
	if !single {
		return m
	}
	return tc.Unbatched(m)
}

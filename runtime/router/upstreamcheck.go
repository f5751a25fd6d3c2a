package router

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"sync"

	"github.com/vllm-sr/systemone/runtime/fleet"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/llmproxy"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	"github.com/vllm-sr/systemone/runtime/rules"
)

// Finding is one thing the start check found about a deployment's
// upstream. Message is one line naming the deployment (and the rule);
// Strict findings are errors under --strict, the others warnings always.
type Finding struct {
	Deployment string
	Rule       string
	Message    string
	Strict     bool
	// known: the same finding was made before (a reload's start check
	// finding a runtime contract unchanged), so it is logged again only
	// as an error.
	known bool
}

// CheckUpstreams asks each deployment's upstream for its model listing
// (GET /v1/models, the target codec's Traits().ListingPath), concurrently
// and each within the listing timeout, and reports, in deployment order:
//
//   - a model the upstream does not list, naming the models it does
//     (strict);
//   - for a deployment whose model has no card in the catalogue and
//     declares no capabilities, a rule asking what the listing's features
//     (its card's question types) do not answer, as at load (strict);
//   - a listing that could not be read (a warning even under --strict:
//     readiness reports an upstream that is down);
//   - a runtime that reports a contract other than the Router's in its
//     GET /health (strict), where the schema has one (runtime/fleet).
//
// A deployment whose schema has neither a listing nor a health path is not
// asked. The listings
// read are kept for routing, as a request's first fetch would be.
func (r *Router) CheckUpstreams(ctx context.Context) []Finding {
	per := make([][]Finding, len(r.cfg.Deployments))
	var wg sync.WaitGroup
	for i := range r.cfg.Deployments {
		d := &r.cfg.Deployments[i]
		if d.Codec == nil || d.Codec.Traits().ListingPath == "" && d.Codec.Traits().HealthPath == "" {
			continue
		}
		wg.Go(func() {
			per[i] = r.contractFinding(ctx, d)
			if d.Codec.Traits().ListingPath != "" {
				per[i] = append(per[i], r.checkUpstream(ctx, d)...)
			}
		})
	}
	wg.Wait()
	var out []Finding
	for _, f := range per {
		out = append(out, f...)
	}
	return out
}

func (r *Router) checkUpstream(ctx context.Context, d *routerconfig.Deployment) []Finding {
	at := "deployment " + quote(d.Name) + " (" + d.Endpoint + ")"
	listing, err := r.listings.Listing(ctx, d)
	if err != nil {
		return []Finding{{Deployment: d.Name, Message: at + ": its model listing could not be read: " + err.Error()}}
	}
	entry, listed := fleet.ListedModel(listing, d.Model)
	if !listed {
		return []Finding{{Deployment: d.Name, Strict: true,
			Message: at + ": the upstream does not list model " + strconv.Quote(d.Model) + "; it lists: " + listedNames(listing)}}
	}
	if d.Card != nil || d.Declared != nil || entry.Features == nil {
		return nil
	}
	caps := featureCapabilities(entry.Features, d.Codec.Traits().Capabilities)
	var out []Finding
	for i := range r.cfg.Rules {
		rule := &r.cfg.Rules[i]
		if rule.Deployment != d.Name {
			continue
		}
		batch := &ir.Batch{Items: []ir.BatchItem{{Name: rule.Name, Request: rules.Request(rule, d.Codec.Traits(), llmproxy.Input{Media: llmproxy.OfTypes(rule.Media)})}}}
		for _, m := range missing(d, caps, batch) {
			out = append(out, Finding{Deployment: d.Name, Rule: rule.Name, Strict: true,
				Message: "rule " + quote(rule.Name) + " refused: " + at + " does not answer " + m.What + " by its listing's features"})
		}
	}
	return out
}

// listedNames are a listing's model names, quoted; "none" for none.
// contractFinding is the start check's finding about d's runtime contract
// (fleet.Checks.ContractFinding): none, or one strict finding.
func (r *Router) contractFinding(ctx context.Context, d *routerconfig.Deployment) []Finding {
	msg, known, found := r.checks.ContractFinding(ctx, r.prober(), d)
	if !found {
		return nil
	}
	return []Finding{{Deployment: d.Name, Strict: true, known: known, Message: msg}}
}

func listedNames(l *ir.Listing) string {
	if len(l.Models) == 0 {
		return "none"
	}
	names := make([]string, len(l.Models))
	for i, m := range l.Models {
		names[i] = strconv.Quote(m.Name)
	}
	return strings.Join(names, ", ")
}

// checkUpstreamsAtStart runs CheckUpstreams and logs each finding as a
// warning; under Options.StrictUpstreams the strict findings are an
// error, one per line.
func (r *Router) checkUpstreamsAtStart(ctx context.Context) error {
	var errs []error
	for _, f := range r.CheckUpstreams(ctx) {
		attrs := []slog.Attr{slog.String("deployment", f.Deployment)} //vocab:not-spec log attribute key
		if f.Rule != "" {
			attrs = append(attrs, slog.String("rule", f.Rule))
		}
		if r.opts.StrictUpstreams && f.Strict {
			r.log.LogAttrs(ctx, slog.LevelError, f.Message, attrs...)
			errs = append(errs, errors.New(f.Message))
			continue
		}
		if !f.known {
			r.log.LogAttrs(ctx, slog.LevelWarn, f.Message, attrs...)
		}
	}
	return errors.Join(errs...)
}

package fleet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	"github.com/vllm-sr/systemone/runtime/upstream"
)

// Listings fetches deployments' upstream listings through their target
// codecs (Traits.ListingPath, DecodeListing) and keeps each one that
// decoded: a deployment's models and cards do not change while it runs. A
// failed fetch is not kept, so the next request tries again. One lives as
// long as its configuration; it is safe for concurrent use.
type Listings struct {
	p   *Prober
	mu  sync.Mutex
	got map[string]*ir.Listing // by deployment
}

// NewListings returns listings fetched with p (its client, timeout and
// credentials).
func NewListings(p *Prober) *Listings {
	return &Listings{p: p, got: map[string]*ir.Listing{}}
}

// Entry returns the listing's entry for d's model, if d's upstream lists it.
func (l *Listings) Entry(ctx context.Context, d *routerconfig.Deployment) (*ir.ListedModel, bool) {
	listing, err := l.Listing(ctx, d)
	if err != nil {
		return nil, false
	}
	return ListedModel(listing, d.Model)
}

// ListedModel is the listing's entry named model.
func ListedModel(listing *ir.Listing, model string) (*ir.ListedModel, bool) {
	for i := range listing.Models {
		if listing.Models[i].Name == model {
			return &listing.Models[i], true
		}
	}
	return nil, false
}

// errNoListing: the deployment's schema has no model listing.
var errNoListing = errors.New("its schema has no model listing")

// Listing is d's upstream listing, fetched once it has decoded; an error
// says why there is none (the upstream's own words: for logs only).
func (l *Listings) Listing(ctx context.Context, d *routerconfig.Deployment) (*ir.Listing, error) {
	l.mu.Lock()
	cached, ok := l.got[d.Name]
	l.mu.Unlock()
	if ok {
		return cached, nil
	}
	if d.Codec == nil || d.Codec.Traits().ListingPath == "" {
		return nil, errNoListing
	}
	fetched, err := l.fetch(ctx, d)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.got[d.Name] = fetched
	l.mu.Unlock()
	return fetched, nil
}

// fetch GETs d's listing with d's key, within the listing timeout.
func (l *Listings) fetch(ctx context.Context, d *routerconfig.Deployment) (*ir.Listing, error) {
	base, err := d.Target().BaseURL()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, l.p.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+d.Codec.Traits().ListingPath, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	l.p.Authorize(req.Header, d.APIKey)
	resp, err := l.p.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, upstream.MaxReplyBytes))
	switch {
	case err != nil:
		return nil, err
	case int64(len(body)) >= upstream.MaxReplyBytes:
		return nil, errors.New("the listing is larger than the body limit")
	}
	listing, err := d.Codec.DecodeListing(resp.StatusCode, body)
	switch {
	case err != nil:
		return nil, fmt.Errorf("GET %s answered %d: %w", d.Codec.Traits().ListingPath, resp.StatusCode, err)
	case listing == nil:
		return nil, fmt.Errorf("GET %s answered %d with no listing", d.Codec.Traits().ListingPath, resp.StatusCode)
	}
	return listing, nil
}

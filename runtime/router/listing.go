package router

import (
	"context"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// DefaultListingTimeout bounds one fetch of a deployment's GET /v1/models.
const DefaultListingTimeout = 2 * time.Second

// listings fetches deployments' upstream listings through their target
// codecs (Traits.ListingPath, DecodeListing) and keeps each one that decoded: a
// deployment's models and cards do not change while it runs. A failed
// fetch is not kept, so the next request tries again.
type listings struct {
	client  *http.Client
	timeout time.Duration
	mu      sync.Mutex
	got     map[string]*ir.Listing // by deployment
}

func newListings(client *http.Client, timeout time.Duration) *listings {
	return &listings{client: client, timeout: timeout, got: map[string]*ir.Listing{}}
}

// entry returns the listing's entry for d's model, if d's upstream lists it.
func (l *listings) entry(ctx context.Context, d *routerconfig.Deployment) (*ir.ListedModel, bool) {
	listing, ok := l.listing(ctx, d)
	if !ok {
		return nil, false
	}
	for i := range listing.Models {
		if listing.Models[i].Name == d.Model {
			return &listing.Models[i], true
		}
	}
	return nil, false
}

func (l *listings) listing(ctx context.Context, d *routerconfig.Deployment) (*ir.Listing, bool) {
	l.mu.Lock()
	cached, ok := l.got[d.Name]
	l.mu.Unlock()
	if ok {
		return cached, true
	}
	if d.Codec == nil || d.Codec.Traits().ListingPath == "" {
		return nil, false
	}
	fetched, ok := l.fetch(ctx, d)
	if !ok {
		return nil, false
	}
	l.mu.Lock()
	l.got[d.Name] = fetched
	l.mu.Unlock()
	return fetched, true
}

func (l *listings) fetch(ctx context.Context, d *routerconfig.Deployment) (*ir.Listing, bool) {
	base, err := d.Target().BaseURL()
	if err != nil {
		return nil, false
	}
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+d.Codec.Traits().ListingPath, nil)
	if err != nil {
		return nil, false
	}
	req.Header.Set("Accept", "application/json")
	resp, err := l.client.Do(req)
	if err != nil {
		return nil, false
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxReplyBytes))
	if err != nil || int64(len(body)) >= maxReplyBytes {
		return nil, false
	}
	listing, err := d.Codec.DecodeListing(resp.StatusCode, body)
	if err != nil || listing == nil {
		return nil, false
	}
	return listing, true
}

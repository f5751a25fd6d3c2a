package drift

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/vllm-sr/systemone/gen/model"
)

// DefaultTimeout bounds one fetch of the published document, from the
// request to the last byte of its body.
const DefaultTimeout = 30 * time.Second

// maxDocument bounds the body read: the 0.2.0 document is tens of KiB, so
// anything near this is not the document.
const maxDocument = 16 << 20

// Input says where the published document comes from: a local file, or a
// URL fetched over HTTP. The fetched bytes are compared in memory and never
// written anywhere (the document carries no license).
type Input struct {
	// File is a local copy of the document; empty: fetch URL.
	File string
	// URL is fetched when File is empty; empty: the spec's source.url.
	URL string
	// Timeout bounds the fetch; zero: DefaultTimeout.
	Timeout time.Duration
	// Client does the fetch; nil: a plain http.Client.
	Client *http.Client
}

// Check reads or fetches the document in and compares it.
func Check(ctx context.Context, m *model.Model, in Input) (Report, error) {
	if in.File != "" {
		return CompareFile(m, in.File)
	}
	url := in.URL
	if url == "" {
		if s := m.Spec(model.SpecStandard); s != nil && s.Source != nil {
			url = s.Source.URL
		}
	}
	if url == "" {
		return Report{}, fmt.Errorf("no URL to fetch: the standard spec records no source.url")
	}
	data, err := Fetch(ctx, in.Client, url, in.Timeout)
	if err != nil {
		return Report{Source: url}, err
	}
	return Compare(m, data, url)
}

// Fetch GETs url and returns the body of a 200 answer. Any other outcome
// is an error that names the URL: a refused connection, a non-200 status,
// no complete answer within timeout, an empty or oversized body.
func Fetch(ctx context.Context, client *http.Client, url string, timeout time.Duration) ([]byte, error) {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if client == nil {
		client = &http.Client{}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", url, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fetchError(url, timeout, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetching %s: the server answered %s, not 200 OK", url, resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument+1))
	switch {
	case err != nil:
		return nil, fetchError(url, timeout, err)
	case len(data) > maxDocument:
		return nil, fmt.Errorf("fetching %s: the body is larger than %d bytes; not the published document", url, maxDocument)
	case len(data) == 0:
		return nil, fmt.Errorf("fetching %s: the server answered 200 with an empty body", url)
	}
	return data, nil
}

// fetchError names a timeout as one, with the limit that ran out.
func fetchError(url string, timeout time.Duration, err error) error {
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
		return fmt.Errorf("fetching %s: no complete answer within %s (raise it with --timeout): %w", url, timeout, err)
	}
	return fmt.Errorf("fetching %s: %w", url, err)
}

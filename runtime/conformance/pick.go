package conformance

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// maxProbes bounds how many listed models pickModel tries: a listing
// longer than that has its first maxProbes tried, in order.
const maxProbes = 16

// pickModel sets the model the cases name and the question types its
// card declares. A model the options name is used as given. Otherwise
// the kit asks each listed model, in the listing's order, one noul
// question and picks the first that answers 200: a Router lists its
// deployments whether or not they are up, and a case run against a down
// one would fail for the deployment, not for the server. When none
// answers 200 the first listed is used, and the cases report why.
func (run *runner) pickModel(ctx context.Context) error {
	if run.model == "" && len(run.listed) > 0 {
		run.model = run.listed[0].name
		for i, m := range run.listed {
			if i == maxProbes {
				break
			}
			ok, err := run.probe(ctx, m.name)
			if err != nil {
				return err
			}
			if ok {
				run.model = m.name
				break
			}
		}
	}
	for _, m := range run.listed {
		if m.name == run.model {
			run.questionTypes = m.questionTypes
			break
		}
	}
	return nil
}

// probeCase is the name an Exchange of pickModel's questions carries.
const probeCase = "pick-model"

// probe asks model one noul question and reports whether it answered 200.
func (run *runner) probe(ctx context.Context, model string) (bool, error) {
	raw := jsonvalue.Compact(ask(noulQuestion("urgent")).value(model))
	header := http.Header{"Accept": {"application/json"}, vocab.HeaderContentType: {"application/json"}}
	got := run.send(ctx, http.MethodPost, vocab.PathSystemone, header, raw)
	if run.opts.Observe != nil {
		run.opts.Observe(Exchange{Case: probeCase, Method: http.MethodPost, Path: vocab.PathSystemone, Header: header.Clone(),
			Body: raw, Valid: true, Status: got.status, ResponseHeader: got.header, Answer: got.body})
	}
	if got.err != nil {
		return false, run.unreachable(got.err)
	}
	return got.status == http.StatusOK, nil
}

// ErrNoServer is what Run returns, wrapped with the URL and the cause,
// when a connection to the server cannot be made: every case would fail
// the same way, so the run stops at the first.
var ErrNoServer = errors.New("no server answers")

// unreachable returns an error wrapping ErrNoServer when err is a
// connection that could not be made (refused, no such host, dial
// timeout), nil for any other failure, which fails its case alone.
func (run *runner) unreachable(err error) error {
	var op *net.OpError
	if !errors.As(err, &op) || op.Op != "dial" {
		return nil
	}
	return fmt.Errorf("%w at %s: %v", ErrNoServer, run.base, op.Err)
}

package gen

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/gen/openapicheck"
)

// The vllm-sr/5.0 listener's answer goldens (runtime/listener) against the
// generated document: what the runtime writes is what the document says a
// server answers.

// answerGoldens are the listener's 5.0 answer goldens; each file is a body,
// after a first line "status N" when the status is not 200.
const answerGoldens = "../runtime/listener/testdata/v50/answer"

// answerRoutes say which operation answered each golden; a golden not
// listed here fails the test, so a new one is routed on purpose.
var answerRoutes = map[string]string{
	"batch.json":                   "POST " + batchPath,
	"decisions-failures.json":      "POST /v1/decisions",
	"error-overloaded.json":        "POST /v1/systemone",
	"error-question-422.json":      "POST /v1/systemone",
	"error-question-deadline.json": "POST " + batchPath, // its error names the batch item (state)
	"error-starting.json":          "POST /v1/systemone",
	"error-too-large.json":         "POST /v1/systemone",
	"listing.json":                 "GET /v1/models",
	"response-extensions.json":     "POST /v1/systemone",
	"response.json":                "POST /v1/systemone",
}

// answerDeviations are goldens that do not follow the specifications, and
// the one change that makes each follow them: the test requires the golden
// to fail as it is and to pass once changed, so the deviation is exactly
// the one named. Remove an entry when its golden is fixed.
var answerDeviations = map[string]struct {
	why string
	fix func(body map[string]any)
}{
	// None: the track answer's made-up array in the listener's test was
	// replaced by the object the spec defines and the reference scorer
	// writes (rate and moments).
}

// requestFor is a body that routes to an operation; the response check
// needs the request only to find the operation.
var requestFor = map[string][]byte{
	"/v1/systemone": []byte(`{"state":"s","questions":{"q":{"type":"noul"}}}`),
	"/v1/decisions": []byte(`{"state":"s","questions":{"q":{"type":"noul"}}}`),
	batchPath:       []byte(`{"requests":{"a":{"state":"s","questions":{"q":{"type":"noul"}}}}}`),
	"/v1/models":    nil,
	"/health":       nil,
}

func TestOpenAPIAcceptsTheRuntimeAnswers(t *testing.T) {
	doc := openAPI50(t)
	files, err := filepath.Glob(filepath.Join(answerGoldens, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no answer goldens under %s (%v): the runtime moved them; update answerGoldens", answerGoldens, err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		route, ok := answerRoutes[name]
		if !ok {
			t.Errorf("%s: no route in answerRoutes", name)
			continue
		}
		status, body := readAnswerGolden(t, f)
		x := answerExchange(route, status, body)
		err := doc.CheckResponse(context.Background(), x)
		dev, deviates := answerDeviations[name]
		switch {
		case !deviates && err != nil:
			t.Errorf("%s (%s, %d) does not follow the document: %s", name, route, status, firstLine(err))
		case deviates && err == nil:
			t.Errorf("%s follows the document now; remove its entry from answerDeviations", name)
		case deviates:
			fixed := decodeBody(t, body).(map[string]any)
			dev.fix(fixed)
			x.Answer = encodeBody(t, fixed)
			if err := doc.CheckResponse(context.Background(), x); err != nil {
				t.Errorf("%s deviates by more than %s: %s", name, dev.why, firstLine(err))
			}
		}
	}
}

// readAnswerGolden splits a golden into its status and body.
func readAnswerGolden(t *testing.T, path string) (int, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	first, rest, found := bytes.Cut(data, []byte("\n"))
	if n, ok := bytes.CutPrefix(first, []byte("status ")); ok && found {
		status, err := strconv.Atoi(string(bytes.TrimSpace(n)))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return status, rest
	}
	return 200, data
}

func answerExchange(route string, status int, body []byte) openapicheck.Exchange {
	method, path, _ := strings.Cut(route, " ")
	return openapicheck.Exchange{
		Method: method, Path: path, Body: requestFor[path],
		Status: status, Answer: body,
	}
}

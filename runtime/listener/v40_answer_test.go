package listener_test

import (
	"strconv"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

func noul(name string, p float64) ir.Answer { return ir.Answer{Name: name, Type: "noul", Noul: fl(p)} }

// TestV40AnswerGolden: the 4.0 shapes (a states request per state name), the
// error body with both detail and error, and the listing with data.
func TestV40AnswerGolden(t *testing.T) {
	read := func(name string) *listener.ClientRequest {
		c := findCase(t, name)
		cr, err := listener.V40.Read(c.Path, c.Body, c.Header)
		if err != nil {
			t.Fatal(err)
		}
		return cr
	}
	states := listener.Outcome{Batch: &ir.BatchResponse{Model: str("vllm-sr/vela3-fast"), Responses: []ir.NamedResponse{
		{Name: "doc_1", Response: ir.Response{Answers: []ir.Answer{noul("relevance", 0.91)}, Usage: &ir.Usage{InputTokens: 30}}},
		{Name: "doc_2", Response: ir.Response{Answers: []ir.Answer{noul("relevance", 0.04)}, Usage: &ir.Usage{InputTokens: 28}}},
	}}}
	single := listener.Outcome{Response: &ir.Response{Model: str("vllm-sr/vela3-fast"), Answers: []ir.Answer{{Name: "team", Type: "choice",
		Choice: str("billing"), Probabilities: []ir.Probability{{Key: "billing", P: 0.7}, {Key: "support", P: 0.3}}, Confidence: fl(0.4)}}}}
	for name, c := range map[string]struct {
		cr  *listener.ClientRequest
		out listener.Outcome
	}{
		"states":   {read("removed-states"), states},
		"response": {read("removed-choices"), single},
	} {
		body, err := listener.V40.AnswerSuccess(c.cr, c.out)
		if err != nil {
			t.Fatal(err)
		}
		testkit.GoldenCheck(t, "testdata/v40/answer/"+name+".json", []byte(indent(body)))
	}
	limit := int64(255)
	status, body := listener.V40.AnswerError(nil, &ir.ErrorBody{Status: 422, Code: ir.ErrorQuestionFailed, Question: "big",
		Reason: "too_many", Limit: &limit, Message: "question \"big\" cannot be answered: too many options"})
	testkit.GoldenCheck(t, "testdata/v40/answer/error-422.json", []byte("status "+strconv.Itoa(status)+"\n"+indent(body)))
	status, body = listener.V40.AnswerError(nil, &ir.ErrorBody{Status: 529, Message: "overloaded"})
	testkit.GoldenCheck(t, "testdata/v40/answer/error-529.json", []byte("status "+strconv.Itoa(status)+"\n"+indent(body)))
	card, _ := jsonvalue.Decode([]byte(`{"limits":{}}`), jsonvalue.Options{})
	listing, err := listener.V40.AnswerListing(&ir.Listing{Models: []ir.ListedModel{{Name: "vllm-sr/vela3", Description: "Vela 3.0",
		ReleaseDate: "2026-10-01", Version: str("5.0"), Features: []string{"noul"}, Card: card}}})
	if err != nil {
		t.Fatal(err)
	}
	testkit.GoldenCheck(t, "testdata/v40/answer/listing.json", []byte(indent(listing)))
}

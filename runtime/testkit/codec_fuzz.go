package testkit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	tc "github.com/vllm-sr/systemone/runtime/target"
)

// FuzzDecodeReply fuzzes codec.DecodeReply with arbitrary statuses and
// bodies for the one call codec plans for target from the request of
// dir's case planCase, a batch of two items. It is seeded with every
// reply of dir's cases. Whatever the reply, DecodeReply answers both
// items, each with a response or an error and never both, and the
// results reassemble.
func FuzzDecodeReply(f *testing.F, dir, planCase string, codec tc.Codec, target tc.Target) {
	files, _ := filepath.Glob(filepath.Join(dir, "*", "replies.json"))
	for _, file := range files {
		raw, _ := os.ReadFile(file)
		var replies []CodecReplyFile
		_ = json.Unmarshal(raw, &replies)
		for _, r := range replies {
			f.Add(r.Status, []byte(r.Body))
		}
	}
	raw, _ := os.ReadFile(filepath.Join(dir, planCase, "request.json"))
	plan, _, err := codec.Plan(ReadBatch(f, raw, nil), target, tc.Policy{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		results, err := codec.DecodeReply(plan, plan.Calls[0], tc.WireReply{Status: status, Body: body})
		if err != nil || len(results) != 2 {
			t.Fatalf("results %d, %v", len(results), err)
		}
		for _, r := range results {
			if (r.Response == nil) == (r.Error == nil) {
				t.Fatalf("result %+v", r)
			}
		}
		_ = tc.Reassemble(&plan, results)
	})
}

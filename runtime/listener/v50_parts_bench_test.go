package listener_test

import (
	"github.com/vllm-sr/systemone/runtime/testkit"
	"testing"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/shapes"
)

// The hot path's parts, to see where BenchmarkListener5Read spends.

func BenchmarkPartDecode(b *testing.B) {
	body := benchRequest()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	defer testkit.CPUPerOp(b)()
	for b.Loop() {
		if _, err := jsonvalue.Decode(body, jsonvalue.Options{MaxDepth: 72}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPartValidate(b *testing.B) {
	v, _ := jsonvalue.Decode(benchRequest(), jsonvalue.Options{})
	b.ReportAllocs()
	defer testkit.CPUPerOp(b)()
	for b.Loop() {
		if validate.RequestVllmSR50(v) != nil {
			b.Fatal("invalid")
		}
	}
}

func BenchmarkPartBuild(b *testing.B) {
	v, _ := jsonvalue.Decode(benchRequest(), jsonvalue.Options{})
	b.ReportAllocs()
	defer testkit.CPUPerOp(b)()
	for b.Loop() {
		var rd shapes.Reader
		if _, err := rd.Request(v, nil); err != nil {
			b.Fatal(err)
		}
	}
}

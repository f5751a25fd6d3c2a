package modelcheck

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/jsonvalue"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/table"
)

// pngBase64 is a w×h PNG, base64.
func pngBase64(t testing.TB, w, h int) string {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// mp4Base64 is an MP4 of an ftyp box and a moov box whose mvhd says the
// movie lasts seconds.
func mp4Base64(seconds uint32) string {
	box := func(kind string, payload []byte) []byte {
		out := binary.BigEndian.AppendUint32(nil, uint32(8+len(payload)))
		return append(append(out, kind...), payload...)
	}
	mvhd := make([]byte, 20)
	binary.BigEndian.PutUint32(mvhd[12:], 1000)
	binary.BigEndian.PutUint32(mvhd[16:], seconds*1000)
	data := append(box("ftyp", []byte("isom\x00\x00\x02\x00")), box("moov", box("mvhd", mvhd))...)
	return base64.StdEncoding.EncodeToString(data)
}

// headerOnlyMP4 is an ftyp box alone: no duration can be read.
const headerOnlyMP4 = "AAAAIGZ0eXBpc29tAAACAGlzb21pc28yYXZjMW1wNDE="

// decode reads an internal request body without the validator's limits,
// so a test can give a model what only a faulty client or a question that
// fails on its own would: too few options, too many levels.
func decode(t testing.TB, body string) *ir.Request {
	t.Helper()
	root, err := jsonvalue.Decode([]byte(body), jsonvalue.Options{MaxDepth: shapes.MaxDepth})
	if err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	rd := shapes.Reader{Implicit: true}
	req, err := rd.Request(root, nil)
	if err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return req
}

func model(t testing.TB, name string) table.Model {
	t.Helper()
	m, ok := catalog.Model(name)
	if !ok {
		t.Fatalf("no model %q in the catalogue", name)
	}
	return m
}

// words is n tokens of text.
func words(n int) string { return strings.Repeat("w ", n) }

// outcome is one question's plan or failure.
type outcome struct {
	Question *ir.Question
	Plan     Plan
	Failure  *Failure
}

// checkAll checks every question of req against model, in request order.
func checkAll(model table.Model, req *ir.Request) []outcome {
	out := make([]outcome, len(req.Questions))
	for i := range req.Questions {
		q := &req.Questions[i]
		p, f := Question(model, req, q)
		out[i] = outcome{Question: q, Plan: p, Failure: f}
	}
	return out
}

// Error returns the message and the reason, so a test can print a failure.
func (f *Failure) Error() string { return f.Message + " (" + string(f.Reason) + ")" }

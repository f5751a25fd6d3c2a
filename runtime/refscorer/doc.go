// Package refscorer is the deterministic reference scorer: the model
// runtime's stand-in for trained weights, which cannot ship. It answers
// every question a model's card answers, with the shapes, sums, offsets
// and confidences the standard defines, from SHA-256 hashes of what the
// question reads and asks, never from any understanding of the text.
// docs/reference-scorer.md says exactly what it computes.
//
// The same model and request always get the same answers (meta's timings
// aside). A real engine replaces it behind the same method:
//
//	Decide(ctx context.Context, model table.Model, req *ir.Request) (*ir.Response, error)
//
// A question the model cannot answer (runtime/modelcheck) gets an answer
// with Error, Reason and Message set; the error return is only for the
// whole call (a nil request, a states-form request, a canceled context).
package refscorer

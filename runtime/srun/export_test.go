package srun

import "github.com/vllm-sr/systemone/runtime/refscorer"

// ReferenceEngine is the reference scorer (runtime/refscorer) as an
// Engine: what a server runs when Config.Engine is nil, and what tests
// wrap to provoke a real model's failures.
func ReferenceEngine() Engine { return &refscorer.Scorer{} }

// Done is closed once the server has stopped.
func (r *Running) Done() <-chan struct{} { return r.done }

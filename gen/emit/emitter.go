package emit

import "github.com/vllm-sr/systemone/gen/model"

// File is one artifact: its path relative to the repository root
// (slash-separated) and its exact bytes.
type File struct {
	Path string
	Data []byte
}

// Emitter turns the model into the files of one artifact. Emit is a pure
// function: it reads only the model, touches no disk and no clock, and
// returns the same bytes for the same model.
type Emitter struct {
	Name string
	Emit func(*model.Model) ([]File, error)
}

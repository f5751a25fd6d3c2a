package ir

import "github.com/vllm-sr/systemone/runtime/jsonvalue"

// Listing is a GET /v1/models answer.
type Listing struct {
	Models []ListedModel
	// Extra: see Response.Extra.
	Extra []jsonvalue.Member
}

// ListedModel is one listed model: the standard's name, description and
// release date, and the extension's version, features and card.
type ListedModel struct {
	// Name is also vllm-sr/4.0's list item id (runtime/shapes writes it
	// by hand under that name).
	Name        string
	Description string
	// ReleaseDate is kept as written (YYYY-MM-DD or a full timestamp);
	// "" when absent, and a listing writes none then.
	ReleaseDate string
	// Version is the extension set version; nil when absent.
	Version *string
	// Features are the question types and extension features answered;
	// nil when absent.
	Features []string
	// Card is the model card; the zero Value when absent.
	Card jsonvalue.Value
	// Extra: see Response.Extra.
	Extra []jsonvalue.Member
}

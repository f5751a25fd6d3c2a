package srun

import "github.com/vllm-sr/systemone/generated/vocab"

// BodyLimit is the largest request body the server reads, in bytes, both
// as sent and after a Content-Encoding is undone: the generated body_bytes
// limit (32 MiB). listener.ReadBody reads it.
var BodyLimit = vocab.LimitBodyBytes

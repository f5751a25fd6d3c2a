// Package codectest runs the golden cases of the target codecs: a
// vllm-sr/5.0 batch body read by the 5.0 listener codec into the IR, the
// plan a codec makes for it (deviations applied), the replies fed back,
// and the client answer the reassembled batch response is written as.
// It is a test helper: only _test files import it.
package codectest

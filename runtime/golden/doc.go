// Package golden compares test output with want files under testdata/, and
// rewrites them when asked. It is test support: only _test.go files and
// other test-support packages (listenertest, codectest, ...) import it, and
// it imports only the standard library and go-cmp, so gen/ may use it too.
//
// Rewrite goldens with `go test ./pkg -update` in a package whose tests
// import this one, or with SRGEN_UPDATE_GOLDEN=1 for a command that spans
// many packages (`SRGEN_UPDATE_GOLDEN=1 go test ./...`, `make
// golden-update`). The -update flag is registered here and nowhere else, so
// a test binary never defines it twice. CI only compares.
package golden

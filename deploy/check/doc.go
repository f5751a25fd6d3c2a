// Package check holds the checks of deploy/: the container images
// (image_test.go), the Helm chart (helm_test.go), the Grafana dashboard and
// the Prometheus rules against a real Prometheus (prometheus_test.go) and
// the systemd units (systemd_test.go). It is a module of its own, so the
// chart's dependencies (Helm, k8s.io/api) stay out of the main module's
// go.mod; `make deploy-check` and .ci/run run it. Its tests build the
// binaries from the main module (the repository root, two levels up).
//
// Each check needs a tool of the system (buildah, prometheus, promtool,
// systemd-analyze) and skips, saying which package to install, when it is
// missing; .ci/run installs them all, so CI runs every check.
package check

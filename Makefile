# Every target is self-documenting: `make help` lists the ## lines.
GO ?= go
PKGS := ./...

.PHONY: help build install generate check-generated golden-update test lint race run bench fuzz-smoke systemone-schemas-drift site image deploy-check

# The variables a ## line may name as $(NAME), printed with their values.
HELP_VARS := PORT BENCH_COUNT FUZZTIME IMAGE_TAG

help: ## List the targets
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN{FS=":.*## "}{printf "  %-18s %s\n", $$1, $$2}' \
		| sed $(foreach v,$(HELP_VARS),-e 's/$$($(v))/$($(v))/g')

# The three commands. -buildvcs=auto stamps the VCS revision that
# --version prints (an environment's GOFLAGS=-buildvcs=false would hide it).
# VERSION is the release version --version prints and the image's labels
# carry: `git describe` of the nearest release tag (v5.0.0 on the tagged
# commit, v5.0.0-3-gd872625 three commits on, -dirty with changes), or
# VERSION=v5.0.0 given. With no tag and none given it is empty and nothing
# is stamped: --version falls back to the module version Go stamps, a
# pseudo-version such as v0.0.0-20261205070000-d872625a1b2c+dirty
# (docs/releasing.md).
CMDS := ./cmd/vllm-sr ./cmd/vllm-srun ./cmd/srgen
VERSION ?= $(shell git describe --tags --match 'v*' --dirty 2>/dev/null)
REVISION ?= $(shell git rev-parse HEAD 2>/dev/null)
VERSION_LDFLAGS := $(if $(VERSION),-X github.com/vllm-sr/systemone/runtime/front.releaseVersion=$(VERSION))
BUILDFLAGS := -buildvcs=auto -ldflags '$(VERSION_LDFLAGS)'

build: ## Build vllm-sr, vllm-srun and srgen into bin/
	$(GO) build $(BUILDFLAGS) -o bin/ $(CMDS)

install: ## Install vllm-sr, vllm-srun and srgen on the PATH (go install: into GOBIN, else GOPATH/bin)
	$(GO) install $(BUILDFLAGS) $(CMDS)

generate: ## Write every srgen artifact into generated/ and docs/reference/
	$(GO) run ./cmd/srgen generate

# What srgen writes: generated/, docs/reference/ and the zz_generated files
# it writes into the runtime packages that bind the specs.
GENERATED := generated docs/reference 'runtime/*/zz_generated.*'

check-generated: generate ## Fail when generated/, docs/reference/ or a runtime zz_generated file differ from what the specs give
	@if ! git diff --exit-code --stat -- $(GENERATED) || [ -n "$$(git status --porcelain -- $(GENERATED))" ]; then \
		git status --porcelain -- $(GENERATED); \
		echo "generated files are stale: run 'make generate' and commit the result"; exit 1; fi

golden-update: ## Rewrite every golden test file, srgen's and the runtime's (then review the diff)
	SRGEN_UPDATE_GOLDEN=1 $(GO) test -count=1 $(PKGS)

test: ## Run every test (the README's test command; what .ci/run runs)
	$(GO) vet $(PKGS)
	$(GO) test -count=1 $(PKGS)

lint: ## gofmt, go vet and staticcheck (pinned as a Go tool in go.mod)
	@out=$$(gofmt -l $$(git ls-files '*.go') 2>/dev/null); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) tool staticcheck $(PKGS)

# The runtime is concurrent everywhere (pools, circuits, reloads, the
# LLM engine's calls): its tests run again under the race detector.
race: ## Run the runtime's tests under the race detector
	$(GO) test -race -count=1 ./runtime/...

# exec: the server replaces the recipe's shell, so the SIGTERM or SIGINT
# that stops make reaches the server itself, which drains and exits
# (go run would leave its child running on the port).
PORT ?= 8100

run: build ## Serve vllm-sr/vela3-fast with the model runtime on localhost:$(PORT) (PORT=N for another port; docs/runtime.md)
	exec bin/vllm-srun serve vllm-sr/vela3-fast --device cpu --port $(PORT)

# A count (Nx), not a duration: Go 1.26's fuzz coordinator can report a
# spurious 'context deadline exceeded' when a duration -fuzztime ends while a
# worker is mid-run (golang/go#75804, fixed in Go 1.27).
FUZZTIME ?= 100000x

fuzz-smoke: ## Run every Fuzz target for FUZZTIME (default 100000x) each; crashers land in the package's testdata/fuzz/
	@set -e; for pkg in $$($(GO) list ./...); do \
		for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "fuzz $$pkg $$target"; \
			$(GO) test -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 3s $$pkg; \
		done; \
	done

BENCH_PKGS := ./runtime/listener/ ./runtime/jsonvalue/ ./runtime/shapes/ ./runtime/router/
BENCH_COUNT ?= 6

bench: ## Run the listener, jsonvalue, shapes and Router benchmarks (-count $(BENCH_COUNT)): the batch fan-out as x-ideal, the Router's CPU per proxied request beside ReverseProxy's (and nginx's, when on PATH); summarised with benchstat
	$(GO) test -run '^$$' -bench . -benchmem -count $(BENCH_COUNT) $(BENCH_PKGS) | tee /tmp/systemone-bench.txt
	$(GO) test -run '^$$' -bench RouterCost -benchtime 20000x -count $(BENCH_COUNT) ./cmd/vllm-sr/ | tee -a /tmp/systemone-bench.txt
	$(GO) tool benchstat /tmp/systemone-bench.txt

systemone-schemas-drift: ## Compare our systemone/0.2 description with the published OpenAPI: fetches the spec's source.url, or PUBLISHED=file offline; fails on any difference or failed fetch
	$(GO) run ./cmd/srgen drift $(if $(PUBLISHED),--published "$(PUBLISHED)",--fetch)

# The doc site: docs/site is a Docusaurus 3 project pinned by its
# package-lock.json; srgen writes the pages into docs/site/docs, Docusaurus
# builds them into docs/site/build (failing on a broken link or anchor),
# and check.mjs loads every page in the system's headless Chromium
# (CHROMIUM, default /usr/bin/chromium; Debian's package chromium).
SITE := docs/site
CHROMIUM ?= /usr/bin/chromium

site: ## Build the doc site with the pinned Docusaurus (docs/site) and check every page in headless Chromium
	npm ci --prefix $(SITE) --no-audit --no-fund
	$(GO) run ./cmd/srgen docs --out $(SITE)/docs
	NO_UPDATE_NOTIFIER=1 npm --prefix $(SITE) run build
	CHROMIUM=$(CHROMIUM) npm --prefix $(SITE) run check

# The container images (deploy/container/Containerfile), FROM scratch: no
# registry is reachable, so nothing is pulled. The static binaries
# (CGO_ENABLED=0, stamped with VERSION) are built here with the Go
# toolchain and put, with Debian's CA bundle (package ca-certificates) and
# the image's passwd, group and default router.yaml, in the build context
# bin/image; buildah builds each target from it (BUILDAH=podman works
# too). The images are tagged IMAGE_TAG, VERSION without its v (dev when
# there is no VERSION), and labelled with VERSION and REVISION.
BUILDAH ?= buildah
CA_BUNDLE ?= /etc/ssl/certs/ca-certificates.crt
IMAGE_TAG ?= $(patsubst v%,%,$(or $(VERSION),dev))
IMAGES := vllm-sr vllm-srun

image: ## Build the container images vllm-sr:$(IMAGE_TAG) and vllm-srun:$(IMAGE_TAG) with buildah, FROM scratch (docs/deploying.md)
	@test -r $(CA_BUNDLE) || { echo "no CA bundle at $(CA_BUNDLE): install Debian's ca-certificates, or set CA_BUNDLE"; exit 1; }
	rm -rf bin/image && mkdir -p bin/image
	CGO_ENABLED=0 $(GO) build $(BUILDFLAGS) -trimpath -o bin/image/ ./cmd/vllm-sr ./cmd/vllm-srun
	cp $(CA_BUNDLE) bin/image/ca-certificates.crt
	cp deploy/container/passwd deploy/container/group deploy/container/router.yaml bin/image/
	set -e; for t in $(IMAGES); do \
		$(BUILDAH) build --isolation=chroot -f deploy/container/Containerfile --target $$t \
			--build-arg VERSION=$(or $(VERSION),dev) --build-arg REVISION=$(or $(REVISION),unknown) \
			-t $$t:$(IMAGE_TAG) bin/image; \
	done

# The deploy/ checks: a module of its own (deploy/check), so Helm and
# k8s.io/api stay out of the main go.mod. They build the images with
# buildah, lint and render the chart with the pinned Helm and decode every
# object strictly, run a real Prometheus against the Router and the runtime
# for the dashboard and rules, and verify the systemd units. A check whose
# system tool is missing skips, naming the package; .ci/run installs them.
deploy-check: ## Check deploy/: the images (make image), the Helm chart, the dashboard and rules against a real Prometheus, the systemd units
	$(GO) -C deploy/check vet ./...
	$(GO) -C deploy/check test -count=1 -timeout 40m ./...

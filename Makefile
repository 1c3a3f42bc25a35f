# jaiph-go. `make` builds the binary and checks the examples; `make test` runs
# every test. See README.md.

GO       ?= go
BIN      := bin/jaiph
FUZZTIME ?= 60s

.PHONY: all build release examples test unit conformance bench perf-baseline stress fuzz fuzz-soak lint clean bashcompat editors install-check image deploy-check mcpclients screenshot otelcol

all: build examples

# A static binary (no cgo), stamped with jaiph-go's version for `jaiph version`.
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -X github.com/jaiph-go/jaiph/internal/buildinfo.buildVersion=$(VERSION)
PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64

# bin/jaiph-full is the same CLI with the NATS broker, the report and MCP
# servers and the OTLP exporter linked in (-tags full): jaiph hands `broker`,
# `worker`, `report`, `mcp`, runs with --inbox and runs that export a trace to
# it, so that no other command pays their start-up cost (docs/architecture.md).
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/jaiph
	CGO_ENABLED=0 $(GO) build -trimpath -tags full -ldflags '$(LDFLAGS)' -o $(BIN)-full ./cmd/jaiph

# Static binaries for every platform in dist/, with their SHA-256 sums.
release:
	rm -rf dist && mkdir -p dist
	@for p in $(PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; \
		echo "building dist/jaiph-$$os-$$arch"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags '$(LDFLAGS) -s -w' -o dist/jaiph-$$os-$$arch ./cmd/jaiph || exit 1; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -tags full -ldflags '$(LDFLAGS) -s -w' -o dist/jaiph-full-$$os-$$arch ./cmd/jaiph || exit 1; \
	done
	cd dist && sha256sum jaiph-* > SHA256SUMS

examples: build
	./$(BIN) check examples/
	@# every example with a default workflow; each gets "world" as $$1 (hello.jh needs a name);
	@# prompts are answered by the stub agents in testdata/agents; the runs' keys
	@# (docs/security.md) go to a temporary key store, not the home's
	@keys=$$(mktemp -d) && trap 'rm -rf "$$keys"' EXIT && for f in examples/*.jh; do \
		grep -q '^workflow default' "$$f" || continue; \
		JAIPH_KEY_DIR="$$keys" PATH="$(CURDIR)/testdata/agents:$$PATH" ./$(BIN) run "$$f" world || { echo "example $$f failed" >&2; exit 1; }; \
	done
	./$(BIN) test examples/

# `go install github.com/jaiph-go/jaiph/cmd/jaiph@VERSION`, the default and
# the -tags full build, as a user runs it: internal/installcheck zips this
# checkout as a module proxy serves it and installs from a file:// proxy,
# every other module from the local module cache (filled first: offline
# after that). About a minute: .ci/run runs it after `make test`.
install-check:
	$(GO) mod download
	JAIPH_INSTALL_CHECK=1 $(GO) test -count=1 -timeout 30m -run '^TestGoInstall$$' -v ./internal/installcheck

# The container image (Dockerfile): FROM scratch with bin/jaiph,
# bin/jaiph-full and this machine's CA certificates, run as user 65532 in
# /work, with an empty /data of that user for a broker's store (a named
# volume mounted there takes its owner). The build context is staged in
# bin/image; nothing is pulled from a registry (docs/deploy.md).
IMAGE    ?= jaiph-go:dev
CA_CERTS ?= /etc/ssl/certs/ca-certificates.crt

image: build
	rm -rf bin/image
	mkdir -p bin/image/root/usr/local/bin bin/image/root/etc/ssl/certs bin/image/root/tmp bin/image/work bin/image/home bin/image/data
	cp $(BIN) $(BIN)-full bin/image/root/usr/local/bin/
	cp $(CA_CERTS) bin/image/root/etc/ssl/certs/ca-certificates.crt
	printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' >bin/image/root/etc/passwd
	printf 'root:x:0:\nnonroot:x:65532:\n' >bin/image/root/etc/group
	chmod 1777 bin/image/root/tmp
	docker build -t $(IMAGE) -f Dockerfile bin/image

# The broker topology of docs/deploy (a broker, two `jaiph serve --inbox`
# replicas, three workers) in containers of $(IMAGE), which `make image`
# built: a run through each replica, one read through the other; every
# container removed after (scripts/deploy-check.sh). .ci/run runs it.
deploy-check:
	IMAGE=$(IMAGE) bash scripts/deploy-check.sh

# The conformance corpus (testdata/conformance, a copy of the upstream conformance programs)
# runs as TestConformance; `make conformance CONFORMANCE_DIR=path` runs another
# copy of the corpus (JAIPH_CONFORMANCE_DIR empty means testdata/conformance).
CONFORMANCE_DIR ?=

test: lint unit bashcompat conformance examples

# Packages whose tests run without the race detector: the patched
# interpreter's parser (third_party/mvdan-sh/syntax), single-threaded, whose
# TestRecycleNodes takes 30 s under -race and 2 s without. The interpreter
# itself (interp: jobs, pipelines, traps) runs under -race with the rest.
NORACE_PKGS := github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax

unit:
	@# TestBashCompat and TestConformance run in their own targets (below)
	@# -timeout 30m: go test's default 10 minutes per package is a time limit a
	@# loaded machine can reach with the race detector on (cmd/jaiph); a hang
	@# still ends the run.
	$(GO) test -race -count=1 -timeout 30m -skip '^(TestBashCompat|TestConformance)$$' $$($(GO) list ./... | grep -vxF '$(NORACE_PKGS)')
	$(GO) test -count=1 -timeout 30m $(NORACE_PKGS)
	@# Execution counts, not durations: Go 1.26's fuzz coordinator can fail a
	@# duration-bounded run with a spurious "context deadline exceeded" when
	@# the time runs out (go.dev/issue/75804). About 10 s each here.
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 300000x ./parser
	$(GO) test -run '^$$' -fuzz '^FuzzHeadsAgree$$' -fuzztime 100000x ./parser
	$(GO) test -run '^$$' -fuzz '^FuzzParseHalves$$' -fuzztime 200000x ./parser
	$(GO) test -run '^$$' -fuzz '^FuzzCompile$$' -fuzztime 8000x ./codegen
	$(GO) test -run '^$$' -fuzz '^FuzzFormat$$' -fuzztime 10000x ./internal/tools/format
	$(GO) test -run '^$$' -fuzz '^FuzzFeatures$$' -fuzztime 2000x ./internal/tools/lsp

conformance:
	JAIPH_CONFORMANCE_DIR=$(abspath $(CONFORMANCE_DIR)) $(GO) test -count=1 -timeout 30m -run '^TestConformance$$' ./cmd/jaiph

# Benchmark workspaces live in .bench/ (file creation under /tmp is much
# slower on some sandboxes); results are recorded in docs/performance.md.
bench:
	mkdir -p .bench
	JAIPH_BENCH_DIR=$(CURDIR)/.bench $(GO) test -run '^$$' -bench . -benchmem ./...

# The benchmark guard (TestInstructionBudget in internal/perfguard, part of
# `make unit`) counts the instructions of whole jaiph processes with
# valgrind and fails at +25 % against internal/perfguard/testdata/
# instructions.txt. After an intended change, rewrite that baseline:
perf-baseline:
	JAIPH_PERF_UPDATE=1 $(GO) test -count=1 -run '^TestInstructionBudget$$' -v ./internal/perfguard

# The stress tests, each about 10× its size in `make test`: the inbox with
# 10,000 messages and 30,000 deliveries; 200 SIGKILLs during sends; the peak
# RSS curve up to 100,000 messages (without -race, which would inflate it); 200
# signals at random moments and 100 kill -9 of a run (exit codes, leaked
# processes, open steps); steps printing 1 GiB each (peak RSS within 256 MiB
# of printing 4 MiB); the bash differential corpus three times; the broker's
# fault trials at 2,000 messages, 10 of each kind.
stress:
	JAIPH_STRESS_PER_SENDER=1000 $(GO) test -race -count=1 -run '^TestInboxStress$$' -timeout 30m -v ./cmd/jaiph
	JAIPH_STRESS_KILL_LOOPS=200 $(GO) test -count=1 -run '^TestInboxKill$$' -timeout 30m -v ./cmd/jaiph
	JAIPH_STRESS_INBOX_MESSAGES=100000 $(GO) test -count=1 -run '^TestInboxMemory(RSS)?$$' -timeout 30m -v ./cmd/jaiph
	JAIPH_STRESS_SIGNAL_LOOPS=200 $(GO) test -count=1 -run '^(TestSignalLoop|TestKillNineLoop|TestRunsKillNineLoop)$$' -timeout 30m -v ./cmd/jaiph
	@# The bash differential corpus three times, each concurrent snippet's bash
	@# side ten times: bash must agree with itself before jaiph is held to it.
	JAIPH_STRESS_BASHCOMPAT_REPEATS=10 $(GO) test -count=3 -run '^TestBashCompat$$' -timeout 60m ./cmd/jaiph
	JAIPH_STRESS_OUTPUT=1073741824 $(GO) test -count=1 -run '^TestOutputMemoryFlat$$' -timeout 30m -v ./cmd/jaiph
	JAIPH_STRESS_RESUME_KILLS=100 $(GO) test -count=1 -run '^TestResumeDrainKill$$' -timeout 30m -v ./cmd/jaiph
	JAIPH_FMT_GENERATED=20000 $(GO) test -count=1 -run '^TestGenerated(Test)?Files$$' -timeout 30m -v ./internal/tools/format
	JAIPH_STRESS_BROKER_MESSAGES=1000 $(GO) test -race -count=1 -timeout 30m -skip '^TestFaultTrials$$' -v ./internal/broker
	@# The fault-injection suite on a three-process cluster (docs/distributed.md):
	@# 10 trials of each fault at 2,000 messages.
	JAIPH_STRESS_FAULT_TRIALS=10 JAIPH_STRESS_FAULT_MESSAGES=2000 $(GO) test -count=1 -run '^TestFaultTrials$$' -timeout 180m -v ./internal/broker
	JAIPH_STRESS_PARTITION_TRIALS=10 JAIPH_STRESS_PARTITION_MESSAGES=2000 $(GO) test -count=1 -run '^TestPartitions$$' -timeout 180m -v ./internal/broker

fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./parser
	$(GO) test -run '^$$' -fuzz '^FuzzHeadsAgree$$' -fuzztime $(FUZZTIME) ./parser
	$(GO) test -run '^$$' -fuzz '^FuzzParseHalves$$' -fuzztime $(FUZZTIME) ./parser
	$(GO) test -run '^$$' -fuzz '^FuzzCompile$$' -fuzztime $(FUZZTIME) ./codegen
	$(GO) test -run '^$$' -fuzz '^FuzzScan$$' -fuzztime $(FUZZTIME) ./internal/shellscan
	$(GO) test -run '^$$' -fuzz '^FuzzFormat$$' -fuzztime $(FUZZTIME) ./internal/tools/format
	$(GO) test -run '^$$' -fuzz '^FuzzFeatures$$' -fuzztime $(FUZZTIME) ./internal/tools/lsp
	@# The bash differential fuzzer (internal/bashfuzz): generated programs run as
	@# jaiph bodies and under /usr/bin/bash; `make test` runs its fixed-seed
	@# bounded run (TestBashDiffBounded). JAIPH_BASHFUZZ_ALL=1 also generates the
	@# known divergences (bashfuzz.Known).
	$(GO) test -run '^$$' -fuzz '^FuzzBashDiff$$' -fuzztime $(FUZZTIME) ./internal/bashfuzz

# The bash differential fuzzer's long run: SOAK_PROGRAMS generated programs
# by SOAK_WORKERS workers at once, seed SOAK_SEED (docs/differences.md,
# "Found by machine"); divergences go to bashfuzz-findings.txt.
SOAK_PROGRAMS ?= 1000000
SOAK_WORKERS ?= 4
SOAK_SEED ?= 7
fuzz-soak:
	$(GO) run -buildvcs=true ./internal/bashfuzz/soak -n $(SOAK_PROGRAMS) -workers $(SOAK_WORKERS) -seed $(SOAK_SEED)

lint:
	@# bin/ holds built things (make otelcol leaves the collector's generated sources there).
	@out=$$(find . -name '*.go' -not -path './bin/*' -not -path './.git/*' -print0 | xargs -0 gofmt -l); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags full ./cmd/jaiph

clean:
	rm -rf bin .bench dist

# The bash differential test (testdata/bashcompat): every snippet runs as a
# Jaiph function body and under /usr/bin/bash. Shows each divergence (under
# the name of its subtest) and ends with the per-group summary lines.
# -timeout 30m: with 5,000 snippets the run took 595 s beside two soaks, and
# timed out at go test's default 10 minutes with more beside it.
bashcompat:
	@out=$$(mktemp); status=0; \
	$(GO) test -count=1 -timeout 30m -run '^TestBashCompat$$' -v ./cmd/jaiph >$$out 2>&1 || status=$$?; \
	awk '/^bashcompat: /{s[++n]=$$0; next} \
		/^=== (NAME|CONT) /{h=$$0; next} /^[ ]*--- FAIL: /{h=""; print; next} \
		/^(=== (RUN|PAUSE) |[ ]*--- PASS: |[ ]*bashcompat_test.go:[0-9]+: bashcompat: )/{next} \
		{if(h!=""){print h; h=""} print} \
		END{for(i=1;i<=n;i++) print s[i]}' $$out; \
	rm -f $$out; exit $$status

# The MCP clients of cmd/jaiph's TestMCPTypeScriptSDK and TestMCPInspectorCLI
# (testdata/mcpclients): the official TypeScript SDK and MCP Inspector at the
# versions its package-lock.json pins. npm ci (node, npm and the npm registry)
# only when node_modules is missing or holds another lock's install (the copy
# of the lock it was installed from says which); no install scripts. .ci/run
# runs it before `make test`; without it those tests skip (fail under CI=true).
MCPCLIENTS := testdata/mcpclients

mcpclients:
	@if cmp -s $(MCPCLIENTS)/package-lock.json $(MCPCLIENTS)/node_modules/.installed-lock.json; then \
		echo "$(MCPCLIENTS): node_modules is up to date"; \
	else \
		cd $(MCPCLIENTS) && npm ci --ignore-scripts --no-audit --no-fund && cp package-lock.json node_modules/.installed-lock.json; \
	fi

# The OpenTelemetry Collector that TestRealCollector (internal/observe/otlp)
# sends traces through: built by the collector's own builder from
# testdata/otelcol/manifest.yaml (modules from the Go module proxy; a few
# minutes the first time), again only when the manifest changed.
OCB_VERSION := v0.165.0
otelcol:
	@if [ -x bin/otelcol/otelcol-jaiph ] && cmp -s testdata/otelcol/manifest.yaml bin/otelcol/.manifest.yaml; then \
		echo "bin/otelcol/otelcol-jaiph is up to date"; \
	else \
		GOBIN=$(CURDIR)/bin/otelcol $(GO) install go.opentelemetry.io/collector/cmd/builder@$(OCB_VERSION) && \
		bin/otelcol/builder --config testdata/otelcol/manifest.yaml >bin/otelcol/build.log 2>&1 || { tail -n 30 bin/otelcol/build.log; exit 1; }; \
		cp testdata/otelcol/manifest.yaml bin/otelcol/.manifest.yaml; \
	fi

# docs/report-screenshot.png, the README's picture of the run viewer, from
# a fixed run in headless Chromium (TestScreenshot in
# internal/tools/report/ui; chromium as for its browser tests). Not part of
# `make test`: rerun it when the viewer changes, and look at the picture.
screenshot:
	JAIPH_UI_SCREENSHOT=$(CURDIR)/docs/report-screenshot.png $(GO) test -count=1 -run '^TestScreenshot$$' -v ./internal/tools/report/ui

# The VS Code extension (editors/vscode): install the locked dependencies,
# bundle the client (npm test compiles first), run the grammar golden tests
# and the bundle's, then package jaiph.vsix (with @vscode/vsce, pinned in
# the package script and fetched by npx) and check what it holds. Needs node
# and npm (and the npm registry), so it is not part of `make test`. The
# grammar's fixtures are real Jaiph: jaiph check accepts them and their tests
# pass. JAIPH_REPO adds the repository's valid sources to the grammar's test
# with VS Code's shell grammar (the package's own test needs only its folder).
editors: build
	./$(BIN) check editors/vscode/test/fixtures
	./$(BIN) test editors/vscode/test/fixtures
	cd editors/vscode && npm ci && JAIPH_REPO=$(CURDIR) npm test && npm run test:package

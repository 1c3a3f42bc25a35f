# jaiph-go. `make` builds the binary and checks the examples; `make test` runs
# every test. See README.md.

GO       ?= go
BIN      := bin/jaiph
FUZZTIME ?= 60s

.PHONY: all build examples test unit conformance bench stress fuzz lint clean bashcompat

all: build examples

build:
	$(GO) build -o $(BIN) ./cmd/jaiph

examples: build
	./$(BIN) check examples/
	@# every example with a default workflow; each gets "world" as $$1 (hello.jh needs a name);
	@# prompts are answered by the stub agents in testdata/agents
	@for f in examples/*.jh; do \
		grep -q '^workflow default' "$$f" || continue; \
		PATH="$(CURDIR)/testdata/agents:$$PATH" ./$(BIN) run "$$f" world || { echo "example $$f failed" >&2; exit 1; }; \
	done
	./$(BIN) test examples/

# Conformance cases (../shared/conformance) that pass and run in CI.
CONFORMANCE_CASES := 001 002 003 004 005 006 007 008 009 010 011 012 013 014 015 016 017 018 019 020 021 022 023 \
	024 025 026 027 028 029 \
	030 031 032 033 034 035 \
	036 037 038 039 046 \
                     040 041 042 043 044 045 047 048 049 050 051 052 053 054 055
CONFORMANCE := ../shared/conformance/run.sh

test: lint unit bashcompat conformance examples

unit:
	@# TestBashCompat runs in its own target (below), which prints its per-group counts
	$(GO) test -race -count=1 -skip '^TestBashCompat$$' ./...
	cd third_party/mvdan-sh && $(GO) test -count=1 ./...
	@# Execution counts, not durations: Go 1.26's fuzz coordinator can fail a
	@# duration-bounded run with a spurious "context deadline exceeded" when
	@# the time runs out (go.dev/issue/75804). About 10 s each here.
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 300000x ./parser
	$(GO) test -run '^$$' -fuzz '^FuzzCompile$$' -fuzztime 8000x ./codegen

conformance: build
	@if [ -z "$(CONFORMANCE_CASES)" ]; then echo "no conformance cases enabled yet"; \
	elif [ -x $(CONFORMANCE) ]; then $(CONFORMANCE) ./$(BIN) $(CONFORMANCE_CASES); \
	else echo "conformance corpus not found at $(CONFORMANCE)"; exit 1; fi

# Benchmark workspaces live in .bench/ (file creation under /tmp is much
# slower on some sandboxes); results are recorded in docs/performance.md.
bench:
	mkdir -p .bench
	JAIPH_BENCH_DIR=$(CURDIR)/.bench $(GO) test -run '^$$' -bench . -benchmem ./...

# The inbox stress tests at 10× their size in `make test`: 10,000 messages
# and 30,000 deliveries; 200 SIGKILLs during sends; the peak RSS of 100,000
# messages (printed; without -race, which would inflate it).
stress:
	JAIPH_STRESS_PER_SENDER=1000 $(GO) test -race -count=1 -run '^TestInboxStress$$' -timeout 30m -v ./cmd/jaiph
	JAIPH_STRESS_KILL_LOOPS=200 $(GO) test -count=1 -run '^TestInboxKill$$' -timeout 30m -v ./cmd/jaiph
	JAIPH_STRESS_INBOX_MESSAGES=100000 $(GO) test -count=1 -run '^TestInboxMemory$$' -timeout 30m -v ./cmd/jaiph

fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./parser
	$(GO) test -run '^$$' -fuzz '^FuzzCompile$$' -fuzztime $(FUZZTIME) ./codegen

lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

clean:
	rm -rf bin .bench

# The bash differential test (testdata/bashcompat): every snippet runs as a
# Jaiph function body and under /usr/bin/bash. Shows each divergence (under
# the name of its subtest) and ends with the per-group summary lines.
bashcompat:
	@out=$$(mktemp); status=0; \
	$(GO) test -count=1 -run '^TestBashCompat$$' -v ./cmd/jaiph >$$out 2>&1 || status=$$?; \
	awk '/^bashcompat: /{s[++n]=$$0; next} \
		/^=== (NAME|CONT) /{h=$$0; next} /^[ ]*--- FAIL: /{h=""; print; next} \
		/^(=== (RUN|PAUSE) |[ ]*--- PASS: |[ ]*bashcompat_test.go:[0-9]+: bashcompat: )/{next} \
		{if(h!=""){print h; h=""} print} \
		END{for(i=1;i<=n;i++) print s[i]}' $$out; \
	rm -f $$out; exit $$status

# opsboard: build, run and test every module of the workspace.
SHELL := /bin/bash
MODULES := $(shell sed -n 's/^[[:space:]]*\.\/\([A-Za-z0-9_-]*\).*/\1/p' go.work)
PKGS := $(addsuffix /...,$(addprefix ./,$(MODULES)))
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: build run run-search run-with-search test lint deps bench
build:
	@mkdir -p bin
	go build -o bin/ $(addsuffix /cmd/...,$(addprefix ./,$(filter-out shared,$(MODULES))))

# build-ort builds the guard sidecar with its model on ONNX Runtime, the
# faster option; plain build runs the model in pure Go and needs no library.
# Needs cgo, libtokenizers.a from github.com/daulet/tokenizers releases (in
# TOKENIZERS_LIB_DIR, or where the linker looks) and, at run time,
# libonnxruntime.so (SVC_GUARD_ORT_LIB, default /usr/lib/libonnxruntime.so).
# Neither build nor test uses it.
.PHONY: build-ort
build-ort:
	@mkdir -p bin
	CGO_ENABLED=1 CGO_LDFLAGS="$(if $(TOKENIZERS_LIB_DIR),-L$(TOKENIZERS_LIB_DIR) )$$CGO_LDFLAGS" go build -tags ORT -o bin/ ./sidecar-guard/cmd/...

run: build
	./bin/board

# demo runs a board on its own data directory (DEMO_DIR, never your real
# board) filled through its API with a realistic week of work the first
# time; a second run reuses it. No sidecars, no mail ingest.
DEMO_DIR ?= .demo
DEMO_ADDR ?= 127.0.0.1:3001
.PHONY: demo
demo: build
	./bin/board demo -dir $(DEMO_DIR) -addr $(DEMO_ADDR)

# run-search runs the semantic search sidecar alone; it reads the board's
# store read-only (SVC_BOARD_DATA), and the board falls back to keyword
# search whenever it is not there.
run-search: build
	./bin/sidecar-search

# run-with-search runs the sidecar beside the board; Ctrl-C stops both.
run-with-search: build
	./bin/sidecar-search & search=$$!; trap 'kill $$search 2>/dev/null; wait $$search' EXIT; ./bin/board

# typecheck enforces the page's `// @ts-check` with the TypeScript pinned in
# WEBCHECK's package-lock.json; the page itself is served as written, so
# Node is needed only here, never to build or run the board.
WEBCHECK := board/internal/web/check
.PHONY: typecheck
typecheck:
	@[ -d $(WEBCHECK)/node_modules ] || (cd $(WEBCHECK) && npm ci --no-audit --no-fund)
	$(WEBCHECK)/node_modules/.bin/tsc -p $(WEBCHECK) --noEmit

lint: typecheck
	@out=$$(gofmt -l $(MODULES)); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	go vet $(PKGS)
	go run $(STATICCHECK) $(PKGS)

# deps installs what the tests need and the machine lacks.
deps:
	@./scripts/test-deps.sh

# No test may fetch a model from the public hub, whatever a test forgets.
test: export SVC_MODEL_HUB := off
test: deps lint build
	go test -race -count=1 -timeout 20m $(PKGS)

bench:
	go test -run '^$$' -bench . -benchmem -benchtime 2s $(PKGS)

# bench-scale prints the store's figures at 1x and 10x on the real daemon
# (start-up, memory, writes, reads, disk); the 10x board takes minutes.
.PHONY: bench-scale
bench-scale:
	go test -run '^$$' -bench Scale -benchtime 1x -timeout 60m ./board/cmd/board/

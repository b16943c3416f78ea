# The commands a newcomer needs. Each one installs missing system packages first (Debian 12).
#   make run    build what the site needs (the `papan` binary, the WebAssembly engine, the web
#               client) and start Papan on http://localhost:8080 (release build, data in ./data)
#   make test   build everything else too (tests, tools, benchmarks) and run every test (release build, web client in chromium, a short
#               fuzzing run of the parsers), clang-format and the docs' paths (make docs-check)
#   make test-extra  what does not fit make test's 30 minutes: clang-tidy (make lint) and the short
#               fuzzing run of every target, the server's too; run before landing
#   make bench  perft and speed figures (long: every published perft depth), PDN games/s
#   make tune   the evaluation's training pipeline (self-play, fit, export; hours)
#   make fuzz   the libFuzzer targets for an hour each (FUZZ_SECONDS)
#   make build  what `make run` builds: the release binary at build/release/papan and the web
#               client (with its WebAssembly engine) in web/dist
# Builds run $(JOBS) compilations at once: the machine's cores (nproc) unless JOBS=N is given.
#   make endgames  the endgame databases into data/egdb (long: hours; resumable)
#   make puzzles  the shipped puzzle set, mined from self-play by our engine, into puzzles/ (long:
#               hours; niced)
#   make sanitize  the core tests under ASan + UBSan, the server tests under ASan + UBSan and
#               under TSan (long; not in make test)
SHELL := /bin/bash
JOBS  ?= $(shell nproc)

.PHONY: puzzles test-extra test-fuzz-all sanitize test-sanitizers lint docs-check tune interop endgames faults all deps deps-site build build-papan build-cpp build-web run test test-release test-web test-asan test-fuzz bench fuzz format format-check clean

all: build

deps:
	@bash scripts/install-deps

deps-site:
	@bash scripts/install-deps --site

# The site: the `papan` binary alone (no test, tool or benchmark) and the web client.
build: build-papan build-web

build-papan: deps-site
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS) --target papan

# Every native target: the tests, tools and benchmarks as well.
build-cpp: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS)

# The browser client (web/dist, served by `papan serve`): the WebAssembly engine (preset wasm,
# Debian's emscripten), npm ci + vite build.
build-web: deps-site
	@JOBS=$(JOBS) bash scripts/web-test --build-only

run: build
	@bash scripts/run

# Not in it: make sanitize (the core and server tests under the sanitizers). With the core tests'
# ASan build in it `make test` measured 32.5 min on two cores, over its 30-minute budget; the
# parsers and the move generator stay under ASan + UBSan here through the fuzz targets.
# Not in it either, for the same budget (docs/operations.md, "make test's time"): clang-tidy and
# the fuzz targets that need the whole server built with clang (ws_message, http_request,
# bus_message); both are in `make test-extra`.
test: deps format-check docs-check test-release test-web test-fuzz

test-extra: lint test-fuzz-all

# The pg.* server tests run against a private PostgreSQL (and Redis) that scripts/services
# starts in build/services; they stay running afterwards (`bash scripts/services stop`).
test-release: build-cpp
	@bash scripts/services start
	@ctest --preset release -j $(JOBS)

# Web client: typecheck, unit tests, build, end-to-end tests in Debian's chromium against the
# real server (installed on first use).
test-web: build-cpp
	@bash scripts/web-test

test-asan: deps
	@cmake --preset asan-ubsan >/dev/null
	@cmake --build --preset asan-ubsan -j $(JOBS) --target papan_core_tests
	@cd build/asan-ubsan && ctest -L core -j $(JOBS) --output-on-failure

# The core tests (label core) under ASan + UBSan, then the server tests (label server: SQLite,
# PostgreSQL and two-node runs) under ASan + UBSan and under TSan, the `papan` binary they start
# built the same way; a sanitizer report of any process lands in build/<preset>/sanitizer-reports
# and fails the run. Not part of `make test` (about an hour on two cores, over its 30-minute
# budget): run before resolving an issue (docs/operations.md, "Sanitizers").
sanitize: test-asan test-sanitizers
test-sanitizers: deps
	@bash scripts/services start
	@for p in asan-ubsan tsan; do \
	    cmake --preset $$p >/dev/null && \
	    cmake --build --preset $$p -j $(JOBS) --target papan papan_server_tests || exit 1; \
	    rm -rf build/$$p/sanitizer-reports && mkdir -p build/$$p/sanitizer-reports; \
	    ctest --preset $$p -L server -j $(JOBS); status=$$?; \
	    if compgen -G "build/$$p/sanitizer-reports/*" >/dev/null; then \
	        cat build/$$p/sanitizer-reports/*; status=1; fi; \
	    [ $$status -eq 0 ] || { echo "$$p: FAILED"; exit 1; }; \
	done

# A short fuzzing run (preset fuzz: clang and the fuzzer's instrumentation) of the rules core's
# parsers (FEN, PDN, move text) and of the HTTP request reader and edge (papan_http_edge, a small
# library of its own), four at once for 40 s. The three that link the whole server library (the
# WebSocket message decoder, HTTP requests through the handlers, bus messages) need the server
# and engine built that way (about 4 min on two cores): `make test-fuzz-all` (`make test-extra`)
# and `make fuzz`.
test-fuzz: deps
	@FUZZ_SECONDS=40 FUZZ_JOBS=4 bash scripts/fuzz fen pdn move_text http_wire

test-fuzz-all: deps
	@FUZZ_SECONDS=40 FUZZ_JOBS=7 bash scripts/fuzz

FUZZ_SECONDS ?= 3600
fuzz: deps
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=2 bash scripts/fuzz

# SIGKILL restarts under load (scripts/faults, docs/operations.md "Fault tests"): one node on
# SQLite, then two nodes on PostgreSQL + Redis with Redis restarted. Long: not part of `make test`.
faults: build-cpp
	@bash scripts/services start
	@bash scripts/faults --kills 20
	@bash scripts/faults --kills 20 --nodes 2 --fresh-db \
	    --store postgresql://papan@127.0.0.1:54329/papan --bus redis://127.0.0.1:63790 \
	    --restart-redis 2 --redis-restart-cmd "bash scripts/services restart-redis"

# Endgame databases (scripts/endgames, docs/engine.md "Endgame databases"): every required set into
# data/egdb (EGDB_DIR), one after another at nice 19. Long: not part of `make test`.
endgames: build-cpp
	@bash scripts/endgames

# The shipped puzzle set (scripts/puzzles, docs/engine.md "Puzzles"): every variant's self-play
# mined into puzzles/<variant>.jsonl, reproducible for PUZZLE_SEED. Long: not part of `make test`
# (which checks every shipped puzzle: tests/server/puzzle_set_test.cpp).
puzzles: build-papan
	@bash scripts/puzzles

bench: build-cpp build-web
	@bash bench/run
	@bash scripts/pdn-interop

# PDN files as other programs write them (tests/data/pdn): games read per second.
interop: build-cpp
	@bash scripts/pdn-interop

# The evaluation's training pipeline (tools/tune/run, docs/engine.md "Training"): long, and it
# rewrites engine/weights/*.bin and their records; not part of `make test`.
tune: build-cpp
	@bash tools/tune/run

format:
	@git ls-files '*.cpp' '*.hpp' | xargs clang-format -i

# clang-tidy with the pinned checks of .clang-tidy over the product's sources (scripts/lint).
lint: build-cpp
	@bash scripts/lint

# Every path the docs name exists (scripts/check-docs).
docs-check:
	@bash scripts/check-docs

format-check: deps
	@git ls-files '*.cpp' '*.hpp' | xargs clang-format --dry-run --Werror

clean:
	rm -rf build

# The commands a newcomer needs. Each one installs missing system packages first (Debian 12).
#   make run    build and start Papan (release build)
#   make test   build everything and run every test (release + sanitizer builds)
#   make bench  perft and speed figures (long: every published perft depth)
#   make build  release binary at build/release/papan
SHELL := /bin/bash
JOBS  ?= $(shell nproc)

.PHONY: all deps build run test test-release test-asan bench format format-check clean

all: build

deps:
	@bash scripts/install-deps

build: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS)

run: build
	@bash scripts/run

test: deps format-check test-release test-asan

test-release: build
	@ctest --preset release -j $(JOBS)

test-asan: deps
	@cmake --preset asan-ubsan >/dev/null
	@cmake --build --preset asan-ubsan -j $(JOBS) --target papan_core_tests
	@cd build/asan-ubsan && ctest -L core -j $(JOBS) --output-on-failure

bench: build
	@bash bench/run

format:
	@git ls-files '*.cpp' '*.hpp' | xargs clang-format -i

format-check: deps
	@git ls-files '*.cpp' '*.hpp' | xargs clang-format --dry-run --Werror

clean:
	rm -rf build

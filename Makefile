# Stoneyard: `make play` to play, `make test` to test. Both install what is missing first.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# Debian/Ubuntu packages the native build needs (ALSA for sound, udev for gamepads, Wayland/X11 keyboard).
APT_PACKAGES := pkg-config libasound2-dev libudev-dev libwayland-dev libxkbcommon-dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: help deps web-deps web-test-deps play test lint test-rules check-wasm bench cases web serve-web web-test

help:
	@echo "make play   - install what is missing, then play (release build)"
	@echo "make test   - install what is missing, then format check, clippy, all tests, wasm check"
	@echo "make deps   - only the installs (a no-op when everything is present)"
	@echo "make cases  - run the shared referee test vectors against a release build"
	@echo "make web    - build the browser version into web/pkg;  make serve-web - serve it on 127.0.0.1:8080"
	@echo "make web-test - build the browser version and play it in headless Chromium (part of make test)"

deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
	@rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
	@rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
	@rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown

play: deps
	cargo run --release

lint:
	cargo fmt --check
	cargo clippy --all-targets --no-default-features -- -D warnings
	cargo clippy --all-targets -- -D warnings

test-rules:
	cargo test --no-default-features

check-wasm:
	cargo clippy --target wasm32-unknown-unknown -- -D warnings

test: deps lint test-rules
	cargo test
	$(MAKE) check-wasm
	$(MAKE) web-test

# Every published performance figure; writes docs/performance.md (needs xvfb for start-up/RSS).
bench: deps
	@command -v Xvfb >/dev/null || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq xvfb mesa-vulkan-drivers time; }
	bash scripts/bench.sh

cases:
	cargo build --release --no-default-features
	@for f in tests/cases/*.json; do \
	  slug=$$(basename $$f .json); \
	  echo "== $$slug"; \
	  python3 ../shared/tools/check-cases "$${CARGO_TARGET_DIR:-target}/release/stoneyard" $$f | tail -1; \
	done

# wasm-bindgen-cli must match the wasm-bindgen version in Cargo.lock exactly.
WASM_BINDGEN_VERSION = $(shell awk '/^name = "wasm-bindgen"$$/{getline; gsub(/[^0-9.]/,""); print}' Cargo.lock)
WASM_OUT = $${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/wasm-release/stoneyard.wasm

web-deps: deps
	@if [ "$$(wasm-bindgen --version 2>/dev/null | awk '{print $$2}')" != "$(WASM_BINDGEN_VERSION)" ]; then \
	  cargo install wasm-bindgen-cli --version $(WASM_BINDGEN_VERSION); \
	fi

web: web-deps
	@command -v wasm-opt >/dev/null || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq binaryen; }
	cargo build --profile wasm-release --target wasm32-unknown-unknown
	@# wasm-opt runs before wasm-bindgen: Debian's binaryen (108) breaks wasm-bindgen's externref
	@# table when run after it. -Oz without debug names: 44.0 MB -> 24.0 MB (8.1 MB gzipped).
	wasm-opt -Oz --strip-debug --strip-producers --enable-bulk-memory --enable-nontrapping-float-to-int \
	  --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
	  $(WASM_OUT) -o $(WASM_OUT:.wasm=.opt.wasm)
	wasm-bindgen --target web --no-typescript --out-dir web/pkg --out-name stoneyard $(WASM_OUT:.wasm=.opt.wasm)
	@echo "wasm-release + wasm-opt -Oz" > web/pkg/BUILD
	@ls -l web/pkg/*.wasm; echo "gzipped: $$(gzip -9 -c web/pkg/stoneyard_bg.wasm | wc -c) bytes"

# The end-to-end browser test needs Chromium, Node.js and playwright-core (pinned in tests/web).
web-test-deps: web-deps
	@missing=""; [ -x /usr/bin/chromium ] || missing=" chromium"; \
	command -v node >/dev/null 2>&1 || missing="$$missing nodejs"; \
	command -v npm >/dev/null 2>&1 || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
	@[ -d tests/web/node_modules/playwright-core ] || (cd tests/web && npm ci --no-audit --no-fund)

WASM_TEST_OUT = $${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/web-test/stoneyard.wasm

web-test: web-test-deps
	cargo build --profile web-test --target wasm32-unknown-unknown
	wasm-bindgen --target web --no-typescript --out-dir web/pkg --out-name stoneyard $(WASM_TEST_OUT)
	@echo "web-test (no LTO, not size-tuned)" > web/pkg/BUILD
	cd tests/web && node e2e.mjs ../../web

serve-web:
	@echo "Stoneyard on http://127.0.0.1:8080/"
	cd web && python3 -m http.server 8080 --bind 127.0.0.1

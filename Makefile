# Stoneyard: `make play` to play, `make test` to test. Both install what is missing first.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# Debian/Ubuntu packages the native build needs (ALSA for sound, udev for gamepads, Wayland/X11 keyboard).
APT_PACKAGES := pkg-config libasound2-dev libudev-dev libwayland-dev libxkbcommon-dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: help deps web-deps web-test-deps play test lint test-rules test-postgres test-app bench gallery cases web serve-web web-test web-test-build web-test-run dist-deps dist dist-test

help:
	@echo "make play   - install what is missing, then play (release build)"
	@echo "make test   - install what is missing, then format check, clippy, all tests, the browser test"
	@echo "make deps   - only the installs (a no-op when everything is present)"
	@echo "make cases  - run the shared referee test vectors against a release build"
	@echo "make gallery - every game's key states in every theme, desktop and phone sizes, to gallery/*.png"
	@echo "make web    - build the browser version into web/pkg;  make serve-web - serve it on 127.0.0.1:8080"
	@echo "make web-test - build the browser version and play it in headless Chromium (part of make test)"
	@echo "make dist   - the downloads into dist/: Linux tar.gz and .deb, Windows zip, the site's zip, the server"
	@echo "make dist-test - unpack each download in a folder of its own and run it (Xvfb, Wine, Chromium)"

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

# Clippy lints our crate while it is built for the tests, with warnings as errors: a separate
# `cargo clippy` would build every dependency a second time in check mode (minutes for Bevy, for the
# server's dependencies, and again for wasm32). `env $(CLIPPY_ENV)` is the same for a script's
# command line.
CLIPPY_ENV = RUSTC_WORKSPACE_WRAPPER="$$(rustup which clippy-driver)" \
  CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
CLIPPY_BUILD = $(CLIPPY_ENV)

# The pure layers (the core crate: rules, games, AI, saves, command line, the online server), the
# game's crate without its app, and the computer's worker crate: no Bevy. Every command on them
# below uses these same flags (and the same clippy wrapper), so they share one build: the lint
# builds it, the tests, the PostgreSQL tests and the browser test's server only run it.
PURE = --workspace --no-default-features --features stoneyard/server
TARGET_DIR = $${CARGO_TARGET_DIR:-$(CURDIR)/target}

# The format check; no import cycles among the modules of a folder (but the known ones, still to
# untangle); that the Bevy-free build and the app's share every common crate (a resolve, no
# build); and clippy with warnings as errors on every target of the pure layers, the server and
# the worker crate (lib, bins, tests, examples), as it builds them for the tests.
KNOWN_CYCLES = --known core/src/ai
lint:
	cargo fmt --all --check
	python3 scripts/module-cycles.py $(KNOWN_CYCLES) src core/src ai-worker/src
	bash scripts/check-shared-build.sh
	$(CLIPPY_BUILD) cargo test $(PURE) --no-run

# Every test of the pure layers (rules, games, AI, saves, command line) and of the online server
# (its protocol, SQLite store, whole games, drops, a SIGKILL, bad input): no Bevy in the build.
test-rules:
	$(CLIPPY_BUILD) cargo test $(PURE)

# The tests that need PostgreSQL (Debian's package, installed when missing and started and stopped
# by the script): two `serve` instances sharing it with a player on each, instances started together
# on an empty database, a retry sent to two instances at once, the lobby and quick play across two.
test-postgres:
	bash scripts/with-postgres.sh env $(CLIPPY_ENV) cargo test $(PURE) --test pure -- --ignored online_server:: online_hardening:: online_lobby:: online_clocks::

# The app: its unit tests, the headless app tests, its WebSocket client over wss:// through a TLS
# proxy, and the builds of the frame benchmark and the gallery, linted by clippy as they build. The
# core crate (core/) and its tests were built and run above with the same features: this build
# reuses it and compiles only the app.
test-app:
	$(CLIPPY_BUILD) cargo test -p stoneyard --lib --test app_headless --test online_tls --example frame_bench --example gallery

# Everything, each phase timed: scripts/test-phases.sh prints the wall time of each at the end.
test:
	bash scripts/test-phases.sh

# Every published performance figure; writes docs/performance.md (needs xvfb for start-up/RSS).
bench: deps
	@command -v Xvfb >/dev/null || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq xvfb mesa-vulkan-drivers time; }
	bash scripts/bench.sh

# The game as a player sees it (examples/gallery/): the title, settings and setup screens and
# every game's key states, in every theme, at 1280x720, at a 390x844 phone size, the smallest
# phone (360x640) and a phone turned sideways (640x360), to gallery/<size>/<theme>/*.png.
# Scripted, so the same command gives the same pictures. Runs under Xvfb with Mesa's software
# Vulkan.
GALLERY_SIZES = 1280x720 390x844 360x640 640x360
gallery: deps
	@command -v xvfb-run >/dev/null && dpkg -s mesa-vulkan-drivers >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq xvfb mesa-vulkan-drivers; }
	cargo build --example gallery
	@for size in $(GALLERY_SIZES); do \
	  echo "gallery: $$size"; \
	  xvfb-run -a -s "-screen 0 1920x1080x24" "$${CARGO_TARGET_DIR:-target}/debug/examples/gallery" --size $$size --out gallery || exit 1; \
	done
	@echo "gallery: $$(find gallery -name '*.png' | wc -l) pictures in gallery/"

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

# Node.js and npm bring Binaryen's wasm-opt (pinned in scripts/wasm-opt) and, for the browser test,
# playwright-core.
web-deps: deps
	@if [ "$$(wasm-bindgen --version 2>/dev/null | awk '{print $$2}')" != "$(WASM_BINDGEN_VERSION)" ]; then \
	  cargo install wasm-bindgen-cli --version $(WASM_BINDGEN_VERSION); \
	fi
	@missing=""; command -v node >/dev/null 2>&1 || missing="nodejs"; \
	command -v npm >/dev/null 2>&1 || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then \
	  echo "installing: $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

WASM_OPT = scripts/wasm-opt/node_modules/.bin/wasm-opt
# The WebAssembly features Rust 1.95 emits for wasm32-unknown-unknown, plus SIMD (.cargo/config.toml).
WASM_FEATURES = --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue --enable-simd

# The computer's Web Worker module (ai-worker/: the rules and the AI without Bevy), always the
# size-tuned release build: it is small and quick to build, and the browser test then measures the
# computer at the speed players get. Clippy lints it as it builds.
WORKER_OUT = $${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/wasm-release/stoneyard_ai_worker.wasm
define build-worker
	@[ -x $(WASM_OPT) ] || (cd scripts/wasm-opt && npm ci --no-audit --no-fund)
	$(CLIPPY_BUILD) cargo build -p stoneyard-ai-worker --profile wasm-release --target wasm32-unknown-unknown
	wasm-bindgen --target web --no-typescript --out-dir web/pkg --out-name ai_worker $(WORKER_OUT)
	$(WASM_OPT) -Oz --strip-debug --strip-producers $(WASM_FEATURES) web/pkg/ai_worker_bg.wasm -o web/pkg/ai_worker_bg.wasm
endef

# The page fetches the game's fonts, lesson and practice books as files of their own (the desktop
# build holds them); the books as JSON (the module reads JSON already; a RON reader would add
# to its download), written by the Bevy-free command line: the pure build of the tests (the same
# flags and wrapper as `make test-rules`, so after the tests nothing is rebuilt).
define copy-fonts
	@mkdir -p web/pkg/fonts && cp assets/fonts/*.ttf assets/fonts/*.txt web/pkg/fonts/
	$(CLIPPY_BUILD) cargo build $(PURE) --bin stoneyard
	$(TARGET_DIR)/debug/stoneyard lessons --export web/pkg
endef

web: web-deps
	@[ -x $(WASM_OPT) ] || (cd scripts/wasm-opt && npm ci --no-audit --no-fund)
	cargo build --profile wasm-release --target wasm32-unknown-unknown
	wasm-bindgen --target web --no-typescript --out-dir web/pkg --out-name stoneyard $(WASM_OUT)
	@# Binaryen 132 from npm (Debian's 108 broke wasm-bindgen's externref table): -Oz, no debug names,
	@# repeated until it changes nothing more (--converge: 4-5 kB smaller gzipped, 7 minutes longer).
	$(WASM_OPT) -Oz --converge --strip-debug --strip-producers $(WASM_FEATURES) web/pkg/stoneyard_bg.wasm -o web/pkg/stoneyard_bg.wasm
	$(build-worker)
	$(copy-fonts)
	@echo "wasm-release + wasm-opt -Oz --converge" > web/pkg/BUILD
	@ls -l web/pkg/*.wasm; echo "gzipped: game $$(gzip -9 -c web/pkg/stoneyard_bg.wasm | wc -c) bytes, computer's worker $$(gzip -9 -c web/pkg/ai_worker_bg.wasm | wc -c) bytes"
	bash scripts/build-id.sh

# The end-to-end browser test needs Chromium, Node.js and playwright-core (pinned in tests/web).
web-test-deps: web-deps
	@missing=""; [ -x /usr/bin/chromium ] || missing=" chromium"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
	@[ -d tests/web/node_modules/playwright-core ] || (cd tests/web && npm ci --no-audit --no-fund)

WASM_TEST_OUT = $${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/web-test/stoneyard.wasm

# The browser build is linted by clippy as it builds (wasm-only code included); the browser test's
# server and the lesson export are the pure build's command line (the same flags as the pure tests,
# so after them nothing is rebuilt).
web-test-build: web-test-deps
	$(CLIPPY_BUILD) cargo build --profile web-test --target wasm32-unknown-unknown
	wasm-bindgen --target web --no-typescript --out-dir web/pkg --out-name stoneyard $(WASM_TEST_OUT)
	$(build-worker)
	$(copy-fonts)
	@echo "web-test (game: no LTO, not size-tuned; computer's worker: wasm-release)" > web/pkg/BUILD
	bash scripts/build-id.sh

# The browser version played in headless Chromium (what web-test-build left in web/pkg).
web-test-run: web-test-deps
	cd tests/web && STONEYARD_SERVER_BIN=$(TARGET_DIR)/debug/stoneyard node e2e.mjs ../../web

web-test: web-test-build
	$(MAKE) --no-print-directory web-test-run

serve-web:
	@echo "Stoneyard on http://127.0.0.1:8080/"
	cd web && python3 -m http.server 8080 --bind 127.0.0.1

# The downloads (scripts/dist/build.sh): the Windows cross-build needs Rust's x86_64-pc-windows-gnu
# target and mingw-w64; the Debian package cargo-deb (pinned) and dpkg-shlibdeps (dpkg-dev); their
# check Xvfb with Mesa's software Vulkan, ImageMagick for screenshots, Wine, icoutils (the .exe's
# icon), zip and Chromium.
DIST_APT_PACKAGES := curl gcc-mingw-w64-x86-64 dpkg-dev zip unzip xvfb mesa-vulkan-drivers imagemagick wine wine64 desktop-file-utils icoutils
CARGO_DEB_VERSION = 3.8.0
dist-deps: web-test-deps
	@missing=""; for p in $(DIST_APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
	@rustup target list --installed | grep -qx x86_64-pc-windows-gnu || rustup target add x86_64-pc-windows-gnu
	@[ "$$(cargo deb --version 2>/dev/null | awk '{print $$2}')" = "$(CARGO_DEB_VERSION)" ] || cargo install cargo-deb --locked --version $(CARGO_DEB_VERSION)

dist: dist-deps
	bash scripts/dist/build.sh

# Not part of `make test`: it needs what `make dist` built (three release builds and the browser's).
dist-test: dist-deps
	bash scripts/dist/test.sh

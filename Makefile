# Stoneyard: `make play` to play, `make test` to test. Both install what is missing first.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# Debian/Ubuntu packages the native build needs (ALSA for sound, udev for gamepads, Wayland/X11 keyboard).
APT_PACKAGES := pkg-config libasound2-dev libudev-dev libwayland-dev libxkbcommon-dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: help deps play test lint test-rules test-all check-wasm bench cases

help:
	@echo "make play   - install what is missing, then play (release build)"
	@echo "make test   - install what is missing, then format check, clippy, all tests, wasm check"
	@echo "make deps   - only the installs (a no-op when everything is present)"
	@echo "make cases  - run the shared referee test vectors against a release build"

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
	cargo check --target wasm32-unknown-unknown

test: deps lint test-rules
	cargo test
	$(MAKE) check-wasm

bench:
	cargo run --release --no-default-features -- bench --game all

cases:
	cargo build --release --no-default-features
	@for f in tests/cases/*.json; do \
	  slug=$$(basename $$f .json); \
	  echo "== $$slug"; \
	  python3 ../shared/tools/check-cases "$${CARGO_TARGET_DIR:-target}/release/stoneyard" $$f | tail -1; \
	done

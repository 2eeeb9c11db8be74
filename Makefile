# rnsfhe — the two entry points a new machine needs (Rust toolchain, Python 3 and pip present).
#   make demo   the main job: a showcase of the library, in release mode
#   make test   everything CI checks: formatting, lints, every test
SHELL := /bin/bash
CARGO ?= cargo
export CARGO_TERM_COLOR ?= never

.PHONY: demo test fmt-check lint unit fuzz bench bench-arith

demo:
	$(CARGO) run --release --locked -p rnsfhe-cli -- demo

test: fmt-check lint unit fuzz

# rustfmt and clippy come with rustup's default profile; a toolchain without them skips the check loudly.
fmt-check:
	@if $(CARGO) fmt --version >/dev/null 2>&1; then $(CARGO) fmt --all -- --check; \
	else echo "warning: rustfmt not installed, format check skipped"; fi

lint:
	@if $(CARGO) clippy --version >/dev/null 2>&1; then \
	  $(CARGO) clippy --locked --workspace --all-targets -- -D warnings; \
	else echo "warning: clippy not installed, lint check skipped"; fi

# The last line sums every runner's results ("N passed, N failed"), so a reader of the log sees the total.
unit:
	@mkdir -p target
	set -o pipefail; $(CARGO) test --locked --workspace 2>&1 | tee target/test-output.txt
	@awk '/^test result:/ {p += $$4; f += $$6} END {printf "tests: %d passed, %d failed\n", p, f}' target/test-output.txt

# Every loader fuzz target for FUZZ_SECONDS each (needs nightly; fuzz/run.sh installs cargo-fuzz if missing).
FUZZ_SECONDS ?= 10
fuzz:
	bash fuzz/run.sh $(FUZZ_SECONDS)

bench:
	$(CARGO) run --release --locked -p rnsfhe-cli -- bench all

bench-arith:
	$(CARGO) run --release --locked -p rnsfhe-cli -- bench arith

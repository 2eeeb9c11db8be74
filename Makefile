# rnsfhe — the two entry points a new machine needs (Rust toolchain, Python 3 and pip present).
#   make demo   the main job: a showcase of the library, in release mode
#   make test   everything CI checks: formatting, lints, every test
#   make docs   the documentation site (MkDocs, warnings are errors) into target/site
#   make test-heavy   the opt-in tier (release, tens of minutes, up to about 12 GiB): the N = 2^16
#               bootstrapping precision and memory, and every other ignored test that asserts
#   make wheel  the Python wheel (manylinux, abi3: CPython 3.9 and newer) and the sdist, in target/wheels
SHELL := /bin/bash
CARGO ?= cargo
export CARGO_TERM_COLOR ?= never
# Disk: a CI machine may have a few GiB free. Incremental compilation keeps a second copy of every test
# binary's objects, for rebuilds that `make test` does not do; the test profile keeps line tables only.
export CARGO_INCREMENTAL ?= 0

.PHONY: demo test test-heavy fmt-check lint rustdoc unit backends wheel python notebooks docs fuzz summary bench bench-arith

demo:
	$(CARGO) run --release --locked -p rnsfhe-cli -- demo

test: fmt-check lint rustdoc unit backends python notebooks docs fuzz summary

# rustfmt and clippy come with rustup's default profile; a toolchain without them skips the check loudly.
fmt-check:
	@if $(CARGO) fmt --version >/dev/null 2>&1; then $(CARGO) fmt --all -- --check; \
	else echo "warning: rustfmt not installed, format check skipped"; fi

lint:
	@if $(CARGO) clippy --version >/dev/null 2>&1; then \
	  $(CARGO) clippy --locked --workspace --all-targets -- -D warnings; \
	else echo "warning: clippy not installed, lint check skipped"; fi

# The API documentation of every crate with warnings as errors: rustdoc's (broken intra-doc links,
# HTML in doc comments, ...) through RUSTDOCFLAGS, and cargo's own (a failed grep of the log).
rustdoc:
	@mkdir -p target
	set -o pipefail; RUSTDOCFLAGS="-D warnings" $(CARGO) doc --locked --no-deps --workspace 2>&1 | tee target/rustdoc-output.txt
	@! grep -E '^(warning|error)' target/rustdoc-output.txt

# The last line sums every runner's results ("N passed, N failed"), so a reader of the log sees the total.
# Kernel tests that cannot run on this CPU (no AVX2, AVX-512 or IFMA) append a line
# "SKIPPED(no AVX-512): <test>" to $(SKIP_LOG), which `summary` counts (tests/support/skip.rs in
# rnsfhe-math). RNSFHE_PRETEND_NO_AVX512=1 hides AVX-512 from those tests and from `backends`, to see
# what an AVX2-only machine reports: `RNSFHE_PRETEND_NO_AVX512=1 make unit backends summary`.
export RNSFHE_SKIP_LOG := $(CURDIR)/target/test-skips.txt
SKIP_LOG := $(RNSFHE_SKIP_LOG)
unit:
	@mkdir -p target
	@: > $(SKIP_LOG)
	set -o pipefail; $(CARGO) test --locked --workspace 2>&1 | tee target/test-output.txt
	@awk '/^test result:/ {p += $$4; f += $$6} END {printf "rust tests: %d passed, %d failed\n", p, f}' target/test-output.txt

# The scheme-level tests (the rnsfhe crate: unit, integration and doc tests) once more under every other
# backend this CPU has (`unit` ran the fastest one): an AVX-512 IFMA CPU tests four paths, an AVX2 CPU two.
# The kernel tests (rnsfhe-math) compare every backend bit for bit inside one run already. The test
# executables are the ones `unit` built (.ci/test_binaries.py lists them), run from the crate's folder as
# cargo runs them; `cargo test -p rnsfhe` would resolve the dependencies' features for one package and
# build every test binary a second time.
backends:
	@mkdir -p target
	@set -o pipefail; : > target/test-backends.txt; fail=0; all=($$(bash .ci/backends.sh)); \
	for b in avx2:AVX2 avx512:AVX-512 "avx512ifma:AVX-512 IFMA"; do \
	  [[ " $${all[*]} " == *" $${b%%:*} "* ]] || \
	    echo "SKIPPED(no $${b#*:}): scheme tests under RNSFHE_BACKEND=$${b%%:*}" >> $(SKIP_LOG); \
	done; \
	bins=($$($(CARGO) test --locked --workspace --no-run --message-format=json 2>/dev/null \
	  | $(PYTHON) .ci/test_binaries.py crates/rnsfhe)); \
	[ $${#bins[@]} -gt 0 ] || { echo "no test executables of crates/rnsfhe found"; exit 1; }; \
	for b in "$${all[@]:0:$${#all[@]}-1}"; do \
	  echo "=== scheme tests with RNSFHE_BACKEND=$$b ($${#bins[@]} test executables and the doc tests)"; \
	  for t in "$${bins[@]}"; do \
	    (cd crates/rnsfhe && RNSFHE_BACKEND=$$b CARGO_MANIFEST_DIR=$(CURDIR)/crates/rnsfhe "$$t") 2>&1 \
	      | tee -a target/test-backends.txt | grep -E '^test result:|FAILED|panicked' || fail=1; \
	  done; \
	  RNSFHE_BACKEND=$$b $(CARGO) test --locked --workspace --doc 2>&1 | tee -a target/test-backends.txt \
	    | grep -E '^test result:|FAILED|panicked' || fail=1; \
	done; \
	awk '/^test result:/ {p += $$4; f += $$6} END {printf "scheme tests under the other backends: %d passed, %d failed\n", p, f}' target/test-backends.txt; \
	exit $$fail

# The wheel and the sdist, built by maturin with the tools of a virtual environment of their own.
# manylinux2014 (glibc 2.17): zig links against that glibc's symbols whatever the build machine's glibc,
# so one wheel installs on every x86-64 Linux of the last decade without docker. abi3 (PyO3's abi3-py39):
# one wheel for every CPython from 3.9. RUSTFLAGS is emptied (it overrides .cargo/config rustflags as
# well), so that no -C target-cpu=native reaches the wheel: the kernels are chosen at run time.
# .ci/check_wheel.py checks the tags, `auditwheel show`, and that the code is baseline x86-64.
PYTHON ?= python3
WHEELS := target/wheels
WHEEL_PLATFORM := manylinux_2_17_$(shell uname -m)
BUILDVENV := target/buildvenv
wheel:
	@mkdir -p target
	@test -x $(BUILDVENV)/bin/python || $(PYTHON) -m venv $(BUILDVENV)
	$(BUILDVENV)/bin/python -m pip install --quiet --disable-pip-version-check "maturin>=1.7,<2" "ziglang>=0.13,<0.18" "auditwheel>=6.1"
	rm -f $(WHEELS)/rnsfhe-*
	env -u CARGO_ENCODED_RUSTFLAGS RUSTFLAGS= PATH="$(CURDIR)/$(BUILDVENV)/bin:$$PATH" \
	  maturin build --release --locked --compatibility manylinux2014 --zig --out $(WHEELS)
	PATH="$(CURDIR)/$(BUILDVENV)/bin:$$PATH" maturin sdist --out $(WHEELS)
	PATH="$(CURDIR)/$(BUILDVENV)/bin:$$PATH" $(BUILDVENV)/bin/python .ci/check_wheel.py $(WHEELS) $(WHEEL_PLATFORM)

# The Python package: the wheel of `make wheel`, installed with the test and Dask extras into a virtual
# environment, then its pytest suite (which also runs examples/python, and installs the same wheel into
# a fresh environment without Rust on PATH to run the quickstart: test_wheel.py). PYTEST_ARGS selects
# tests (`make python PYTEST_ARGS="-k wheel"`).
PYVENV := target/pyvenv
python: wheel
	@mkdir -p target
	$(PYTHON) -m venv $(PYVENV)
	$(PYVENV)/bin/python -m pip uninstall --quiet --yes rnsfhe 2>/dev/null || true
	$(PYVENV)/bin/python -m pip install --quiet --disable-pip-version-check "$$(ls $(WHEELS)/rnsfhe-*.whl)[test,dask,notebooks]"
	@rm -f target/wheel-smoke.txt
	set -o pipefail; RNSFHE_WHEEL="$$(ls $(CURDIR)/$(WHEELS)/rnsfhe-*.whl)" RNSFHE_WHEEL_SMOKE_LOG=$(CURDIR)/target/wheel-smoke.txt \
	  $(PYVENV)/bin/python -m pytest -q python/tests $(PYTEST_ARGS) 2>&1 | tee target/pytest-output.txt
	@cat target/wheel-smoke.txt

# Every notebook of examples/notebooks executed top to bottom in the venv of `python` (which installs the
# `notebooks` extra: nbclient, ipykernel, matplotlib); a cell that raises fails the target. Figures go to
# matplotlib's Agg backend; the notebooks on disk are left as they are (committed without outputs).
NOTEBOOK_TIMEOUT ?= 600
notebooks:
	@test -x $(PYVENV)/bin/jupyter || { echo "no $(PYVENV)/bin/jupyter: run make python first"; exit 1; }
	@set -e; for nb in examples/notebooks/*.ipynb; do \
	  echo "=== $$nb"; start=$$(date +%s); \
	  MPLBACKEND=Agg $(PYVENV)/bin/jupyter execute --timeout=$(NOTEBOOK_TIMEOUT) "$$nb"; \
	  echo "$$nb: ran in $$(( $$(date +%s) - start )) s"; \
	done

# The documentation site: MkDocs with Material, and mkdocstrings reading the package's sources and the
# extension's type stub (python/rnsfhe/_rnsfhe.pyi, docstrings included), so that no compiled extension
# is needed. The tools (docs/requirements.txt, pinned; Python 3.11 or newer) install once into
# $(DOCSVENV); `--strict` turns every warning (a broken link, an unknown API name) into an error.
DOCSVENV := target/docsvenv
$(DOCSVENV)/.installed: docs/requirements.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "make docs needs Python 3.11 or newer (PYTHON=python3.11 make docs)")'
	$(PYTHON) -m venv $(DOCSVENV)
	$(DOCSVENV)/bin/python -m pip install --quiet --disable-pip-version-check -r docs/requirements.txt
	@touch $@
docs: $(DOCSVENV)/.installed
	NO_MKDOCS_2_WARNING=1 $(DOCSVENV)/bin/mkdocs build --strict --site-dir target/site

# One total over both runners, as the last line of `make test`, after the tests that could not run here
# ("4 skipped: no AVX-512 (rns::dot_avx512::matches_scalar_twin, ...)"; "0 skipped" on a CPU with all).
summary:
	@sort -u $(SKIP_LOG) 2>/dev/null | awk -F': ' '/^SKIPPED\(/ { r = $$1; sub(/^SKIPPED\(/, "", r); sub(/\)$$/, "", r); \
	  n[r]++; l[r] = l[r] (n[r] > 1 ? ", " : "") $$2; t++ } \
	  END { if (!t) print "0 skipped: every kernel and backend test ran on this CPU"; \
	        for (r in n) printf "%d skipped: %s (%s)\n", n[r], r, l[r] }'
	@cat target/test-output.txt target/test-backends.txt 2>/dev/null | awk '/^test result:/ {p += $$4; f += $$6} END {printf "%d %d\n", p, f}' > target/rust-counts.txt
	@p=$$(grep -oE '[0-9]+ passed' target/pytest-output.txt | tail -1 | cut -d' ' -f1); \
	f=$$(grep -oE '[0-9]+ failed' target/pytest-output.txt | tail -1 | cut -d' ' -f1); \
	s=$$(grep -oE '[0-9]+ skipped' target/pytest-output.txt | tail -1 | cut -d' ' -f1); \
	read rp rf < target/rust-counts.txt; \
	echo "tests: $$((rp + $${p:-0})) passed, $$((rf + $${f:-0})) failed (rust $$rp, python $${p:-0}; python skipped $${s:-0})"

# The opt-in tier: each ignored test that asserts, by name, in a process of its own (release, one
# thread of tests), so that n16_h192_precision_and_memory's peak RSS is its own. A name that runs no
# test fails the tier. Left out, for a manual run: hpr_depth's table3_depth_n65536 (about an hour).
HEAVY := rnsfhe:bootstrapping:n16_h192_precision_and_memory rnsfhe:bootstrapping:n16_presets \
  rnsfhe:bootstrapping_meta:n16_meta_bts rnsfhe:bootstrapping_meta:n16_h192_meta_bts \
  rnsfhe:eval_mod:n16_time_and_precision rnsfhe:eval_mod:table \
  rnsfhe:cheb_precision:chebyshev_sin_degree_63_precision rnsfhe:keys_levels:generation_time_by_level \
  rnsfhe:hpr_depth:table3_depth_n32768 rnsfhe-math:slots:m_21845_slots
test-heavy:
	@mkdir -p target
	@: > target/test-heavy.txt; fail=0; \
	for t in $(HEAVY); do \
	  IFS=: read -r pkg bin name <<< "$$t"; \
	  echo "=== $$pkg --test $$bin $$name"; \
	  $(CARGO) test --release --locked -p $$pkg --test $$bin -- --ignored --exact $$name --test-threads=1 \
	    > target/test-heavy-one.txt 2>&1; \
	  cat target/test-heavy-one.txt >> target/test-heavy.txt; \
	  grep -E "^test $$name |panicked|^error" target/test-heavy-one.txt; \
	  grep -q "^test $$name \.\.\. ok" target/test-heavy-one.txt || { echo "FAILED or not run: $$name"; fail=1; }; \
	done; \
	awk '/^test result:/ {p += $$4; f += $$6} END {printf "heavy tests: %d passed, %d failed\n", p, f}' target/test-heavy.txt; \
	exit $$fail

# Every loader fuzz target for FUZZ_SECONDS each (needs nightly; fuzz/run.sh installs cargo-fuzz if missing).
FUZZ_SECONDS ?= 10
fuzz:
	bash fuzz/run.sh $(FUZZ_SECONDS)

bench:
	$(CARGO) run --release --locked -p rnsfhe-cli -- bench all

bench-arith:
	$(CARGO) run --release --locked -p rnsfhe-cli -- bench arith

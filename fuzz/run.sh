#!/usr/bin/env bash
# Runs every fuzz target of fuzz/ (the serialisation loaders) for SECONDS each and fails if any finds a
# crash, printing the reproducer.   usage: bash fuzz/run.sh [SECONDS=10]
#
# Needs a nightly toolchain (libFuzzer's instrumentation) and cargo-fuzz; installs cargo-fuzz when
# missing (about a minute). Without nightly it fails loudly, unless RNSFHE_FUZZ_ALLOW_SKIP=1, which turns
# the failure into a loud skip (exit 0). Corpora grow in fuzz/corpus/<target> (seeded at start by each
# target from valid objects), crashes land in fuzz/artifacts/<target>, logs in fuzz/target/logs.
set -euo pipefail

secs=${1:-10}
if ! [[ $secs =~ ^[0-9]+$ ]] || ((secs < 1)); then
  echo "usage: bash fuzz/run.sh [SECONDS]   (a positive whole number of seconds per target)" >&2
  exit 2
fi
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# The fuzz crate is its own workspace with its own target directory (fuzz/target).
unset CARGO_TARGET_DIR
start=$(date +%s)

unavailable() {
  echo "==================================================================" >&2
  echo "FUZZING NOT RUN: $1" >&2
  echo "==================================================================" >&2
  if [[ ${RNSFHE_FUZZ_ALLOW_SKIP:-0} == 1 ]]; then
    echo "RNSFHE_FUZZ_ALLOW_SKIP=1: skipping the fuzz step." >&2
    exit 0
  fi
  echo "Install a nightly toolchain (rustup toolchain install nightly --profile minimal), or set" >&2
  echo "RNSFHE_FUZZ_ALLOW_SKIP=1 to skip this step." >&2
  exit 1
}

# (a) A nightly toolchain and cargo-fuzz.
command -v rustup >/dev/null 2>&1 || unavailable "rustup is not installed, so no nightly toolchain"
if ! rustup toolchain list | grep -q '^nightly'; then
  echo "fuzz: no nightly toolchain; installing one (rustup toolchain install nightly --profile minimal)"
  rustup toolchain install nightly --profile minimal ||
    unavailable "no nightly toolchain and it could not be installed"
fi
cargo +nightly --version >/dev/null 2>&1 || unavailable "the nightly toolchain does not run"
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "fuzz: cargo-fuzz is missing; installing it (cargo install cargo-fuzz --locked, about a minute)"
  cargo install cargo-fuzz --locked || unavailable "cargo-fuzz is missing and could not be installed"
fi
echo "fuzz: $(cargo +nightly --version), $(cargo +nightly fuzz --version)"

# (b) Build every target once, then run each for $secs seconds.
cargo +nightly fuzz build
mapfile -t targets < <(cargo +nightly fuzz list)
((${#targets[@]} > 0)) || { echo "fuzz: no targets found" >&2; exit 1; }
mkdir -p fuzz/target/logs
failed=()
for t in "${targets[@]}"; do
  log=fuzz/target/logs/$t.log
  mkdir -p "fuzz/corpus/$t"
  if cargo +nightly fuzz run "$t" -- -max_total_time="$secs" -timeout=25 -rss_limit_mb=2048 \
    >"$log" 2>&1; then
    runs=$(grep -o 'Done [0-9]* runs' "$log" | tail -1 || true)
    echo "fuzz: $t ok (${runs:-no run count}, corpus $(find "fuzz/corpus/$t" -type f | wc -l) inputs)"
  else
    # (c) A crash, timeout or out-of-memory: show the panic and the reproducer.
    failed+=("$t")
    echo "==================================================================" >&2
    echo "fuzz: $t FAILED (full log: $log)" >&2
    # The panic message (with its location), or libFuzzer's verdict (timeout, out of memory...).
    if ! grep -m 1 -A 24 'panicked at' "$log" >&2; then
      grep -m 3 'ERROR: libFuzzer\|SUMMARY:' "$log" >&2 || tail -n 40 "$log" >&2
    fi
    artifact=$(grep -o 'fuzz/artifacts/[^ ]*' "$log" | tail -1 || true)
    if [[ -n $artifact && -f $artifact ]]; then
      echo "--- the failing input ($artifact, $(wc -c <"$artifact") bytes, first 256 shown):" >&2
      head -c 256 "$artifact" | od -A x -t x1 >&2
      echo "--- reproduce with: cargo +nightly fuzz run $t $artifact" >&2
    fi
    echo "==================================================================" >&2
  fi
done

echo "fuzz: ${#targets[@]} targets, ${secs}s each, $(($(date +%s) - start))s in all"
if ((${#failed[@]} > 0)); then
  echo "fuzz: FAILED: ${failed[*]}" >&2
  exit 1
fi

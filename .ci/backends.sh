#!/usr/bin/env bash
# Prints the rnsfhe backends this CPU supports, one per line, slowest first (scalar, avx2, avx512,
# avx512ifma): the names RNSFHE_BACKEND takes. Read from the kernel's CPU flags, as the library's own
# detection (is_x86_feature_detected) sees them. Used by `make test` (the scheme tests under every
# backend) and bench/compare.sh.
set -euo pipefail
flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
# RNSFHE_PRETEND_NO_AVX512=1: list the backends of an AVX2-only CPU (checks `make test`'s skip count).
[[ "${RNSFHE_PRETEND_NO_AVX512:-}" == 1 ]] && flags=${flags// avx512f / }
echo scalar
[[ "$flags" == *" avx2 "* ]] && echo avx2
[[ "$flags" == *" avx512f "* ]] && echo avx512
[[ "$flags" == *" avx512f "* && "$flags" == *" avx512ifma "* ]] && echo avx512ifma
exit 0

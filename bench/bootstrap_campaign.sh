#!/usr/bin/env bash
# The CKKS bootstrapping comparison with Lattigo (bench/results/bootstrap/<cpu>/): rnsfhe's n16-h192 preset
# and Lattigo v6.2.0's bootstrapping at the same shape, paired back to back, one thread unless said; each
# run's stdout in $OUT/<name>.txt and `/usr/bin/time -v` in $OUT/<name>.time. Run from the repository root
# after `cargo build --release -p rnsfhe --example ckks_bootstrap -p rnsfhe-cli`, with Lattigo's program
# (bench/lattigo_boot: `go build -o lattigo-boot .`) in $LATTIGO_BOOT.
set -u
OUT=${OUT:-/tmp/bootstrap-campaign}; mkdir -p "$OUT"
LATTIGO_BOOT=${LATTIGO_BOOT:-bench/lattigo_boot}
run() { name=$1; shift; echo "== $name: $* ($(date -u +%H:%M:%S))"; /usr/bin/time -v "$@" > "$OUT/$name.txt" 2> "$OUT/$name.time"; grep -E 'Maximum resident|Elapsed' "$OUT/$name.time"; }
export RNSFHE_NUM_THREADS=1
run rn_full target/release/examples/ckks_bootstrap n16-h192 32768 2 1
GOMAXPROCS=1 run lg_full "$LATTIGO_BOOT/lattigo-boot" -logn 16 -reps 1
run rn_sparse target/release/examples/ckks_bootstrap n16-h192 4096 2 1
GOMAXPROCS=1 run lg_sparse "$LATTIGO_BOOT/lattigo-boot" -logn 16 -reps 1 -logslots 12
run rn_full2 target/release/examples/ckks_bootstrap n16-h192 32768 2 1
RNSFHE_BACKEND=avx2 run rn_avx2 target/release/examples/ckks_bootstrap n16-h192 32768 1 1
RNSFHE_NUM_THREADS=2 run rn_2t target/release/examples/ckks_bootstrap n16-h192 32768 2 2
run rn_meta target/release/examples/ckks_bootstrap n16-h192-meta 32768 1 1
GOMAXPROCS=1 run lg_full2 "$LATTIGO_BOOT/lattigo-boot" -logn 16 -reps 1
run rn_full3 target/release/examples/ckks_bootstrap n16-h192 32768 3 1
run showcase target/release/rnsfhe bench showcase --threads 2 --out "$OUT/showcase"

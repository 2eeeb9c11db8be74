#!/bin/bash
set -x
cd /work/main
RNSFHE_NUM_THREADS=1 target/release/rnsfhe bench multiparty > /tmp/m13/mp_rnsfhe.txt 2>&1
bash ../shared/peers/lattigo_multiparty.sh > /tmp/m13/mp_lattigo.txt 2>&1

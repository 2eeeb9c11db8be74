//! `rnsfhe bench matmul`: a plaintext matrix times a batch of encrypted vectors, one thread, against
//! Lattigo v6.2.0's `lintrans` at the same shape (`bench/lattigo_lintrans -matrix 256`, run by
//! `bench/matmul_vs_lattigo.sh`).
//!
//! The shape: N = 2^16 with the builder's 128-bit defaults at L = 10 (q 60 + 10 x 40, P 4 x 49:
//! 3 key-switching digits of 4 primes), one ciphertext of 2^15 slots holding 128 vectors of 256, and
//! one dense 256 x 256 matrix M applied to each (the block-diagonal I_128 (x) M, as
//! `circuits::matrix::MatrixPacking` lays it out). Both layouts are timed: interleaved (the 256
//! diagonals k 128: the cost of one 256 x 256 product) and rows (the 511 diagonals -255..255). Lattigo
//! gets the same diagonal sets and picks its own baby-step count, as rnsfhe does. Each side: one
//! warm-up, then `--reps` timed products (apply: hoisted BSGS and the rescale), median and minimum.
//! `--quick`: N = 2^13, 64 x 64, L = 3 (insecure), a smoke run.

use std::time::Instant;

use rnsfhe::circuits::matrix::{BatchLayout, MatrixPacking};
use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe::params::Security;
use rnsfhe::Result;
use rnsfhe_math::sample::Csprng;

use crate::bench::ckks_shape::describe;
use crate::report::Report;
use crate::table::Table;
use crate::timing::human;

/// M[r]\[c] = ((37 r + 11 c) mod 101) / 101 - 1/2 (Lattigo's side uses the same entries).
fn entry(r: usize, c: usize) -> f64 {
    ((37 * r + 11 * c) % 101) as f64 / 101.0 - 0.5
}

pub fn run(reps: usize, quick: bool, rep: &mut Report) -> Result<()> {
    let (log_n, n, levels) = if quick { (13, 64, 3) } else { (16, 256, 10) };
    let mut builder = CkksParameters::builder().degree(1 << log_n).levels(levels);
    if quick {
        builder = builder.security(Security::InsecureResearchOnly);
    }
    let ctx = CkksContext::new(builder.build()?)?;
    let slots = ctx.slots();
    let batch = slots / n;
    rep.text(&format!(
        "\n### A {n} x {n} plaintext matrix on {batch} encrypted vectors of {n} ({slots} slots, one thread)\n"
    ));
    rep.text(&format!(
        "Parameters: {}, key switching {:?}; {reps} timed products after one warm-up.\n",
        describe(&ctx),
        ctx.params().key_switching()
    ));
    let mut rng = Csprng::from_seed([36; 32]);
    let (sk, pk) = ctx.keygen(&mut rng)?;
    let m: Vec<Complex> = (0..n * n)
        .map(|i| Complex::new(entry(i / n, i % n), 0.0))
        .collect();
    let x: Vec<Complex> = (0..slots)
        .map(|i| Complex::new((i % 97) as f64 / 97.0, 0.0))
        .collect();
    let ct = ctx.encrypt(&ctx.encode(&x)?, &pk, &mut rng)?;
    let mut table = Table::new(&[
        "layout",
        "diagonals",
        "n1",
        "rotations",
        "encode",
        "diagonals' bytes",
        "matmul median",
        "matmul min",
        "max error",
    ]);
    for (name, layout) in [
        ("interleaved", BatchLayout::Interleaved),
        ("rows", BatchLayout::Rows { stride: n }),
    ] {
        let packing = MatrixPacking::new(slots, batch, layout)?;
        let t = Instant::now();
        let diagonals = packing.diagonals(&m, n, n)?.len();
        let lt = packing.transform(&ctx, &m, n, n, ctx.max_level())?;
        let encode = t.elapsed().as_secs_f64();
        let gk = ctx.galois_keys(&sk, &lt.rotation_steps(), false, &mut rng)?;
        let mut times = Vec::with_capacity(reps);
        let mut y = lt.apply(&ctx, &ct, &gk)?;
        for _ in 0..reps {
            let t = Instant::now();
            y = lt.apply(&ctx, &ct, &gk)?;
            times.push(t.elapsed().as_secs_f64());
        }
        times.sort_by(f64::total_cmp);
        // Against the plaintext product of each vector (x as the packing reads it).
        let got = ctx.decrypt_values(&y, &sk)?;
        let mut worst = 0.0f64;
        for j in 0..batch {
            for r in 0..n {
                let want: f64 = (0..n).map(|c| entry(r, c) * x[packing.slot(j, c)].re).sum();
                worst = worst.max((got[packing.slot(j, r)].re - want).abs());
            }
        }
        table.row(vec![
            name.into(),
            diagonals.to_string(),
            lt.split().n1.to_string(),
            lt.rotation_steps().len().to_string(),
            human(encode),
            format!("{:.2} GiB", lt.encoded_bytes() as f64 / f64::from(1 << 30)),
            human(times.get(times.len() / 2).copied().unwrap_or(f64::NAN)),
            human(times.first().copied().unwrap_or(f64::NAN)),
            format!("{worst:.2e}"),
        ]);
    }
    rep.table(&table);
    Ok(())
}

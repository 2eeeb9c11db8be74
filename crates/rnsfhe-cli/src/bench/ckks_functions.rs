//! `rnsfhe bench ckks`, Cheon et al. (SAC 2018) Tables 2 and 3: x^-1, exp and sigmoid, mean and variance at
//! N = 2^14, with this library's default chain and with the paper's (log Q_L = 281 and 171).

use std::sync::Arc;

use rnsfhe::circuits;
use rnsfhe::ckks::{CkksCiphertext, CkksContext, CkksParameters, Complex};
use rnsfhe::Result;
use rnsfhe_math::arith::Modulus;
use rnsfhe_math::sample::Csprng;

use super::ckks_shape::describe;
use crate::report::Report;
use crate::table::Table;
use crate::timing::{human, Budget};

/// (name, evaluation, exact function, the same approximation in double, paper's time).
type FunctionRow<'a> = (
    &'a str,
    &'a dyn Fn() -> Result<CkksCiphertext>,
    &'a dyn Fn(f64) -> f64,
    &'a dyn Fn(f64) -> f64,
    &'a str,
);

/// Cheon et al. (SAC 2018) Tables 2 and 3 at N = 2^14: x^-1 by [12] Alg. 2 (degree 15), exp and sigmoid by Taylor
/// degree 7 over all 2^13 slots (context `f`); mean and variance of 2^13 numbers (context `st`).
/// A row whose evaluation the chain cannot hold shows the error instead of a time.
fn tables2_3(
    budget: &Budget,
    rng: &mut Csprng,
    f: &CkksContext,
    st: &CkksContext,
    rep: &mut Report,
) -> Result<()> {
    let ctx = f;
    let (sk, pk) = ctx.keygen(rng)?;
    let rlk = ctx.relin_key(&sk, rng)?;
    let n = ctx.slots();
    let m = Modulus::new(1 << 30)?;
    let x: Vec<f64> = (0..n)
        .map(|_| rng.uniform_mod(&m) as f64 / (1u64 << 30) as f64)
        .collect();
    let c = ctx.encrypt(&ctx.encode_real(&x)?, &pk, rng)?;
    let err = |got: &[Complex], f: &dyn Fn(f64) -> f64| -> f64 {
        got.iter()
            .zip(&x)
            .map(|(g, &v)| (g.re - f(v)).abs())
            .fold(0.0, f64::max)
    };
    let shape = describe(ctx);
    let mut table = Table::new(&[
        "function",
        "parameters",
        "time",
        "bits vs the function",
        "bits vs the same approximation in double",
        "paper (i5, one thread)",
    ]);
    let shifted = ctx.add_const(&c, 0.5)?; // inputs in [0.5, 1.5]
    let exp7: Vec<f64> = (0..8u32)
        .map(|i| 1.0 / (1..=i).map(f64::from).product::<f64>())
        .collect();
    let horner = |c: &[f64], v: f64| c.iter().rev().fold(0.0, |a, k| a * v + k);
    let sig7 = rnsfhe::circuits::SIGMOID_TAYLOR_7;
    let sig = |v: f64| 1.0 / (1.0 + (-v).exp());
    let cheb = circuits::chebyshev_coefficients(sig, -8.0, 8.0, 15);
    let cheb_at = |v: f64| {
        let y = v / 8.0;
        cheb.iter()
            .enumerate()
            .map(|(k, c)| c * (k as f64 * y.acos()).cos())
            .sum::<f64>()
    };
    let inv4 = |v: f64| {
        let y = 0.5 - v; // x = v + 0.5, y = 1 - x
        (0..4).fold(1.0, |p, i| p * (1.0 + y.powi(1 << i)))
    };
    let rows: [FunctionRow; 5] = [
        (
            "x^-1 (x in [0.5, 1.5], 4 iterations: degree 15)",
            &|| circuits::inverse(ctx, &shifted, 4, &rlk),
            &|v| 1.0 / (v + 0.5),
            &inv4,
            "167 ms",
        ),
        (
            "exp (Taylor 7, x in [0, 1])",
            &|| circuits::exp(ctx, &c, &rlk),
            &f64::exp,
            &|v| horner(&exp7, v),
            "164 ms",
        ),
        (
            "sigmoid (Taylor 7, x in [0, 1])",
            &|| circuits::sigmoid(ctx, &c, &rlk),
            &sig,
            &|v| horner(&sig7, v),
            "161 ms",
        ),
        (
            "sigmoid (Chebyshev 15 on [-8, 8])",
            &|| {
                circuits::evaluate_chebyshev(
                    ctx,
                    &c,
                    |v| 1.0 / (1.0 + (-v).exp()),
                    (-8.0, 8.0),
                    15,
                    &rlk,
                )
            },
            &sig,
            &cheb_at,
            "—",
        ),
        (
            "exp (Taylor 7, baby-step giant-step)",
            &|| circuits::evaluate_polynomial_bsgs(ctx, &c, &exp7, &rlk),
            &f64::exp,
            &|v| horner(&exp7, v),
            "164 ms",
        ),
    ];
    for (name, f, reference, approx, paper) in rows {
        let out = match f() {
            Ok(out) => out,
            Err(e) => {
                let cells = [name.into(), shape.clone(), format!("fails: {e}")];
                table.row(
                    cells
                        .into_iter()
                        .chain(["".into(), "".into(), paper.into()])
                        .collect(),
                );
                continue;
            }
        };
        let got = ctx.decrypt_values(&out, &sk)?;
        let e = err(&got, reference);
        let ea = err(&got, approx);
        let t = budget.seconds_per_call(|| {
            let _ = std::hint::black_box(f());
        });
        table.row(vec![
            name.into(),
            shape.clone(),
            human(t),
            format!("{:.1}", -e.log2()),
            format!("{:.1}", -ea.log2()),
            paper.into(),
        ]);
    }
    rep.table(&table);
    statistics(budget, rng, st, &x, rep)
}

/// Cheon et al. (SAC 2018) Table 3: mean and variance of the 2^13 numbers `x`.
fn statistics(
    budget: &Budget,
    rng: &mut Csprng,
    ctx: &CkksContext,
    x: &[f64],
    rep: &mut Report,
) -> Result<()> {
    let (sk, pk) = ctx.keygen(rng)?;
    let rlk = ctx.relin_key(&sk, rng)?;
    let steps: Vec<i64> = (0..13).map(|i| 1i64 << i).collect();
    let gk = ctx.galois_keys(&sk, &steps, false, rng)?;
    let n = x.len();
    let c = ctx.encrypt(&ctx.encode_real(x)?, &pk, rng)?;
    let shape = describe(ctx);
    let mut table = Table::new(&[
        "statistic",
        "parameters",
        "time",
        "bits vs the exact value",
        "paper (i5, one thread)",
    ]);
    let mean = x.iter().sum::<f64>() / n as f64;
    let var = x.iter().map(|v| v * v).sum::<f64>() / n as f64 - mean * mean;
    let got_mean = ctx.decrypt_values(&circuits::mean(ctx, &c, n, &gk)?, &sk)?[0].re;
    let got_var = ctx.decrypt_values(&circuits::variance(ctx, &c, n, &rlk, &gk)?, &sk)?[0].re;
    let tm = budget.seconds_per_call(|| {
        let _ = std::hint::black_box(circuits::mean(ctx, &c, n, &gk));
    });
    let tv = budget.seconds_per_call(|| {
        let _ = std::hint::black_box(circuits::variance(ctx, &c, n, &rlk, &gk));
    });
    table.row(vec![
        "mean of 2^13 numbers".into(),
        shape.clone(),
        human(tm),
        format!("{:.1}", -(got_mean - mean).abs().log2()),
        "307 ms".into(),
    ]);
    table.row(vec![
        "variance of 2^13 numbers".into(),
        shape,
        human(tv),
        format!("{:.1}", -(got_var - var).abs().log2()),
        "518 ms".into(),
    ]);
    rep.table(&table);
    Ok(())
}

/// N = 2^14 with `levels` primes of `scale_bits` bits above a 61-bit q_0 (one 61-bit special prime
/// unless `default_moduli`, which keeps the builder's defaults but the scale).
fn n14(levels: usize, scale_bits: u32, paper_chain: bool) -> Result<Arc<CkksContext>> {
    let b = CkksParameters::builder()
        .degree(1 << 14)
        .levels(levels)
        .scale_bits(scale_bits);
    let b = if paper_chain {
        b.first_modulus_bits(61).special_moduli_bits(&[61])
    } else {
        b
    };
    CkksContext::new(b.build()?)
}

/// Tables 2 and 3 twice: this library's defaults (scale 2^50, 6 levels) and the paper's chains
/// (55-bit scale, log Q_L = 61 + 4 x 55 = 281 for the functions, 61 + 2 x 55 = 171 for the statistics).
pub fn run(budget: &Budget, rng: &mut Csprng, rep: &mut Report) -> Result<()> {
    rep.text("\n### Cheon et al. (SAC 2018) Tables 2 and 3: functions and statistics at N = 2^14 (2^13 slots), scale 2^50, 6 levels\n");
    let ours = n14(6, 50, false)?;
    tables2_3(budget, rng, &ours, &ours, rep)?;
    rep.text("\n### Cheon et al. (SAC 2018) Tables 2 and 3 at the paper's parameters: N = 2^14, log q = 55, log Q_L = 281 (functions) and 171 (statistics)\n");
    let (f, st) = (n14(4, 55, true)?, n14(2, 55, true)?);
    rep.text(&format!(
        "Chains: functions log Q_L = {:.0}, statistics log Q_L = {:.0} (q_0 of 61 bits, one 61-bit special prime).",
        log_q_top(&f),
        log_q_top(&st)
    ));
    tables2_3(budget, rng, &f, &st, rep)?;
    rep.text("\nCheon et al. (SAC 2018) Table 2 states at least 32 bits of precision: compare the homomorphic error against the same approximation in double; the truncation of Taylor 7 and of 4 inverse iterations on these inputs dominates the error against the function itself.");
    Ok(())
}

/// log2 of the product of the ciphertext primes (log Q_L).
fn log_q_top(ctx: &CkksContext) -> f64 {
    ctx.params()
        .moduli()
        .iter()
        .map(|&q| (q as f64).log2())
        .sum()
}

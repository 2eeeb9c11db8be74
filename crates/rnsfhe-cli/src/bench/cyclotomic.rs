//! `rnsfhe bench cyclotomic`: Bajard et al. (SAC 2017) Fig. 1 — time per batching slot of one product-and-reduce in
//! Z_q[X]/(Phi_m), one 60-bit modulus, plain Barrett vs optimised Barrett vs Montgomery, with the
//! power-of-two ring (one slot for t = 2) as baseline; and Tables 1–2 — the reduction alone (from a
//! product in NTT_N form to coefficients) with the paper's theoretical speed-ups beside the measured.

use rnsfhe_math::arith::ntt_primes;
use rnsfhe_math::ring::{Poly, Reduction, Representation, RingContext};
use rnsfhe_math::sample::Csprng;
use rnsfhe_math::Result;

use crate::report::{Plot, Report, Scale, Series};
use crate::table::Table;
use crate::timing::{human, Budget};

/// The m of the table: Fermat products (n a power of two), and the classic 5461 and 8191.
const INDICES: [usize; 8] = [255, 771, 1285, 4369, 5461, 8191, 21845, 65535];

/// Slots for plaintext modulus t: l = n / ord_m(t).
fn slots(m: usize, n: usize, t: u64) -> usize {
    let mut d = 1usize;
    let mut x = t % m as u64;
    while x != 1 {
        x = x * t % m as u64;
        d += 1;
    }
    n / d
}

/// (whole product: both NTT_N, pointwise, reduction; reduction alone: NTT_N product to coefficients).
fn time_product(
    budget: &Budget,
    m: usize,
    moduli: &[u64],
    r: Reduction,
    rng: &mut Csprng,
) -> Result<(f64, f64)> {
    let ctx = RingContext::cyclotomic(m, moduli, r)?;
    let draw = |rng: &mut Csprng| -> Result<Poly> {
        let p = Poly::from_residues(
            &ctx,
            rng.uniform_poly(ctx.moduli(), ctx.degree()),
            Representation::Coefficient,
        )?;
        if r == Reduction::Montgomery {
            p.to_montgomery()
        } else {
            Ok(p)
        }
    };
    let (a, b) = (draw(rng)?, draw(rng)?);
    let whole = budget.seconds_per_call(|| {
        let (mut x, mut y) = (a.clone(), b.clone());
        let _ = x.to_ntt();
        let _ = y.to_ntt();
        let _ = x.mul_assign(&y);
        let _ = std::hint::black_box(x.to_coefficient());
    });
    let (mut x, mut y) = (a.clone(), b.clone());
    x.to_ntt()?;
    y.to_ntt()?;
    x.mul_assign(&y)?;
    let reduce = budget.seconds_per_call(|| {
        let mut c = x.clone();
        let _ = std::hint::black_box(c.to_coefficient());
    });
    Ok((whole, reduce))
}

/// Modular multiplications of an NTT of size s: (s / 2) log2 s.
fn c_ntt(s: usize) -> f64 {
    (s / 2) as f64 * f64::from(s.trailing_zeros())
}

/// Bajard et al. (SAC 2017) section 3: modular multiplications of the reductions from the NTT_N product, per modulus —
/// Barrett 3 C(N) + 2 C(n~) + N + n~; optimised Barrett C(N) + 2 C(A) + 2 C(n~) + A + n~; Montgomery
/// 3 C(N2(n)) + 4 N2(n).
fn theoretical_costs(n: usize, alpha: Option<usize>) -> (f64, f64, f64) {
    let (big_n, nt) = ((2 * n).next_power_of_two(), n.next_power_of_two());
    let barrett = 3.0 * c_ntt(big_n) + 2.0 * c_ntt(nt) + (big_n + nt) as f64;
    let sparse = match alpha {
        Some(alpha) => {
            let a = (2 * alpha + 1).next_power_of_two();
            c_ntt(big_n) + 2.0 * c_ntt(a) + 2.0 * c_ntt(nt) + (a + nt) as f64
        }
        None => barrett,
    };
    let montgomery = 3.0 * c_ntt(nt) + 4.0 * nt as f64;
    (barrett, sparse, montgomery)
}

/// Negacyclic baseline: both operands to NTT form, pointwise product, back.
fn time_power_of_two(budget: &Budget, n: usize, rng: &mut Csprng) -> Result<f64> {
    let q = ntt_primes(60, 2 * n as u64, 1, &[])?;
    let ctx = RingContext::new(n, &q)?;
    let a = Poly::from_residues(
        &ctx,
        rng.uniform_poly(ctx.moduli(), n),
        Representation::Coefficient,
    )?;
    let b = Poly::from_residues(
        &ctx,
        rng.uniform_poly(ctx.moduli(), n),
        Representation::Coefficient,
    )?;
    Ok(budget.seconds_per_call(|| {
        let (mut x, mut y) = (a.clone(), b.clone());
        let _ = x.to_ntt();
        let _ = y.to_ntt();
        let _ = x.mul_assign(&y);
        let _ = std::hint::black_box(x.to_coefficient());
    }))
}

/// The table.
pub fn run(budget: &Budget, rep: &mut Report) -> Result<()> {
    let mut rng = Csprng::from_seed([4; 32]);
    rep.text("## Products modulo Phi_m (Bajard et al. (SAC 2017) Fig. 1), one 60-bit modulus, one thread, t = 2 slots\n");
    let mut plot = Plot::time(
        "cyclotomic_per_slot",
        "Product modulo Phi_m per batching slot (Bajard et al. (SAC 2017) Fig. 1)",
        "m",
        Scale::Log2Power,
        "One 60-bit modulus, one thread, slots for t = 2 (l = n / ord_m(2)); power-of-two rings X^n + 1 \
         (m = 2n) have one slot for t = 2.",
    );
    let (mut sb, mut so, mut sm) = (
        Series::new("Barrett"),
        Series::new("optimised Barrett (Q_sp)"),
        Series::new("Montgomery"),
    );
    let mut table = Table::new(&[
        "m",
        "q",
        "n",
        "slots",
        "Q_sp",
        "Barrett",
        "opt. Barrett",
        "Montgomery",
        "opt./Barrett",
        "Mont./Barrett",
        "Montgomery per slot",
    ]);
    let mut reductions = Table::new(&[
        "m",
        "n",
        "HW(Q_sp)",
        "alpha",
        "A",
        "Barrett red.",
        "opt. red.",
        "Mont. red.",
        "opt. speed-up (theory / measured)",
        "Mont. speed-up (theory / measured)",
    ]);
    for m in INDICES {
        let moduli = RingContext::cyclotomic_primes(m, 60, 1)?;
        let ctx = RingContext::cyclotomic(m, &moduli, Reduction::SparseBarrett)?;
        let n = ctx.degree();
        let l = slots(m, n, 2);
        let sp = ctx.sparse_multiple().map_or("none".to_string(), |s| {
            format!("Phi_{}(X^{}), deg {}", s.m_prime, m / s.m_prime, s.degree)
        });
        let (tb, rb) = time_product(budget, m, &moduli, Reduction::Barrett, &mut rng)?;
        let (ts, rs) = time_product(budget, m, &moduli, Reduction::SparseBarrett, &mut rng)?;
        let (tm, rm) = time_product(budget, m, &moduli, Reduction::Montgomery, &mut rng)?;
        let per = l as f64;
        sb.push(m as f64, tb / per);
        so.push(m as f64, ts / per);
        sm.push(m as f64, tm / per);
        table.row(vec![
            m.to_string(),
            "1 x 60 bits".into(),
            n.to_string(),
            l.to_string(),
            sp,
            human(tb),
            human(ts),
            human(tm),
            format!("{:.2}x", tb / ts),
            format!("{:.2}x", tb / tm),
            human(tm / l as f64),
        ]);
        let alpha = ctx
            .sparse_multiple()
            .and_then(|s| s.degree.checked_sub(n + 1));
        let (cb, cs, cm) = theoretical_costs(n, alpha);
        let dash = || "-".to_string();
        reductions.row(vec![
            m.to_string(),
            n.to_string(),
            ctx.sparse_multiple()
                .map_or_else(dash, |s| (s.terms.len() + 1).to_string()),
            alpha.map_or_else(dash, |a| a.to_string()),
            alpha.map_or_else(dash, |a| (2 * a + 1).next_power_of_two().to_string()),
            human(rb),
            human(rs),
            human(rm),
            format!("{:.2} / {:.2}", cb / cs, rb / rs),
            format!("{:.2} / {:.2}", cb / cm, rb / rm),
        ]);
    }
    rep.table(&table);
    rep.text(
        "\n## The reduction alone (Bajard et al. (SAC 2017) Tables 1-2): from a product in NTT_N form to its n coefficients \
         modulo Phi_m (Barrett: inverse NTT_N + Alg. 1; optimised: inverse NTT_N, folds, Alg. 1 with alpha; \
         Montgomery: Alg. 3 from the NTT_N values). Theory: the paper's counts of modular multiplications.\n",
    );
    rep.table(&reductions);
    let mut sp = Series::new("X^n + 1, one slot: NTT-based product");
    let mut base = Table::new(&[
        "power-of-two ring",
        "q",
        "slots (t = 2)",
        "product (NTT, pointwise, inverse)",
    ]);
    for log_n in [7u32, 9, 10, 12, 13, 14, 15] {
        let n = 1usize << log_n;
        let t = time_power_of_two(budget, n, &mut rng)?;
        sp.push(2.0 * n as f64, t);
        base.row(vec![
            format!("X^{n} + 1"),
            "1 x 60 bits".into(),
            "1".into(),
            human(t),
        ]);
    }
    rep.table(&base);
    for s in [sb, so, sm, sp] {
        plot.add(s);
    }
    rep.plot(plot);
    slot_algebra(budget, rep, &mut rng)
}

/// The slot precomputation (factors of Phi_m mod 2, hypercube, CRT tree) and one encode / decode.
fn slot_algebra(budget: &Budget, rep: &mut Report, rng: &mut Csprng) -> Result<()> {
    use rnsfhe_math::ring::cyclotomic::SlotAlgebra;
    rep.text("\n## Slot algebra, t = 2 (Bajard et al. (SAC 2017) section 2.4): precomputation, encode, decode\n");
    let mut table = Table::new(&[
        "m",
        "n",
        "slots x GF(2^d)",
        "hypercube (g: order)",
        "precomputation",
        "encode",
        "decode",
    ]);
    for m in [255usize, 771, 1285, 4369, 21845] {
        let start = std::time::Instant::now();
        let alg = SlotAlgebra::new(m, 2)?;
        let build = start.elapsed().as_secs_f64();
        let slots: Vec<Vec<u64>> = (0..alg.slots())
            .map(|_| (0..alg.slot_degree()).map(|_| rng.next_u64() & 1).collect())
            .collect();
        let coeffs = alg.encode(&slots)?;
        let enc = budget.seconds_per_call(|| {
            let _ = std::hint::black_box(alg.encode(&slots));
        });
        let dec = budget.seconds_per_call(|| {
            let _ = std::hint::black_box(alg.decode(&coeffs));
        });
        let dims: Vec<String> = alg
            .dimensions()
            .iter()
            .map(|d| {
                let native = if d.native { "" } else { ", non-native" };
                format!("{}: {}{native}", d.generator, d.order)
            })
            .collect();
        table.row(vec![
            m.to_string(),
            alg.degree().to_string(),
            format!("{} x GF(2^{})", alg.slots(), alg.slot_degree()),
            dims.join("; "),
            human(build),
            human(enc),
            human(dec),
        ]);
    }
    rep.table(&table);
    Ok(())
}

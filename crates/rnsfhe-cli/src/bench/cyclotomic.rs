//! `rnsfhe bench cyclotomic`: paper 001 Fig. 1 — time per batching slot of one product-and-reduce in
//! Z_q[X]/(Phi_m), one 60-bit modulus, plain Barrett vs optimised Barrett vs Montgomery, with the
//! power-of-two ring (one slot for t = 2) as baseline.

use rnsfhe_math::arith::ntt_primes;
use rnsfhe_math::ring::cyclotomic::{CyclotomicPoly, CyclotomicRing, Reduction};
use rnsfhe_math::ring::{Poly, Representation, RingContext};
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

fn time_product(
    budget: &Budget,
    m: usize,
    moduli: &[u64],
    r: Reduction,
    rng: &mut Csprng,
) -> Result<f64> {
    let ctx = CyclotomicRing::new(m, moduli, r)?;
    let mut a = CyclotomicPoly::from_residues(&ctx, rng.uniform_poly(ctx.moduli(), ctx.degree()))?;
    let mut b = CyclotomicPoly::from_residues(&ctx, rng.uniform_poly(ctx.moduli(), ctx.degree()))?;
    if r == Reduction::Montgomery {
        a = a.to_montgomery()?;
        b = b.to_montgomery()?;
    }
    Ok(budget.seconds_per_call(|| {
        let _ = std::hint::black_box(a.mul(&b));
    }))
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
    rep.text("## Products modulo Phi_m (paper 001 Fig. 1), one 60-bit modulus, one thread, t = 2 slots\n");
    let mut plot = Plot::time(
        "cyclotomic_per_slot",
        "Product modulo Phi_m per batching slot (paper 001 Fig. 1)",
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
    for m in INDICES {
        let moduli = CyclotomicRing::primes(m, 60, 1)?;
        let ctx = CyclotomicRing::new(m, &moduli, Reduction::SparseBarrett)?;
        let n = ctx.degree();
        let l = slots(m, n, 2);
        let sp = ctx.sparse_multiple().map_or("none".to_string(), |s| {
            format!("Phi_{}(X^{}), deg {}", s.m_prime, m / s.m_prime, s.degree)
        });
        let tb = time_product(budget, m, &moduli, Reduction::Barrett, &mut rng)?;
        let ts = time_product(budget, m, &moduli, Reduction::SparseBarrett, &mut rng)?;
        let tm = time_product(budget, m, &moduli, Reduction::Montgomery, &mut rng)?;
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
    }
    rep.table(&table);
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
    Ok(())
}

//! `rnsfhe demo`: the arithmetic under the schemes, shown and checked, then an encrypted BFV
//! computation (`demo_bfv`) and statistics and logistic regression on the bundled data under CKKS
//! (`demo_ckks`).

use rnsfhe::params::{log2_product, SecurityLevel};
use rnsfhe::{Error, Result};
use rnsfhe_math::arith::ntt_primes;
use rnsfhe_math::ring::reference::negacyclic_product;
use rnsfhe_math::ring::{Poly, Representation, RingContext};
use rnsfhe_math::sample::Csprng;

use crate::timing::{human, Budget};

fn random_poly(ctx: &std::sync::Arc<RingContext>, rng: &mut Csprng) -> Result<Poly> {
    let data = rng.uniform_poly(ctx.moduli(), ctx.degree());
    Ok(Poly::from_residues(ctx, data, Representation::Coefficient)?)
}

/// One ring product by NTT, checked coefficient by coefficient against the schoolbook reference.
fn checked_product(rng: &mut Csprng) -> Result<()> {
    let n = 1024;
    let moduli = ntt_primes(60, 2 * n as u64, 3, &[])?;
    let ctx = RingContext::new(n, &moduli)?;
    let (a, b) = (random_poly(&ctx, rng)?, random_poly(&ctx, rng)?);
    let (mut fa, mut fb) = (a.clone(), b.clone());
    fa.to_ntt()?;
    fb.to_ntt()?;
    let mut c = fa.mul(&fb)?;
    c.to_coefficient()?;
    let want = negacyclic_product(&a.to_biguint()?, &b.to_biguint()?, ctx.basis().product());
    let ok = c.to_biguint()? == want;
    println!(
        "Product in Z_Q[X]/(X^{n}+1), Q = 3 x 60-bit primes ({:.0} bits): NTT result {} the big-integer schoolbook product ({} coefficients).",
        log2_product(&moduli),
        if ok { "equals" } else { "DIFFERS FROM" },
        n
    );
    if ok {
        Ok(())
    } else {
        Err(Error::OutOfRange(
            "the NTT product disagrees with the reference".into(),
        ))
    }
}

/// Timing of a ring product at the 128-bit parameter sets of the HE standard.
fn product_timings(rng: &mut Csprng, budget: &Budget) -> Result<()> {
    let mut table = crate::table::Table::new(&[
        "n",
        "log Q (max at 128-bit)",
        "moduli",
        "to NTT (1 poly)",
        "product in NTT form (in place)",
        "back to coefficients",
    ]);
    for (n, bits) in [(4096usize, 54u32), (8192, 54), (16384, 55), (32768, 55)] {
        let max = rnsfhe::params::max_log_q(n, SecurityLevel::Bits128).unwrap_or(0);
        let k = (max / bits) as usize;
        let moduli = ntt_primes(bits, 2 * n as u64, k, &[])?;
        let ctx = RingContext::new(n, &moduli)?;
        let a = random_poly(&ctx, rng)?;
        let mut fa = a.clone();
        fa.to_ntt()?;
        let fb = {
            let mut b = random_poly(&ctx, rng)?;
            b.to_ntt()?;
            b
        };
        let t_fwd = budget.seconds_per_call(|| {
            let mut x = a.clone();
            let _ = std::hint::black_box(x.to_ntt());
        });
        let mut acc = fa.clone();
        let t_mul = budget.seconds_per_call(|| {
            let _ = std::hint::black_box(acc.mul_assign(&fb));
        });
        let t_inv = budget.seconds_per_call(|| {
            let mut x = fa.clone();
            let _ = std::hint::black_box(x.to_coefficient());
        });
        table.row(vec![
            n.to_string(),
            format!("{:.0} ({max})", log2_product(&moduli)),
            format!("{k} x {bits}-bit"),
            human(t_fwd),
            human(t_mul),
            human(t_inv),
        ]);
    }
    table.print();
    Ok(())
}

/// Many slots from a general cyclotomic (Bajard et al. (SAC 2017)): Phi_255 splits modulo 2 into 16 factors of degree 8,
/// so one plaintext of R_2 carries 16 elements of GF(2^8); a product in the ring multiplies them slot by
/// slot. The product is computed with the Montgomery reduction modulo Phi_255 over an NTT prime and
/// reduced mod 2 (the inputs are 0/1 polynomials, so the integer product is small enough to lift).
fn many_slots(rng: &mut Csprng) -> Result<()> {
    use rnsfhe_math::ring::cyclotomic::SlotAlgebra;
    use rnsfhe_math::ring::{Poly, Reduction, RingContext};
    let (m, t) = (255usize, 2u64);
    let alg = SlotAlgebra::new(m, t)?;
    let ctx = RingContext::cyclotomic(
        m,
        &RingContext::cyclotomic_primes(m, 50, 1)?,
        Reduction::Montgomery,
    )?;
    let draw = |rng: &mut Csprng| -> Vec<Vec<u64>> {
        (0..alg.slots())
            .map(|_| (0..alg.slot_degree()).map(|_| rng.next_u64() & 1).collect())
            .collect()
    };
    let (sa, sb) = (draw(rng), draw(rng));
    let lift = |s: &[Vec<u64>]| -> Result<Poly> {
        let coeffs: Vec<i64> = alg.encode(s)?.into_iter().map(|x| x as i64).collect();
        let mut p = Poly::from_signed(&ctx, &coeffs)?.to_montgomery()?;
        p.to_ntt()?;
        Ok(p)
    };
    let mut prod = lift(&sa)?.mul(&lift(&sb)?)?;
    prod.to_coefficient()?;
    let prod = prod.from_montgomery()?;
    let q = ctx.moduli()[0];
    let in_r2: Vec<u64> = prod
        .residues()
        .iter()
        .map(|&x| (q.center(x).rem_euclid(2)) as u64)
        .collect();
    let slots = alg.decode(&in_r2)?;
    println!(
        "Phi_{m} modulo t = {t}: n = {}, {} slots of GF(2^{}); slot 0: {:?} x {:?} = {:?} (product in R_2 by Montgomery reduction modulo Phi_{m}).",
        alg.degree(),
        alg.slots(),
        alg.slot_degree(),
        sa[0],
        sb[0],
        slots[0]
    );
    Ok(())
}

/// Runs the demo.
pub fn run() -> Result<()> {
    let mut rng = Csprng::from_os_entropy()?;
    println!("# rnsfhe demo: the ring arithmetic under the schemes\n");
    checked_product(&mut rng)?;
    many_slots(&mut rng)?;
    println!("\n## Ring operations at 128-bit-secure sizes (one thread)\n");
    let budget = Budget::new(true);
    product_timings(&mut rng, &budget)?;
    println!("## Base extension and NTT (`rnsfhe bench arith` for the full tables)\n");
    crate::bench::arith::run_summary(&budget)?;
    crate::demo_bfv::run()?;
    crate::demo_ckks::run()
}

//! `rnsfhe bench flooding`: IND-CPA-D CKKS decryption (noise flooding, `rlwe::Flooding`) against
//! raw decryption at N = 2^15 (the peers' parameters), and the precision flooding leaves for
//! lambda = 20, 30, 40, 60: predicted (`Flooding::precision_bits`) against measured.

use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe::rlwe::Flooding;
use rnsfhe::Result;
use rnsfhe_math::sample::Csprng;

use crate::report::Report;
use crate::table::Table;
use crate::timing::{human, Budget};

fn rms_bits(got: &[Complex], want: &[Complex]) -> f64 {
    let s: f64 = got
        .iter()
        .zip(want)
        .map(|(g, w)| (g.re - w.re).powi(2) + (g.im - w.im).powi(2))
        .sum();
    -(s / (2 * got.len()) as f64).sqrt().log2()
}

/// Raw vs flooded decrypt + decode at N = 2^15, 60 + 40 x 10 bits (+ 60); the fresh error bound
/// measured on a rehearsal under a throwaway key; decrypted at level 1 with a scale of 2^70 (a
/// level of two primes), where 20 bits and more survive lambda = 40.
pub fn run(budget: &Budget, rep: &mut Report) -> Result<()> {
    rep.text("\n### IND-CPA-D CKKS decryption: noise flooding vs raw (N = 2^15, 60 + 40 x 10 bits + 60, one thread)\n");
    let mut rng = Csprng::from_seed([81; 32]);
    let ctx = CkksContext::new(
        CkksParameters::builder()
            .degree(1 << 15)
            .levels(10)
            .build()?,
    )?;
    let n = ctx.params().degree();
    let values: Vec<Complex> = (0..ctx.slots())
        .map(|i| Complex::from_angle(i as f64 * 0.001))
        .collect();

    // Top level, scale 2^40: the timing rows.
    let (sk, pk) = ctx.keygen(&mut rng)?;
    let (ts, tp) = ctx.keygen(&mut rng)?;
    let pt = ctx.encode(&values)?;
    let bound = ctx.error_log2(&ctx.encrypt(&pt, &tp, &mut rng)?, &ts, &pt)? + 1.0;
    let ct = ctx.encrypt(&pt, &pk, &mut rng)?;
    let flood = Flooding::new(40, bound, n, 1)?;
    let raw = budget.seconds_per_call(|| {
        let _ = std::hint::black_box(ctx.decrypt_values(&ct, &sk));
    });
    let flooded = budget.seconds_per_call(|| {
        let _ = std::hint::black_box(ctx.decrypt_values_flooded(&ct, &sk, &flood, &mut rng));
    });
    let mut noise = rnsfhe_math::ring::Poly::zero(
        ctx.ring_at(ctx.max_level())?,
        rnsfhe_math::ring::Representation::Coefficient,
    );
    let alone = budget.seconds_per_call(|| {
        let _ = std::hint::black_box(flood.add_to(&mut noise, 1, &mut rng));
    });
    let mut table = Table::new(&["decrypt + decode, level 10", "time", "relative"]);
    table.row(vec!["raw".into(), human(raw), "1.00".into()]);
    table.row(vec![
        format!(
            "flooded, lambda = 40 (sigma 2^{:.1}, bound 2^{bound:.1})",
            flood.sigma().log2()
        ),
        human(flooded),
        format!("{:.3}", flooded / raw),
    ]);
    table.row(vec![
        "the flooding alone (sampling, 11 limbs)".into(),
        human(alone),
        format!("{:.3}", alone / raw),
    ]);
    rep.table(&table);

    // Level 1 at scale 2^70: precision against lambda.
    let scale = 2f64.powi(70);
    let pt = ctx.encode_at(&values, 1, scale)?;
    let bound = ctx.error_log2(&ctx.encrypt(&pt, &tp, &mut rng)?, &ts, &pt)? + 1.0;
    let ct = ctx.encrypt(&pt, &pk, &mut rng)?;
    let raw_bits = rms_bits(&ctx.decrypt_values(&ct, &sk)?, &values);
    let mut table = Table::new(&[
        "lambda",
        "sigma",
        "predicted bits",
        "measured bits",
        "decrypt + decode",
    ]);
    for lambda in [20u32, 30, 40, 60] {
        let flood = Flooding::new(lambda, bound, n, 1)?;
        let got = ctx.decrypt_values_flooded(&ct, &sk, &flood, &mut rng)?;
        let t = budget.seconds_per_call(|| {
            let _ = std::hint::black_box(ctx.decrypt_values_flooded(&ct, &sk, &flood, &mut rng));
        });
        table.row(vec![
            lambda.to_string(),
            format!("2^{:.1}", flood.sigma().log2()),
            format!("{:.2}", flood.precision_bits(scale.log2(), n, 1)),
            format!("{:.2}", rms_bits(&got, &values)),
            human(t),
        ]);
    }
    rep.text(&format!(
        "\nLevel 1 (q_0 q_1, 100 bits) at scale 2^70, one decryption, error bound 2^{bound:.1} \
         measured on a rehearsal under a throwaway key (+1 bit); raw precision {raw_bits:.1} bits \
         (the encoder's f64 rounding). Precision bits = -log2 of the rms slot error; predicted = \
         log2 scale - log2(sqrt(N/2) sigma).\n"
    ));
    rep.table(&table);
    Ok(())
}

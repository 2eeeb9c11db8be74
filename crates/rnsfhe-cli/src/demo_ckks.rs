//! `rnsfhe demo`, CKKS part: statistics and logistic-regression training on the bundled data, under
//! encryption, next to the same computations in the clear.

use rnsfhe::ckks::{CkksContext, CkksParameters};
use rnsfhe::Result;
use rnsfhe_math::sample::Csprng;

use crate::bench::ckks_lr;
use crate::timing::human;

/// Mean and variance of a uis column, then two training iterations on lbw and uis.
pub fn run() -> Result<()> {
    println!(
        "\n## CKKS: statistics and logistic regression on encrypted data (N = 2^15, scale 2^40)\n"
    );
    let mut rng = Csprng::from_os_entropy()?;
    let uis = ckks_lr::uis()?;
    // The normalised AGE feature (column 1 of z, sign removed) of the 575 uis patients.
    let age: Vec<f64> = uis.z.iter().map(|r| r[1] * r[0]).collect();
    let n = age.len().next_power_of_two();
    let ctx = CkksContext::new(
        CkksParameters::builder()
            .degree(1 << 15)
            .levels(6)
            .build()?,
    )?;
    let (sk, pk) = ctx.keygen(&mut rng)?;
    let rlk = ctx.relin_key(&sk, &mut rng)?;
    let steps: Vec<i64> = (0..n.trailing_zeros()).map(|i| 1i64 << i).collect();
    let gk = ctx.galois_keys(&sk, &steps, false, &mut rng)?;
    let t0 = std::time::Instant::now();
    let mut padded = age.clone();
    padded.resize(n, 0.0);
    let c = ctx.encrypt(&ctx.encode_real(&padded)?, &pk, &mut rng)?;
    // Sums over the padded length; rescale to the 575 real values in the clear (a public count).
    let k = n as f64 / age.len() as f64;
    let mean = ctx.decrypt_values(&ctx.mean(&c, n, &gk)?, &sk)?[0].re * k;
    let ex2 = ctx.decrypt_values(
        &ctx.mean(&ctx.multiply_rescale(&c, &c, &rlk)?, n, &gk)?,
        &sk,
    )?[0]
        .re
        * k;
    let took = t0.elapsed().as_secs_f64();
    let clear_mean = age.iter().sum::<f64>() / age.len() as f64;
    let clear_var =
        age.iter().map(|a| a * a).sum::<f64>() / age.len() as f64 - clear_mean * clear_mean;
    println!(
        "- uis AGE (scaled to [0, 1]): mean {:.6} (clear {clear_mean:.6}), variance {:.6} (clear {clear_var:.6}); {} with {} slots",
        mean,
        ex2 - mean * mean,
        human(took),
        n
    );
    for data in [ckks_lr::lbw()?, uis] {
        let (s, acc, auc, clear_acc, diff) = ckks_lr::train(&data, 15, 2, &mut rng)?;
        println!(
            "- {}: 2 iterations of encrypted Nesterov gradient descent in {}: accuracy {:.1}% (clear {:.1}%), AUC {auc:.2}, weights within {diff:.0e} of the clear training",
            data.name,
            human(s),
            100.0 * acc,
            100.0 * clear_acc
        );
    }
    Ok(())
}

//! `rnsfhe demo`, CKKS part: statistics and logistic-regression training on the bundled data, under
//! encryption, next to the same computations in the clear.

use rnsfhe::circuits;
use rnsfhe::ckks::{CkksContext, CkksParameters};
use rnsfhe::Result;
use rnsfhe_math::sample::Csprng;

use crate::bench::ckks_lr;
use crate::timing::{human, kib};
use rnsfhe::serialize::KeyBytes;

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
    // Means over the padded length n, times the public factor n / 575 (the padding holds zeros);
    // variance = E[x^2] - E[x]^2, all under encryption.
    let k = n as f64 / age.len() as f64;
    // Every step lands on the chain's scale of its level, so E[x^2] and E[x]^2 meet
    // at one level and one scale.
    let mean = ctx.mul_const_auto(&circuits::mean(&ctx, &c, n, &gk)?, k)?;
    let mean2 = ctx.mul_auto(&mean, &mean, &rlk)?;
    let sq = ctx.mul_auto(&c, &c, &rlk)?;
    let ex2 = ctx.mul_const_auto(&circuits::mean(&ctx, &sq, n, &gk)?, k)?;
    let var = ctx.sub_auto(&ex2, &mean2)?;
    let got_mean = ctx.decrypt_values(&mean, &sk)?[0].re;
    let got_var = ctx.decrypt_values(&var, &sk)?[0].re;
    let took = t0.elapsed().as_secs_f64();
    let clear_mean = age.iter().sum::<f64>() / age.len() as f64;
    let clear_var =
        age.iter().map(|a| a * a).sum::<f64>() / age.len() as f64 - clear_mean * clear_mean;
    let bits = |got: f64, want: f64| -(got - want).abs().max(f64::MIN_POSITIVE).log2();
    println!(
        "- uis AGE (scaled to [0, 1]), {} values: encrypted mean {got_mean:.8} (clear {clear_mean:.8}, {:.0} bits), \
         variance {got_var:.8} (clear {clear_var:.8}, {:.0} bits); encrypt+compute+decrypt {}",
        age.len(),
        bits(got_mean, clear_mean),
        bits(got_var, clear_var),
        human(took),
    );
    println!(
        "- sizes: ciphertext {} (fresh, {} levels), public key {}, relinearisation key {}, {} rotation keys {}",
        kib(ctx.ciphertext_to_bytes(&c)?.len()),
        ctx.max_level(),
        kib(ctx.public_key_to_bytes(&pk).len()),
        kib(ctx.relin_key_to_bytes(&rlk).len()),
        steps.len(),
        kib(ctx.galois_keys_to_bytes(&gk).len()),
    );
    if (got_mean - clear_mean).abs() > 1e-5 || (got_var - clear_var).abs() > 1e-5 {
        return Err(rnsfhe::Error::InvalidParameters(
            "the encrypted statistics differ from the clear ones".into(),
        ));
    }
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

//! CKKS quickstart: approximate arithmetic on vectors of real numbers, encrypted.
//!
//! CKKS packs N/2 real (or complex) numbers into one ciphertext, scaled by 2^scale_bits and rounded.
//! Results are approximate: every operation adds a little error, and a multiplication doubles the
//! scale, which `rescale` brings back down by dropping one prime of the modulus chain (one "level").
//! The number of levels is the multiplicative depth a ciphertext can take.
//!
//! Run it: `cargo run --release -p rnsfhe --example ckks_quickstart`.

use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe_math::sample::Csprng;

/// Encrypts a vector x, computes x * x rotated left by one slot, decrypts and reports the precision.
pub fn run() -> Result<(), Box<dyn std::error::Error>> {
    // 1. Parameters: N = 8192 (4096 slots), scale 2^40, a chain of 2 levels above q_0. The builder
    //    picks the primes and refuses a modulus too large for 128-bit security at this N.
    let params = CkksParameters::builder()
        .degree(8192)
        .levels(2)
        .scale_bits(40)
        .build()?;
    let ctx = CkksContext::new(params)?;
    let mut rng = Csprng::from_os_entropy()?;
    let (sk, pk) = ctx.keygen(&mut rng)?;
    let rlk = ctx.relin_key(&sk, &mut rng)?;
    let gk = ctx.galois_keys(&sk, &[1], false, &mut rng)?; // rotation by one slot

    // 2. Encode and encrypt real values in [-1, 1] (one per slot).
    let slots = ctx.slots();
    let x: Vec<f64> = (0..slots).map(|i| (i as f64 * 0.01).sin()).collect();
    let ct = ctx.encrypt(&ctx.encode_real(&x)?, &pk, &mut rng)?;
    println!(
        "fresh: level {}, scale 2^{:.0}",
        ct.level(),
        ct.scale().log2()
    );

    // 3. Multiply (the scale becomes 2^80), relinearise, then rescale back to about 2^40, one level
    //    lower. `multiply_rescale` does both steps at once.
    let square = ctx.multiply(&ct, &ct, &rlk)?;
    println!("after multiply: scale 2^{:.0}", square.scale().log2());
    let square = ctx.rescale(&square)?;
    println!(
        "after rescale: level {}, scale 2^{:.0}",
        square.level(),
        square.scale().log2()
    );

    // 4. Rotate the slots left by one, decrypt, decode.
    let rotated = ctx.rotate(&square, 1, &gk)?;
    let got: Vec<Complex> = ctx.decrypt_values(&rotated, &sk)?;

    // 5. Precision: the largest error against the plain computation, in bits.
    let errors: Vec<f64> = (0..slots)
        .map(|i| {
            let xi = x[(i + 1) % slots];
            (got[i].re - xi * xi).abs().max(got[i].im.abs())
        })
        .collect();
    let max_err = errors.iter().copied().fold(0.0, f64::max);
    let bits = -max_err.log2();
    println!("x^2 rotated by one: max error {max_err:.2e} ({bits:.1} bits of precision)");
    // Fresh encryption, one multiplication and one rotation at scale 2^40 leave about 20 bits.
    // (`all` rather than the maximum, so that a NaN fails too.)
    if !errors.iter().all(|&e| e < 1e-5) {
        return Err(format!("ckks_quickstart: error {max_err:e} is larger than expected").into());
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    run()
}

//! `rnsfhe demo`, BFV part: a batched integer computation under encryption at the 128-bit preset
//! n = 8192, t = 65537, checked against the same computation in the clear.

use rnsfhe::bfv::{BfvContext, BfvParameters, Multiplication};
use rnsfhe::Result;
use rnsfhe_math::sample::Csprng;

use crate::timing::{human, kib};
use rnsfhe::serialize::KeyBytes;

/// Encrypts two vectors of 8192 values, computes x * y + 3 x and the sum of all slots, decrypts.
pub fn run() -> Result<()> {
    println!("\n## BFV: a batched integer computation (n = 8192, t = 65537, 128-bit security)\n");
    let mut rng = Csprng::from_os_entropy()?;
    for mul in [Multiplication::Hps, Multiplication::Behz] {
        let t0 = std::time::Instant::now();
        let params = BfvParameters::builder()
            .degree(8192)
            .plain_modulus(65537)
            .multiplication(mul)
            .build()?;
        let ctx = BfvContext::new(params)?;
        let (sk, pk) = ctx.keygen(&mut rng)?;
        let rlk = ctx.relin_key(&sk, &mut rng)?;
        let gk = ctx.galois_keys_for_sum(&sk, &mut rng)?;
        let setup = t0.elapsed();
        let n = ctx.slots();
        let x: Vec<u64> = (0..n as u64).map(|i| (i * 7 + 1) % 1000).collect();
        let y: Vec<u64> = (0..n as u64).map(|i| (i * 13 + 5) % 1000).collect();
        let t1 = std::time::Instant::now();
        let cx = ctx.encrypt(&ctx.encode(&x)?, &pk, &mut rng)?;
        let cy = ctx.encrypt(&ctx.encode(&y)?, &pk, &mut rng)?;
        let prod = ctx.multiply(&cx, &cy, &rlk)?;
        let r = ctx.add(&prod, &ctx.mul_scalar(&cx, 3)?)?;
        let total = ctx.sum_slots(&r, &gk)?;
        let got = ctx.decode(&ctx.decrypt(&r, &sk)?)?;
        let got_sum = ctx.decode(&ctx.decrypt(&total, &sk)?)?[0];
        let compute = t1.elapsed();
        let want: Vec<u64> = x
            .iter()
            .zip(&y)
            .map(|(a, b)| (a * b + 3 * a) % 65537)
            .collect();
        let want_sum = want.iter().sum::<u64>() % 65537;
        println!(
            "- {mul:?}: x*y + 3x on {n} slots {}, sum of slots {got_sum} (clear: {want_sum}); keys {}, \
             encrypt+compute+decrypt {}; noise budget left {} bits of {:.0}",
            if got == want { "matches the clear result" } else { "DIFFERS" },
            human(setup.as_secs_f64()),
            human(compute.as_secs_f64()),
            ctx.noise_budget(&total, &sk)?,
            ctx.params().log_q()
        );
        let symmetric = ctx.encrypt_symmetric(&ctx.encode(&x)?, &sk, &mut rng)?;
        println!(
            "  sizes: ciphertext {} (secret-key encryption, seeded: {}), public key {}, relinearisation key {}, {} Galois keys {}",
            kib(ctx.ciphertext_to_bytes(&cx)?.len()),
            kib(ctx.ciphertext_to_bytes(&symmetric)?.len()),
            kib(ctx.public_key_to_bytes(&pk).len()),
            kib(ctx.relin_key_to_bytes(&rlk).len()),
            gk.elements().len(),
            kib(ctx.galois_keys_to_bytes(&gk).len()),
        );
        if got != want || got_sum != want_sum {
            return Err(rnsfhe::Error::InvalidParameters(
                "the encrypted result differs from the clear one".into(),
            ));
        }
    }
    Ok(())
}

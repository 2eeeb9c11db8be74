//! The README's Rust quickstart: square an encrypted vector, rotate it, decrypt.

use rnsfhe::bfv::{BfvContext, BfvParameters, Multiplication};
use rnsfhe_math::sample::Csprng;

fn main() -> rnsfhe::Result<()> {
    let params = BfvParameters::builder()
        .degree(8192)
        .plain_modulus(65537)
        .multiplication(Multiplication::Hps)
        .build()?;
    let ctx = BfvContext::new(params)?;
    let mut rng = Csprng::from_os_entropy()?;
    let (sk, pk) = ctx.keygen(&mut rng)?;
    let rlk = ctx.relin_key(&sk, &mut rng)?;
    let gk = ctx.galois_keys(&sk, &[1], false, &mut rng)?;
    let a = ctx.encrypt(&ctx.encode(&[1, 2, 3])?, &pk, &mut rng)?;
    let b = ctx.rotate_rows(&ctx.multiply(&a, &a, &rlk)?, 1, &gk)?;
    let slots = ctx.decode(&ctx.decrypt(&b, &sk)?)?;
    println!(
        "{:?} budget {} bits",
        &slots[..2],
        ctx.noise_budget(&b, &sk)?
    );
    Ok(())
}

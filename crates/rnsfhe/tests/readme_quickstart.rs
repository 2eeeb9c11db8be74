//! The README's Rust quickstart, compiled and run: the block between the markers below is the README's
//! text verbatim (`claims.rs` checks that it stays so).
#![allow(clippy::unwrap_used)] // test helpers abort loudly

use rnsfhe::bfv::{BfvContext, BfvParameters, Multiplication};
use rnsfhe_math::sample::Csprng;

#[test]
fn readme_rust_quickstart_runs() {
    quickstart().unwrap();
}

#[rustfmt::skip] // the README's layout, verbatim
fn quickstart() -> Result<(), Box<dyn std::error::Error>> {
    // README quickstart: begin
    let params = BfvParameters::builder().degree(8192).plain_modulus(65537)
        .multiplication(Multiplication::Hps).build()?;          // or Behz; 128-bit moduli by default
    let ctx = BfvContext::new(params)?;
    let mut rng = Csprng::from_os_entropy()?;
    let (sk, pk) = ctx.keygen(&mut rng)?;
    let rlk = ctx.relin_key(&sk, &mut rng)?;
    let gk = ctx.galois_keys(&sk, &[1], false, &mut rng)?;      // rotation by one step
    let a = ctx.encrypt(&ctx.encode(&[1, 2, 3])?, &pk, &mut rng)?;
    let b = ctx.rotate_rows(&ctx.multiply(&a, &a, &rlk)?, 1, &gk)?;
    println!("{:?} budget {} bits", &ctx.decode(&ctx.decrypt(&b, &sk)?)?[..2], ctx.noise_budget(&b, &sk)?);
    // README quickstart: end
    Ok(())
}

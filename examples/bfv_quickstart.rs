//! BFV quickstart: exact arithmetic on vectors of integers, encrypted.
//!
//! BFV packs n integers modulo a plaintext modulus t into one ciphertext ("batching", t a prime
//! = 1 mod 2n) and computes slot by slot: additions and multiplications act on all n values at once,
//! and rotations move values between slots. Results are exact (mod t) as long as the noise budget
//! lasts.
//!
//! Run it: `cargo run --release -p rnsfhe --example bfv_quickstart`.

use rnsfhe::bfv::{BfvContext, BfvParameters, Multiplication};
use rnsfhe_math::sample::Csprng;

/// Encrypts two vectors, computes (a + b) * a rotated left by one step, decrypts and checks the
/// result against the same computation on the plain values.
pub fn run() -> Result<(), Box<dyn std::error::Error>> {
    // 1. Parameters: ring degree n = 8192 (8192 slots), plaintext modulus t = 65537 (a prime = 1 mod
    //    2n, so batching works). The ciphertext moduli default to the largest q that keeps 128-bit
    //    security; `build` refuses insecure combinations.
    let params = BfvParameters::builder()
        .degree(8192)
        .plain_modulus(65537)
        .multiplication(Multiplication::Hps) // or Behz: same results, different RNS algorithm
        .build()?;
    let t = params.plain_modulus();
    let ctx = BfvContext::new(params)?;

    // 2. Keys: the secret key decrypts, the public key encrypts, the relinearisation key shrinks a
    //    product back to two polynomials, Galois keys allow rotations (here by one step).
    let mut rng = Csprng::from_os_entropy()?;
    let (sk, pk) = ctx.keygen(&mut rng)?;
    let rlk = ctx.relin_key(&sk, &mut rng)?;
    let gk = ctx.galois_keys(&sk, &[1], false, &mut rng)?;

    // 3. Encode and encrypt: the slots form a 2 x (n/2) matrix; missing values are zero.
    let n = ctx.params().degree();
    let a: Vec<u64> = (0..n as u64).map(|i| i % 1000).collect();
    let b: Vec<u64> = (0..n as u64).map(|i| 3 * i % 500).collect();
    let ca = ctx.encrypt(&ctx.encode(&a)?, &pk, &mut rng)?;
    let cb = ctx.encrypt(&ctx.encode(&b)?, &pk, &mut rng)?;

    // 4. Compute on ciphertexts: add, multiply (and relinearise), rotate each row left by one slot.
    let sum = ctx.add(&ca, &cb)?;
    let product = ctx.multiply(&sum, &ca, &rlk)?;
    let rotated = ctx.rotate_rows(&product, 1, &gk)?;

    // 5. Decrypt and decode; the noise budget says how much more computation the result could take.
    let got = ctx.decode(&ctx.decrypt(&rotated, &sk)?)?;
    let budget = ctx.noise_budget(&rotated, &sk)?;

    // The same computation on the plain values: (a + b) * a mod t, rows of n/2 rotated left by one.
    let half = n / 2;
    let want: Vec<u64> = (0..n)
        .map(|i| {
            let j = i / half * half + (i % half + 1) % half;
            (a[j] + b[j]) * a[j] % t
        })
        .collect();
    println!(
        "(a + b) * a, rotated: first slots {:?}, noise budget left {budget} bits",
        &got[..4]
    );
    if got != want {
        return Err(
            "bfv_quickstart: the decrypted result differs from the plain computation".into(),
        );
    }
    if budget == 0 {
        return Err("bfv_quickstart: the noise budget is exhausted".into());
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    run()
}

//! HPR-FV (paper 002) decryption and multiplication at a Table 3 size beside BFV with HPS and BEHZ
//! at the same log q, for timing and profiling (best of `iterations`, one thread):
//! `cargo run --release -p rnsfhe --example hpr_mul -- [log2 n] [iterations]`.

use rnsfhe::bfv::{BfvContext, BfvParameters, Decryption, Multiplication};
use rnsfhe::hpr::{HprContext, HprParameters, Relinearization};
use rnsfhe::params::Security;
use rnsfhe_math::sample::Csprng;

fn main() -> rnsfhe::Result<()> {
    let mut args = std::env::args().skip(1);
    let log_n: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(14);
    let iters: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    // Table 3: (k, d, bits) by n.
    let (k, d, bits) = match log_n {
        13 => (1, 5, 55),
        14 => (3, 3, 61),
        15 => (3, 6, 61),
        _ => (3, 12, 61),
    };
    let kk = k * d;
    let n = 1usize << log_n;
    let p = HprParameters::new(n, 2, k, d, bits, 8.0, Security::InsecureResearchOnly)?;
    let ctx = HprContext::new(&p)?;
    let mut rng = Csprng::from_seed([1; 32]);
    let sk = ctx.secret_key(&mut rng)?;
    let pk = ctx.public_key(&sk, &mut rng)?;
    let rlk = ctx.relin_key(&sk, Relinearization::PerResidue, &mut rng)?;
    let m: Vec<u64> = (0..n).map(|_| rng.next_u64() & 1).collect();
    let a = ctx.encrypt(&pk, &m, &mut rng)?;
    let b = ctx.encrypt(&pk, &m, &mut rng)?;
    let time = |label: &str, f: &mut dyn FnMut() -> rnsfhe::Result<()>| -> rnsfhe::Result<()> {
        let mut best = f64::INFINITY;
        for _ in 0..iters {
            let s = std::time::Instant::now();
            f()?;
            best = best.min(s.elapsed().as_secs_f64());
        }
        println!("n = 2^{log_n}, {label}: {:.3} ms", best * 1e3);
        Ok(())
    };
    time("HPR decrypt", &mut || ctx.decrypt(&sk, &a).map(|_| ()))?;
    time("HPR mul (no relin.)", &mut || {
        ctx.mul_no_relin(&a, &b).map(|_| ())
    })?;
    time("HPR mul + relin.", &mut || {
        ctx.mul(&a, &b, &rlk).map(|_| ())
    })?;
    for (mul, dec) in [
        (Multiplication::Hps, Decryption::Hps),
        (Multiplication::Behz, Decryption::Gamma),
    ] {
        let params = BfvParameters::paper000(n, kk, bits, 2)
            .multiplication(mul)
            .decryption(dec)
            .build()?;
        let bc = BfvContext::new(params)?;
        let (bsk, bpk) = bc.keygen(&mut rng)?;
        let brlk = bc.relin_key(&bsk, &mut rng)?;
        let pt = bc.plaintext_from_coefficients(&m)?;
        let ca = bc.encrypt(&pt, &bpk, &mut rng)?;
        let cb = bc.encrypt(&pt, &bpk, &mut rng)?;
        time(&format!("{mul:?} decrypt"), &mut || {
            bc.decrypt_with(&ca, &bsk, dec).map(|_| ())
        })?;
        time(&format!("{mul:?} mul (no relin.)"), &mut || {
            bc.multiply_no_relin(&ca, &cb).map(|_| ())
        })?;
        time(&format!("{mul:?} mul + relin."), &mut || {
            bc.multiply(&ca, &cb, &brlk).map(|_| ())
        })?;
    }
    Ok(())
}

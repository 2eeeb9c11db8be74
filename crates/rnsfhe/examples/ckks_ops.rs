//! Times CKKS operations (for profilers): `cargo run --release --example ckks_ops -- [logN] [L]
//! [scale_bits] [iterations] [mulrs|rot|enc|dec|rs|encode] [digit_primes] [special_primes]` (the last two: the
//! key-switching layout, ciphertext primes per digit and the count of 60-bit special primes; default the
//! builder's).

use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe::rlwe::KeySwitching;
use rnsfhe::Result;
use rnsfhe_math::sample::Csprng;

fn main() -> Result<()> {
    let a: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: usize| a.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let (log_n, levels, bits, iters) = (arg(1, 15), arg(2, 10), arg(3, 40), arg(4, 10));
    let op = a.get(5).map_or("mulrs", String::as_str);
    let mut b = CkksParameters::builder()
        .degree(1 << log_n)
        .levels(levels)
        .scale_bits(bits as u32);
    if let Some(d) = a.get(6).and_then(|s| s.parse().ok()) {
        b = b.key_switching(KeySwitching {
            digit_primes: d,
            ..KeySwitching::default()
        });
    }
    if let Some(k) = a.get(7).and_then(|s| s.parse::<usize>().ok()) {
        b = b.special_moduli_bits(&vec![60; k]);
    }
    let params = b.build()?;
    let ctx = CkksContext::new(params)?;
    let mut rng = Csprng::from_os_entropy()?;
    let (sk, pk) = ctx.keygen(&mut rng)?;
    // Only the keys the operation needs (set-up counts in whole-process timings).
    let rlk = match op {
        "mulrs" => Some(ctx.relin_key(&sk, &mut rng)?),
        _ => None,
    };
    let gk = match op {
        "rot" => Some(ctx.galois_keys(&sk, &[1], false, &mut rng)?),
        _ => None,
    };
    let x: Vec<Complex> = (0..ctx.slots())
        .map(|i| Complex::from_real(i as f64 / 1e4))
        .collect();
    let pt = ctx.encode(&x)?;
    let c = ctx.encrypt(&pt, &pk, &mut rng)?;
    let start = std::time::Instant::now();
    for _ in 0..iters {
        match op {
            "rot" => {
                if let Some(gk) = &gk {
                    drop(std::hint::black_box(ctx.rotate(&c, 1, gk)?));
                }
            }
            "enc" => drop(std::hint::black_box(ctx.encrypt(&pt, &pk, &mut rng)?)),
            "dec" => drop(std::hint::black_box(ctx.decrypt_values(&c, &sk)?)),
            "rs" => drop(std::hint::black_box(ctx.rescale(&c)?)),
            "encode" => drop(std::hint::black_box(ctx.encode(&x)?)),
            _ => {
                if let Some(rlk) = &rlk {
                    drop(std::hint::black_box(ctx.multiply_rescale(&c, &c, rlk)?));
                }
            }
        }
    }
    println!("{:?} per {op}", start.elapsed() / iters as u32);
    Ok(())
}

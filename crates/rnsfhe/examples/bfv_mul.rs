//! Times BFV operations in a loop (for profilers): `cargo run --release --example bfv_mul -- [n]
//! [hps|behz] [iterations] [mul|dec|rot]`.

use rnsfhe::bfv::{BfvContext, BfvParameters, Multiplication};
use rnsfhe::Result;
use rnsfhe_math::sample::Csprng;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let n = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(16384);
    let mul = match args.get(2).map(String::as_str) {
        Some("behz") => Multiplication::Behz,
        _ => Multiplication::Hps,
    };
    let iters: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(20);
    let ctx = BfvContext::new(
        BfvParameters::builder()
            .degree(n)
            .multiplication(mul)
            .build()?,
    )?;
    let mut rng = Csprng::from_os_entropy()?;
    let (sk, pk) = ctx.keygen(&mut rng)?;
    let rlk = ctx.relin_key(&sk, &mut rng)?;
    let pt = ctx.encode(&[1, 2, 3])?;
    let a = ctx.encrypt(&pt, &pk, &mut rng)?;
    let op = args.get(4).map_or("mul", String::as_str);
    let gk = ctx.galois_keys(&sk, &[1], false, &mut rng)?;
    let start = std::time::Instant::now();
    for _ in 0..iters {
        match op {
            "dec" => drop(std::hint::black_box(ctx.decode(&ctx.decrypt(&a, &sk)?)?)),
            "rot" => drop(std::hint::black_box(ctx.rotate_rows(&a, 1, &gk)?)),
            _ => drop(std::hint::black_box(ctx.multiply(&a, &a, &rlk)?)),
        }
    }
    println!("{:?} per {op}", start.elapsed() / iters as u32);
    Ok(())
}

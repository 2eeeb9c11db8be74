//! Times BFV operations and measures the depth for a chosen moduli / key-switching layout:
//! `cargo run --release --example bfv_layout -- n q_bits p_bits digit_primes op iters`,
//! q_bits and p_bits comma lists (p_bits `-` for none, `default` for both lists: the builder's
//! default), op one of rot|mul|dec|depth. Prints the median time per op (or the squaring depth).

use rnsfhe::bfv::{BfvContext, BfvParameters, Decryption};
use rnsfhe::rlwe::KeySwitching;
use rnsfhe::{Error, Result};
use rnsfhe_math::sample::Csprng;

fn bits(s: &str) -> Result<Vec<u32>> {
    if s == "-" {
        return Ok(Vec::new());
    }
    s.split(',')
        .map(|b| {
            b.parse()
                .map_err(|_| Error::InvalidParameters(format!("width {b}")))
        })
        .collect()
}

/// This thread's time on a CPU in ns (Linux /proc/thread-self/schedstat; 0 elsewhere): per-op
/// figures that leave out the time the thread waits for a CPU on a loaded machine.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let n: usize = arg(1, "8192").parse().unwrap_or(8192);
    let digit_primes: usize = arg(4, "1").parse().unwrap_or(1);
    let op = arg(5, "rot");
    let iters: usize = arg(6, "20").parse().unwrap_or(20);
    let mut b = BfvParameters::builder()
        .degree(n)
        .key_switching(KeySwitching {
            digit_primes,
            ..KeySwitching::default()
        });
    if arg(2, "default") != "default" {
        b = b
            .moduli_bits(&bits(&arg(2, ""))?)
            .special_moduli_bits(&bits(&arg(3, "-"))?);
    }
    let params = b.build()?;
    let log_p: f64 = params
        .special_moduli()
        .iter()
        .map(|&p| (p as f64).log2())
        .sum();
    eprintln!(
        "n = {n}: q {:?} bits, P {:?} bits, {} primes per digit, log q = {:.1}, log QP = {:.1}",
        params
            .moduli()
            .iter()
            .map(|q| 64 - q.leading_zeros())
            .collect::<Vec<_>>(),
        params
            .special_moduli()
            .iter()
            .map(|q| 64 - q.leading_zeros())
            .collect::<Vec<_>>(),
        params.key_switching().digit_primes,
        params.log_q(),
        params.log_q() + log_p
    );
    let ctx = BfvContext::new(params)?;
    let mut rng = Csprng::from_os_entropy()?;
    let (sk, pk) = ctx.keygen(&mut rng)?;
    let rlk = ctx.relin_key(&sk, &mut rng)?;
    let pt = ctx.encode(&(0..ctx.params().batching_slots() as u64).collect::<Vec<_>>())?;
    let a = ctx.encrypt(&pt, &pk, &mut rng)?;
    if op == "depth" {
        eprintln!(
            "worst-case depth by Bajard et al. (SAC 2016) (20): {}",
            ctx.depth_inputs().depth()
        );
        eprintln!("fresh budget {} bits", ctx.noise_budget(&a, &sk)?);
        let ab = ctx.multiply(&a, &a, &rlk)?;
        eprintln!(
            "budget after one mul+relin {} bits",
            ctx.noise_budget(&ab, &sk)?
        );
        let gk = ctx.galois_keys(&sk, &[1], false, &mut rng)?;
        let r = ctx.rotate_rows(&a, 1, &gk)?;
        eprintln!(
            "budget after one rotation {} bits",
            ctx.noise_budget(&r, &sk)?
        );
        let mut c = r;
        for i in 1..=3 {
            c = ctx.rotate_rows(&c, 1, &gk)?;
            c = ctx.multiply(&c, &c, &rlk)?;
            eprintln!(
                "budget after {i} x (rotation, squaring) {} bits",
                ctx.noise_budget(&c, &sk)?
            );
        }
        let levels =
            ctx.measure_squaring_depth(&sk, &pk, &rlk, &pt, Decryption::Hps, 30, &mut rng)?;
        for l in &levels {
            eprintln!(
                "  depth {} noise 2^{:.1} correct {}",
                l.depth, l.noise_log2, l.correct
            );
        }
        let depth = levels.iter().filter(|l| l.correct).count();
        println!("squaring depth {depth}");
        return Ok(());
    }
    let gk = ctx.galois_keys(&sk, &[1], false, &mut rng)?;
    let cpu0 = cpu_ns();
    let mut times = Vec::with_capacity(iters);
    for _ in 0..iters {
        let start = std::time::Instant::now();
        match op.as_str() {
            "dec" => drop(std::hint::black_box(ctx.decode(&ctx.decrypt(&a, &sk)?)?)),
            "rot" => drop(std::hint::black_box(ctx.rotate_rows(&a, 1, &gk)?)),
            _ => drop(std::hint::black_box(ctx.multiply(&a, &a, &rlk)?)),
        }
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    let cpu = (cpu_ns() - cpu0) as f64 / 1e6 / iters as f64;
    times.sort_by(f64::total_cmp);
    println!(
        "{cpu:.3} ms CPU per {op} (wall median {:.3} ms)",
        times[times.len() / 2]
    );
    Ok(())
}

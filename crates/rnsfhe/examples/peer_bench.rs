//! rnsfhe timed the way `../shared/peers/` times SEAL, OpenFHE, Lattigo and fhe.rs, printing rows of the
//! same table (library | scheme | n | modulus | op | median ms | reps | threads | note), so that
//! `../shared/peers/summarize.py` pivots them beside the peers': every operation timed on its own,
//! 2 warm-up calls, then the median of at least 20 runs (up to 2000 within about 1 s).
//!
//! `cargo run --release --example peer_bench -- [--bfv 8192,16384] [--ckks 32768:10] [--ntt 16384]`
//! [--layout default|narrow] (an empty list skips that part; `narrow`: every prime below 2^50, the
//! AVX-512 IFMA layout of `rnsfhe::params::ModuliLayout`). The backend and thread count are the library's
//! (`RNSFHE_BACKEND`, `RNSFHE_NUM_THREADS`) and appear in the library column.

use std::time::Instant;

use rnsfhe::bfv::{BfvContext, BfvParameters, Multiplication};
use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe::params::ModuliLayout;
use rnsfhe::Result;
use rnsfhe_math::arith::Modulus;
use rnsfhe_math::ntt::NttTable;
use rnsfhe_math::sample::Csprng;

/// The median of the timed runs of `f`, in ms, and the run count.
fn median_ms(mut f: impl FnMut() -> Result<()>) -> Result<(f64, usize)> {
    f()?;
    f()?;
    let start = Instant::now();
    let mut runs = Vec::new();
    while runs.len() < 20 || (runs.len() < 2000 && start.elapsed().as_secs_f64() < 1.0) {
        let t = Instant::now();
        f()?;
        runs.push(t.elapsed().as_secs_f64() * 1e3);
    }
    runs.sort_by(f64::total_cmp);
    Ok((runs[runs.len() / 2], runs.len()))
}

struct Table {
    library: String,
    threads: usize,
}

impl Table {
    fn row(&self, scheme: &str, n: usize, modulus: &str, op: &str, (ms, reps): (f64, usize)) {
        println!(
            "| {} | {scheme} | {n} | {modulus} | {op} | {ms:.3} | {reps} | {} |  |",
            self.library, self.threads
        );
    }
}

fn list(args: &[String], flag: &str, default: &str) -> Vec<String> {
    let v = args
        .iter()
        .position(|a| a == flag)
        .and_then(|i| args.get(i + 1))
        .map_or(default, String::as_str);
    v.split(',')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

fn ntt(t: &Table, n: usize) -> Result<()> {
    let q = Modulus::new(0x0fff_ffff_fffc_0001)?;
    let table = NttTable::new(q, n)?;
    let mut a: Vec<u64> = (0..n as u64).map(|i| i * 7919 % q.value()).collect();
    let modulus = "60 (1) p=0xffffffffffc0001";
    t.row(
        "NTT",
        n,
        modulus,
        "forward NTT",
        median_ms(|| Ok(table.forward(&mut a)?))?,
    );
    t.row(
        "NTT",
        n,
        modulus,
        "inverse NTT",
        median_ms(|| Ok(table.inverse(&mut a)?))?,
    );
    Ok(())
}

fn bfv(t: &Table, n: usize, layout: ModuliLayout, rng: &mut Csprng) -> Result<()> {
    let params = BfvParameters::builder()
        .degree(n)
        .plain_modulus(65537)
        .multiplication(Multiplication::Hps)
        .layout(layout)
        .build()?;
    let bits: Vec<String> = params
        .moduli()
        .iter()
        .map(|q| (64 - q.leading_zeros()).to_string())
        .collect();
    let special: Vec<String> = params
        .special_moduli()
        .iter()
        .map(|q| (64 - q.leading_zeros()).to_string())
        .collect();
    let modulus = format!(
        "logQ={:.0} ({} primes [{}]) + special [{}]; HPS",
        params.log_q(),
        bits.len(),
        bits.join(", "),
        special.join(", ")
    );
    let ctx = BfvContext::new(params)?;
    let (sk, pk) = ctx.keygen(rng)?;
    let rlk = ctx.relin_key(&sk, rng)?;
    let gk = ctx.galois_keys(&sk, &[1], true, rng)?;
    let values: Vec<u64> = (0..ctx.slots() as u64).map(|i| i % 65537).collect();
    let pt = ctx.encode(&values)?;
    let a = ctx.encrypt(&pt, &pk, rng)?;
    let b = ctx.encrypt(&pt, &pk, rng)?;
    let ab = ctx.multiply_no_relin(&a, &b)?;
    let row = |op: &str, m| t.row("BFV", n, &modulus, op, m);
    row(
        "encode (batch)",
        median_ms(|| ctx.encode(&values).map(drop))?,
    );
    row(
        "encrypt (pk)",
        median_ms(|| ctx.encrypt(&pt, &pk, rng).map(drop))?,
    );
    row("decrypt", median_ms(|| ctx.decrypt(&a, &sk).map(drop))?);
    row(
        "decrypt + decode",
        median_ms(|| ctx.decode(&ctx.decrypt(&a, &sk)?).map(drop))?,
    );
    row("add", median_ms(|| ctx.add(&a, &b).map(drop))?);
    row(
        "mul (no relin)",
        median_ms(|| ctx.multiply_no_relin(&a, &b).map(drop))?,
    );
    row(
        "relinearize",
        median_ms(|| ctx.relinearize(&ab, &rlk).map(drop))?,
    );
    row(
        "mul + relin",
        median_ms(|| ctx.multiply(&a, &b, &rlk).map(drop))?,
    );
    row(
        "rotate rows by 1",
        median_ms(|| ctx.rotate_rows(&a, 1, &gk).map(drop))?,
    );
    row(
        "row swap (Galois 2n-1)",
        median_ms(|| ctx.rotate_columns(&a, &gk).map(drop))?,
    );
    Ok(())
}

fn ckks(t: &Table, n: usize, levels: usize, layout: ModuliLayout, rng: &mut Csprng) -> Result<()> {
    let params = CkksParameters::builder()
        .degree(n)
        .levels(levels)
        .scale_bits(40)
        .layout(layout)
        .build()?;
    let ks = params.key_switching();
    let width = |q: u64| 64 - q.leading_zeros();
    let modulus = format!(
        "L={levels} {}+40x{levels}, {} special primes of {} bits, {} ciphertext primes per \
         key-switching digit; logQP={:.0}",
        width(params.moduli()[0]),
        params.special_moduli().len(),
        width(params.special_moduli()[0]),
        ks.digit_primes,
        params.log_qp()
    );
    let ctx = CkksContext::new(params)?;
    let (sk, pk) = ctx.keygen(rng)?;
    let rlk = ctx.relin_key(&sk, rng)?;
    let gk = ctx.galois_keys(&sk, &[1], false, rng)?;
    let x: Vec<Complex> = (0..ctx.slots())
        .map(|i| Complex::from_real((i % 100) as f64 / 100.0))
        .collect();
    let pt = ctx.encode(&x)?;
    let a = ctx.encrypt(&pt, &pk, rng)?;
    let b = ctx.encrypt(&pt, &pk, rng)?;
    let ab = ctx.multiply_no_relin(&a, &b)?;
    let row = |op: &str, m| t.row("CKKS", n, &modulus, op, m);
    row("encode", median_ms(|| ctx.encode(&x).map(drop))?);
    row(
        "encrypt (pk)",
        median_ms(|| ctx.encrypt(&pt, &pk, rng).map(drop))?,
    );
    row(
        "decrypt + decode",
        median_ms(|| ctx.decrypt_values(&a, &sk).map(drop))?,
    );
    row("add", median_ms(|| ctx.add(&a, &b).map(drop))?);
    row(
        "mul (no relin)",
        median_ms(|| ctx.multiply_no_relin(&a, &b).map(drop))?,
    );
    let mut c = ab.clone();
    row(
        "relinearize",
        median_ms(|| {
            c.clone_from(&ab);
            ctx.relinearize_assign(&mut c, &rlk)
        })?,
    );
    let ab2 = ctx.multiply(&a, &b, &rlk)?;
    row("rescale", median_ms(|| ctx.rescale(&ab2).map(drop))?);
    row(
        "mul + relin + rescale",
        median_ms(|| ctx.multiply_rescale(&a, &b, &rlk).map(drop))?,
    );
    row(
        "rotate by 1",
        median_ms(|| ctx.rotate(&a, 1, &gk).map(drop))?,
    );
    Ok(())
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let layout: ModuliLayout = list(&args, "--layout", "default")
        .first()
        .map_or(Ok(ModuliLayout::Default), |l| l.parse())?;
    let t = Table {
        library: format!(
            "rnsfhe {} [{:?}]{}",
            env!("CARGO_PKG_VERSION"),
            rnsfhe::backend(),
            if layout == ModuliLayout::Narrow {
                " narrow"
            } else {
                ""
            }
        ),
        threads: rnsfhe::num_threads(),
    };
    let mut rng = Csprng::from_os_entropy()?;
    println!("| library | scheme | n | modulus | op | median ms | reps | threads | note |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for n in list(&args, "--ntt", "16384") {
        ntt(&t, n.parse().unwrap_or(16384))?;
    }
    for n in list(&args, "--bfv", "8192,16384") {
        bfv(&t, n.parse().unwrap_or(8192), layout, &mut rng)?;
    }
    for spec in list(&args, "--ckks", "32768:10") {
        let (n, l) = spec.split_once(':').unwrap_or((&spec, "10"));
        ckks(
            &t,
            n.parse().unwrap_or(32768),
            l.parse().unwrap_or(10),
            layout,
            &mut rng,
        )?;
    }
    Ok(())
}

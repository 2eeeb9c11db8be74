//! CKKS bootstrapping end to end (`circuits::bootstrapping`): `cargo run --release --example
//! ckks_bootstrap -- [preset] [slots] [reps] [threads]`.
//!
//! - `preset`: `n16` (128-bit, N = 2^16, CoeffsToSlots first; the default), `n16-stc` (the same
//!   chain budget SlotsToCoeffs first), `n16-h192` (the sparse secret of weight 192), `n16-meta`
//!   and `n16-h192-meta` (META-BTS, a second iteration, on the dense and the h = 192 secret), `toy11`,
//!   `toy12`, `toy13` (insecure, N = 2^11..2^13), or a number 11..=16 (the toy preset of that degree; 16 is `n16`); add `-real` for real inputs.
//! - `slots`: the slot count (default: N/2);
//! - `reps`: timed bootstraps (default 3); `threads`: worker threads (default 1);
//! - then any `name=value` overrides of the preset, for trying shapes: `ratio`, `degree`, `angles`,
//!   `arcsine`, `k` (EvalMod), `cts`, `stc` (budgets), `stc_bits` (comma-separated), `eval_bits`,
//!   `cts_bits`, `digits`, `residual`, `scale_bits`, `order` (`cts` or `stc`: which DFT runs
//!   first), `h` (the secret's Hamming weight, 0: dense
//!   ternary), `encapsulation` (a weight, 0: none), `storage` (`ntt` or `compact`: how the DFTs hold
//!   their diagonals), `meta` (META-BTS's 2^k: k, 0: one bootstrap), `keys` (`expanded` or
//!   `seeded`: how the Galois keys hold their uniform halves).
//!
//! Prints the parameters (chain widths, log QP, levels), key generation time, the key count and
//! bytes (serialised: seeded, each key at the level it is used), the time per bootstrap (best and
//! median), the precision against the input values uniform in the unit square of C (-log2 of the
//! mean and of the worst slot error, real and imaginary parts apart as Lattigo reports them) and
//! against the decrypted input (what a bootstrap refreshes: without the encryption noise, which
//! META-BTS cannot remove), the time of each step of the median run (each iteration's with
//! META-BTS) and the peak resident memory (VmHWM of /proc/self/status).

use std::time::Instant;

use rnsfhe::circuits::bootstrapping::{
    Bootstrapper, BootstrappingOrder, BootstrappingParameters, StageTimings,
};
use rnsfhe::circuits::lintrans::DiagonalStorage;
use rnsfhe::ckks::{CkksContext, Complex};
use rnsfhe::rlwe::{KeyStorage, SecretDistribution};
use rnsfhe::{Error, Result};
use rnsfhe_math::sample::Csprng;

fn preset(name: &str) -> Result<BootstrappingParameters> {
    let (base, real) = match name.strip_suffix("-real") {
        Some(b) => (b, true),
        None => (name, false),
    };
    let mut p = match base {
        "n16" | "16" => BootstrappingParameters::n16(),
        "n16-stc" => BootstrappingParameters::n16_slots_to_coeffs_first(),
        "n16-h192" => BootstrappingParameters::n16_h192(),
        "n16-meta" => BootstrappingParameters::n16_meta_bts(),
        "n16-h192-meta" => BootstrappingParameters::n16_h192_meta_bts(),
        other => {
            let log: u32 = other
                .trim_start_matches("toy")
                .parse()
                .map_err(|_| Error::InvalidParameters(format!("unknown preset {other}")))?;
            BootstrappingParameters::toy(log)
        }
    };
    p.real_only = real;
    Ok(p)
}

/// Applies one `name=value` override (module doc).
fn set(p: &mut BootstrappingParameters, arg: &str) -> Result<()> {
    let bad = || Error::InvalidParameters(format!("override {arg}: name=value (module doc)"));
    let (name, value) = arg.split_once('=').ok_or_else(bad)?;
    let n = |v: &str| v.parse::<usize>().map_err(|_| bad());
    let v = n(value).unwrap_or(0);
    let bits = |v: usize| u32::try_from(v).map_err(|_| bad());
    match name {
        "ratio" => p.eval_mod.log_message_ratio = bits(v)?,
        "degree" => p.eval_mod.sine_degree = v,
        "angles" => p.eval_mod.double_angle = bits(v)?,
        "arcsine" => p.eval_mod.arcsine_degree = v,
        "k" => p.eval_mod.k = bits(v)?,
        "cts" => p.cts_budget = v,
        "stc" => p.stc_budget = v,
        "stc_bits" => {
            p.stc_bits = value
                .split(',')
                .map(|b| n(b).and_then(bits))
                .collect::<Result<_>>()?
        }
        "eval_bits" => p.eval_mod_bits = bits(v)?,
        "cts_bits" => p.cts_bits = bits(v)?,
        "digits" => p.digit_primes = v,
        "residual" => p.residual_levels = v,
        "scale_bits" => p.scale_bits = bits(v)?,
        "order" if value == "stc" => *p = p.clone().slots_to_coeffs_first(),
        "order" if value == "cts" => p.order = BootstrappingOrder::CoeffsToSlotsFirst,
        "h" if v == 0 => p.secret = SecretDistribution::Ternary,
        "h" => p.secret = SecretDistribution::HammingWeight(v),
        "encapsulation" => p.encapsulation = (v > 0).then_some(v),
        "meta" => p.meta_bts = (v > 0).then_some(bits(v)?),
        "storage" => {
            p.diagonal_storage = match value {
                "ntt" => DiagonalStorage::Ntt,
                "compact" => DiagonalStorage::Compact,
                _ => return Err(bad()),
            }
        }
        "keys" => {
            p.key_storage = match value {
                "expanded" => KeyStorage::Expanded,
                "seeded" => KeyStorage::Seeded,
                _ => return Err(bad()),
            }
        }
        _ => return Err(bad()),
    }
    Ok(())
}

/// One line per step of a bootstrap (and one for META-BTS's second iteration).
fn print_stages(t: &StageTimings) {
    let line = |what: &str, t: &StageTimings| {
        let evalmod: Vec<String> = t.eval_mod.iter().map(|d| format!("{d:.2?}")).collect();
        println!(
            "{what}: ModRaise+encapsulation {:.2?}, CoeffsToSlots {:.2?}, EvalMod [{}], \
             SlotsToCoeffs {:.2?}, other {:.2?}",
            t.mod_raise,
            t.coeffs_to_slots,
            evalmod.join(", "),
            t.slots_to_coeffs,
            t.other,
        )
    };
    match &t.second_iteration {
        None => line("steps of the median run", t),
        Some(second) => {
            line("steps of the median run, first bootstrap", t);
            line("second bootstrap (META-BTS)", second);
        }
    }
    println!("steps in all: {:.2?}", t.total());
}

/// The peak resident set size in MiB (VmHWM), if the system reports it.
fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// Resets VmHWM to the current RSS (Linux: `5` to /proc/self/clear_refs), so that the next reading
/// is the peak of the bootstrap alone, not of key generation and serialisation.
fn reset_peak_rss() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// -log2 of the mean and of the largest absolute difference.
fn precision(errors: &[f64]) -> (f64, f64) {
    let mean = errors.iter().sum::<f64>() / errors.len().max(1) as f64;
    let worst = errors.iter().copied().fold(0.0, f64::max);
    (-mean.log2(), -worst.log2())
}

fn main() -> Result<()> {
    let a: Vec<String> = std::env::args().collect();
    let mut params = preset(a.get(1).map_or("n16", String::as_str))?;
    let arg = |i: usize, d: usize| a.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    params.slots = arg(2, params.degree() / 2);
    for o in a.iter().skip(5) {
        set(&mut params, o)?;
    }
    let (reps, threads) = (arg(3, 3), arg(4, 1));
    rnsfhe_math::parallel::set_num_threads(threads)?;
    println!(
        "N = 2^{}, {} slots, {:?}, real {}, encapsulation {:?}, EvalMod {:?}",
        params.log_degree,
        params.slots,
        params.order,
        params.real_only,
        params.encapsulation,
        params.eval_mod
    );
    println!(
        "secret {:?}, chain bits {:?} + P {} x 61, log QP {}, residual levels {}, {} threads",
        params.secret,
        params.chain_bits(),
        params.digit_primes,
        params.log_qp(),
        params.residual_levels,
        threads
    );
    let t = Instant::now();
    let ctx = CkksContext::new(params.ckks_parameters()?)?;
    let boot = Bootstrapper::new(&ctx, params.clone())?;
    println!("context and bootstrapper: {:.2?}", t.elapsed());

    let mut rng = Csprng::from_seed([42; 32]);
    let (sk, pk) = ctx.keygen(&mut rng)?;
    let t = Instant::now();
    let mut last = 0;
    let mut progress = |done: usize, total: usize| {
        let pct = 100 * done / total;
        if pct >= last + 10 || done == total {
            eprintln!("  keys {done}/{total}");
            last = pct;
        }
    };
    let keys = boot.generate_keys(&sk, &mut rng, Some(&mut progress))?;
    let keygen = t.elapsed();
    let bytes = keys.serialized_len(&ctx);
    let peak_keys = peak_rss_mib();
    reset_peak_rss();
    let req = boot.key_requirements();
    let mib = |b: usize| b as f64 / (1 << 20) as f64;
    println!(
        "key generation: {keygen:.2?}, {} keys ({} Galois), {:.1} MiB serialised, {:.1} MiB in \
         memory ({:?} storage)",
        req.count(),
        req.galois.len(),
        mib(bytes),
        mib(keys.resident_bytes()),
        params.key_storage
    );

    // Uniform in [-1, 1) from 53 random bits.
    let mut unit = || (rng.next_u64() >> 11) as f64 / (1u64 << 52) as f64 - 1.0;
    let z: Vec<Complex> = (0..params.slots)
        .map(|_| {
            let re = unit();
            let im = if params.real_only { 0.0 } else { unit() };
            Complex::new(re, im)
        })
        .collect();
    let level = boot.input_level();
    let pt = ctx.encode_at(&z, level, ctx.scale_at(level)?)?;
    let ct = ctx.encrypt(&pt, &pk, &mut rng)?;
    let mut runs = Vec::new();
    for _ in 0..reps.max(1) {
        let t = Instant::now();
        let (out, steps) = boot.bootstrap_timed(&ctx, &ct, &keys)?;
        runs.push((t.elapsed().as_secs_f64(), steps, out));
    }
    runs.sort_by(|x, y| x.0.total_cmp(&y.0));
    let times: Vec<f64> = runs.iter().map(|r| r.0).collect();
    let (_, steps, out) = runs.swap_remove(runs.len() / 2);
    let got = ctx.decrypt_values(&out, &sk)?;
    let re: Vec<f64> = got
        .iter()
        .zip(&z)
        .map(|(g, w)| (g.re - w.re).abs())
        .collect();
    let im: Vec<f64> = got
        .iter()
        .zip(&z)
        .map(|(g, w)| (g.im - w.im).abs())
        .collect();
    let ((re_mean, re_worst), (im_mean, im_worst)) = (precision(&re), precision(&im));
    let input = ctx.decrypt_values(&ct, &sk)?;
    let refreshed: Vec<f64> = got
        .iter()
        .zip(&input)
        .map(|(g, w)| (*g - *w).abs())
        .collect();
    let (in_mean, in_worst) = precision(&refreshed);
    println!(
        "bootstrap: best {:.3} s, median {:.3} s ({} runs), output level {}",
        times[0],
        times[times.len() / 2],
        times.len(),
        out.level()
    );
    print_stages(&steps);
    println!(
        "precision (bits): real mean {re_mean:.2} worst {re_worst:.2}; imaginary mean \
         {im_mean:.2} worst {im_worst:.2}; against the decrypted input (complex) mean \
         {in_mean:.2} worst {in_worst:.2}"
    );
    match (peak_keys, peak_rss_mib()) {
        (Some(k), Some(b)) => println!(
            "peak RSS (VmHWM): {k:.0} MiB through key generation, {b:.0} MiB \
             while bootstrapping (keys and precomputed stages resident)"
        ),
        _ => println!("peak RSS: not reported by this system"),
    }
    Ok(())
}

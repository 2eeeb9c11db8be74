//! EvalMod alone (`circuits::bootstrapping::eval_mod`) on a bootstrapping preset's chain, at the
//! level and onto the scale the bootstrapper uses, for profiling: key generation (the
//! relinearisation key only), then `runs` timed calls on one fresh ciphertext of random x = I + eps,
//! the median and best time, and the worst error against x - round(x) in x units.
//!
//! `cargo run --release --example eval_mod -- [preset] [runs] [seed]`: `preset` as
//! `ckks_bootstrap`'s (`n16-h192`, `n16`, or a degree 11..=15 for the toy preset of that degree;
//! default 12), `runs` (default 3), `seed` of keys and inputs (default 5); `preset@d` takes the preset's chain and EvalMod at N = 2^d (insecure below 16: for
//! instruction counts under a profiler). Backend and threads: `RNSFHE_BACKEND`, `RNSFHE_NUM_THREADS`.

use std::time::Instant;

use rnsfhe::circuits::bootstrapping::{BootstrappingOrder, BootstrappingParameters, EvalMod};
use rnsfhe::ckks::{CkksContext, Complex};
use rnsfhe::{Error, Result};
use rnsfhe_math::sample::Csprng;

fn main() -> Result<()> {
    let a: Vec<String> = std::env::args().collect();
    let name = a.get(1).map_or("12", String::as_str);
    let runs: usize = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(3);
    let seed: u8 = a.get(3).and_then(|s| s.parse().ok()).unwrap_or(5);
    // `preset@d`: the preset's chain and EvalMod at N = 2^d (insecure below 16), for profilers.
    let (name, degree) = match name.split_once('@') {
        Some((p, d)) => (p, d.parse::<u32>().ok()),
        None => (name, None),
    };
    let mut params = match name {
        "n16" => BootstrappingParameters::n16(),
        "n16-h192" => BootstrappingParameters::n16_h192(),
        other => BootstrappingParameters::toy(
            other
                .trim_start_matches("toy")
                .parse()
                .map_err(|_| Error::InvalidParameters(format!("unknown preset {other}")))?,
        ),
    };
    if let Some(d) = degree {
        params.log_degree = d;
        params.slots = 1 << (d - 1);
        params.security = rnsfhe::params::Security::InsecureResearchOnly;
    }
    let ctx = CkksContext::new(params.ckks_parameters()?)?;
    let level = ctx.max_level() - params.cts_budget;
    let em = EvalMod::new(&ctx, params.eval_mod, level)?;
    let out = ctx.scale_at(em.output_level())?;
    // The bootstrapper's landing scale (`Bootstrapper::new`).
    let scale = match params.order {
        BootstrappingOrder::CoeffsToSlotsFirst => em.prime_output_scale(&*ctx)?,
        BootstrappingOrder::SlotsToCoeffsFirst => {
            2f64.powi(params.eval_mod.log_message_ratio as i32) * out
        }
    };
    let mut rng = Csprng::from_seed([seed; 32]);
    let (sk, pk) = ctx.keygen(&mut rng)?;
    let rlk = ctx.relin_key(&sk, &mut rng)?;
    let k = f64::from(params.eval_mod.k);
    let ratio = 2f64.powi(-(params.eval_mod.log_message_ratio as i32));
    let xs: Vec<f64> = (0..ctx.slots())
        .map(|_| {
            let i = (rng.next_u64() % (2 * params.eval_mod.k as u64 - 1)) as f64 - (k - 1.0);
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            i + (2.0 * u - 1.0) * ratio
        })
        .collect();
    let y: Vec<f64> = xs.iter().map(|x| x / k).collect();
    let z: Vec<Complex> = y.iter().map(|&v| Complex::from_real(v)).collect();
    let ct = ctx.encrypt(
        &ctx.encode_at(&z, level, ctx.scale_at(level)?)?,
        &pk,
        &mut rng,
    )?;
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        let r = em.apply_with(&*ctx, &ct, &rlk, scale)?;
        times.push(t.elapsed().as_secs_f64());
        last = Some(r);
    }
    let r = last.ok_or_else(|| Error::Internal("no run".into()))?;
    let got = ctx.decrypt_values(&r, &sk)?;
    let worst = got
        .iter()
        .zip(&xs)
        .map(|(g, x)| (g.re - (x - x.round())).abs())
        .fold(0.0, f64::max);
    // FNV-1a of the decrypted values' bits: equal digests for equal ciphertexts (A/B runs).
    let digest = got
        .iter()
        .flat_map(|g| [g.re, g.im])
        .fold(0xcbf2_9ce4_8422_2325u64, |h, v| {
            (h ^ v.to_bits()).wrapping_mul(0x0100_0000_01b3)
        });
    times.sort_by(f64::total_cmp);
    println!(
        "EvalMod {name} (N = 2^{}, level {level} -> {}): median {:.4} s, best {:.4} s ({} runs), \
         worst error 2^{:.2} in x units, digest {digest:016x}",
        params.log_degree,
        em.output_level(),
        times[times.len() / 2],
        times[0],
        times.len(),
        worst.log2()
    );
    Ok(())
}

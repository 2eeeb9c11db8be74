//! `rnsfhe bench compare`: CKKS comparisons with bootstrapping in between (`circuits::compare`).
//!
//! - sign at alpha on every slot: inputs uniform in [-1, 1] with |x| >= 2^-alpha (the edges
//!   +-2^-alpha and +-1 included), its time, bootstraps, and the worst slot's distance to +-1
//!   (the target: within 2^-20 at alpha = 20);
//! - the maximum and argmax over blocks of `block` slots: random blocks whose maximum exceeds the
//!   rest by at least 2^-10, the share of blocks whose argmax mask is right (rounded), time and
//!   bootstraps.
//!
//! Exits non-zero when sign misses 2^-20 (at alpha >= 20) or argmax is right on fewer than 99.9%
//! of the blocks.

use std::time::Instant;

use rnsfhe::circuits::bootstrapping::BootstrapHook;
use rnsfhe::circuits::compare::{slots::max_steps, Comparator, Composite};
use rnsfhe::ckks::Complex;
use rnsfhe::eval::Levels;
use rnsfhe::{Error, Result};
use rnsfhe_math::sample::Csprng;

use super::ckks_bootstrap::{peak_rss_text, setup, Options, Preset};
use crate::report::Report;
use crate::table::Table;
use crate::timing::human;

/// The gap between a block's maximum and the rest.
const GAP: f64 = 1.0 / 1024.0;

/// A uniform value in [0, 1).
fn unit(rng: &mut Csprng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// `rnsfhe bench compare`.
pub fn run(opts: &Options, rep: &mut Report) -> Result<()> {
    rnsfhe::set_num_threads(opts.threads)?;
    let mut p = opts.parameters(Preset::N16H192, Preset::Toy12);
    p.real_only = true;
    if p.log_degree < 16 {
        // The toy presets' 2 residual levels hold no component; the 128-bit ones have 10.
        p.residual_levels = 10;
    }
    let slots = p.slots;
    let alpha = opts.alpha;
    let shape = format!(
        "N = 2^{}, {} real slots, {:?}, security {:?}, alpha 2^-{alpha}, {} thread(s)",
        p.log_degree, p.slots, p.order, p.security, opts.threads
    );
    rep.text(&format!(
        "\n### CKKS comparisons with bootstrapping ({shape})\n"
    ));
    let mut rng = Csprng::from_seed([37; 32]);
    let (ctx, boot, sk, pk, keys, keygen) = setup(p, &mut rng)?;
    let rlk = keys.relin_key()?.clone();
    let block = opts.block;
    let gk = ctx.galois_keys(&sk, &max_steps(block, slots), false, &mut rng)?;
    let sign = Composite::sign(alpha, 20)?;
    let hook = BootstrapHook::new(&boot, &keys);
    let start_level = boot.output_level();
    let encrypt = |x: &[f64], rng: &mut Csprng| {
        let z: Vec<Complex> = x.iter().map(|&v| Complex::from_real(v)).collect();
        let pt = ctx.encode_at(&z, start_level, ctx.scale_at(start_level)?)?;
        ctx.encrypt(&pt, &pk, rng)
    };

    // sign
    let a = 2f64.powi(-(alpha as i32));
    let mut x: Vec<f64> = (0..slots)
        .map(|_| {
            let m = a + (1.0 - a) * unit(&mut rng);
            if rng.next_u64() & 1 == 0 {
                m
            } else {
                -m
            }
        })
        .collect();
    x[..4].copy_from_slice(&[a, -a, 1.0, -1.0]);
    let ct = encrypt(&x, &mut rng)?;
    let levels = Levels::with_refresh(&*ctx, &hook);
    let cmp = Comparator::new(&levels, &rlk, &sign);
    let t = Instant::now();
    let s = cmp.sign(&ct, 1.0)?;
    let sign_time = t.elapsed().as_secs_f64();
    let sign_boots = cmp.levels().refreshes();
    let got = ctx.decrypt_values(&s, &sk)?;
    let worst = got
        .iter()
        .zip(&x)
        .map(|(g, v)| (g.re - v.signum()).abs())
        .fold(0.0, |w: f64, e| {
            if e.is_finite() {
                w.max(e)
            } else {
                f64::INFINITY
            }
        });

    // max and argmax over blocks
    let mut y = vec![0.0; slots];
    for b in y.chunks_mut(block) {
        for v in b.iter_mut() {
            *v = -1.0 + (2.0 - GAP) * unit(&mut rng);
        }
        let top = (rng.next_u64() % block as u64) as usize;
        let rest = b.iter().copied().fold(f64::MIN, f64::max);
        b[top] = (rest + GAP + unit(&mut rng) * (1.0 - rest - GAP)).min(1.0);
    }
    let ct = encrypt(&y, &mut rng)?;
    let levels = Levels::with_refresh(&*ctx, &hook); // counts the max's bootstraps alone
    let cmp = Comparator::new(&levels, &rlk, &sign);
    let t = Instant::now();
    let m = cmp.max_slots(&ct, block, 1.0, &gk)?;
    let max_time = t.elapsed().as_secs_f64();
    let max_boots = cmp.levels().refreshes();
    let mask = cmp.argmax(&ct, block, GAP, 1.0, &gk)?;
    let argmax_time = t.elapsed().as_secs_f64();
    let got_m = ctx.decrypt_values(&m, &sk)?;
    let got_mask = ctx.decrypt_values(&mask, &sk)?;
    let (mut right, mut max_err) = (0usize, 0.0f64);
    for (i, b) in y.chunks(block).enumerate() {
        let top = b.iter().copied().fold(f64::MIN, f64::max);
        let want: Vec<f64> = b.iter().map(|v| f64::from(u8::from(*v == top))).collect();
        let got: Vec<f64> = got_mask[i * block..(i + 1) * block]
            .iter()
            .map(|g| g.re.round())
            .collect();
        right += usize::from(got == want);
        max_err = max_err.max((got_m[i * block].re - top).abs());
    }
    let blocks = slots / block;
    let share = right as f64 / blocks as f64;

    let mut table = Table::new(&["quantity", "value"]);
    for (q, v) in [
        ("key generation (bootstrapping keys)", human(keygen)),
        (
            "sign composite degrees",
            format!("{:?} (depth {})", sign.degrees(), sign.depth(&ctx)?),
        ),
        ("sign: time (all slots)", human(sign_time)),
        ("sign: bootstraps", sign_boots.to_string()),
        (
            "sign: worst slot's distance to +-1",
            format!("2^{:.1}", worst.log2()),
        ),
        (
            &format!("max over blocks of {block}: time"),
            human(max_time),
        ),
        ("max: bootstraps", max_boots.to_string()),
        ("max: worst error", format!("2^{:.1}", max_err.log2())),
        ("max + argmax: time", human(argmax_time)),
        (
            "argmax right (rounded mask), blocks",
            format!("{right} / {blocks} ({:.2}%)", 100.0 * share),
        ),
        ("peak RSS", peak_rss_text()),
    ]
    .iter()
    .map(|(q, v)| (q.to_string(), v.clone()))
    {
        table.row(vec![q, v]);
    }
    rep.table(&table);
    if alpha >= 20 && worst > 2f64.powi(-20) {
        return Err(Error::Internal(format!(
            "sign at alpha 2^-{alpha}: the worst slot is 2^{:.1} from +-1, above 2^-20",
            worst.log2()
        )));
    }
    if share < 0.999 {
        return Err(Error::Internal(format!(
            "argmax right on {:.2}% of the blocks, below 99.9%",
            100.0 * share
        )));
    }
    Ok(())
}

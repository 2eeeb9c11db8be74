//! Bajard et al. (SAC 2017) Table 3 and Figs. 2-3 over rnsfhe (module of the `any_m_depth` example).
//!
//! Parameters: t = 2, sigma = 2 sqrt(n), ternary secrets (B_key = 1), k ciphertext moduli of 62 bits
//! (our widest NTT primes, as the paper's) plus one 62-bit special modulus for key switching. k: the
//! paper's reference [2] (80-bit security) is not in the seeds; our table (HE standard, 128-bit
//! column, n rounded down to a power of two, extrapolated linearly below n = 1024) scaled by 128/80
//! (security ~ n / log q) gives k80; k128 is the 128-bit column's count. Both are shown; the depths use
//! max(k80, 1). FV multiplies by BEHZ; "mixed" is section 4.4 (optimised Barrett tensor, Montgomery
//! relinearisation), whose noise is that of the Barrett FV; "full" is the full Montgomery
//! representation of sections 4 and 4.1 (ciphertexts c M, `FvMontgomery::Full`), measured beside its
//! theory: squarings while the checked decryption holds, and (in parentheses) while the decryption
//! equals a^(2^d) = a(X^(2^d)) mod (Phi_m, 2) (t = 2: squaring is the Frobenius).

use std::time::Instant;

use rnsfhe::bfv::{BfvContext, BfvParameters, Decryption, FvMontgomery, Multiplication};
use rnsfhe::bgv::depth::DepthInputs;
use rnsfhe::bgv::{BgvContext, BgvParameters};
use rnsfhe::params::{max_log_q, Security, SecurityLevel};
use rnsfhe_math::ring::cyclotomic::{
    cyclotomic_polynomial, euler_phi, montgomery_factor, montgomery_inverse_norm,
};
use rnsfhe_math::ring::Reduction;
use rnsfhe_math::sample::Csprng;

const MS: [usize; 8] = [255, 771, 1285, 4369, 5461, 8191, 21845, 65535];
const REDUCTIONS: [Reduction; 3] = [
    Reduction::Barrett,
    Reduction::SparseBarrett,
    Reduction::Montgomery,
];

/// (k128, k80): counts of 62-bit moduli within the 128-bit bound and its 80-bit scaling.
fn moduli_counts(n: usize) -> (usize, usize) {
    let pow = if n < 1024 {
        1024
    } else {
        1usize << (usize::BITS - 1 - n.leading_zeros())
    };
    let mut b = f64::from(max_log_q(pow.min(1 << 17), SecurityLevel::Bits128).unwrap_or(0));
    if n < 1024 {
        b *= n as f64 / 1024.0;
    }
    ((b / 62.0) as usize, (b * 128.0 / 80.0 / 62.0) as usize)
}

/// FV with reduction `r`, or (`full`) in the full Montgomery representation.
fn fv_with(m: usize, k: usize, r: Reduction, full: bool) -> std::sync::Arc<BfvContext> {
    let n = euler_phi(m) as f64;
    let s = if full {
        FvMontgomery::Full
    } else {
        FvMontgomery::Mixed
    };
    BfvContext::new(
        BfvParameters::builder()
            .cyclotomic_index(m)
            .plain_modulus(2)
            .moduli_bits(&vec![62; k])
            .special_moduli_bits(&[62])
            .sigma(2.0 * n.sqrt())
            .multiplication(Multiplication::Behz)
            .reduction(r)
            .fv_montgomery(s)
            .security(Security::InsecureResearchOnly)
            .build()
            .unwrap(),
    )
    .unwrap()
}

fn fv(m: usize, k: usize, r: Reduction) -> std::sync::Arc<BfvContext> {
    fv_with(m, k, r, false)
}

/// a(X^e) mod (Phi_m, 2): a^(2^d) for e = 2^d mod m (t = 2).
fn frobenius_model(a: &[u64], e: usize, m: usize) -> Vec<u64> {
    let phi = cyclotomic_polynomial(m).unwrap();
    let n = phi.len() - 1;
    let mut c = vec![0u64; m];
    for (j, &x) in a.iter().enumerate() {
        c[j * e % m] ^= x & 1;
    }
    for d in (n..m).rev() {
        if c[d] == 1 {
            c[d] = 0;
            for (i, &p) in phi[..n].iter().enumerate() {
                c[d - n + i] ^= (p & 1) as u64;
            }
        }
    }
    c.truncate(n);
    c
}

fn bgv_params(m: usize, k: usize, r: Reduction) -> BgvParameters {
    let n = euler_phi(m) as f64;
    BgvParameters::builder()
        .cyclotomic_index(m)
        .plain_modulus(2)
        .moduli_bits(&vec![62; k])
        .special_moduli_bits(&[62])
        .sigma(2.0 * n.sqrt())
        .reduction(r)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap()
}

/// FV: ((squaring depth while the checked decryption holds, while the decryption is right), ms per
/// multiplication with relin; the
/// times of Figs. 2-3 come from `figs_interleaved`).
/// A random binary message a, keys, and a fresh encryption of a.
type FvFresh = (
    Vec<u64>,
    rnsfhe::rlwe::SecretKey,
    rnsfhe::rlwe::RelinKey,
    rnsfhe::bfv::BfvCiphertext,
);

fn fv_fresh(ctx: &BfvContext, rng: &mut Csprng) -> FvFresh {
    let n = ctx.params().degree();
    let a: Vec<u64> = (0..n).map(|_| rng.next_u64() & 1).collect();
    let (sk, pk) = ctx.keygen(rng).unwrap();
    let rlk = ctx.relin_key(&sk, rng).unwrap();
    let c = ctx
        .encrypt(&ctx.plaintext_from_coefficients(&a).unwrap(), &pk, rng)
        .unwrap();
    (a, sk, rlk, c)
}

fn fv_measure(ctx: &BfvContext, rng: &mut Csprng, depth: bool) -> ((u32, u32), f64) {
    let (a, sk, rlk, c) = fv_fresh(ctx, rng);
    let ms = time(|| {
        std::hint::black_box(ctx.multiply(&c, &c, &rlk).unwrap());
    });
    let (d, correct) = fv_squarings(ctx, &sk, &rlk, c, &a, depth);
    ((d, correct), ms)
}

/// Squarings of an encryption c of a (t = 2) while the checked decryption holds, and while the
/// decryption equals the exact power (at most 64; none without `depth`).
fn fv_squarings(
    ctx: &BfvContext,
    sk: &rnsfhe::rlwe::SecretKey,
    rlk: &rnsfhe::rlwe::RelinKey,
    mut x: rnsfhe::bfv::BfvCiphertext,
    a: &[u64],
    depth: bool,
) -> (u32, u32) {
    let m = ctx.params().cyclotomic_index();
    let (mut checked, mut correct, mut e) = (None, 0, 1);
    while depth && correct < 64 {
        x = ctx.multiply(&x, &x, rlk).unwrap();
        e = 2 * e % m;
        if checked.is_none() && ctx.decrypt_checked(&x, sk, Decryption::Hps).is_err() {
            checked = Some(correct);
        }
        let got = ctx.decrypt_with(&x, sk, Decryption::Hps).unwrap();
        if got.coefficients() != frobenius_model(a, e, m) {
            break;
        }
        correct += 1;
    }
    (checked.unwrap_or(correct), correct)
}

/// FV in the full Montgomery representation: (checked depth, correct depth).
fn fv_full_depths(m: usize, k: usize, rng: &mut Csprng) -> (u32, u32) {
    let ctx = fv_with(m, k, Reduction::Montgomery, true);
    let (a, sk, rlk, c) = fv_fresh(&ctx, rng);
    fv_squarings(&ctx, &sk, &rlk, c, &a, true)
}

/// BGV: (depth of squarings each followed by a switch, ms per multiplication with relin).
fn bgv_measure(ctx: &BgvContext, rng: &mut Csprng, depth: bool) -> (u32, f64) {
    let n = ctx.params().degree();
    let a: Vec<u64> = (0..n).map(|_| rng.next_u64() & 1).collect();
    let (sk, pk) = ctx.keygen(rng).unwrap();
    let rlk = ctx.relin_key(&sk, rng).unwrap();
    let c = ctx
        .encrypt(&ctx.plaintext_from_coefficients(&a).unwrap(), &pk, rng)
        .unwrap();
    let ms = time(|| {
        std::hint::black_box(ctx.multiply(&c, &c, &rlk).unwrap());
    });
    let mut d = 0;
    let mut y = c;
    if !depth {
        return (d, ms);
    }
    loop {
        y = ctx.multiply(&y, &y, &rlk).unwrap();
        if y.level() > 0 {
            y = ctx.mod_switch(&y).unwrap();
        }
        if ctx.decrypt(&y, &sk).is_err() {
            break;
        }
        d += 1;
        if y.level() == 0 {
            break;
        }
    }
    (d, ms)
}

/// Median of 5 runs, in ms.
fn time(mut f: impl FnMut()) -> f64 {
    f();
    let mut v: Vec<f64> = (0..5)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    v.sort_by(f64::total_cmp);
    v[2]
}

pub fn table3_and_figs(limit: usize, only: &[usize]) {
    let mut rng = Csprng::from_seed([1; 32]);
    println!(
        "Table 3 (t = 2, sigma = 2 sqrt(n), B_key = 1, 62-bit moduli; measured for n <= {limit})\n"
    );
    println!("| m | n | k80 (k128) | delta_R | norm M | norm M^-1 | FV theory | FV Mont. theory | FV full Mont. measured (correct) | FV measured (correct), mixed (Barrett) | BGV theory | BGV Mont. theory | BGV measured (Mont.) |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut figs = Vec::new();
    for m in MS
        .into_iter()
        .filter(|m| only.is_empty() || only.contains(m))
    {
        let n = euler_phi(m);
        let (k128, k80) = moduli_counts(n);
        let k = k80.max(1);
        let f = fv(m, k, Reduction::SparseBarrett);
        let plain = f.any_m_depth_inputs(false).unwrap();
        let mont = f.any_m_depth_inputs(true).unwrap();
        let m_norm = montgomery_factor(m)
            .unwrap()
            .iter()
            .map(|c| c.unsigned_abs())
            .max()
            .unwrap_or(0);
        let m_inv = montgomery_inverse_norm(m).unwrap();
        let bgv_plain = DepthInputs::of(&bgv_params(m, k, Reduction::SparseBarrett))
            .unwrap()
            .depth();
        let bgv_mont = DepthInputs::of(&bgv_params(m, k, Reduction::Montgomery))
            .unwrap()
            .depth();
        let measure = n <= limit;
        let mut fv_row = Vec::new();
        let mut fv_correct = Vec::new();
        let mut bgv_row = Vec::new();
        let full = if measure {
            let (c, d) = fv_full_depths(m, k, &mut rng);
            format!("{c} ({d})")
        } else {
            "-".into()
        };
        if measure {
            for r in REDUCTIONS {
                let ((d, correct), ms) = fv_measure(&fv(m, k, r), &mut rng, true);
                fv_row.push((d, ms));
                fv_correct.push(correct);
                let ctx = BgvContext::new(bgv_params(m, k, r)).unwrap();
                let (d, ms) = bgv_measure(&ctx, &mut rng, true);
                bgv_row.push((d, ms));
            }
        }
        let shown = |row: &[(u32, f64)], i: usize| {
            row.get(i).map_or("-".to_string(), |(d, _)| d.to_string())
        };
        let base = |row: &[(u32, f64)]| row.first().map(|x| x.0);
        println!(
            "| {m} | {n} | {k80} ({k128}) | {:.3e} | {m_norm} | {m_inv} | {} | {} | {full} | {} ({}) | {bgv_plain} | {bgv_mont} | {} ({}) |",
            plain.delta,
            plain.depth(),
            mont.depth(),
            fv_row.get(2).map_or("-".into(), |(d, _)| format!("{d} ({})", fv_correct[2])),
            base(&fv_row).map_or("-".into(), |d| format!("Barrett {d} ({})", fv_correct[0])),
            shown(&bgv_row, 2),
            base(&bgv_row).map_or("-".into(), |d| format!("Barrett {d}")),
        );
        if measure {
            figs.push((m, n, k, fv_row, bgv_row));
        }
    }
    if only.is_empty() {
        let measured: Vec<usize> = figs.iter().map(|f| f.0).collect();
        figs_interleaved(&measured);
    }
}

/// One timed multiplication (tensor + relinearisation) of fresh ciphertexts, in ms.
type Timer = Box<dyn FnMut() -> f64>;

fn fv_timer(m: usize, k: usize, (r, full): (Reduction, bool), rng: &mut Csprng) -> Timer {
    let ctx = fv_with(m, k, r, full);
    let (_, _, rlk, c) = fv_fresh(&ctx, rng);
    Box::new(move || {
        let s = Instant::now();
        std::hint::black_box(ctx.multiply(&c, &c, &rlk).unwrap());
        s.elapsed().as_secs_f64() * 1e3
    })
}

fn bgv_timer(m: usize, k: usize, r: Reduction, rng: &mut Csprng) -> Timer {
    let ctx = BgvContext::new(bgv_params(m, k, r)).unwrap();
    let n = ctx.params().degree();
    let a: Vec<u64> = (0..n).map(|_| rng.next_u64() & 1).collect();
    let (sk, pk) = ctx.keygen(rng).unwrap();
    let rlk = ctx.relin_key(&sk, rng).unwrap();
    let c = ctx
        .encrypt(&ctx.plaintext_from_coefficients(&a).unwrap(), &pk, rng)
        .unwrap();
    Box::new(move || {
        let s = Instant::now();
        std::hint::black_box(ctx.multiply(&c, &c, &rlk).unwrap());
        s.elapsed().as_secs_f64() * 1e3
    })
}

/// Figs. 2-3 for the indices `ms` (k = max(k80, 1) moduli): the seven variants timed in turn, round
/// after round (9 rounds after a warm-up), so that a change of machine load hits all of them; the
/// median per variant.
pub fn figs_interleaved(ms: &[usize]) {
    let mut rng = Csprng::from_seed([2; 32]);
    println!("\nFigs. 2-3: one multiplication (tensor + relinearisation) of fresh ciphertexts, the seven variants interleaved over 9 rounds, median, us per slot (slots of GF(2^d)); speed-up over Barrett in parentheses. Paper: FV 1.37x (optimised), BGV 1.24x (optimised) and 1.32x (Montgomery).\n");
    println!("| m | k | slots | FV Barrett | FV optimised | FV mixed | FV full Mont. | BGV Barrett | BGV optimised | BGV Montgomery |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for &m in ms {
        let k = moduli_counts(euler_phi(m)).1.max(1);
        let slots = BgvContext::new(bgv_params(m, k, Reduction::SparseBarrett))
            .unwrap()
            .slots()
            .max(1);
        let mut timers: Vec<Timer> = REDUCTIONS
            .iter()
            .map(|&r| (r, false))
            .chain([(Reduction::Montgomery, true)])
            .map(|v| fv_timer(m, k, v, &mut rng))
            .collect();
        timers.extend(REDUCTIONS.iter().map(|&r| bgv_timer(m, k, r, &mut rng)));
        let mut times = vec![Vec::new(); timers.len()];
        for round in 0..10 {
            for (t, v) in timers.iter_mut().zip(times.iter_mut()) {
                let ms = t();
                if round > 0 {
                    v.push(ms);
                }
            }
        }
        let med: Vec<f64> = times
            .into_iter()
            .map(|mut v| {
                v.sort_by(f64::total_cmp);
                v[v.len() / 2]
            })
            .collect();
        let cell = |i: usize, base: usize| {
            format!(
                "{:.1} ({:.2}x)",
                med[i] * 1e3 / slots as f64,
                med[base] / med[i]
            )
        };
        println!(
            "| {m} | {k} | {slots} | {} | {} | {} | {} | {} | {} | {} |",
            cell(0, 0),
            cell(1, 0),
            cell(2, 0),
            cell(3, 0),
            cell(4, 4),
            cell(5, 4),
            cell(6, 4)
        );
    }
}

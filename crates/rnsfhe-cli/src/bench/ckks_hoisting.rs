//! `rnsfhe bench hoisting`: hoisted key switching against its targets, one thread, CKKS at
//! N = 2^15, L = 10 (the default key-switching layout): 16 rotations of one ciphertext by
//! `rotate_many` against 16 `rotate` calls (target <= 0.4x), the sum of 16 weighted rotations by
//! `sum_rotations` (double hoisting, target <= 0.3x of the 16 rotations), and a 64-diagonal linear
//! transform on 2^14 slots by hoisted BSGS against 64 rotations and plaintext products (target
//! <= 0.25x). Lattigo's `lintrans` at the same shape: `bench/lattigo_lintrans`.

use rnsfhe::circuits::lintrans::{CkksLinearTransform, Diagonals};
use rnsfhe::ckks::{CkksContext, CkksParameters, CkksPlaintext, CkksWeights, Complex};
use rnsfhe::rlwe::KeySwitching;
use rnsfhe::Result;
use rnsfhe_math::sample::Csprng;

use crate::bench::ckks_shape::describe;
use crate::report::Report;
use crate::table::Table;
use crate::timing::{human, Budget};

/// Rotation steps 1..=16.
const STEPS: [i64; 16] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
const DIAGONALS: usize = 64;
const SLOTS: usize = 1 << 14;

pub fn run(budget: &Budget, rep: &mut Report) -> Result<()> {
    rep.text(
        "\n### Hoisted rotations and linear transforms (CKKS, N = 2^15, L = 10, one thread)\n",
    );
    // The default layout (3 digits of 4 primes, 4 special primes of 49 bits), then the peers' one
    // (one prime per digit, one 60-bit special prime: 11 digits).
    let default = CkksParameters::builder()
        .degree(1 << 15)
        .levels(10)
        .build()?;
    run_on(budget, rep, CkksContext::new(default)?)?;
    let peers = CkksParameters::builder()
        .degree(1 << 15)
        .levels(10)
        .special_moduli_bits(&[60])
        .key_switching(KeySwitching::default())
        .build()?;
    run_on(budget, rep, CkksContext::new(peers)?)
}

fn run_on(budget: &Budget, rep: &mut Report, ctx: std::sync::Arc<CkksContext>) -> Result<()> {
    let mut rng = Csprng::from_seed([23; 32]);
    let (sk, pk) = ctx.keygen(&mut rng)?;
    // 16 rotations, and the transform's baby and giant steps (8 x 8 for 64 consecutive diagonals).
    let diagonals: Diagonals<Complex> = (0..DIAGONALS)
        .map(|k| {
            let v = (0..SLOTS)
                .map(|t| Complex::new(((k * 31 + t) % 17) as f64 / 64.0, 0.0))
                .collect();
            (k, v)
        })
        .collect();
    let level = ctx.max_level();
    let lt = CkksLinearTransform::new(&ctx, &diagonals, level, SLOTS)?;
    let mut steps = STEPS.to_vec();
    steps.extend(lt.rotation_steps());
    let gk = ctx.galois_keys(&sk, &steps, false, &mut rng)?;
    let x: Vec<Complex> = (0..ctx.slots())
        .map(|i| Complex::new((i % 97) as f64 / 97.0, 0.0))
        .collect();
    let ct = ctx.encrypt(&ctx.encode(&x)?, &pk, &mut rng)?;
    let sparse: Vec<Complex> = x[..SLOTS].to_vec();
    let ct_sparse = ctx.encrypt(&ctx.encode(&sparse)?, &pk, &mut rng)?;
    let weights: Vec<f64> = (0..STEPS.len()).map(|i| 0.25 + i as f64 / 16.0).collect();

    let separate = budget.seconds_per_call(|| {
        for &s in &STEPS {
            let _ = std::hint::black_box(ctx.rotate(&ct, s, &gk));
        }
    });
    let many = budget.seconds_per_call(|| {
        let _ = std::hint::black_box(ctx.rotate_many(&ct, &STEPS, &gk));
    });
    let target = ctx.scale_at(level - 1)?;
    let weighted_separate = budget.seconds_per_call(|| {
        let _ = std::hint::black_box(weighted_sum(&ctx, &ct, &weights, &gk, target));
    });
    let summed = budget.seconds_per_call(|| {
        let _ = std::hint::black_box(ctx.sum_rotations(
            &ct,
            &STEPS,
            Some(CkksWeights::Real(&weights)),
            &gk,
        ));
    });
    // The baseline of the transform: 64 rotations (each by 1: a rotation's cost does not depend on
    // its step, and one key replaces 63) and 64 products by plaintexts encoded beforehand, summed and
    // rescaled once.
    let plains: Vec<CkksPlaintext> = diagonals
        .values()
        .map(|d| ctx.encode_at(d, level, target * prime(&ctx, level) / ct_sparse.scale()))
        .collect::<Result<_>>()?;
    let naive = budget.seconds_per_call(|| {
        let _ = std::hint::black_box(plain_products(&ctx, &ct_sparse, &plains, &gk));
    });
    let bsgs = budget.seconds_per_call(|| {
        let _ = std::hint::black_box(lt.apply(&ctx, &ct_sparse, &gk));
    });

    let shape = format!(
        "{}, key switching {:?}",
        describe(&ctx),
        ctx.params().key_switching()
    );
    rep.text(&format!("Parameters: {shape}.\n"));
    let mut table = Table::new(&["operation", "time", "ratio", "target"]);
    let ratio = |a: f64, b: f64| format!("{:.3}x", a / b);
    table.row(vec![
        "16 rotations, separate (`rotate` x 16)".into(),
        human(separate),
        "1".into(),
        String::new(),
    ]);
    table.row(vec![
        "16 rotations, hoisted (`rotate_many`)".into(),
        human(many),
        ratio(many, separate),
        "<= 0.4x".into(),
    ]);
    table.row(vec![
        "sum of 16 weighted rotations, separate (`rotate`, `mul_const`, `add`, one rescale)".into(),
        human(weighted_separate),
        ratio(weighted_separate, separate),
        String::new(),
    ]);
    table.row(vec![
        "sum of 16 weighted rotations, double hoisting (`sum_rotations`)".into(),
        human(summed),
        ratio(summed, separate),
        "<= 0.3x".into(),
    ]);
    table.row(vec![
        format!("{DIAGONALS} rotations and plaintext products, 2^14 slots (+ adds, one rescale)"),
        human(naive),
        "1".into(),
        String::new(),
    ]);
    table.row(vec![
        format!(
            "{DIAGONALS}-diagonal transform, hoisted BSGS (n1 = {}), 2^14 slots",
            lt.split().n1
        ),
        human(bsgs),
        ratio(bsgs, naive),
        "<= 0.25x".into(),
    ]);
    rep.table(&table);
    Ok(())
}

/// q_level.
fn prime(ctx: &CkksContext, level: usize) -> f64 {
    ctx.params().moduli()[level] as f64
}

/// sum_i w_i rot_{i+1}(ct) by separate rotations, products by constants and one rescale.
fn weighted_sum(
    ctx: &CkksContext,
    ct: &rnsfhe::ckks::CkksCiphertext,
    weights: &[f64],
    gk: &rnsfhe::rlwe::GaloisKeys,
    target: f64,
) -> Result<rnsfhe::ckks::CkksCiphertext> {
    let level = ct.level();
    let factor = target * prime(ctx, level) / ct.scale();
    let mut acc: Option<rnsfhe::ckks::CkksCiphertext> = None;
    for (&s, &w) in STEPS.iter().zip(weights) {
        let r = ctx.mul_integer(&ctx.rotate(ct, s, gk)?, (w * factor).round() as i64)?;
        acc = Some(match acc {
            None => r,
            Some(a) => ctx.add(&a, &r)?,
        });
    }
    let mut r = acc.ok_or_else(|| rnsfhe::Error::InvalidParameters("no steps".into()))?;
    r = ctx.set_scale(&r, ct.scale() * factor)?;
    ctx.rescale(&r)
}

/// sum_k p_k rot_1(ct), one rescale.
fn plain_products(
    ctx: &CkksContext,
    ct: &rnsfhe::ckks::CkksCiphertext,
    plains: &[CkksPlaintext],
    gk: &rnsfhe::rlwe::GaloisKeys,
) -> Result<rnsfhe::ckks::CkksCiphertext> {
    let mut acc: Option<rnsfhe::ckks::CkksCiphertext> = None;
    for p in plains {
        let r = ctx.mul_plain(&ctx.rotate(ct, 1, gk)?, p)?;
        acc = Some(match acc {
            None => r,
            Some(a) => ctx.add(&a, &r)?,
        });
    }
    let r = acc.ok_or_else(|| rnsfhe::Error::InvalidParameters("no diagonals".into()))?;
    ctx.rescale(&r)
}

//! Matrix products (`circuits::matrix`) against plaintext products: a batch of vectors times one
//! plaintext matrix in both layouts (interleaved: as many diagonals as one product alone), several
//! transforms from one decomposition (the same bits as one at a time), the encrypted d x d product of
//! Jiang, Kim, Lauter and Song for d^2 equal to and below the slots, and the refusals.
#![allow(clippy::unwrap_used)] // test helpers abort loudly

#[path = "support/worst.rs"]
mod worst;

use std::sync::Arc;

use rnsfhe::circuits::lintrans::CkksLinearTransform;
use rnsfhe::circuits::matrix::{
    BatchLayout, EncryptedMatrixProduct, MatrixPacking, MATRIX_PRODUCT_DEPTH,
};
use rnsfhe::ckks::{CkksContext, CkksParameters, Complex};
use rnsfhe::params::Security;
use rnsfhe::Error;
use rnsfhe_math::sample::Csprng;

/// A small deterministic generator (xorshift) of values in [-1, 1].
struct Rand(u64);
impl Rand {
    fn unit(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % 2_000_001) as f64 / 1_000_000.0 - 1.0
    }
    fn values(&mut self, n: usize) -> Vec<Complex> {
        (0..n).map(|_| Complex::new(self.unit(), 0.0)).collect()
    }
}

fn context(levels: usize) -> Arc<CkksContext> {
    let p = CkksParameters::builder()
        .degree(1 << 10)
        .levels(levels)
        .scale_bits(40)
        .security(Security::InsecureResearchOnly)
        .build()
        .unwrap();
    CkksContext::new(p).unwrap()
}

/// m (rows x cols) times x (cols), in f64.
fn matvec(m: &[Complex], rows: usize, cols: usize, x: &[Complex]) -> Vec<f64> {
    (0..rows)
        .map(|r| (0..cols).map(|c| m[r * cols + c].re * x[c].re).sum())
        .collect()
}

fn worst(got: &[Complex], want: &[f64]) -> f64 {
    assert_eq!(got.len(), want.len(), "slot counts differ");
    worst::worst_error(
        got.iter()
            .zip(want)
            .map(|(g, w)| (g.re - w).abs().max(g.im.abs())),
    )
}

fn batch_product(layout: BatchLayout, slots: usize, batch: usize, rows: usize, cols: usize) {
    let ctx = context(2);
    let mut rng = Csprng::from_seed([7; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let mut r = Rand(0x9e37_79b9 + (rows * 131 + cols) as u64);
    let m = r.values(rows * cols);
    let x = r.values(batch * cols);
    let packing = MatrixPacking::new(slots, batch, layout).unwrap();
    let lt = packing
        .transform(&ctx, &m, rows, cols, ctx.max_level())
        .unwrap();
    let gk = ctx
        .galois_keys(&sk, &lt.rotation_steps(), false, &mut rng)
        .unwrap();
    let pt = ctx.encode(&packing.pack(&x, batch, cols).unwrap()).unwrap();
    let ct = ctx.encrypt(&pt, &pk, &mut rng).unwrap();
    let y = lt.apply(&ctx, &ct, &gk).unwrap();
    assert_eq!(y.level(), ctx.max_level() - 1);
    let got = packing
        .unpack(&ctx.decrypt_values(&y, &sk).unwrap(), rows)
        .unwrap();
    for j in 0..batch {
        let want = matvec(&m, rows, cols, &x[j * cols..(j + 1) * cols]);
        let e = worst(&got[j * rows..(j + 1) * rows], &want);
        assert!(e < 1e-6, "{layout:?} vector {j}: error {e:e}");
    }
}

#[test]
fn interleaved_batch_matches_the_plaintext_products() {
    batch_product(BatchLayout::Interleaved, 512, 16, 32, 32);
    batch_product(BatchLayout::Interleaved, 512, 8, 50, 64); // tall, padded to 64
    batch_product(BatchLayout::Interleaved, 512, 8, 64, 20); // wide
}

#[test]
fn row_major_batch_matches_the_plaintext_products() {
    batch_product(BatchLayout::Rows { stride: 32 }, 512, 16, 32, 32);
    batch_product(BatchLayout::Rows { stride: 24 }, 512, 20, 17, 24); // 20 vectors of 24, not powers of two
    batch_product(BatchLayout::Rows { stride: 40 }, 512, 12, 40, 9);
}

/// The batch costs one product: interleaved, B vectors of n need the n diagonals of one n x n product
/// on n slots (the same rotation count); row-major, the 2n - 1 offsets, whatever B.
#[test]
fn the_diagonal_count_does_not_grow_with_the_batch() {
    let ctx = context(2);
    let mut r = Rand(11);
    let n = 32;
    let m = r.values(n * n);
    let alone = MatrixPacking::single(n, n).unwrap();
    let one = alone.diagonals(&m, n, n).unwrap();
    assert_eq!(one.len(), n);
    for batch in [2, 8, 16] {
        let p = MatrixPacking::new(n * batch, batch, BatchLayout::Interleaved).unwrap();
        let d = p.diagonals(&m, n, n).unwrap();
        assert_eq!(d.len(), n);
        assert!(d.keys().all(|k| k % batch == 0));
        let a = alone.transform(&ctx, &m, n, n, 2).unwrap();
        let b = p.transform(&ctx, &m, n, n, 2).unwrap();
        assert_eq!(a.rotation_steps().len(), b.rotation_steps().len());
        let rows = MatrixPacking::new(512, batch, BatchLayout::Rows { stride: n }).unwrap();
        assert_eq!(rows.diagonals(&m, n, n).unwrap().len(), 2 * n - 1);
    }
}

#[test]
fn apply_many_equals_one_at_a_time() {
    let ctx = context(2);
    let mut rng = Csprng::from_seed([8; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let mut r = Rand(5);
    let slots = 256;
    let p = MatrixPacking::single(slots, 16).unwrap();
    let a = p.transform(&ctx, &r.values(256), 16, 16, 2).unwrap();
    let b = p.transform(&ctx, &r.values(100), 10, 10, 2).unwrap();
    let mut steps = a.rotation_steps();
    steps.extend(b.rotation_steps());
    let gk = ctx.galois_keys(&sk, &steps, false, &mut rng).unwrap();
    let x = r.values(slots);
    let ct = ctx
        .encrypt(&ctx.encode(&x).unwrap(), &pk, &mut rng)
        .unwrap();
    let many = CkksLinearTransform::apply_many(&ctx, &ct, &[&a, &b], &gk).unwrap();
    for (got, t) in many.iter().zip([&a, &b]) {
        let one = t.apply(&ctx, &ct, &gk).unwrap();
        assert_eq!((got.level(), got.scale()), (one.level(), one.scale()));
        for (x, y) in got.parts().iter().zip(one.parts()) {
            assert!(
                x.residues() == y.residues(),
                "apply_many differs from apply"
            );
        }
    }
}

fn matmul(a: &[Complex], b: &[Complex], d: usize) -> Vec<f64> {
    (0..d * d)
        .map(|t| {
            let (i, j) = (t / d, t % d);
            (0..d).map(|k| a[i * d + k].re * b[k * d + j].re).sum()
        })
        .collect()
}

fn encrypted_product(d: usize, slots: usize) {
    let ctx = context(4);
    let mut rng = Csprng::from_seed([d as u8; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let prod = EncryptedMatrixProduct::new(&ctx, d, ctx.max_level(), slots).unwrap();
    let gk = ctx
        .galois_keys(&sk, &prod.rotation_steps(), false, &mut rng)
        .unwrap();
    let mut r = Rand(1000 + d as u64);
    let (a, b) = (r.values(d * d), r.values(d * d));
    let enc = |v: &[Complex], rng: &mut Csprng| {
        let mut v = v.to_vec();
        v.resize(slots, Complex::new(0.0, 0.0));
        ctx.encrypt(&ctx.encode(&v).unwrap(), &pk, rng).unwrap()
    };
    let (ca, cb) = (enc(&a, &mut rng), enc(&b, &mut rng));
    let c = prod.apply(&ctx, &ca, &cb, &rlk, &gk).unwrap();
    assert_eq!(c.level(), ctx.max_level() - MATRIX_PRODUCT_DEPTH);
    assert_eq!(c.scale(), ctx.scale_at(c.level()).unwrap());
    let got = ctx.decrypt_values(&c, &sk).unwrap();
    let e = worst(&got[..d * d], &matmul(&a, &b, d));
    assert!(e < 1e-5, "d = {d}, {slots} slots: error {e:e}");
    // The slots after d^2 stay zero.
    assert!(got[d * d..].iter().all(|z| z.re.abs() < 1e-5));
}

#[test]
fn encrypted_product_with_d_squared_slots() {
    encrypted_product(4, 16);
    encrypted_product(8, 64);
}

#[test]
fn encrypted_product_with_more_slots_than_d_squared() {
    encrypted_product(5, 32);
    encrypted_product(3, 512);
}

/// A d1 x d2 by d2 x d3 product against the plaintext one (entries at `prod.slot`).
fn rectangular_product(shape: (usize, usize, usize), slots: usize) {
    let (d1, d2, d3) = shape;
    let ctx = context(4);
    let mut rng = Csprng::from_seed([(d1 * 7 + d3) as u8; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let prod = EncryptedMatrixProduct::rectangular(&ctx, shape, 4, slots).unwrap();
    let gk = ctx
        .galois_keys(&sk, &prod.rotation_steps(), false, &mut rng)
        .unwrap();
    let mut r = Rand(77 + (d1 * 100 + d2 * 10 + d3) as u64);
    let (a, b) = (r.values(d1 * d2), r.values(d2 * d3));
    let enc = |m: &[Complex], rows: usize, cols: usize, rng: &mut Csprng| {
        let mut v = vec![Complex::new(0.0, 0.0); slots];
        for i in 0..rows {
            for j in 0..cols {
                v[prod.slot(i, j)] = m[i * cols + j];
            }
        }
        ctx.encrypt(&ctx.encode(&v).unwrap(), &pk, rng).unwrap()
    };
    let (ca, cb) = (enc(&a, d1, d2, &mut rng), enc(&b, d2, d3, &mut rng));
    let c = prod.apply(&ctx, &ca, &cb, &rlk, &gk).unwrap();
    assert_eq!(c.level(), 1);
    let got = ctx.decrypt_values(&c, &sk).unwrap();
    for i in 0..d1 {
        for j in 0..d3 {
            let want: f64 = (0..d2).map(|k| a[i * d2 + k].re * b[k * d3 + j].re).sum();
            let e = (got[prod.slot(i, j)].re - want).abs();
            assert!(
                e < 1e-5,
                "{shape:?} in {slots} slots, entry ({i}, {j}): error {e:e}"
            );
        }
    }
}

/// l x d by d x d with l | d sums l terms and d / l rotations; other shapes pad.
#[test]
fn rectangular_products() {
    rectangular_product((2, 8, 8), 64); // l = 2: 4 stacked copies
    rectangular_product((2, 8, 8), 256); // more slots than d^2
    rectangular_product((3, 8, 5), 64); // l = 4, B narrower
    rectangular_product((4, 2, 8), 64); // a thin inner dimension
    rectangular_product((5, 3, 7), 64); // d = 7, l = 7: the square path
    rectangular_product((8, 8, 3), 64); // tall result
                                        // Fewer shifts than the square product: phi^k and psi^k for k < l only.
    let ctx = context(4);
    let thin = EncryptedMatrixProduct::rectangular(&ctx, (2, 8, 8), 4, 64).unwrap();
    let square = EncryptedMatrixProduct::new(&ctx, 8, 4, 64).unwrap();
    assert!(thin.encoded_bytes() < square.encoded_bytes());
    assert!(thin.rotation_steps().len() < square.rotation_steps().len());
}

fn assert_err<T>(r: rnsfhe::Result<T>, says: &str) -> Error {
    assert!(r.is_err(), "expected an error saying {says:?}");
    let e = r.err().unwrap();
    assert!(e.to_string().contains(says), "{e} should say {says:?}");
    e
}

#[test]
fn refusals_say_what_is_wrong() {
    let ctx = context(4);
    let mut rng = Csprng::from_seed([9; 32]);
    let (sk, pk) = ctx.keygen(&mut rng).unwrap();
    let rlk = ctx.relin_key(&sk, &mut rng).unwrap();
    let one = Complex::new(1.0, 0.0);
    // Packings and sizes.
    assert_err(
        MatrixPacking::new(96, 2, BatchLayout::Interleaved),
        "power of two",
    );
    assert_err(
        MatrixPacking::new(64, 3, BatchLayout::Interleaved),
        "power of two",
    );
    assert_err(
        MatrixPacking::new(64, 5, BatchLayout::Rows { stride: 16 }),
        "batch x stride",
    );
    let p = MatrixPacking::new(64, 4, BatchLayout::Interleaved).unwrap();
    assert_err(p.diagonals(&vec![one; 17 * 17], 17, 17), "rows and cols");
    assert_err(p.diagonals(&[one; 5], 2, 3), "rows x cols");
    assert_err(
        p.diagonals(&[one, Complex::new(f64::NAN, 0.0)], 1, 2),
        "entry (0, 1)",
    );
    assert_err(
        p.diagonals(&[Complex::new(0.0, 0.0); 4], 2, 2),
        "zero matrix",
    );
    assert_err(p.pack(&[one; 12], 3, 4), "vectors to pack");
    // d^2 beyond the slots, too few levels.
    assert_err(EncryptedMatrixProduct::new(&ctx, 9, 4, 64), "d^2 = 81");
    let e = assert_err(
        EncryptedMatrixProduct::new(&ctx, 4, 2, 16),
        "needs 3 more level(s)",
    );
    assert!(matches!(e, Error::LevelsExhausted { level: 2, .. }));
    assert_err(
        EncryptedMatrixProduct::new(&ctx, 4, 5, 16),
        "outside the levels",
    );
    // Missing Galois keys, a ciphertext at another level, another context.
    let prod = EncryptedMatrixProduct::new(&ctx, 4, 4, 16).unwrap();
    let steps = prod.rotation_steps();
    let partial = ctx.galois_keys(&sk, &steps[1..], false, &mut rng).unwrap();
    let ct = ctx
        .encrypt(&ctx.encode(&[one; 16]).unwrap(), &pk, &mut rng)
        .unwrap();
    let e = assert_err(prod.apply(&ctx, &ct, &ct, &rlk, &partial), "missing key");
    assert!(matches!(e, Error::MissingGaloisKey { step: Some(s), .. } if s == steps[0]));
    let gk = ctx.galois_keys(&sk, &steps, false, &mut rng).unwrap();
    let low = ctx.drop_to_level(&ct, 3).unwrap();
    assert_err(prod.apply(&ctx, &low, &ct, &rlk, &gk), "levels 3 and 4");
    assert_err(prod.apply(&ctx, &ct, &low, &rlk, &gk), "levels 3 and 4");
    let wide = ctx
        .encrypt(&ctx.encode(&[one; 32]).unwrap(), &pk, &mut rng)
        .unwrap();
    assert_err(prod.apply(&ctx, &wide, &ct, &rlk, &gk), "slots");
    let other = context(5);
    let foreign = EncryptedMatrixProduct::new(&other, 4, 4, 16).unwrap();
    assert_err(
        foreign.apply(&ctx, &ct, &ct, &rlk, &gk),
        "another parameter set",
    );
    // A context of the same parameters encodes the same transforms: accepted.
    let twin = CkksContext::new(ctx.params().clone()).unwrap();
    let t = EncryptedMatrixProduct::new(&twin, 4, 4, 16).unwrap();
    let c = t.apply(&ctx, &ct, &ct, &rlk, &gk).unwrap();
    let got = ctx.decrypt_values(&c, &sk).unwrap();
    assert!(got[..16].iter().all(|z| (z.re - 4.0).abs() < 1e-5));
}

//! Shared fixtures for the loader fuzz targets.
//!
//! Every target builds the same small, insecure research-size contexts once (n = 32 or 64, a few
//! 40-bit primes), so one execution costs microseconds. A target's `init` writes seed inputs — the
//! bytes of valid objects under these contexts — into its corpus directory, so libFuzzer starts from
//! well-formed data without a committed corpus, and the seeds always match the contexts' fingerprints.
//!
//! The property every target checks: loading arbitrary bytes never panics, and whatever loads
//! re-serialises to bytes that load again and re-serialise identically. Where the format has a single
//! encoding of each object (parameters, BFV plaintexts, secret, public and relinearisation keys) the
//! re-serialisation must equal the input itself; ciphertexts and CKKS plaintexts may arrive with
//! polynomials in either representation, Galois keys in any order, and are then normalised.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use rnsfhe::bfv::{BfvContext, BfvParameters, Ciphertext, Decryption, Multiplication};
use rnsfhe::bgv::{BgvCiphertext, BgvContext, BgvParameters};
use rnsfhe::ckks::{CkksCiphertext, CkksContext, CkksParameters, Complex};
use rnsfhe::hpr::{HprCiphertext, HprContext, HprParameters, HprSecretKey};
use rnsfhe::params::Security;
use rnsfhe::rlwe::{
    EvaluationKeySet, GaloisKeys, KeySwitching, PublicKey, RelinKey, SecretDistribution, SecretKey,
};
use rnsfhe::serialize::KeyBytes;
use rnsfhe::Result;
use rnsfhe_math::sample::Csprng;

/// A BFV context with keys and a ciphertext to exercise loaded objects on.
pub struct Bfv {
    pub ctx: Arc<BfvContext>,
    pub sk: SecretKey,
    pub pk: PublicKey,
    pub rlk: RelinKey,
    pub gk: GaloisKeys,
    pub ct: Ciphertext,
}

/// A CKKS context with keys and a ciphertext.
pub struct Ckks {
    pub ctx: Arc<CkksContext>,
    pub sk: SecretKey,
    pub pk: PublicKey,
    pub rlk: RelinKey,
    pub gk: GaloisKeys,
    pub ct: CkksCiphertext,
}

/// A BGV context with keys and a ciphertext.
pub struct Bgv {
    pub ctx: Arc<BgvContext>,
    pub sk: SecretKey,
    pub rlk: RelinKey,
    pub ct: BgvCiphertext,
}

/// An HPR-FV context with a secret key and a ciphertext.
pub struct Hpr {
    pub ctx: Arc<HprContext>,
    pub sk: HprSecretKey,
    pub ct: HprCiphertext,
}

/// The contexts every target loads against.
pub struct Fixtures {
    pub bfv: Vec<Bfv>,
    pub ckks: Vec<Ckks>,
    pub bgv: Vec<Bgv>,
    pub hpr: Vec<Hpr>,
}

/// Small BGV parameter sets: X^32 + 1, and a general Phi_21 (whose degree word flags m).
pub fn bgv_parameters() -> Result<Vec<BgvParameters>> {
    Ok(vec![
        BgvParameters::builder()
            .degree(32)
            .plain_modulus(257)
            .moduli_bits(&[40, 40, 40])
            .special_moduli_bits(&[40])
            .security(Security::InsecureResearchOnly)
            .build()?,
        BgvParameters::builder()
            .cyclotomic_index(21)
            .plain_modulus(2)
            .moduli_bits(&[40, 40])
            .special_moduli_bits(&[40])
            .security(Security::InsecureResearchOnly)
            .build()?,
    ])
}

/// A small HPR-FV parameter set: n = 32, one 50-bit prime, two digits.
pub fn hpr_parameters() -> Result<Vec<HprParameters>> {
    Ok(vec![HprParameters::new(
        32,
        257,
        1,
        2,
        50,
        3.2,
        Security::InsecureResearchOnly,
    )?])
}

fn ks(digit_primes: usize, omega_bits: Option<u32>, truncation: usize) -> KeySwitching {
    KeySwitching {
        digit_primes,
        omega_bits,
        truncation,
    }
}

/// Small BFV parameter sets covering the format's options: hybrid key switching with two special
/// primes, truncated digits without special primes, and omega-bit digits with a Hamming-weight
/// secret, HPS multiplication, floating-point decryption and m~.
pub fn bfv_parameters() -> Result<Vec<BfvParameters>> {
    let base = |n: usize| {
        BfvParameters::builder()
            .degree(n)
            .plain_modulus(257)
            .security(Security::InsecureResearchOnly)
    };
    Ok(vec![
        base(64)
            .moduli_bits(&[40, 40, 40])
            .special_moduli_bits(&[40, 40])
            .key_switching(ks(2, None, 0))
            .multiplication(Multiplication::Behz)
            .build()?,
        base(32)
            .moduli_bits(&[40, 40, 40])
            .special_moduli_bits(&[])
            .key_switching(ks(1, None, 1))
            .multiplication(Multiplication::Behz)
            .decryption(Decryption::Gamma)
            .m_tilde(Some(1 << 16))
            .build()?,
        base(32)
            .moduli_bits(&[40, 40])
            .special_moduli_bits(&[])
            .key_switching(ks(1, Some(12), 0))
            .multiplication(Multiplication::Hps)
            .decryption(Decryption::FloatingPoint)
            .secret(SecretDistribution::HammingWeight(16))
            .sigma(3.2)
            .build()?,
    ])
}

/// Small CKKS parameter sets: the default special prime, and hybrid digits with a sparse secret.
pub fn ckks_parameters() -> Result<Vec<CkksParameters>> {
    Ok(vec![
        CkksParameters::builder()
            .degree(32)
            .levels(2)
            .scale_bits(40)
            .security(Security::InsecureResearchOnly)
            .build()?,
        CkksParameters::builder()
            .degree(64)
            .levels(3)
            .scale_bits(30)
            .special_moduli_bits(&[50, 50])
            .key_switching(ks(2, None, 0))
            .secret(SecretDistribution::HammingWeight(24))
            .security(Security::InsecureResearchOnly)
            .build()?,
    ])
}

fn build() -> Result<Fixtures> {
    let mut rng = Csprng::from_seed([7; 32]);
    let mut bfv = Vec::new();
    for p in bfv_parameters()? {
        let ctx = BfvContext::new(p)?;
        let (sk, pk) = ctx.keygen(&mut rng)?;
        let rlk = ctx.relin_key(&sk, &mut rng)?;
        let gk = ctx.galois_keys(&sk, &[1, -2], true, &mut rng)?;
        let values: Vec<u64> = (0..ctx.params().degree() as u64).collect();
        let ct = ctx.encrypt(&ctx.encode(&values)?, &pk, &mut rng)?;
        bfv.push(Bfv {
            ctx,
            sk,
            pk,
            rlk,
            gk,
            ct,
        });
    }
    let mut ckks = Vec::new();
    for p in ckks_parameters()? {
        let ctx = CkksContext::new(p)?;
        let (sk, pk) = ctx.keygen(&mut rng)?;
        let rlk = ctx.relin_key(&sk, &mut rng)?;
        let gk = ctx.galois_keys(&sk, &[1, 3], true, &mut rng)?;
        let x: Vec<Complex> = (0..ctx.slots())
            .map(|i| Complex::new(i as f64 / 16.0, 0.5))
            .collect();
        let ct = ctx.encrypt(&ctx.encode(&x)?, &pk, &mut rng)?;
        ckks.push(Ckks {
            ctx,
            sk,
            pk,
            rlk,
            gk,
            ct,
        });
    }
    let mut bgv = Vec::new();
    for p in bgv_parameters()? {
        let ctx = BgvContext::new(p)?;
        let (sk, pk) = ctx.keygen(&mut rng)?;
        let rlk = ctx.relin_key(&sk, &mut rng)?;
        let ct = ctx.encrypt(&ctx.encode_coefficients(&[1, 0, 1])?, &pk, &mut rng)?;
        bgv.push(Bgv { ctx, sk, rlk, ct });
    }
    let mut hpr = Vec::new();
    for p in hpr_parameters()? {
        let ctx = HprContext::new(&p)?;
        let sk = ctx.secret_key(&mut rng)?;
        let pk = ctx.public_key(&sk, &mut rng)?;
        let m: Vec<u64> = (0..p.degree() as u64).map(|i| i % 7).collect();
        let ct = ctx.encrypt(&pk, &m, &mut rng)?;
        hpr.push(Hpr { ctx, sk, ct });
    }
    Ok(Fixtures {
        bfv,
        ckks,
        bgv,
        hpr,
    })
}

/// The fixtures, built on first use.
#[allow(clippy::expect_used)]
pub fn fixtures() -> &'static Fixtures {
    static F: OnceLock<Fixtures> = OnceLock::new();
    F.get_or_init(|| build().expect("the fuzz fixtures must build"))
}

/// Valid encodings of the objects target `target` loads.
pub fn seeds(target: &str) -> Result<Vec<Vec<u8>>> {
    let f = fixtures();
    let mut rng = Csprng::from_seed([8; 32]);
    let mut out = Vec::new();
    match target {
        "params_bfv" => out.extend(bfv_parameters()?.iter().map(BfvParameters::to_bytes)),
        "params_ckks" => out.extend(ckks_parameters()?.iter().map(CkksParameters::to_bytes)),
        "params_bgv" => out.extend(bgv_parameters()?.iter().map(BgvParameters::to_bytes)),
        "params_hpr" => out.extend(hpr_parameters()?.iter().map(HprParameters::to_bytes)),
        "bgv_ciphertext" => {
            for b in &f.bgv {
                let three = b.ctx.multiply_no_relin(&b.ct, &b.ct)?;
                for ct in [&b.ct, &three] {
                    out.push(b.ctx.ciphertext_to_bytes(ct)?);
                }
            }
        }
        "hpr_ciphertext" => {
            for h in &f.hpr {
                out.push(h.ctx.ciphertext_to_bytes(&h.ct)?);
            }
        }
        "bfv_ciphertext" => {
            for b in &f.bfv {
                let pt = b.ctx.encode(&[1, 2, 3])?;
                let sym = b.ctx.encrypt_symmetric(&pt, &b.sk, &mut rng)?;
                let three = b.ctx.multiply_no_relin(&b.ct, &b.ct)?;
                for ct in [&b.ct, &sym, &three] {
                    out.push(b.ctx.ciphertext_to_bytes(ct)?);
                }
            }
        }
        "ckks_ciphertext" => {
            for c in &f.ckks {
                let low = c.ctx.drop_to_level(&c.ct, 0)?;
                let three = c.ctx.multiply_no_relin(&c.ct, &c.ct)?;
                for ct in [&c.ct, &low, &three] {
                    out.push(c.ctx.ciphertext_to_bytes(ct)?);
                }
            }
        }
        "bfv_plaintext" => {
            for b in &f.bfv {
                out.push(b.ctx.plaintext_to_bytes(&b.ctx.encode(&[5, 6, 7])?)?);
            }
        }
        "ckks_plaintext" => {
            for c in &f.ckks {
                let x = [Complex::new(0.25, -1.0), Complex::new(3.0, 0.0)];
                out.push(c.ctx.plaintext_to_bytes(&c.ctx.encode(&x)?)?);
                let low = c.ctx.encode_at(&x, 0, c.ct.scale())?;
                out.push(c.ctx.plaintext_to_bytes(&low)?);
            }
        }
        "public_key" => {
            out.extend(f.bfv.iter().map(|b| b.ctx.public_key_to_bytes(&b.pk)));
            out.extend(f.ckks.iter().map(|c| c.ctx.public_key_to_bytes(&c.pk)));
        }
        "relin_key" => {
            out.extend(f.bfv.iter().map(|b| b.ctx.relin_key_to_bytes(&b.rlk)));
            out.extend(f.ckks.iter().map(|c| c.ctx.relin_key_to_bytes(&c.rlk)));
        }
        "secret_key" => {
            for b in &f.bfv {
                out.push(b.ctx.secret_key_to_bytes(&b.sk)?.to_vec());
            }
            for c in &f.ckks {
                out.push(c.ctx.secret_key_to_bytes(&c.sk)?.to_vec());
            }
            out.extend(
                f.hpr
                    .iter()
                    .map(|h| h.ctx.secret_key_to_bytes(&h.sk).to_vec()),
            );
        }
        "galois_keys" => {
            out.extend(f.bfv.iter().map(|b| b.ctx.galois_keys_to_bytes(&b.gk)));
            out.extend(f.ckks.iter().map(|c| c.ctx.galois_keys_to_bytes(&c.gk)));
        }
        "evaluation_keys" => {
            for b in &f.bfv {
                let mut set = EvaluationKeySet::new();
                out.push(b.ctx.evaluation_keys_to_bytes(&set));
                set.set_relin_key(std::sync::Arc::new(b.rlk.clone()))?;
                set.add_galois_keys(&b.gk)?;
                out.push(b.ctx.evaluation_keys_to_bytes(&set));
            }
            for c in &f.ckks {
                let mut set = EvaluationKeySet::new();
                set.add_galois_keys(&c.gk)?;
                out.push(c.ctx.evaluation_keys_to_bytes(&set));
            }
        }
        _ => {}
    }
    Ok(out)
}

/// Writes the seeds of `target` into the corpus directory libFuzzer was given (its first positional
/// argument), unless that argument is a file (a reproducer run). Called from each target's `init`.
#[allow(clippy::expect_used)]
pub fn write_seeds(target: &str) {
    let Some(dir) = std::env::args().skip(1).find(|a| !a.starts_with('-')) else {
        return;
    };
    let dir = Path::new(&dir);
    if !dir.is_dir() {
        return;
    }
    for (i, s) in seeds(target)
        .expect("seed objects must serialise")
        .iter()
        .enumerate()
    {
        std::fs::write(dir.join(format!("seed-{i}")), s).expect("the corpus directory is writable");
    }
}

/// Loads `data`; what loads must survive a second round trip unchanged, and must re-serialise to
/// `data` itself when `canonical` (the format has one encoding of the object), to the same length
/// otherwise. Returns the loaded object for further use.
pub fn round_trip<T>(
    data: &[u8],
    canonical: bool,
    load: impl Fn(&[u8]) -> Result<T>,
    save: impl Fn(&T) -> Result<Vec<u8>>,
) -> Option<T> {
    let obj = load(data).ok()?;
    let once = save(&obj).unwrap_or_else(|e| panic!("a loaded object does not serialise: {e}"));
    if canonical {
        assert!(once == data, "accepted bytes re-serialise differently");
    } else {
        assert_eq!(once.len(), data.len(), "re-serialisation changed the size");
    }
    let again = load(&once).unwrap_or_else(|e| panic!("re-serialised bytes do not load: {e}"));
    let twice =
        save(&again).unwrap_or_else(|e| panic!("a reloaded object does not serialise: {e}"));
    assert!(twice == once, "re-serialisation is not stable");
    Some(obj)
}

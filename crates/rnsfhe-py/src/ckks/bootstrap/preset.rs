//! `CkksParameters.bootstrappable`: the presets of `BootstrappingParameters` a Python call names and
//! their bytes, which follow the CKKS parameters' (the preset is the parameter class's tag: part of
//! the context's identity, kept by pickles and `to_bytes`) and precede the keys' (so another process
//! rebuilds the same bootstrap from the keys alone).

use rnsfhe::circuits::bootstrapping::BootstrappingParameters;
use rnsfhe::params::{Security, SecurityLevel};
use rnsfhe::rlwe::SecretDistribution;

use super::super::*;
use crate::registry::Tag;

/// What `CkksParameters.bootstrappable` was given (`None`: the preset's value; the parameters hold
/// the `canonical` form). It names the bootstrapping parameters and travels after the CKKS
/// parameters' bytes and in front of the keys', so another process (a Dask worker) rebuilds the
/// same bootstrap from either.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Preset {
    log_degree: u32,
    slots: Option<usize>,
    residual_levels: Option<usize>,
    scale_bits: Option<u32>,
    security: Security,
    secret: Option<SecretDistribution>,
    meta_bts: MetaBts,
}

/// META-BTS, a second iteration (`BootstrappingParameters::meta_bts`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum MetaBts {
    /// One bootstrap.
    Off,
    /// The preset's residual factor 2^k.
    Preset,
    /// The residual factor 2^k.
    K(u32),
}

/// The k of the toy presets' META-BTS (their first bootstrap's worst slot is near 2^-24).
const TOY_META_K: u32 = 20;

/// The tag in front of a preset's bytes, version 2 (seven u64; version 1's six had no META-BTS).
const MAGIC: &[u8; 8] = b"rnsfBTP2";
const MAGIC_V1: &[u8; 8] = b"rnsfBTP1";
/// The length of a version-2 preset's bytes.
const LEN: usize = 8 + 8 * 7;

impl Preset {
    /// The bootstrapping parameters: N = 2^16 is `BootstrappingParameters::n16` (128-bit by
    /// default, dense ternary secret) or, for a sparse secret (`secret=192`),
    /// `BootstrappingParameters::n16_h192` (its chain fits the sparse secret's smaller bound);
    /// with META-BTS `n16_meta_bts` and `n16_h192_meta_bts` (their own chains: residual scale
    /// 2^53, 6 and 4 residual levels); N = 2^11..2^13 the insecure `toy` presets for tests and
    /// notebooks (refused unless `security="insecure"` is asked for; META-BTS with k = 20 and the
    /// reserved prime as one more level).
    pub(crate) fn parameters(&self) -> PyResult<BootstrappingParameters> {
        let sparse = matches!(self.secret, Some(SecretDistribution::HammingWeight(_)));
        let meta = self.meta_bts != MetaBts::Off;
        let mut p = match self.log_degree {
            16 if sparse && meta => BootstrappingParameters::n16_h192_meta_bts(),
            16 if sparse => BootstrappingParameters::n16_h192(),
            16 if meta => BootstrappingParameters::n16_meta_bts(),
            16 => BootstrappingParameters::n16(),
            11..=13 if self.security == Security::InsecureResearchOnly && meta => {
                BootstrappingParameters {
                    meta_bts: Some(TOY_META_K),
                    ..BootstrappingParameters::toy(self.log_degree)
                }
            }
            11..=13 if self.security == Security::InsecureResearchOnly => {
                BootstrappingParameters::toy(self.log_degree)
            }
            11..=13 => {
                return Err(raise(
                    "ParameterError",
                    format!(
                        "the bootstrappable presets at N = 2^{} are insecure (for tests and \
                         notebooks): ask for them with security=\"insecure\"",
                        self.log_degree
                    ),
                ))
            }
            n => {
                return Err(raise(
                    "ParameterError",
                    format!(
                        "no bootstrappable preset at N = 2^{n}: logn is 16, or 11..=13 (insecure)"
                    ),
                ))
            }
        };
        p.security = self.security;
        if let Some(s) = self.slots {
            p.slots = s;
        }
        if let Some(r) = self.residual_levels {
            p.residual_levels = r;
        }
        if let Some(b) = self.scale_bits {
            p.scale_bits = b;
        }
        if let Some(s) = self.secret {
            p.secret = s;
        }
        if let MetaBts::K(k) = self.meta_bts {
            p.meta_bts = Some(k);
        }
        p.validate().py()?;
        Ok(p)
    }

    /// The same preset with every value explicit (what `parameters` resolves it to): two presets
    /// name one bootstrap exactly when their canonical forms are equal.
    pub(super) fn canonical(&self) -> PyResult<Self> {
        let p = self.parameters()?;
        Ok(Preset {
            log_degree: self.log_degree,
            slots: Some(p.slots),
            residual_levels: Some(p.residual_levels),
            scale_bits: Some(p.scale_bits),
            security: p.security,
            secret: Some(p.secret),
            meta_bts: p.meta_bts.map_or(MetaBts::Off, MetaBts::K),
        })
    }

    /// The `bootstrappable` arguments of the preset, for labels.
    fn describe(&self) -> String {
        let mut s = format!("logn={}", self.log_degree);
        let mut arg = |name: &str, v: Option<String>| {
            if let Some(v) = v {
                s += &format!(", {name}={v}");
            }
        };
        arg("slots", self.slots.map(|x| x.to_string()));
        arg(
            "residual_levels",
            self.residual_levels.map(|x| x.to_string()),
        );
        arg("scale_bits", self.scale_bits.map(|x| x.to_string()));
        arg(
            "secret",
            self.secret.map(|x| match x {
                SecretDistribution::HammingWeight(h) => h.to_string(),
                SecretDistribution::Ternary => "\"ternary\"".into(),
            }),
        );
        arg(
            "meta_bts",
            match self.meta_bts {
                MetaBts::Off => None,
                MetaBts::Preset => Some("True".into()),
                MetaBts::K(k) => Some(k.to_string()),
            },
        );
        s
    }

    pub(super) fn to_bytes(self) -> Vec<u8> {
        let security = match self.security {
            Security::Standard(l) => u64::from(l.bits()),
            Security::InsecureResearchOnly => 0,
        };
        let secret = match self.secret {
            None => 0,
            Some(SecretDistribution::Ternary) => u64::MAX,
            Some(SecretDistribution::HammingWeight(h)) => h as u64,
        };
        let mut out = MAGIC.to_vec();
        for x in [
            u64::from(self.log_degree),
            self.slots.map_or(0, |s| s as u64),
            self.residual_levels.map_or(0, |r| r as u64),
            u64::from(self.scale_bits.unwrap_or(0)),
            security,
            secret,
            match self.meta_bts {
                MetaBts::Off => 0,
                MetaBts::Preset => u64::MAX,
                MetaBts::K(k) => u64::from(k),
            },
        ] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    /// A preset from the front of `bytes` (`what`: the bytes' kind, for the error), and the bytes
    /// after it.
    pub(super) fn from_bytes<'a>(bytes: &'a [u8], what: &str) -> PyResult<(Self, &'a [u8])> {
        let bad = || raise("SerializationError", format!("not {what}"));
        let words = match bytes.get(..8) {
            Some(m) if m == MAGIC => 7,
            Some(m) if m == MAGIC_V1 => 6,
            _ => return Err(bad()),
        };
        let len = 8 + 8 * words;
        if bytes.len() < len {
            return Err(bad());
        }
        let word = |i: usize| {
            let w: [u8; 8] = bytes[8 + 8 * i..16 + 8 * i].try_into().unwrap_or_default();
            u64::from_le_bytes(w)
        };
        let some = |x: u64| (x != 0).then_some(x as usize);
        let security = match word(4) {
            0 => Security::InsecureResearchOnly,
            b => SecurityLevel::ALL
                .into_iter()
                .find(|l| u64::from(l.bits()) == b)
                .map(Security::Standard)
                .ok_or_else(bad)?,
        };
        let secret = match word(5) {
            0 => None,
            u64::MAX => Some(SecretDistribution::Ternary),
            h => Some(SecretDistribution::HammingWeight(h as usize)),
        };
        let meta_bts = match (words, word(6)) {
            (6, _) | (_, 0) => MetaBts::Off,
            (_, u64::MAX) => MetaBts::Preset,
            (_, k) => MetaBts::K(u32::try_from(k).map_err(|_| bad())?),
        };
        let preset = Preset {
            log_degree: u32::try_from(word(0)).map_err(|_| bad())?,
            slots: some(word(1)),
            residual_levels: some(word(2)),
            scale_bits: some(word(3)).and_then(|b| u32::try_from(b).ok()),
            security,
            secret,
            meta_bts,
        };
        Ok((preset, &bytes[len..]))
    }
}

/// The preset of bootstrappable CKKS parameters, after their bytes: found by its tag `LEN` bytes from
/// the end (the CKKS parameters' bytes end with their CRC-32, and bytes without a preset read as
/// before) and checked to be a preset of these parameters.
impl Tag for Option<Preset> {
    fn to_bytes(&self) -> Vec<u8> {
        self.map_or_else(Vec::new, Preset::to_bytes)
    }
    fn split(bytes: &[u8]) -> PyResult<(&[u8], Self)> {
        let at = match bytes.len().checked_sub(LEN) {
            Some(at) if bytes[at..].starts_with(MAGIC) => at,
            _ => return Ok((bytes, None)),
        };
        let (preset, _) = Preset::from_bytes(&bytes[at..], "a bootstrappable preset")?;
        let ckks = preset.parameters()?.ckks_parameters().py()?;
        if ckks.to_bytes() != bytes[..at] {
            return Err(raise(
                "SerializationError",
                "a bootstrappable preset after the bytes of other CKKS parameters".into(),
            ));
        }
        Ok((&bytes[..at], Some(preset.canonical()?)))
    }
    fn note(&self) -> String {
        self.map_or_else(String::new, |p| {
            format!(" bootstrappable({})", p.describe())
        })
    }
}

/// `CkksParameters.bootstrappable`: the CKKS parameters of a preset, tagged with its canonical form.
#[allow(clippy::too_many_arguments)]
pub(crate) fn bootstrappable(
    slots: Option<usize>,
    residual_levels: Option<usize>,
    scale_bits: Option<u32>,
    security: Option<&Bound<'_, PyAny>>,
    secret: Option<&Bound<'_, PyAny>>,
    meta_bts: Option<&Bound<'_, PyAny>>,
    log_degree: u32,
) -> PyResult<PyCkksParameters> {
    let security = match security {
        Some(s) => crate::convert::security(Some(s))?,
        None => Security::default(),
    };
    let secret = secret.map(secret_distribution).transpose()?;
    let meta_bts = meta_bts.map_or(Ok(MetaBts::Off), meta_bts_arg)?;
    let preset = Preset {
        log_degree,
        slots,
        residual_levels,
        scale_bits,
        security,
        secret,
        meta_bts,
    };
    let preset = preset.canonical()?;
    Ok(PyCkksParameters {
        inner: preset.parameters()?.ckks_parameters().py()?,
        tag: Some(preset),
    })
}

/// `meta_bts=`: None or False (one bootstrap), True (the preset's 2^k) or k in 1..=40.
fn meta_bts_arg(m: &Bound<'_, PyAny>) -> PyResult<MetaBts> {
    if m.is_none() {
        return Ok(MetaBts::Off);
    }
    if let Ok(on) = m.cast::<pyo3::types::PyBool>() {
        return Ok(if on.is_true() {
            MetaBts::Preset
        } else {
            MetaBts::Off
        });
    }
    match m.extract::<u32>() {
        Ok(k) if (1..=40).contains(&k) => Ok(MetaBts::K(k)),
        _ => Err(raise(
            "ParameterError",
            format!(
                "meta_bts must be True, False or the residual factor's log2 k in 1..=40, got {}",
                m.repr()?
            ),
        )),
    }
}

/// "ternary" or a Hamming weight.
fn secret_distribution(s: &Bound<'_, PyAny>) -> PyResult<SecretDistribution> {
    if let Ok(h) = s.extract::<usize>() {
        return Ok(SecretDistribution::HammingWeight(h));
    }
    match s.extract::<String>() {
        Ok(t) if t == "ternary" => Ok(SecretDistribution::Ternary),
        _ => Err(raise(
            "ParameterError",
            format!(
                "secret must be \"ternary\" or a Hamming weight, got {}",
                s.repr()?
            ),
        )),
    }
}

//! Noise: the invariant noise budget, and Bajard et al. (SAC 2016)'s worst-case depth from the bound (20).

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive};
use rnsfhe_math::arith::ntt_primes;
use rnsfhe_math::ring::{Poly, RingContext};
use rnsfhe_math::sample::Csprng;

use super::{BfvCiphertext, BfvContext, BfvPlaintext, Decryption, MulTool, RelinKey};
use crate::rlwe::{PublicKey, SecretKey};
use crate::Result;

/// The inputs of Bajard et al. (SAC 2016)'s bound (20).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DepthInputs {
    /// Degree n (delta = n).
    pub n: usize,
    /// Number of moduli k.
    pub k: usize,
    /// Modulus width nu (each modulus < 2^nu).
    pub nu: u32,
    /// log2 q.
    pub log_q: f64,
    /// |q|_t.
    pub q_mod_t: u64,
    /// Plaintext modulus t.
    pub t: u64,
    /// rho of Lemma 4.
    pub rho: f64,
    /// gamma of Theorem 1 (infinity for an exact rounding such as HPS decryption).
    pub gamma: f64,
    /// B_key (1 for ternary secrets).
    pub b_key: f64,
    /// B_err (paper: 6 sigma).
    pub b_err: f64,
}

impl DepthInputs {
    /// C_RNS,1 and C_RNS,2 of (20).
    pub fn constants(&self) -> (f64, f64) {
        let d = self.n as f64;
        let t = self.t as f64;
        let qt = self.q_mod_t as f64;
        let (r, bk, be) = (self.rho, self.b_key, self.b_err);
        let k = self.k as f64;
        let c1 = 2.0 * d * d * t * (1.0 + r) / 2.0 * bk + d * t * (4.0 + r) + d / 2.0;
        let c2 = (1.0 + d * bk) * (d * t * qt * (1.0 + r) / 2.0 + d * bk * (k + 0.5))
            + 2.0 * d * t * qt
            + k * (d * be * 2f64.powi(self.nu as i32 + 1) + 1.0)
            + 0.5 * (3.0 + qt);
        (c1, c2)
    }

    /// log2 of the noise bound after depth L: C1^L V + L C1^(L-1) C2, V = B_err (1 + 2 delta B_key).
    pub fn log2_noise(&self, depth: u32) -> f64 {
        let (c1, c2) = self.constants();
        let v = self.b_err * (1.0 + 2.0 * self.n as f64 * self.b_key);
        if depth == 0 {
            return v.log2();
        }
        (depth - 1) as f64 * c1.log2() + (c1 * v + depth as f64 * c2).log2()
    }

    /// log2 of the decryption bound of Theorem 1: q/t (1/2 - k/gamma) - |q|_t / 2.
    pub fn log2_limit(&self) -> f64 {
        self.log_q - (self.t as f64).log2() + (0.5 - self.k as f64 / self.gamma).log2()
    }

    /// L_RNS: the largest L whose bound is within the limit (0 if even fresh noise is not).
    pub fn depth(&self) -> u32 {
        let limit = self.log2_limit();
        (0..10_000)
            .take_while(|&l| self.log2_noise(l) <= limit)
            .last()
            .unwrap_or(0)
    }
}

impl BfvContext {
    /// The inputs of (20) for this parameter set: rho from the BEHZ tool (Lemma 4 with this m~), gamma
    /// of Alg. 1, B_key = 1, B_err = 6 sigma.
    pub fn depth_inputs(&self) -> DepthInputs {
        let p = self.params();
        let q = self.ring().basis().product();
        let k = p.moduli().len();
        let rho = match self.mul_tool() {
            MulTool::Behz(b) => b.sizes().rho,
            MulTool::Hps(_) => match p.m_tilde() {
                Some(m) => (2 * k + 2) as f64 / m as f64,
                None => (2 * k - 1) as f64,
            },
        };
        DepthInputs {
            n: p.degree(),
            k,
            nu: self.ring().basis().max_modulus().bits(),
            log_q: p.log_q(),
            q_mod_t: (q % p.plain_modulus()).to_u64().unwrap_or(0),
            t: p.plain_modulus(),
            rho,
            gamma: self.gammas().map_or(f64::INFINITY, |g| g.0 as f64),
            b_key: 1.0,
            b_err: 6.0 * p.sigma(),
        }
    }

    /// log2 of ||[t ct(s)]_q||, the size of v_c = t v - |q|_t [m]_t (Bajard et al. (SAC 2016) Lemma 1).
    fn log2_scaled_noise(&self, ct: &BfvCiphertext, sk: &SecretKey) -> Result<f64> {
        self.log2_scaled_noise_of(&self.phase(ct, sk)?)
    }

    /// [`Self::log2_scaled_noise`] of a phase x.
    fn log2_scaled_noise_of(&self, x: &Poly) -> Result<f64> {
        // The 128-bit fractions of HPS decryption give ||[t x]_q|| / q to about k 2^-64: enough
        // unless the noise is far below q (fresh ciphertexts), where big integers take over.
        let d = self.dec.noise_fraction(x.residues())?;
        if d > 2f64.powi(-40) {
            return Ok(d.log2() + self.params().log_q());
        }
        let q = BigInt::from(self.ring().basis().product().clone());
        let half = &q / 2;
        let t = BigInt::from(self.params().plain_modulus());
        let mut max = BigInt::from(0);
        for c in x.to_biguint()? {
            let mut v = (BigInt::from(c) * &t) % &q;
            if v > half {
                v -= &q;
            }
            let a = v.abs();
            if a > max {
                max = a;
            }
        }
        Ok(crate::params::log2_big(&max))
    }

    /// The invariant noise budget in bits (SEAL's definition): log2(q) - log2 ||[t ct(s)]_q|| - 1,
    /// and 0 for every ciphertext that [`BfvContext::decrypt_checked`] refuses: when the carried
    /// noise bound or the measured noise reaches 1/4 (see `noise.rs`: a wrapped coefficient cannot
    /// be measured). A positive budget means decryption is correct. Uses the HPS fractions, or big
    /// integers when the noise is below q 2^-40.
    pub fn noise_budget(&self, ct: &BfvCiphertext, sk: &SecretKey) -> Result<u32> {
        let x = self.phase(ct, sk)?;
        if self.noise_verdict(ct, &x, &self.dec)?.is_err() {
            return Ok(0);
        }
        let b = self.params().log_q() - self.log2_scaled_noise_of(&x)? - 1.0;
        Ok(b.max(0.0).floor() as u32)
    }

    /// log2 of the inherent noise ||v|| (about ||v_c|| / t), as plotted in Bajard et al. (SAC 2016) Fig. 1.
    pub fn noise_log2(&self, ct: &BfvCiphertext, sk: &SecretKey) -> Result<f64> {
        Ok(self.log2_scaled_noise(ct, sk)? - (self.params().plain_modulus() as f64).log2())
    }
}

/// One level of a measured squaring chain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// Multiplicative depth (number of squarings).
    pub depth: u32,
    /// log2 ||v|| after this many squarings.
    pub noise_log2: f64,
    /// Whether the ciphertext still decrypts to the exact plaintext power.
    pub correct: bool,
}

impl BfvContext {
    /// The product of two plaintexts in R_t, exactly (NTT over primes whose product exceeds n t^2).
    pub fn multiply_plaintexts(&self, a: &BfvPlaintext, b: &BfvPlaintext) -> Result<BfvPlaintext> {
        self.check_plain(a)?;
        self.check_plain(b)?;
        let n = self.params().degree();
        let t = self.t();
        let need_bits = (n as f64).log2() + 2.0 * (t.value() as f64).log2() + 2.0;
        let count = (need_bits / 59.0).ceil() as usize;
        let primes = ntt_primes(60, 2 * n as u64, count, &[])?;
        let ring = RingContext::new(n, &primes)?;
        let lift = |p: &BfvPlaintext| -> Result<Poly> {
            let c: Vec<i64> = p.coeffs.iter().map(|&x| t.center(x)).collect();
            let mut p = Poly::from_signed(&ring, &c)?;
            p.to_ntt()?;
            Ok(p)
        };
        let mut c = lift(a)?.mul(&lift(b)?)?;
        c.to_coefficient()?;
        let basis = ring.basis();
        let tb = BigInt::from(t.value());
        let mut out = vec![0u64; n];
        let mut col = vec![0u64; count];
        for (j, o) in out.iter_mut().enumerate() {
            for (i, v) in col.iter_mut().enumerate() {
                *v = c.residues()[i * n + j];
            }
            let x = basis.compose_centered(&col)?;
            *o = x.mod_floor(&tb).to_u64().unwrap_or(0);
        }
        self.plaintext_from_coefficients(&out)
    }

    /// Squares an encryption of `pt` up to `max_depth` times (relinearising each time), recording the
    /// noise and whether decryption with `method` still equals the exact plaintext power. Stops after
    /// the first wrong level.
    #[allow(clippy::too_many_arguments)] // a measurement: keys, input, method and limit
    pub fn measure_squaring_depth(
        &self,
        sk: &SecretKey,
        pk: &PublicKey,
        rlk: &RelinKey,
        pt: &BfvPlaintext,
        method: Decryption,
        max_depth: u32,
        rng: &mut Csprng,
    ) -> Result<Vec<Level>> {
        let mut ct = self.encrypt(pt, pk, rng)?;
        let mut want = pt.clone();
        let mut levels = Vec::new();
        for depth in 1..=max_depth {
            ct = self.square(&ct, rlk)?;
            want = self.multiply_plaintexts(&want, &want)?;
            let correct = self.decrypt_with(&ct, sk, method)? == want;
            levels.push(Level {
                depth,
                noise_log2: self.noise_log2(&ct, sk)?,
                correct,
            });
            if !correct {
                break;
            }
        }
        Ok(levels)
    }
}

/// The inputs of FV's depth over any Phi_m, Bajard et al. (SAC 2017) section 4.3 (Table 3), with or without the
/// Montgomery representation: V = B_err (1 + 2 delta_R B_key),
/// r_inf = (1 + rho) / 2 (1 + delta_R B_key) + delta_R ||M||_inf,
/// C1 = 2 delta_R t (delta_R ||M^-1||_inf r_inf + 1/2) + delta_R / 2,
/// C2 = delta_R t |q|_t (r_inf + 1) + 1/2 delta_R ||M^-1||_inf (1 + delta_R B_key (1 + delta_R B_key))
///      + |q|_t / 2 + 1 + k (1 + delta_R B_key (1 + delta_R B_key)) + delta_R k B_err 2^(nu + 1),
/// and L_max the largest L with C1^L V + L C1^(L-1) C2 <= B_dec = q / (2t) (exact decryption).
/// Without Montgomery (decision: the paper gives one formula): ||M^-1|| = 1 and the term
/// delta_R ||M|| of r_inf, the product by M, is 1 (||(Delta m + v)|| / q <= 1 without it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnyMDepthInputs {
    /// delta_R, the expansion factor (Lemma 4: n ||F_m||_inf).
    pub delta: f64,
    /// Number of moduli k.
    pub k: usize,
    /// Modulus width nu.
    pub nu: u32,
    /// log2 q.
    pub log_q: f64,
    /// |q|_t.
    pub q_mod_t: f64,
    /// Plaintext modulus t.
    pub t: f64,
    /// rho of the approximate extension (BEHZ).
    pub rho: f64,
    /// B_key (1 for ternary secrets).
    pub b_key: f64,
    /// B_err = 6 sigma.
    pub b_err: f64,
    /// Some((||M||_inf, ||M^-1||_inf)) in the Montgomery representation, None without.
    pub montgomery: Option<(f64, f64)>,
}

impl AnyMDepthInputs {
    /// (C1, C2) of section 4.3.
    pub fn constants(&self) -> (f64, f64) {
        let (d, t, bk, k) = (self.delta, self.t, self.b_key, self.k as f64);
        let (m_term, m_inv) = match self.montgomery {
            Some((m, mi)) => (d * m, mi),
            None => (1.0, 1.0),
        };
        let r_inf = (1.0 + self.rho) / 2.0 * (1.0 + d * bk) + m_term;
        let c1 = 2.0 * d * t * (d * m_inv * r_inf + 0.5) + d / 2.0;
        let s_term = 1.0 + d * bk * (1.0 + d * bk);
        let c2 = d * t * self.q_mod_t * (r_inf + 1.0)
            + 0.5 * d * m_inv * s_term
            + self.q_mod_t / 2.0
            + 1.0
            + k * s_term
            + d * k * self.b_err * 2f64.powi(self.nu as i32 + 1);
        (c1, c2)
    }

    /// log2 (C1^L V + L C1^(L-1) C2).
    pub fn log2_noise(&self, depth: u32) -> f64 {
        let (c1, c2) = self.constants();
        let v = self.b_err * (1.0 + 2.0 * self.delta * self.b_key);
        if depth == 0 {
            return v.log2();
        }
        (depth - 1) as f64 * c1.log2() + (c1 * v + depth as f64 * c2).log2()
    }

    /// L_max (0 when even a fresh ciphertext is above B_dec).
    pub fn depth(&self) -> u32 {
        let limit = self.log_q - self.t.log2() - 1.0;
        (0..10_000)
            .take_while(|&l| self.log2_noise(l) <= limit)
            .last()
            .unwrap_or(0)
    }
}

impl BfvContext {
    /// Bajard et al. (SAC 2017)'s section 4.3 inputs for this parameter set (general Phi_m): delta_R = n ||F_m||
    /// (Lemma 4, `reduction_expansion`), k, nu, q, t, rho and B_err = 6 sigma as in
    /// [`BfvContext::depth_inputs`], B_key = 1; with `montgomery`, ||M||_inf and ||M^-1||_inf exact.
    pub fn any_m_depth_inputs(&self, montgomery: bool) -> Result<AnyMDepthInputs> {
        let base = self.depth_inputs();
        let m = self.params().cyclotomic_index();
        let phi = rnsfhe_math::ring::cyclotomic::cyclotomic_polynomial(m)?;
        let delta = base.n as f64 * rnsfhe_math::ring::cyclotomic::reduction_expansion(&phi)?;
        let montgomery = if montgomery {
            let f = rnsfhe_math::ring::cyclotomic::montgomery_factor(m)?;
            let norm = f.iter().map(|c| c.unsigned_abs()).max().unwrap_or(0) as f64;
            Some((
                norm,
                rnsfhe_math::ring::cyclotomic::montgomery_inverse_norm(m)?,
            ))
        } else {
            None
        };
        Ok(AnyMDepthInputs {
            delta,
            k: base.k,
            nu: base.nu,
            log_q: base.log_q,
            q_mod_t: base.q_mod_t as f64,
            t: base.t as f64,
            rho: base.rho,
            b_key: 1.0,
            b_err: base.b_err,
            montgomery,
        })
    }
}

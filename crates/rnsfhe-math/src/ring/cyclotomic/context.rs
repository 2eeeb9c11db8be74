//! [`CyclotomicRing`]: the precomputation of Z_Q[X]/(Phi_m) per modulus, and [`CyclotomicPoly`].

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::phi::{best_sparse_multiple, cyclotomic_polynomial, euler_phi, SparseMultiple};
use super::reduce::ModulusTables;
use crate::arith::{ntt_primes, Modulus};
use crate::rns::RnsBasis;
use crate::{Error, Result};

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// How products are reduced modulo Phi_m (paper 001, section 3). All give bit-identical results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// NTT-based Barrett reduction with alpha = n - 2 (Alg. 1).
    Barrett,
    /// Folding modulo X^m - 1, reduction by a sparse multiple Q_sp of Phi_m, then Alg. 1 (Alg. 2). Falls
    /// back to plain Barrett when no sparse multiple helps.
    SparseBarrett,
    /// NTT-based Montgomery reduction with Psi = X^(N/2) + 1 (Algs. 3–4): operands live in Montgomery
    /// form a M mod Phi_m, M = Psi mod Phi_m; enter with `to_montgomery`, leave with `from_montgomery`.
    Montgomery,
}

/// Whether a polynomial holds a or a M mod Phi_m.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// The polynomial itself.
    Plain,
    /// a * M mod Phi_m (Montgomery representation, paper 001 section 4).
    Montgomery,
}

/// Z_Q[X]/(Phi_m) over an RNS base of primes q = 1 mod N, N = N2(2 phi(m)).
#[derive(Debug)]
pub struct CyclotomicRing {
    id: u64,
    m: usize,
    n: usize,
    big_n: usize,
    phi: Vec<i64>,
    reduction: Reduction,
    sparse: Option<SparseMultiple>,
    basis: RnsBasis,
    pub(super) tables: Vec<ModulusTables>,
}

/// An element of a [`CyclotomicRing`]: n coefficients per modulus, limb-major, in [0, q_i).
#[derive(Clone, Debug)]
pub struct CyclotomicPoly {
    ctx: Arc<CyclotomicRing>,
    data: Vec<u64>,
    form: Form,
}

impl CyclotomicRing {
    /// `count` primes of `bits` bits with q = 1 mod lcm(N, m) (so that both the size-N NTTs and the slot
    /// algebra or automorphisms have their roots). Errors when m < 3 or too few such primes exist.
    pub fn primes(m: usize, bits: u32, count: usize) -> Result<Vec<u64>> {
        if m < 3 {
            return Err(Error::InvalidDegree {
                degree: m,
                reason: "the cyclotomic index must be >= 3".into(),
            });
        }
        let big_n = (2 * euler_phi(m)).next_power_of_two();
        let lcm = num_integer::lcm(big_n, m) as u64;
        ntt_primes(bits, lcm, count, &[]).map_err(|e| {
            Error::NotEnoughPrimes(format!("for Phi_{m} (N = {big_n}, q = 1 mod {lcm}): {e}"))
        })
    }

    /// The ring for index m (any m >= 3 with N <= 2^17) over the given primes, each = 1 mod N.
    pub fn new(m: usize, moduli: &[u64], reduction: Reduction) -> Result<Arc<Self>> {
        if m < 3 {
            return Err(Error::InvalidDegree {
                degree: m,
                reason: "the cyclotomic index must be >= 3".into(),
            });
        }
        let phi = cyclotomic_polynomial(m)?;
        let n = phi.len() - 1;
        let big_n = (2 * n).next_power_of_two();
        if reduction == Reduction::Montgomery && m.is_power_of_two() {
            return Err(Error::InvalidParameters(format!(
                "Montgomery reduction needs Phi_m invertible modulo X^(N/2) + 1, which fails for m = {m} a power of two (paper 001, Lemma 1); use Barrett"
            )));
        }
        let sparse = if reduction == Reduction::SparseBarrett {
            best_sparse_multiple(m)?
        } else {
            None
        };
        let basis = RnsBasis::new(moduli)?;
        let tables = basis
            .moduli()
            .iter()
            .map(|&q| ModulusTables::new(q, m, &phi, big_n, reduction, sparse.as_ref()))
            .collect::<Result<Vec<_>>>()?;
        Ok(Arc::new(CyclotomicRing {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            m,
            n,
            big_n,
            phi,
            reduction,
            sparse,
            basis,
            tables,
        }))
    }

    /// The cyclotomic index m.
    pub fn cyclotomic_index(&self) -> usize {
        self.m
    }

    /// n = phi(m).
    pub fn degree(&self) -> usize {
        self.n
    }

    /// N = N2(2n), the size of the product NTTs.
    pub fn ntt_size(&self) -> usize {
        self.big_n
    }

    /// Phi_m's coefficients, constant first.
    pub fn phi(&self) -> &[i64] {
        &self.phi
    }

    /// The reduction in use.
    pub fn reduction(&self) -> Reduction {
        self.reduction
    }

    /// The sparse multiple used by [`Reduction::SparseBarrett`], if one helps for this m.
    pub fn sparse_multiple(&self) -> Option<&SparseMultiple> {
        self.sparse.as_ref()
    }

    /// The RNS base.
    pub fn basis(&self) -> &RnsBasis {
        &self.basis
    }

    /// The moduli.
    pub fn moduli(&self) -> &[Modulus] {
        self.basis.moduli()
    }

    /// The form products of this ring produce and expect.
    fn product_form(&self) -> Form {
        if self.reduction == Reduction::Montgomery {
            Form::Montgomery
        } else {
            Form::Plain
        }
    }
}

impl CyclotomicPoly {
    /// From limb-major residues (n per modulus) in the plain form; errors on a wrong length or a residue
    /// not below its modulus.
    pub fn from_residues(ctx: &Arc<CyclotomicRing>, data: Vec<u64>) -> Result<Self> {
        super::super::check_residues(ctx.moduli(), ctx.n, &data)?;
        Ok(CyclotomicPoly {
            ctx: Arc::clone(ctx),
            data,
            form: Form::Plain,
        })
    }

    /// From signed coefficients (length n), plain form.
    pub fn from_signed(ctx: &Arc<CyclotomicRing>, coeffs: &[i64]) -> Result<Self> {
        if coeffs.len() != ctx.n {
            return Err(Error::LengthMismatch {
                what: "coefficients",
                expected: ctx.n,
                got: coeffs.len(),
            });
        }
        let data = ctx
            .moduli()
            .iter()
            .flat_map(|q| coeffs.iter().map(move |&c| q.reduce_i64(c)))
            .collect();
        Ok(CyclotomicPoly {
            ctx: Arc::clone(ctx),
            data,
            form: Form::Plain,
        })
    }

    /// The residues, limb-major.
    pub fn residues(&self) -> &[u64] {
        &self.data
    }

    /// The form (plain or Montgomery).
    pub fn form(&self) -> Form {
        self.form
    }

    /// The ring.
    pub fn context(&self) -> &Arc<CyclotomicRing> {
        &self.ctx
    }

    fn check(&self, other: &CyclotomicPoly, op: &str) -> Result<()> {
        if self.ctx.id != other.ctx.id {
            return Err(Error::ContextMismatch(format!(
                "{op}: operands belong to different cyclotomic rings"
            )));
        }
        if self.form != other.form {
            return Err(Error::WrongForm(format!(
                "{op}: operands are in {:?} and {:?} form; convert with to_montgomery / from_montgomery",
                self.form, other.form
            )));
        }
        Ok(())
    }

    /// self + other (same ring and form).
    pub fn add(&self, other: &CyclotomicPoly) -> Result<CyclotomicPoly> {
        self.check(other, "add")?;
        let n = self.ctx.n;
        let mut r = self.clone();
        for ((a, b), q) in r
            .data
            .chunks_exact_mut(n)
            .zip(other.data.chunks_exact(n))
            .zip(self.ctx.moduli())
        {
            a.iter_mut().zip(b).for_each(|(x, &y)| *x = q.add(*x, y));
        }
        Ok(r)
    }

    /// self * other mod Phi_m with the ring's reduction. For [`Reduction::Montgomery`] both operands must
    /// be in Montgomery form (the product is too); for the Barrett reductions both must be plain.
    pub fn mul(&self, other: &CyclotomicPoly) -> Result<CyclotomicPoly> {
        CyclotomicPoly::sum_of_products(&[(self, other)])
    }

    /// sum_k a_k * b_k mod Phi_m, reduced once (the products are summed in the NTT domain). Same rules
    /// as [`CyclotomicPoly::mul`]; errors on an empty list.
    pub fn sum_of_products(pairs: &[(&CyclotomicPoly, &CyclotomicPoly)]) -> Result<CyclotomicPoly> {
        let Some((first, _)) = pairs.first() else {
            return Err(Error::LengthMismatch {
                what: "products to sum",
                expected: 1,
                got: 0,
            });
        };
        let ctx = &first.ctx;
        for (a, b) in pairs {
            first.check(a, "mul")?;
            a.check(b, "mul")?;
        }
        if first.form != ctx.product_form() {
            return Err(Error::WrongForm(format!(
                "mul: the ring reduces by {:?}, which needs {:?} operands; these are {:?}",
                ctx.reduction,
                ctx.product_form(),
                first.form
            )));
        }
        let n = ctx.n;
        let mut data = vec![0u64; first.data.len()];
        for (i, (out, t)) in data.chunks_exact_mut(n).zip(&ctx.tables).enumerate() {
            let limbs: Vec<(&[u64], &[u64])> = pairs
                .iter()
                .map(|(a, b)| (&a.data[i * n..(i + 1) * n], &b.data[i * n..(i + 1) * n]))
                .collect();
            t.multiply_sum(&limbs, out)?;
        }
        Ok(CyclotomicPoly {
            ctx: Arc::clone(ctx),
            data,
            form: first.form,
        })
    }

    /// a -> a M mod Phi_m (enter the Montgomery form; Montgomery rings only).
    pub fn to_montgomery(&self) -> Result<CyclotomicPoly> {
        self.convert_form(Form::Plain, Form::Montgomery)
    }

    /// a M -> a (leave the Montgomery form).
    pub fn from_montgomery(&self) -> Result<CyclotomicPoly> {
        self.convert_form(Form::Montgomery, Form::Plain)
    }

    fn convert_form(&self, from: Form, to: Form) -> Result<CyclotomicPoly> {
        if self.ctx.reduction != Reduction::Montgomery {
            return Err(Error::WrongForm(
                "this ring does not use Montgomery reduction".into(),
            ));
        }
        if self.form != from {
            return Err(Error::WrongForm(format!(
                "the polynomial is already in {to:?} form"
            )));
        }
        let n = self.ctx.n;
        let mut data = vec![0u64; self.data.len()];
        for ((out, a), t) in data
            .chunks_exact_mut(n)
            .zip(self.data.chunks_exact(n))
            .zip(&self.ctx.tables)
        {
            t.convert_montgomery(a, to == Form::Montgomery, out)?;
        }
        Ok(CyclotomicPoly {
            ctx: Arc::clone(&self.ctx),
            data,
            form: to,
        })
    }

    /// X -> X^g modulo Phi_m, g coprime to m (Galois automorphism). Works in either form for the plain
    /// value: M is fixed only up to the automorphism, so Montgomery polynomials are converted out first.
    pub fn automorphism(&self, g: usize) -> Result<CyclotomicPoly> {
        let m = self.ctx.m;
        if num_integer::gcd(g, m) != 1 {
            return Err(Error::OutOfRange(format!(
                "automorphism exponent {g} is not coprime to m = {m}"
            )));
        }
        if self.form == Form::Montgomery {
            return self.from_montgomery()?.automorphism(g)?.to_montgomery();
        }
        let n = self.ctx.n;
        let mut data = vec![0u64; self.data.len()];
        for ((out, a), t) in data
            .chunks_exact_mut(n)
            .zip(self.data.chunks_exact(n))
            .zip(&self.ctx.tables)
        {
            let q = t.modulus();
            let mut wide = vec![0u64; m];
            for (i, &x) in a.iter().enumerate() {
                let e = i * g % m;
                wide[e] = q.add(wide[e], x);
            }
            t.reduce_long(&mut wide);
            out.copy_from_slice(&wide[..n]);
        }
        Ok(CyclotomicPoly {
            ctx: Arc::clone(&self.ctx),
            data,
            form: Form::Plain,
        })
    }
}

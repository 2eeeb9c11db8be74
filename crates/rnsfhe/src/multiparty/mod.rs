//! Keys held by many parties: the N-out-of-N protocols of Mouchet,
//! Troncoso-Pastoriza, Bossuat and Hubaux, "Multiparty Homomorphic Encryption from
//! Ring-Learning-With-Errors" (PETS 2021), and the t-out-of-N thresholdizer of Mouchet, Bertrand
//! and Hubaux (2022), over the RLWE layer, for BFV, BGV and CKKS (power-of-two rings).
//!
//! The collective secret is s = sum_i s_i, never held by anyone. Every step is a plain function
//! that returns a [`Share`] (serialisable: [`Share::to_bytes`]); every aggregation is an
//! [`Aggregator`] (the sum of the shares of one [`Round`], refusing duplicated, stale, corrupted,
//! foreign and unexpected shares); a last function turns the complete aggregate into the key or
//! the result, given the parties whose shares it must sum (see "Aggregates" below):
//!
//! | protocol | shares | result |
//! |---|---|---|
//! | [`ckg`] (PETS Prot. 1) | [`ckg::share`] | [`ckg::public_key`]: the collective [`PublicKey`](crate::rlwe::PublicKey) |
//! | [`rkg`] (Prot. 2, two rounds) | [`rkg::share_round1`], [`rkg::share_round2`] | [`rkg::relin_key`] |
//! | [`rtg`] (Prot. 3) | [`rtg::share`] | [`rtg::galois_keys`] |
//! | CKS (Prot. 4) | [`cks_share`] | [`decrypt`], [`key_switch`] |
//! | PCKS (Prot. 5) | [`pcks_share`] | [`public_key_switch`] (with a stated [`ReceiverSecret`]) |
//! | [`refresh`] (collective bootstrapping; masked transform with a [`SlotMap`]) | [`refresh::share`] | [`refresh::finalize`]: the ciphertext at the top level, fresh |
//! | [`transform`] to another parameter set (chain, ring degree) | [`transform::share`]: one share under each parameter set | [`transform::finalize`]: the ciphertext at the other set's top level |
//! | [`threshold`] (2022, sec. 4) | [`ShamirPolynomial::share_for`] | [`ThresholdSecret::from_aggregate`], then [`ThresholdSecret::combine`] |
//! | re-sharing ([`threshold::reshare_polynomial`]) | [`ShamirPolynomial::share_for`] (new group) | [`ThresholdSecret::from_reshare`] |
//!
//! The uniform polynomials come from a common reference string ([`Crs`](crate::rlwe::Crs)),
//! domain-separated per key kind and Galois element; a party expands those of one protocol
//! instance once ([`Crp`]: [`ckg::crp`], [`rkg::crp`], [`rtg::crp`]) and makes its shares with
//! them ([`ckg::share_with`], [`rkg::share_round1_with`], [`rtg::share_with`]), and the last step
//! takes them too ([`ckg::public_key_with`], [`rtg::galois_keys_with`]; RKG's last step uses no
//! reference polynomial: its k1 is the round-1 aggregate's; a refresh's a, one per ciphertext:
//! [`refresh::crp`], [`RefreshCrp`]). The same shares and keys as from the
//! CRS, which the plain functions expand each time; reference polynomials of another instance
//! (parameters, protocol, reference string, level, Galois elements) are refused, naming them. Two
//! instances under one reference string (a retried key generation, a second key pair) take
//! distinct instance nonces ([`Crs::with_nonce`](crate::rlwe::Crs::with_nonce)): each expands its
//! own polynomials, and an aggregator refuses the shares of one in the other (stale: another
//! reference string); the empty nonce is the reference string as it was without one. The
//! keys are the library's own
//! ([`PublicKey`](crate::rlwe::PublicKey), [`RelinKey`](crate::rlwe::RelinKey),
//! [`GaloisKeys`](crate::rlwe::GaloisKeys)), of the key pair of the collective public key, so the
//! contexts evaluate with them as with single-party keys (hoisted rotations included).
//!
//! # Threat model
//!
//! Semi-honest (honest but curious) parties, as in both papers: every party follows the
//! protocol, and any coalition of up to N - 1 parties (t - 1 in the threshold setting) learns
//! nothing about the others' secrets beyond the protocols' outputs. Collective decryption and key
//! switching add smudging noise ([`Smudging`]) so that their outputs reveal a ciphertext's
//! plaintext but not its error, which depends on the secrets. A refresh ([`refresh`]) shows the
//! aggregator the plaintext under one honest party's mask and the error under its smudging (what
//! it reveals, in that module's doc); a re-sharing ([`threshold::reshare_polynomial`]) shows nothing
//! to fewer than t' new parties. The channels are assumed authenticated, and private for Shamir and
//! re-sharing shares.
//!
//! What a malicious party can do: send a wrong share. Nothing here detects it (there are no
//! proofs of correct computation): the key or decryption comes out wrong, or, for a party that
//! chooses its share after seeing the others' (rushing), biased (e.g. a public key whose secret
//! it partly controls). It can withhold its share (in N-out-of-N, that stops the protocol; with
//! a threshold, t others still finish), and it can decrypt with the others anything they agree to
//! decrypt. What it cannot do: decrypt alone, learn another party's secret from the shares
//! (each is an RLWE sample under that secret, or smudged), or have an aggregator count a
//! duplicated, replayed (stale), corrupted or foreign share: those are refused with an error
//! naming the share ([`crate::Error::ShareRefused`]). A malicious aggregator can leave out or
//! substitute a party's share: the last steps and [`Share::verify_contribution`] refuse that (see
//! "Aggregates" below); it can also forge an aggregate outright (polynomials and digests), which only the
//! holders of the shares detect, and a forged RKG round-1 aggregate can make round-2 shares reveal
//! the parties' secrets: run RKG with an aggregator the parties trust, or check the round-1
//! aggregate against the shares first. Verifiable variants need zero-knowledge proofs of the
//! shares' well-formedness, out of this module's scope.
//!
//! # Aggregates
//!
//! An aggregate names the parties whose shares it sums and the digest of each one's share
//! ([`Share::contributions`]), from bytes written by whoever aggregated; so the last step of every
//! protocol takes the parties expected (those given to the round's [`Aggregator::new`], or the
//! threshold group present; an argument, as the [`Round`] is what every share answers whoever
//! sends it, and only the caller knows who had to) and refuses an aggregate of others, naming the
//! missing or unexpected parties
//! ([`ckg::public_key`], [`rkg::relin_key`], [`rtg::galois_keys`], [`decrypt`], [`key_switch`],
//! [`public_key_switch`], [`ThresholdSecret::from_aggregate`]); a party that kept its share (or its
//! [`Share::digest`]) checks that an aggregate counts that share for it
//! ([`Share::verify_contribution`]), and RKG's round 2 refuses a round-1 aggregate that counts
//! another round-1 share of the party than the one its ephemeral secret was drawn with (a retried
//! round 1). What this does not prove: that the polynomials are the sum of the listed shares
//! (anyone holding the shares aggregates them again and compares).
//!
//! # Smudging
//!
//! Before drawing its smudging into a CKS or PCKS share, a party checks that sigma is at least what
//! lambda = 40 asks for one decryption of the ciphertext's error bound, a bound it knows itself:
//! the one BFV and BGV ciphertexts carry, or one it states (CKKS, or a ciphertext from a sender
//! it does not trust) ([`ShareSmudging`], [`Smudging::stated`]); weaker smudging only by name
//! ([`Smudging::unchecked`]).
//!
//! # HPR (Bajard et al. (HPR-FV, ePrint 2019/500)): not supported, and why
//!
//! HPR-FV's keys are RLWE samples modulo q = p^d, so the protocols are sound for it in principle
//! (every key and share is linear in the secret). They do not carry over through this module's
//! code, which works on the RLWE layer ([`KeyContext`](crate::rlwe::KeyContext)): keys over the
//! RNS chain Q u P with the gadget key switching of [`crate::rlwe::KeySwitcher`], uniform
//! polynomials expanded per limb of Q u P from the CRS, shares laid out per key-ring component
//! ([`Round`]), and ciphertexts seen as (c_0, c_1) over Q_l ([`Collective`]). `HprContext`
//! implements none of that: an HPR polynomial is d carried base-p digits over P u B_sk
//! (`rnsfhe_math::rns::HprBasis`), sums need carry propagation mod p^d, its keys are
//! `rlwe_sample`s with a drawn from the rng (no seed, no CRS) in its own relinearisation layout
//! (d k samples of p^i (p / p_j) s^2, or d per digit), decryption reads the top digit, and its
//! secret has coefficients in {-1, 0, 1} only (`HprSecretKey`: not even the collective secret
//! sum_i s_i, nor a Shamir share or combined threshold secret, which are uniform mod q). As
//! `HprContext` is no `KeyContext`, no function here accepts it (a type error, not a runtime
//! refusal). Supporting it means a second implementation of every protocol, share
//! layout, smudged decryption and byte format on digit arithmetic: a contortion, where HPR was to
//! be supported only if it fits without one.
//!
//! # Example
//!
//! Three parties: a collective public key, an encryption, a collective decryption.
//!
//! ```
//! use rnsfhe::bfv::{BfvContext, BfvParameters};
//! use rnsfhe::multiparty::{ckg, cks_share, decrypt, cks_round, Aggregator, Party, Smudging};
//! use rnsfhe::params::Security;
//! use rnsfhe::rlwe::Crs;
//! use rnsfhe_math::sample::Csprng;
//!
//! # fn main() -> rnsfhe::Result<()> {
//! let params = BfvParameters::builder()
//!     .degree(1024)
//!     .plain_modulus(12289)
//!     .moduli_bits(&[50, 50])
//!     .special_moduli_bits(&[50])
//!     .security(Security::InsecureResearchOnly)
//!     .build()?;
//! let ctx = BfvContext::new(params)?;
//! let crs = Crs::new([7; 32]);
//! let mut rng = Csprng::from_seed([1; 32]);
//! let mut parties = (0..3)
//!     .map(|i| Party::generate(&*ctx, i, &mut rng))
//!     .collect::<rnsfhe::Result<Vec<_>>>()?;
//!
//! let mut agg = Aggregator::new(&*ctx, ckg::round(&*ctx, &crs, None), &[0, 1, 2])?;
//! for p in &parties {
//!     agg.add(&ckg::share(&*ctx, p, &crs)?)?;
//! }
//! let pk = ckg::public_key(&*ctx, &crs, &agg.finish()?, &[0, 1, 2])?;
//! parties.iter_mut().try_for_each(|p| p.join(&pk))?;
//!
//! let ct = ctx.encrypt(&ctx.encode(&[5, 7, 11])?, &pk, &mut rng)?;
//! let smudging = Smudging::for_ciphertext(&*ctx, &ct, 40)?;
//! let mut agg = Aggregator::new(&*ctx, cks_round(&*ctx, &crs, &ct, None, None)?, &[0, 1, 2])?;
//! for p in &parties {
//!     agg.add(&cks_share(&*ctx, p, None, &ct, &crs, &smudging, &mut rng)?)?;
//! }
//! let pt = decrypt(&*ctx, &crs, &ct, &agg.finish()?, &[0, 1, 2], &smudging)?;
//! assert_eq!(&ctx.decode(&pt)?[..3], &[5, 7, 11]);
//! # Ok(())
//! # }
//! ```

mod aggregate;
mod bytes;
pub mod ckg;
mod ckks_map;
mod crp;
mod keyswitch;
mod membership;
mod party;
pub mod refresh;
mod refresh_schemes;
mod refresh_terms;
mod reshare;
pub mod rkg;
pub mod rtg;
mod schemes;
mod share;
mod smudging;
mod smudging_floor;
pub mod threshold;
pub mod transform;
mod transform_params;

pub use crate::ShareFault;
pub use aggregate::Aggregator;
pub use crp::Crp;
pub use keyswitch::{
    cks_round, cks_share, decrypt, key_switch, pcks_round, pcks_share, public_key_switch,
};
pub use party::Party;
pub use refresh::{Refresh, RefreshCrp};
pub use refresh_schemes::Refreshable;
pub use schemes::{CiphertextView, Collective};
pub use share::{crs_id, Group, Protocol, Round, Share, ShareDigest, MAX_PARTIES};
pub use smudging::{ReceiverSecret, Smudging, DEFAULT_LAMBDA};
pub use smudging_floor::{NoiseBound, ShareSmudging};
pub use threshold::{ShamirPolynomial, ThresholdSecret};
pub use transform::SlotMap;

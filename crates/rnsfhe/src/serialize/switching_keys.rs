//! Switching keys and encapsulation key pairs to and from bytes (kinds 22 and 23, format 5): the
//! identities of the source and target key pairs, the target's distribution, the number of special
//! primes the key uses (a prefix of P), then the key-switching key (level first) over the
//! parameters' key switcher or the one of q_0..q_l and P' ([`SwitchingKey::switcher_for`]).

use super::key_switch_key::check_layout;
use super::{Kind, Reader, Writer};
use crate::rlwe::{EncapsulationKeys, KeyContext, KeyId, SwitchingKey};
use crate::{Error, Result};

impl Writer {
    fn switching_key(&mut self, key: &SwitchingKey) {
        self.u64(key.from.0);
        self.u64(key.to.0);
        self.secret_distribution(key.to_distribution);
        self.u32(key.special as u32);
        self.key_switch_key(&key.key);
    }
}

impl Reader<'_> {
    fn switching_key(&mut self, ctx: &dyn KeyContext) -> Result<SwitchingKey> {
        let from = KeyId(self.u64()?);
        let to = KeyId(self.u64()?);
        let to_distribution = self.secret_distribution()?;
        super::params::check_hamming(to_distribution, ctx.key_switcher().ring_q().degree())?;
        let special = self.u32()? as usize;
        let main = ctx.key_switcher();
        let layout = self.key_layout()?;
        let level = self.u32()? as usize;
        let own = SwitchingKey::switcher_for(main, level, special)
            .map_err(|e| Error::Malformed(format!("a switching key: {e}")))?;
        let sw = own.as_deref().unwrap_or(main);
        let key_level = if own.is_some() { sw.top_level() } else { level };
        sw.key_ring(0, key_level)
            .map_err(|e| Error::Malformed(format!("a switching key at level {level}: {e}")))?;
        check_layout(layout, sw, key_level)?;
        let key = self.key_switch_body(sw, key_level)?;
        Ok(SwitchingKey {
            key,
            own,
            special,
            fingerprint: ctx.params_fingerprint(),
            from,
            to,
            to_distribution,
        })
    }
}

pub(super) fn to_bytes(key: &SwitchingKey) -> Vec<u8> {
    let mut w = Writer::new(Kind::SwitchingKey, key.fingerprint);
    w.switching_key(key);
    w.finish()
}

pub(super) fn from_bytes(ctx: &dyn KeyContext, bytes: &[u8]) -> Result<SwitchingKey> {
    let mut r = Reader::new(bytes, Kind::SwitchingKey, ctx.params_fingerprint())?;
    let key = r.switching_key(ctx)?;
    r.end()?;
    Ok(key)
}

pub(super) fn pair_to_bytes(keys: &EncapsulationKeys) -> Vec<u8> {
    let mut w = Writer::new(
        Kind::EncapsulationKeys,
        keys.dense_to_sparse().fingerprint(),
    );
    w.switching_key(keys.dense_to_sparse());
    w.switching_key(keys.sparse_to_dense());
    w.finish()
}

pub(super) fn pair_from_bytes(ctx: &dyn KeyContext, bytes: &[u8]) -> Result<EncapsulationKeys> {
    let mut r = Reader::new(bytes, Kind::EncapsulationKeys, ctx.params_fingerprint())?;
    let first = r.switching_key(ctx)?;
    let second = r.switching_key(ctx)?;
    r.end()?;
    EncapsulationKeys::from_keys(first, second)
        .map_err(|e| Error::Malformed(format!("an encapsulation key pair: {e}")))
}

//! RNS bases and base conversions.

//! Polynomial rings in RNS form.

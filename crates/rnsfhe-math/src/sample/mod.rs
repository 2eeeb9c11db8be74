//! Randomness: CSPRNG and samplers.

//! Ranking catalog entries for `agx search`.

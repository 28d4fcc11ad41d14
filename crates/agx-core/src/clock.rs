//! The time of day as agx records it: whole seconds since the Unix epoch (receipts, sign-ins,
//! token lifetimes).

/// Now, in seconds since the Unix epoch (0 on a clock set before it).
pub fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

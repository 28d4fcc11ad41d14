//! Writing folder registries: `agx registry init|add|yank`.

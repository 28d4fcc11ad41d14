//! Version and dependency resolution (DESIGN §4).

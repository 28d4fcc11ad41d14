//! The local store: layout, locking, install/uninstall transactions, receipts (DESIGN §4).

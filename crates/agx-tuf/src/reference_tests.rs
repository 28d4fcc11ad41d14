//! The client workflow against metadata made by python-tuf (registry-fixtures/tuf/), so
//! that what is expected of agx is not agx's own making.

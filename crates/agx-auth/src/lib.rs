//! Sign-ins to remote MCP servers (docs/auth.md): the MCP authorization flow (OAuth 2.1,
//! authorization code with PKCE, discovered from the server) done once by `agx auth login`,
//! its tokens kept in the keyring, and an HTTP client for `agx serve` that attaches them and
//! refreshes them.
//!
//! The protocol is rmcp's `auth` module (discovery by RFC 9728 and RFC 8414 with OpenID
//! fallbacks, client registration by pre-registered credentials, Client ID Metadata
//! Documents or dynamic registration, PKCE, `resource` indicators, `iss` checks, refresh and
//! scope step-up); this crate adds where tokens live, the loopback redirect, the browser, and
//! the errors a person can act on.

mod browser;
mod callback;
mod challenge;
mod client;
mod error;
mod login;
mod sign_ins;

pub use browser::{BROWSER_ENV, open_in_browser};
pub use callback::{Callback, Redirect, parse_callback};
pub use challenge::{Challenge, challenge_in};
pub use client::{SignedInClient, signed_in_client};
pub use error::AuthError;
pub use login::{ClientChoice, LoginRequest, asks_for_sign_in, login, login_client_credentials};
pub use sign_ins::{Resource, SignIn, SignIns};

/// reqwest is built without a default TLS provider; installing one twice fails harmlessly.
fn install_tls_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

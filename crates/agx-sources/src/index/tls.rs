//! The system's certificate verification, set up when a TLS handshake first needs it.
//!
//! reqwest builds rustls-platform-verifier's verifier when a client is built, and on Linux
//! that reads and parses every root certificate of the system (about 300 files): some
//! 20 ms on every command that builds a client, even one that then only speaks plain HTTP
//! to a loopback registry. Wrapping the same verifier in a [`OnceLock`] keeps its
//! behaviour (the platform's roots and, on macOS and Windows, the platform's own checks)
//! and moves that cost to the first HTTPS connection.

use std::sync::{Arc, OnceLock};

use rustls::DigitallySignedStruct;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, SignatureScheme};
use rustls_platform_verifier::Verifier;

/// A rustls client configuration whose server certificates are checked by the platform's
/// verifier, created at the first handshake; HTTP/1.1 only, as reqwest's own would be.
pub(crate) fn lazy_platform_config() -> Result<ClientConfig, rustls::Error> {
    super::http::install_tls_provider();
    let provider = CryptoProvider::get_default()
        .cloned()
        .unwrap_or_else(|| Arc::new(rustls::crypto::ring::default_provider()));
    let mut config = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(LazyPlatformVerifier {
            provider,
            verifier: OnceLock::new(),
        }))
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(config)
}

#[derive(Debug)]
struct LazyPlatformVerifier {
    provider: Arc<CryptoProvider>,
    /// The platform verifier, or why it could not be set up (no roots on the system): that
    /// error fails every handshake, as it would have failed the client's build.
    verifier: OnceLock<Result<Verifier, rustls::Error>>,
}

impl LazyPlatformVerifier {
    fn verifier(&self) -> Result<&Verifier, rustls::Error> {
        self.verifier
            .get_or_init(|| Verifier::new(self.provider.clone()))
            .as_ref()
            .map_err(Clone::clone)
    }
}

impl ServerCertVerifier for LazyPlatformVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        self.verifier()?.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        )
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.verifier()?.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.verifier()?.verify_tls13_signature(message, cert, dss)
    }

    /// Offered in the ClientHello, before any certificate: the provider's schemes, which is
    /// what the platform verifier answers too, without loading the roots.
    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

/// Whether `error` or one of its causes is a server certificate rustls refused: not worth a
/// retry, and its fix is a trust store, not a connection.
pub(crate) fn is_certificate_error(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut next = Some(error);
    while let Some(error) = next {
        if matches!(
            error.downcast_ref::<rustls::Error>(),
            Some(rustls::Error::InvalidCertificate(_))
        ) {
            return true;
        }
        // An io::Error's `source` skips the error it wraps (hyper's holds tokio-rustls's,
        // which holds rustls's): go into it instead.
        next = match error.downcast_ref::<std::io::Error>() {
            Some(io) => io
                .get_ref()
                .map(|inner| inner as &(dyn std::error::Error + 'static)),
            None => error.source(),
        };
    }
    false
}

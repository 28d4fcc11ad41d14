//! Reading a remote's refusal out of an HTTP client error: a 401 (a sign-in is needed, or the
//! one kept was revoked) or a 403 `insufficient_scope` (the sign-in lacks a scope).

use rmcp::transport::auth::AuthError;
use rmcp::transport::streamable_http_client::StreamableHttpError;

/// Why a remote refused a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Challenge {
    /// 401: sign in (again).
    SignInNeeded,
    /// 403 `insufficient_scope`, with the scope the server named, if it did.
    ScopeNeeded { scope: Option<String> },
}

/// The challenge anywhere in `error`'s chain of causes, if the remote refused for want of a
/// sign-in or a scope.
pub fn challenge_in(error: &(dyn std::error::Error + 'static)) -> Option<Challenge> {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = cause {
        if let Some(http) = e.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
            return match http {
                StreamableHttpError::AuthRequired(_) => Some(Challenge::SignInNeeded),
                StreamableHttpError::InsufficientScope(refusal) => Some(Challenge::ScopeNeeded {
                    scope: refusal.required_scope.clone(),
                }),
                // A refresh the authorization server refused, or nothing to refresh with; a
                // refresh that failed otherwise (network, store) is an ordinary failure.
                StreamableHttpError::Auth(
                    AuthError::AuthorizationRequired | AuthError::TokenRefreshRejected(_),
                ) => Some(Challenge::SignInNeeded),
                _ => None,
            };
        }
        cause = inner_transport_error(e).or_else(|| e.source());
    }
    None
}

/// The transport's error inside rmcp's service errors, which carry it without naming it as
/// their source.
fn inner_transport_error<'a>(
    e: &'a (dyn std::error::Error + 'static),
) -> Option<&'a (dyn std::error::Error + 'static)> {
    use rmcp::service::{ClientInitializeError, ServiceError};
    use rmcp::transport::DynamicTransportError;
    let transport: &DynamicTransportError =
        if let Some(e) = e.downcast_ref::<ClientInitializeError>() {
            match e {
                ClientInitializeError::TransportError { error, .. } => error,
                _ => return None,
            }
        } else if let Some(ServiceError::TransportSend(error)) = e.downcast_ref::<ServiceError>() {
            error
        } else {
            e.downcast_ref::<DynamicTransportError>()?
        };
    Some(transport.error.as_ref())
}

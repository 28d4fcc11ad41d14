//! The HTTP client as TUF's fetcher: the same retries, limits and TLS settings as every other
//! registry request, with the byte cap TUF gives each file.

use std::io::Read;

use agx_tuf::{FetchError, Fetcher};

use super::error::IndexError;
use super::http::{Http, SinkError};

impl Fetcher for Http {
    fn fetch(&self, url: &str, max_length: u64) -> Result<Vec<u8>, FetchError> {
        let mut body = Vec::new();
        let result = self.download_unsized(url, |reader: &mut dyn Read| {
            body.clear();
            let mut capped = reader.take(max_length + 1);
            capped
                .read_to_end(&mut body)
                .map_err(|e| SinkError::Read(e, body.len() as u64))?;
            if body.len() as u64 > max_length {
                return Err(SinkError::Fatal(IndexError::IndexTooLarge {
                    url: url.to_string(),
                    limit: max_length,
                }));
            }
            Ok(())
        });
        match result {
            Ok(()) => Ok(body),
            // 403 as 404: a host that hides what it lacks (TUF's root chain ends either way).
            Err(IndexError::NotFound { .. }) | Err(IndexError::Status { status: 403, .. }) => {
                Err(FetchError::NotFound)
            }
            Err(e) => Err(FetchError::Failed(e.to_string())),
        }
    }
}

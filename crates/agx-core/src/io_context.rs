//! I/O errors that name their path. File system calls go through `fs_err`, whose errors
//! already do; [`at`] gives the same to the steps it cannot wrap (a tar stream, a temp
//! file's persist, a lock), so every module's I/O error is one `std::io::Error` variant.

use std::fmt;
use std::path::{Path, PathBuf};

/// `map_err(at("write the archive", path))`: the error keeps its kind and source, and its
/// message says what was being done where.
pub fn at(
    action: &'static str,
    path: impl AsRef<Path>,
) -> impl FnOnce(std::io::Error) -> std::io::Error {
    let path = path.as_ref().to_path_buf();
    move |source| {
        std::io::Error::new(
            source.kind(),
            PathContext {
                action,
                path,
                source,
            },
        )
    }
}

#[derive(Debug)]
struct PathContext {
    action: &'static str,
    path: PathBuf,
    source: std::io::Error,
}

impl fmt::Display for PathContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot {} {}", self.action, self.path.display())
    }
}

impl std::error::Error for PathContext {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_kind_and_names_the_path() {
        let e = at("write", Path::new("/x/y"))(std::io::Error::from(
            std::io::ErrorKind::PermissionDenied,
        ));
        assert_eq!(e.kind(), std::io::ErrorKind::PermissionDenied);
        assert_eq!(e.to_string(), "cannot write /x/y");
        let inner = std::error::Error::source(e.get_ref().unwrap()).unwrap();
        assert_eq!(inner.to_string(), "permission denied");
    }
}

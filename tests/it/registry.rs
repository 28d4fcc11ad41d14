//! Integration tests: registry sources, HTTP caching and faults, publishing, search.

use crate::support::http::{Fault, HttpServer, raw_get};

#[test]
fn test_server_serves_files_and_injects_faults() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), b"hello").unwrap();
    let server = HttpServer::serve(dir.path());
    assert_eq!(raw_get(&server.url(), "/a.txt"), (200, b"hello".to_vec()));
    assert_eq!(raw_get(&server.url(), "/missing").0, 404);
    server.fault("/a.txt", Fault::Fail { status: 500, times: 2 });
    assert_eq!(raw_get(&server.url(), "/a.txt").0, 500);
    assert_eq!(raw_get(&server.url(), "/a.txt").0, 500);
    assert_eq!(raw_get(&server.url(), "/a.txt").0, 200);
    server.fault("/a.txt", Fault::Truncate { keep: 2 });
    assert_eq!(raw_get(&server.url(), "/a.txt"), (200, b"he".to_vec()));
    server.fault("/a.txt", Fault::WrongBytes);
    assert_ne!(raw_get(&server.url(), "/a.txt").1, b"hello".to_vec());
    server.fault("/a.txt", Fault::NotFound);
    assert_eq!(raw_get(&server.url(), "/a.txt").0, 404);
    assert_eq!(server.count("/a.txt"), 7);
}

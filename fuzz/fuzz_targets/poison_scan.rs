//! The poisoning scan (`agx_model::scan`, docs/security.md) over text a package or a wrapped
//! server supplies. Input: any bytes, read as UTF-8 (lossily), scanned as a description, as
//! instructions and as prompt content; when the bytes are JSON, also as an MCP list item.
//!
//! Properties: nothing panics; every hit starts on a character boundary inside the text, in
//! order; each finding's line and column lie in the text; content is scanned for characters
//! only, so its hits are a subset of a description's.
#![no_main]

use agx_model::scan::{self, Origin, Subject, SubjectKind, TextKind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut all = Vec::new();
    for kind in [TextKind::Description, TextKind::Instructions, TextKind::Content] {
        let hits = scan::scan_text(&text, kind);
        let mut last = 0;
        for hit in &hits {
            assert!(hit.offset <= text.len() && text.is_char_boundary(hit.offset));
            assert!(hit.offset >= last, "hits are in order");
            last = hit.offset;
        }
        all.push(hits);
    }
    for hit in &all[2] {
        assert!(all[0].contains(hit), "content hit {hit:?} not found in a description");
    }

    let subject = Subject {
        kind: SubjectKind::Tool,
        name: "t".into(),
    };
    let lines = text.split('\n').count();
    for f in scan::findings_of(&text, TextKind::Description, &subject, "description", Origin::Listed) {
        assert!(f.line >= 1 && f.line <= lines, "line {} of {lines}", f.line);
        assert!(f.column >= 1 && f.occurrences >= 1);
    }

    if let Ok(item) = serde_json::from_slice::<serde_json::Value>(data) {
        let _ = scan::scan_listed(SubjectKind::Tool, &item);
    }
});

//! The poisoning scan at serve time (docs/security.md): an agx server's tool, prompt or
//! resource with a high finding is not served — not listed, not callable — unless the install
//! of its package accepted that finding's code (`accepted_findings` in the version's
//! receipt). Each hidden item is logged with the finding and how to accept it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::assemble::Assembly;
use agx_core::name::QualifiedName;
use agx_model::scan::{self, ScanFinding};
use agx_store::{ReceiptHeader, VERSION_RECEIPT};

/// Drop the items of `assembly` that have a high finding their package did not accept.
pub(crate) fn hide_poisoned(assembly: &mut Assembly) {
    let accepted = Accepted::default();
    assembly
        .tools
        .retain(|t| accepted.keep(&t.qualified, &t.package_dir, &scan::scan_tool(&t.def)));
    assembly
        .prompts
        .retain(|p| accepted.keep(&p.qualified, &p.package_dir, &scan::scan_prompt(&p.def)));
    assembly
        .resources
        .retain(|r| accepted.keep(&r.qualified, &r.package_dir, &scan::scan_resource(&r.def)));
}

/// The scan codes the install of the version in `package_dir` accepted (none when its
/// receipt cannot be read).
pub(crate) fn accepted_in(package_dir: &Path) -> Vec<String> {
    ReceiptHeader::read(&package_dir.join(VERSION_RECEIPT))
        .map(|r| r.accepted_findings)
        .unwrap_or_default()
}

/// The accepted codes of each package folder, read once from its receipt.
#[derive(Default)]
struct Accepted(RefCell<HashMap<PathBuf, Vec<String>>>);

impl Accepted {
    fn keep(&self, item: &QualifiedName, package_dir: &Path, findings: &[ScanFinding]) -> bool {
        if !findings.iter().any(|f| f.severity == scan::Severity::High) {
            return true;
        }
        let mut cache = self.0.borrow_mut();
        // A receipt that cannot be read accepts nothing.
        let accepted = cache
            .entry(package_dir.to_path_buf())
            .or_insert_with(|| accepted_in(package_dir));
        let blocked: Vec<&ScanFinding> = scan::unaccepted(findings, accepted).collect();
        for f in &blocked {
            tracing::warn!(
                "not serving {item}: {f}; if you trust it, install {} again with `--accept-finding {}` (docs/security.md)",
                item.package,
                f.code
            );
        }
        blocked.is_empty()
    }
}

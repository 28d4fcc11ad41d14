//! `agx tree`: the packages a project needs, under the server keys that need them.

use super::Context;
use crate::cli::TreeArgs;
use agx_core::error::CliResult;
use agx_ops::project::{self, TreeNode};

pub fn run(ctx: &Context, args: &TreeArgs) -> CliResult {
    let servers = project::tree(args.project.project.as_deref())?;
    if args.project.json {
        ctx.printer
            .outln(&serde_json::to_string_pretty(&servers).expect("serializable"))?;
        return Ok(());
    }
    let mut out = String::new();
    for s in &servers {
        out.push_str(&format!("{} ({})\n", s.key, s.launches));
        write_node(&mut out, &s.package, "");
    }
    ctx.printer.out(out)
}

fn write_node(out: &mut String, node: &TreeNode, indent: &str) {
    out.push_str(&format!("{indent}└── {} {}\n", node.name, node.version));
    let deeper = format!("{indent}    ");
    for dep in &node.dependencies {
        write_node(out, dep, &deeper);
    }
}

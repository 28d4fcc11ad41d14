//! `agx tree`: the packages a project needs, under the server and skill keys that need them.

use super::Context;
use crate::cli::TreeArgs;
use agx_core::error::CliResult;
use agx_ops::project::{self, TreeNode, TreeRoot};

pub fn run(ctx: &Context, args: &TreeArgs) -> CliResult {
    let roots = project::tree(args.project.project.as_deref())?;
    if args.project.json {
        ctx.printer
            .outln(&serde_json::to_string_pretty(&roots).expect("serializable"))?;
        return Ok(());
    }
    let mut out = String::new();
    for root in &roots {
        let (heading, package) = match root {
            TreeRoot::Server(s) => (format!("{} ({})", s.key, s.launches), Some(&s.package)),
            TreeRoot::Skill(s) => (format!("{} (skill {})", s.key, s.skill), Some(&s.package)),
            // The project's own folder: no package under it.
            TreeRoot::SkillFolder(s) => (format!("{} (skill folder {})", s.key, s.path), None),
        };
        out.push_str(&heading);
        out.push('\n');
        if let Some(package) = package {
            write_node(&mut out, package, "");
        }
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

//! `agx new <dir>`: create a package through `ops::new` and say what to do next.

use std::path::Path;

use super::Context;
use crate::cli::NewArgs;
use agx_core::error::CliResult;
use agx_core::name::PackageName;
use agx_ops::new;

pub fn run(ctx: &Context, args: &NewArgs) -> CliResult {
    let p = &ctx.printer;
    if let Some(skill) = &args.skill {
        let created = new::create_skill(&args.dir, args.name.as_deref(), skill)?;
        announce(ctx, &created.package, &created.dir, &created.files);
        let dir = created.dir.display();
        return p.outln(&format!(
            "next: write the instructions in {dir}/skills/{skill}/SKILL.md, then\n  agx validate {dir}\n  agx install {dir}\n  agx list --skills",
        ));
    }
    let created = new::create(&args.dir, args.name.as_deref(), args.lang)?;
    announce(ctx, &created.package, &created.dir, &created.files);
    let dir = created.dir.display();
    p.outln(&format!(
        "next:\n  agx validate --probe {dir}\n  agx install {dir}\n  agx call {} --arg name=Ada\n  agx prompt {} --arg name=Ada\n  agx serve {}",
        created.tool, created.prompt, created.server
    ))
}

/// `Created package P in DIR`, then each file written.
fn announce(ctx: &Context, package: &PackageName, dir: &Path, files: &[impl AsRef<str>]) {
    let p = &ctx.printer;
    p.status(
        "Created",
        &format!("package {package} in {}", dir.display()),
    );
    for file in files {
        p.note(file.as_ref());
    }
}

//! One module per subcommand; each is thin and calls into the library.

use crate::cli::{Cli, Command, GlobalArgs};
use agx_core::error::CliResult;
use agx_core::paths::AgxPaths;
use agx_printer::Printer;

pub mod add;
pub mod audit;
pub mod auth;
pub mod call;
pub mod clients;
pub mod completions;
pub mod config;
pub mod discover;
pub mod doctor;
pub mod export;
pub mod gc;
pub mod info;
pub mod install;
pub mod install_server;
pub mod list;
pub mod lock;
pub mod login;
pub mod new;
pub mod outdated;
pub mod pack;
pub mod permissions;
pub mod policy;
pub mod prompt;
pub mod publish;
pub mod registry;
pub mod remove;
pub mod sbom;
pub mod search;
pub mod serve;
pub mod skills;
pub mod sync;
pub mod tools;
pub mod tree;
pub mod uninstall;
pub mod uninstall_server;
pub mod update;
pub mod validate;
pub mod verify;

/// The clients of a command that takes `CLIENT TARGET` or `--client C… TARGET`, and the
/// target (`install-skill`, `uninstall-skill`, `install-server`); `example` is such a target
/// for the hint.
pub(crate) fn clients_and_target<'a>(
    targets: &'a [String],
    clients: &'a [String],
    example: &str,
) -> agx_core::error::CliResult<(Vec<&'a str>, &'a str)> {
    use agx_core::error::CliError;
    match (targets, clients.is_empty()) {
        ([client, target], true) => Ok((vec![client.as_str()], target.as_str())),
        ([target], false) => Ok((clients.iter().map(String::as_str).collect(), target)),
        ([_], true) => Err(CliError::new("no client given").with_hint(format!(
            "name it first (`codex {example}`) or with --client codex"
        ))),
        (_, _) => Err(
            CliError::new("the client is given twice: as an argument and with --client").with_hint(
                format!("keep one: `--client codex --client gemini {example}`"),
            ),
        ),
    }
}

/// What every command gets: the global flags, the printer and agx's folders.
pub struct Context {
    pub global: GlobalArgs,
    pub printer: Printer,
    paths: std::cell::OnceCell<AgxPaths>,
}

impl Context {
    pub fn new(global: GlobalArgs, printer: Printer) -> Self {
        Context {
            global,
            printer,
            paths: std::cell::OnceCell::new(),
        }
    }

    /// The context of library operations: folders, registry choice, and the printer as
    /// their reporter.
    pub fn ops(&self) -> CliResult<agx_ops::Context<'_>> {
        Ok(agx_ops::Context {
            paths: self.paths()?,
            registry: self.global.registry.as_deref(),
            registry_root: self.global.root.as_deref(),
            offline: self.global.offline,
            reporter: &self.printer,
            accept_findings: &[],
            signer_changes: Default::default(),
        })
    }

    /// agx's folders, resolved on first use (commands such as `validate` never need them).
    pub fn paths(&self) -> CliResult<&AgxPaths> {
        if let Some(p) = self.paths.get() {
            return Ok(p);
        }
        let p = AgxPaths::from_env()?;
        Ok(self.paths.get_or_init(|| p))
    }
}

/// Run the parsed command line.
pub fn run(cli: Cli, printer: Printer) -> CliResult {
    let ctx = Context::new(cli.global, printer);
    match &cli.command {
        Command::Install(a) => install::run(&ctx, a),
        Command::Uninstall(a) => uninstall::run(&ctx, a),
        Command::Update(a) => update::run(&ctx, a),
        Command::Outdated(a) => outdated::run(&ctx, a),
        Command::Gc(a) => gc::run(&ctx, a),
        Command::List(a) => list::run(&ctx, a),
        Command::Search(a) => search::run(&ctx, a),
        Command::Info(a) => info::run(&ctx, a),
        Command::Tools(a) => tools::run(&ctx, a),
        Command::Trust(a) => tools::trust(&ctx, a),
        Command::New(a) => new::run(&ctx, a),
        Command::Discover(a) => discover::run(&ctx, a),
        Command::Validate(a) => validate::run(&ctx, a),
        Command::Audit(a) => audit::run(&ctx, a),
        Command::Verify(a) => verify::run(&ctx, a),
        Command::Pack(a) => pack::run(&ctx, a),
        Command::Publish(a) => publish::run(&ctx, a),
        Command::Sbom(a) => sbom::run(&ctx, a),
        Command::Policy(a) => policy::run(&ctx, a),
        Command::Login(a) => login::login(&ctx, a),
        Command::Logout(a) => login::logout(&ctx, a),
        Command::Auth(a) => auth::run(&ctx, a),
        Command::Export(a) => export::run(&ctx, a),
        Command::Registry(a) => registry::run(&ctx, a),
        Command::InstallServer(a) => install_server::run(&ctx, a),
        Command::UninstallServer(a) => uninstall_server::run(&ctx, a),
        Command::InstallSkill(a) => {
            skills::run(&ctx, &a.skill, skills::Action::Install(&a.accept.codes))
        }
        Command::UninstallSkill(a) => skills::run(&ctx, a, skills::Action::Uninstall),
        Command::Clients(a) => clients::run(&ctx, a),
        Command::Doctor(a) => doctor::run(&ctx, a),
        Command::Config(a) => config::run(&ctx, a),
        Command::Permissions(a) => permissions::run(&ctx, a),
        Command::Serve(a) => serve::run(&ctx, a),
        Command::Call(a) => call::run(&ctx, a),
        Command::Prompt(a) => prompt::run(&ctx, a),
        Command::Add(a) => add::run(&ctx, a),
        Command::Remove(a) => remove::run(&ctx, a),
        Command::Lock(a) => lock::run(&ctx, a),
        Command::Sync(a) => sync::run(&ctx, a),
        Command::Tree(a) => tree::run(&ctx, a),
        Command::Completions(a) => completions::run(&ctx, a),
    }
}

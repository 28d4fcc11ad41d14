//! Command-line definitions (clap derive). Also the source of the generated shell
//! completions and man pages, so every command and flag carries its help text here.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use agx_clients::Scope;
pub use agx_printer::ColorChoice;

/// agx — a package manager for AI-agent extensions: MCP servers, tools, prompts, resources, Agent Skills and plugins.
#[derive(Debug, Parser)]
#[command(name = "agx", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

// Flags accepted by every command (a plain comment, as for `ProjectArgs`).
#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// Registry to use: a configured name, an https:// URL or a local folder.
    #[arg(long, global = true, env = "AGX_REGISTRY", value_name = "REGISTRY")]
    pub registry: Option<String>,

    /// A TUF root (`root.json` from the registry's operator): pins it for `registry
    /// add-source`, or verifies a `--registry URL|FOLDER` against it for this run.
    #[arg(
        long,
        global = true,
        env = "AGX_REGISTRY_ROOT",
        value_name = "ROOT.json"
    )]
    pub root: Option<PathBuf>,

    /// Print less: only results and errors.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,

    /// Print more detail (repeat for even more).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,

    /// Use only cached index data; never touch the network.
    #[arg(long, global = true)]
    pub offline: bool,

    /// When to use colours in messages.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,
}

// Deferred: a subcommand's arguments are built only when it runs, which keeps parsing of
// the most frequent command, `agx serve` (started on every client launch), fast.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum Command {
    /// Install packages from the registry, or a local package folder or tarball.
    Install(InstallArgs),
    /// Remove installed packages.
    Uninstall(UninstallArgs),
    /// Update installed packages to the newest versions their requirements allow.
    Update(UpdateArgs),
    /// Show installed packages that have newer versions in the registry.
    Outdated(JsonArgs),
    /// Remove installed versions that neither the user nor any project holds.
    Gc(GcArgs),
    /// List installed packages and what they contribute.
    List(ListArgs),
    /// Search the registry's catalog by name, description and item names.
    Search(SearchArgs),
    /// Show details of a package or a server.
    Info(InfoArgs),
    /// List the tools a client sees of a server after its filter, with token estimates.
    Tools(ToolsArgs),
    /// Accept what a wrapped or remote server lists now as its pinned definitions.
    Trust(TrustArgs),
    /// Create a package folder with a tool, a prompt and a server, ready to validate.
    New(NewArgs),
    /// Find the tools in a folder of scripts and write their definitions.
    Discover(DiscoverArgs),
    /// Check an extension package before publishing.
    Validate(ValidateArgs),
    /// Run the poisoning scan over installed packages (docs/security.md).
    Audit(AuditArgs),
    /// Check installed files and signers against what their install recorded.
    Verify(VerifyArgs),
    /// Build a deterministic .tar.gz of a package.
    Pack(PackArgs),
    /// Publish a package to an OCI registry (oci://HOST/NAMESPACE) or a folder registry.
    Publish(PublishArgs),
    /// Write a software bill of materials (CycloneDX or SPDX JSON).
    Sbom(SbomArgs),
    /// Store a registry's credential in the keyring (docs/organizations.md).
    Login(LoginArgs),
    /// Forget a registry's stored credential.
    Logout(LogoutArgs),
    /// Sign in to remote MCP servers that ask for it (OAuth), once for every client.
    #[command(subcommand)]
    Auth(AuthCommand),
    /// Write packages as Claude Code/Codex, Gemini CLI or Agent Plugins bundles.
    Export(ExportArgs),
    /// Manage configured registries and folder registries.
    #[command(subcommand)]
    Registry(RegistryCommand),
    /// Add an entry that launches `agx serve` to an MCP client's configuration.
    InstallServer(InstallServerArgs),
    /// Remove an entry that agx wrote from an MCP client's configuration.
    UninstallServer(UninstallServerArgs),
    /// Copy a package's Agent Skill into a client's skills folder (or every client's).
    InstallSkill(InstallSkillArgs),
    /// Remove a skill copy that agx wrote from a client's skills folder.
    UninstallSkill(SkillArgs),
    /// List supported MCP clients, their config files and the agx entries in them.
    Clients(JsonArgs),
    /// Find drift between recorded client entries, client files and the store.
    Doctor(DoctorArgs),
    /// Set, show and remove the values of packages' settings and secrets.
    #[command(subcommand)]
    Config(ConfigCommand),
    /// Set, show and reset your permissions of a server (docs/sandbox.md).
    #[command(subcommand)]
    Permissions(PermissionsCommand),
    /// Show the organisation's policy in effect here, rule by rule (docs/policy.md).
    #[command(subcommand)]
    Policy(PolicyCommand),
    /// Run a package's server as an MCP server (stdio, or Streamable HTTP on loopback).
    Serve(ServeArgs),
    /// Run one installed tool as `agx serve` would, and print its result.
    Call(CallArgs),
    /// Render one installed prompt as `agx serve` would, and print its messages.
    Prompt(PromptArgs),
    /// Add a server to the project's agx.toml, lock it and sync (docs/projects.md).
    Add(AddArgs),
    /// Remove a server or skill from the project's agx.toml, agx.lock and client files.
    Remove(RemoveArgs),
    /// Resolve the project's servers into agx.lock.
    Lock(LockArgs),
    /// Install the locked versions and write each listed client's project file.
    Sync(SyncArgs),
    /// Show which packages the project needs, and why.
    Tree(TreeArgs),
    /// Print a shell completion script.
    Completions(CompletionsArgs),
}

// Which project a project command works on. A plain comment: a doc comment on a flattened
// struct would become the help title of every command using it.
#[derive(Debug, Args)]
pub struct ProjectArgs {
    /// The project folder (default: the nearest folder at or above the current one whose
    /// agx.toml has [project] or [servers]).
    #[arg(long, env = "AGX_PROJECT", value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// Print JSON (the shapes are documented in docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct AddArgs {
    /// The server (`publisher/package/server`, or `publisher/package` with one server) and
    /// optionally a version requirement (default: `^` the version resolved).
    #[arg(value_name = "SERVER[@REQ]")]
    pub server: String,
    /// Add a skill (`publisher/package/skill[@REQ]`) to [skills] instead: sync copies it
    /// into the project's skills folders (docs/skills.md).
    #[arg(long)]
    pub skill: bool,
    /// The key in [servers] and in client files (default: derived from the server's name;
    /// for a skill, its name).
    #[arg(long, value_name = "KEY")]
    pub name: Option<String>,
    #[command(flatten)]
    pub project: ProjectArgs,
}

#[derive(Debug, Args)]
pub struct RemoveArgs {
    /// The key in [servers] or [skills].
    pub key: String,
    #[command(flatten)]
    pub project: ProjectArgs,
}

#[derive(Debug, Args)]
pub struct LockArgs {
    /// Let every package move to the newest version its requirements allow.
    #[arg(long, conflicts_with = "upgrade_package")]
    pub upgrade: bool,
    /// Let this package move (repeatable); the others keep their locked versions.
    #[arg(long, value_name = "PKG")]
    pub upgrade_package: Vec<String>,
    #[command(flatten)]
    pub signer: SignerArgs,
    #[command(flatten)]
    pub project: ProjectArgs,
}

#[derive(Debug, Args)]
pub struct SyncArgs {
    /// Fail if agx.lock does not match agx.toml (it would change).
    #[arg(long, group = "lock_mode")]
    pub locked: bool,
    /// Use agx.lock as it is, without comparing it with agx.toml.
    #[arg(long, group = "lock_mode")]
    pub frozen: bool,
    /// Change nothing: list every difference and exit non-zero when there is one (for CI).
    #[arg(long)]
    pub check: bool,
    /// Replace hand-written client entries whose keys the project uses.
    #[arg(long)]
    pub force: bool,
    /// Start each newly installed wrapped or remote server once to fill its compile cache
    /// and pin its definitions (this runs the server's code).
    #[arg(long)]
    pub warm: bool,
    #[command(flatten)]
    pub accept: AcceptArgs,
    #[command(flatten)]
    pub signer: SignerArgs,
    #[command(flatten)]
    pub project: ProjectArgs,
}

#[derive(Debug, Args)]
pub struct TreeArgs {
    #[command(flatten)]
    pub project: ProjectArgs,
}

#[derive(Debug, Args)]
pub struct JsonArgs {
    /// Print JSON (the shapes are documented in docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct InstallArgs {
    /// Packages (`publisher/name[@requirement]`), a package folder or .tar.gz file, an MCP
    /// server from npm (`npm:<name>[@version]`), PyPI (`pypi:<name>[==version]`), a container
    /// image (`oci:<image>[:tag|@digest]`) or an MCPB bundle (`./x.mcpb`, `https://…/x.mcpb`),
    /// or a server listed in an MCP registry (`io.github.user/weather[@version]`).
    #[arg(
        required = true,
        value_name = "PKG[@REQ]|DIR|TARBALL|npm:NAME|pypi:NAME|oci:IMAGE|BUNDLE.mcpb|SERVER[@VERSION]"
    )]
    pub packages: Vec<String>,
    /// The sha256 (64 hex digits) an MCPB bundle must have: required for a bundle from a
    /// URL, checked for a bundle file when given.
    #[arg(long, value_name = "HEX")]
    pub sha256: Option<String>,
    /// Reinstall even when the same version is already installed.
    #[arg(long)]
    pub force: bool,
    /// Let npm run the package's install scripts (off by default: installing runs no package
    /// code).
    #[arg(long)]
    pub allow_scripts: bool,
    /// Let pip build PyPI packages from source distributions (off by default: wheels only, as
    /// building runs the package's code).
    #[arg(long)]
    pub allow_sdist: bool,
    /// For a server from an MCP registry: install its package of this kind, or its remote
    /// (default: the first package whose runtime is on this machine, in the order npm,
    /// pypi, oci, mcpb; then a remote).
    #[arg(long, value_name = "KIND", value_parser = ["npm", "pypi", "oci", "mcpb", "remote"])]
    pub prefer: Option<String>,
    /// Start each newly installed wrapped or remote server once to fill its compile cache
    /// and pin its definitions before a client sees them (this runs the server's code).
    #[arg(long)]
    pub warm: bool,
    #[command(flatten)]
    pub accept: AcceptArgs,
    #[command(flatten)]
    pub signer: SignerArgs,
}

// The changes of signer an install may make (trust on first use, docs/security.md).
#[derive(Debug, Args)]
pub struct SignerArgs {
    /// Install a version signed by someone other than the signer its installed version
    /// recorded, and trust the new signer from now on (recorded; `agx info` shows it).
    #[arg(long)]
    pub allow_signer_change: bool,
    /// Install a version without a Sigstore bundle although its installed version had one
    /// (recorded; the earlier signer stays the one expected next).
    #[arg(long)]
    pub allow_unsigned: bool,
}

impl SignerArgs {
    pub fn changes(&self) -> agx_store::provenance::SignerChanges {
        agx_store::provenance::SignerChanges {
            allow_signer_change: self.allow_signer_change,
            allow_unsigned: self.allow_unsigned,
        }
    }
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Installed packages to check (`publisher/name`; default: every installed package).
    #[arg(value_name = "PKG")]
    pub packages: Vec<String>,
    /// Print JSON (the shapes are documented in docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct AuditArgs {
    /// One installed package (`publisher/name`; default: every installed package).
    #[arg(value_name = "PKG", conflicts_with = "project")]
    pub package: Option<String>,
    /// The packages of the project's agx.lock instead (the nearest folder at or above the
    /// current one with an agx.toml that has [project] or [servers]).
    #[arg(long)]
    pub project: bool,
    /// Print JSON (the shapes are documented in docs/json.md).
    #[arg(long)]
    pub json: bool,
}

// Findings of the poisoning scan to let through (docs/security.md). A plain comment: a doc
// comment on a flattened struct would become the help title of every command using it.
#[derive(Debug, Args)]
pub struct AcceptArgs {
    /// Install even though the poisoning scan has high findings of this code (`S001`, …;
    /// repeatable); the receipt records it, and `agx serve` then shows the items it is about.
    #[arg(long = "accept-finding", value_name = "CODE", value_parser = parse_finding_code)]
    pub codes: Vec<String>,
}

/// A code of the poisoning scan, in its canonical spelling.
fn parse_finding_code(text: &str) -> Result<String, String> {
    match agx_model::scan::ScanCode::lookup(text) {
        Some(code) => Ok(code.code.to_string()),
        None => Err(format!(
            "`{text}` is not a code of the poisoning scan (S001…S201, listed in docs/security.md)"
        )),
    }
}

#[derive(Debug, Args)]
pub struct UninstallArgs {
    /// Packages to remove (`publisher/name`).
    #[arg(required = true, value_name = "PKG")]
    pub packages: Vec<String>,
    /// Remove even when other packages or client entries depend on it.
    #[arg(long)]
    pub force: bool,
    /// Also remove the packages' data folders (kept otherwise, docs/store.md).
    #[arg(long)]
    pub purge: bool,
}

#[derive(Debug, Args)]
pub struct GcArgs {
    /// Say what would be removed, and remove nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print JSON (the shapes are documented in docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct UpdateArgs {
    /// Packages to update; all installed packages when none is given.
    #[arg(value_name = "PKG")]
    pub packages: Vec<String>,
    /// Move to newer versions even when they ask for more permissions than the installed
    /// ones (without it, such a package keeps its version and agx says what grew).
    #[arg(long)]
    pub accept_permissions: bool,
    #[command(flatten)]
    pub signer: SignerArgs,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Also list what the registry's catalog offers (downloads no package).
    #[arg(long)]
    pub include_remote: bool,
    /// List servers by qualified name.
    #[arg(long, group = "items")]
    pub servers: bool,
    /// List tools by qualified name.
    #[arg(long, group = "items")]
    pub tools: bool,
    /// List prompts by qualified name.
    #[arg(long, group = "items")]
    pub prompts: bool,
    /// List skills by qualified name.
    #[arg(long, group = "items")]
    pub skills: bool,
    /// Print JSON (the shapes are documented in docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Words to look for.
    #[arg(required = true)]
    pub query: Vec<String>,
    /// Print JSON (the shapes are documented in docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ToolsArgs {
    /// The server, as client entries name it (`publisher/name/server`, `npm/…`), or a
    /// profile as `@NAME`.
    #[arg(value_name = "QUALIFIED_SERVER|@PROFILE")]
    pub server: String,
    /// Estimate each tool's context cost in tokens, with totals before and after the filter.
    #[arg(long)]
    pub tokens: bool,
    /// Show how what the server lists now differs from its pinned definitions (changed,
    /// new and removed tools, prompts and resource templates).
    #[arg(long, conflicts_with = "tokens")]
    pub diff: bool,
    /// Print JSON (the shapes are documented in docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct TrustArgs {
    /// The wrapped or remote server, as client entries name it (`publisher/name/server`,
    /// `npm/…`).
    #[arg(value_name = "QUALIFIED_SERVER")]
    pub server: String,
    /// Accept only these items (tool or prompt names, resource URI templates); without
    /// them, everything the server lists now.
    #[arg(value_name = "ITEM")]
    pub items: Vec<String>,
    /// Print JSON (the shapes are documented in docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct InfoArgs {
    /// A package (`publisher/name`) or a server (`publisher/name/server`).
    #[arg(value_name = "PKG|PKG/SERVER")]
    pub target: String,
    /// Print JSON (the shapes are documented in docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Diagnostics for people, with the offending source line.
    Human,
    /// One JSON document with every finding (see docs/validate.md).
    Json,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The package folder (default: the current directory).
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Also run each tool's self-test (`{"__test__": true}`); this runs package code.
    #[arg(long)]
    pub probe: bool,
    /// Fail on warnings too (an author's own package: body references that point nowhere,
    /// keys only some clients read, …).
    #[arg(long)]
    pub strict: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,
}

#[derive(Debug, Args)]
pub struct PackArgs {
    /// The package folder (default: the current directory).
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Where to write the archive (default: the current directory).
    #[arg(short, long, value_name = "OUT_DIR")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct PublishArgs {
    /// A package folder (packed first) or a .tar.gz made by `agx pack` (default: the current
    /// directory).
    #[arg(value_name = "DIR|TARBALL")]
    pub package: Option<PathBuf>,
    /// Where to: a configured source's name, an oci://HOST/NAMESPACE location, or a registry
    /// folder.
    #[arg(long, value_name = "SOURCE")]
    pub to: String,
    /// DIR is one Agent Skill (SKILL.md at its root): push it to the OCI registry as
    /// ToolHive's skill artifact, as the package PUBLISHER/SKILL.
    #[arg(long)]
    pub skill: bool,
    /// With --skill: the package's publisher (the repository's second-to-last segment).
    #[arg(
        long,
        value_name = "PUBLISHER",
        default_value = "skills",
        requires = "skill"
    )]
    pub publisher: String,
    /// With --skill: the version to tag (default: `version` in SKILL.md's front matter,
    /// then `metadata.version`).
    #[arg(long, value_name = "VERSION", requires = "skill")]
    pub skill_version: Option<semver::Version>,
    #[command(flatten)]
    pub signing: SigningArgs,
    /// Print JSON (the shapes are documented in docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct SbomArgs {
    /// The packages of the project's agx.lock instead of the installed ones (the nearest
    /// folder at or above the current one with an agx.toml, or DIR).
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = ".")]
    pub project: Option<PathBuf>,
    /// The document's format.
    #[arg(long, value_enum)]
    pub format: SbomFormatArg,
    /// Write it to FILE (default: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// The SBOM formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SbomFormatArg {
    /// CycloneDX 1.6 JSON.
    Cyclonedx,
    /// SPDX 2.3 JSON.
    Spdx,
}

#[derive(Debug, Args)]
pub struct LoginArgs {
    /// A configured source's name, or a registry host (`ghcr.io`, `127.0.0.1:5000`).
    #[arg(value_name = "SOURCE|HOST")]
    pub target: String,
    /// The user name (absent: the secret is a token).
    #[arg(long, short = 'u', value_name = "USER")]
    pub username: Option<String>,
    /// Read the password from standard input (one line).
    #[arg(long, conflicts_with = "token_stdin", requires = "username")]
    pub password_stdin: bool,
    /// Read a token from standard input (one line).
    #[arg(long, conflicts_with = "username")]
    pub token_stdin: bool,
}

#[derive(Debug, Args)]
pub struct LogoutArgs {
    /// A configured source's name, or a registry host.
    #[arg(value_name = "SOURCE|HOST")]
    pub target: String,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The bundle format.
    #[arg(value_enum, value_name = "FORMAT")]
    pub format: ExportFormat,
    /// The folder to write (absent or empty; never overwritten).
    #[arg(value_name = "OUT_DIR")]
    pub out_dir: PathBuf,
    /// Installed packages (`publisher/name`) or registry references (`publisher/name@1.2.0`),
    /// installed first when absent.
    #[arg(value_name = "PACKAGE", required = true)]
    pub packages: Vec<String>,
    /// The marketplace's name (claude-, codex- and cursor-marketplace; default: OUT_DIR's name
    /// in kebab-case).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Print JSON (the shapes are documented in docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// `.claude-plugin/marketplace.json` and a Claude Code plugin per package (Claude Code,
    /// Codex, VS Code).
    ClaudeMarketplace,
    /// An Agent Plugins 1.0 plugin per package.
    AgentPlugin,
    /// A Gemini CLI extension per package.
    GeminiExtension,
    /// `.agents/plugins/marketplace.json` and a Codex plugin per package (Codex).
    CodexMarketplace,
    /// `.cursor-plugin/marketplace.json` and a Cursor plugin per package (Cursor).
    CursorMarketplace,
}

#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum RegistryCommand {
    /// Create an empty folder registry.
    Init {
        /// Folder to create the registry in.
        dir: PathBuf,
        /// Name recorded in config.json (default: the folder's name).
        #[arg(long)]
        name: Option<String>,
    },
    /// Publish a package folder or tarball into a folder registry.
    Add {
        /// The registry folder.
        registry_dir: PathBuf,
        /// A package folder (packed first) or a .tar.gz made by `agx pack`.
        #[arg(value_name = "DIR|TARBALL")]
        package: PathBuf,
        /// The archive's Sigstore bundle (`FILE.sigstore.json`): checked against the archive,
        /// then published beside it so installs verify who built it (docs/registry.md).
        #[arg(long, value_name = "FILE.sigstore.json")]
        bundle: Option<PathBuf>,
        /// The Sigstore trusted root the bundle is checked against (default: Sigstore's
        /// public-good instance).
        #[arg(long, value_name = "trusted_root.json", env = "AGX_TRUSTED_ROOT")]
        trusted_root: Option<PathBuf>,
        #[command(flatten)]
        signing: SigningArgs,
    },
    /// Mark a published version as yanked (or undo it).
    Yank {
        /// The registry folder.
        registry_dir: PathBuf,
        /// The version to yank, as `publisher/name@version`.
        #[arg(value_name = "PKG@VERSION")]
        package: String,
        /// Un-yank the version.
        #[arg(long)]
        undo: bool,
        #[command(flatten)]
        signing: SigningArgs,
    },
    /// Create the signing keys of a TUF-signed registry (docs/registry.md).
    #[command(subcommand)]
    Keys(RegistryKeysCommand),
    /// Sign a folder registry as a TUF repository: every file a client fetches becomes a
    /// signed target (docs/registry.md).
    Sign {
        /// The registry folder.
        registry_dir: PathBuf,
        #[command(flatten)]
        signing: SigningArgs,
    },
    /// Sign a new timestamp for a signed registry: run it (from cron) more often than the
    /// timestamp expires (default 1 day).
    RefreshTimestamp {
        /// The registry folder.
        registry_dir: PathBuf,
        #[command(flatten)]
        signing: SigningArgs,
    },
    /// Replace a role's keys with new ones and sign a new root version with the old and new
    /// keys, so that clients follow; the old key files move to KEYS_DIR/retired/.
    Rotate {
        /// The role whose keys to replace.
        #[arg(value_enum)]
        role: TufRoleArg,
        /// The registry folder.
        registry_dir: PathBuf,
        #[command(flatten)]
        signing: SigningArgs,
    },
    /// Configure a registry to search and install from: an agx index, an MCP registry or a
    /// Claude-format marketplace.
    AddSource {
        /// The name to refer to it by (`--registry NAME`).
        name: String,
        /// Its https:// base URL, an OCI registry's oci://HOST/NAMESPACE, or a folder (an agx
        /// index or a marketplace).
        #[arg(value_name = "URL")]
        url: String,
        /// A PEM file of certificate authorities to trust for this source beside the
        /// system's (an OCI registry behind a company CA).
        #[arg(long, value_name = "FILE")]
        ca: Option<PathBuf>,
        /// The Sigstore trusted root (`trusted_root.json`) its packages' bundles are verified
        /// against, for a registry whose publishers sign with their own Sigstore instance
        /// (default: Sigstore's public-good instance); agx keeps a copy.
        #[arg(long, value_name = "trusted_root.json")]
        trusted_root: Option<PathBuf>,
        /// What it is; detected when absent (an agx index serves config.json, an MCP registry
        /// answers /v0.1/servers, a marketplace holds .claude-plugin/marketplace.json).
        #[arg(long, value_enum)]
        kind: Option<SourceKindArg>,
        /// Trust a signed source's root without asking (scripts; prefer --root, which pins
        /// the root you were given; without either, a source that publishes TUF metadata
        /// shows its root's keys and asks).
        #[arg(long)]
        yes: bool,
    },
    /// Remove a configured registry (its cached data stays until `agx` cleans the cache).
    RemoveSource {
        /// The configured name.
        name: String,
    },
    /// List the configured registries with their kinds.
    Sources {
        /// Print JSON (the shapes are documented in docs/json.md).
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum RegistryKeysCommand {
    /// Generate ed25519 keys for the root, targets, snapshot and timestamp roles into a
    /// folder kept outside the registry (private keys are written with mode 0600).
    Generate {
        /// The folder to write the keys to (created; it must not hold keys yet).
        keys_dir: PathBuf,
        /// How many root keys must sign a new root.
        #[arg(long, default_value_t = 1, value_name = "N")]
        threshold: u64,
        /// How many root keys to generate (default: the threshold).
        #[arg(long, value_name = "M")]
        root_keys: Option<u64>,
    },
}

// The signing keys and expiry of a TUF-signed registry. A plain comment: a doc comment on a
// flattened struct would become the help title of every command using it.
#[derive(Debug, Clone, Args)]
pub struct SigningArgs {
    /// The keys folder (`agx registry keys generate`); keys may also come from
    /// AGX_TUF_KEY_<ROLE> (a PEM) or AGX_TUF_KEY_<ROLE>_FILE (a path, e.g. /dev/fd/3).
    #[arg(long, value_name = "KEYS_DIR")]
    pub keys: Option<PathBuf>,
    /// How long a role's new metadata stays valid, as ROLE=DURATION (30d, 12h, 90m, 3600s);
    /// defaults: root=365d, targets=90d, snapshot=7d, timestamp=1d.
    #[arg(long, value_name = "ROLE=DURATION")]
    pub expires: Vec<String>,
}

/// A TUF role, for `agx registry rotate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TufRoleArg {
    Root,
    Targets,
    Snapshot,
    Timestamp,
}

impl TufRoleArg {
    pub fn as_str(self) -> &'static str {
        match self {
            TufRoleArg::Root => "root",
            TufRoleArg::Targets => "targets",
            TufRoleArg::Snapshot => "snapshot",
            TufRoleArg::Timestamp => "timestamp",
        }
    }
}

/// The kind of a registry, for `agx registry add-source --kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SourceKindArg {
    AgxIndex,
    McpRegistry,
    ClaudeMarketplace,
    Oci,
    WellKnown,
}

impl From<SourceKindArg> for agx_sources::index::SourceKind {
    fn from(kind: SourceKindArg) -> Self {
        match kind {
            SourceKindArg::AgxIndex => agx_sources::index::SourceKind::AgxIndex,
            SourceKindArg::McpRegistry => agx_sources::index::SourceKind::McpRegistry,
            SourceKindArg::ClaudeMarketplace => agx_sources::index::SourceKind::ClaudeMarketplace,
            SourceKindArg::Oci => agx_sources::index::SourceKind::Oci,
            SourceKindArg::WellKnown => agx_sources::index::SourceKind::WellKnown,
        }
    }
}

#[derive(Debug, Args)]
pub struct InstallServerArgs {
    /// The MCP client (see `agx clients`, or `auto` with --config to guess it from the
    /// file), then the server to launch as `publisher/name/server`, or a profile as `@NAME`
    /// (one entry serving all its servers); with --client, the server alone.
    #[arg(value_names = ["CLIENT", "QUALIFIED_SERVER|@PROFILE"], num_args = 1..=2, required = true)]
    pub targets: Vec<String>,
    /// A client to write the entry for, in place of the positional client; repeat it for
    /// several: `--client claude-code --client codex`.
    #[arg(long = "client", value_name = "CLIENT", conflicts_with = "config")]
    pub clients: Vec<String>,
    /// Which configuration to write.
    #[arg(long, value_enum, default_value_t = Scope::User)]
    pub scope: Scope,
    /// Project folder for --scope project or local (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// Key of the entry in the client's config (default: derived from the server name).
    #[arg(long, value_name = "KEY")]
    pub name: Option<String>,
    /// Extra environment variable for the server (repeatable).
    #[arg(long = "env", value_name = "K=V")]
    pub env: Vec<String>,
    /// Write into this file instead of the client's default path.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Print the change as a diff and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Replace an existing entry with the same key.
    #[arg(long)]
    pub force: bool,
    /// Show only the tools matching this glob (repeatable); recorded for the server, not
    /// written into the entry (docs/profiles.md).
    #[arg(long, value_name = "GLOB")]
    pub allow: Vec<String>,
    /// Hide the tools matching this glob (repeatable), e.g. `--deny '*_delete*'`.
    #[arg(long, value_name = "GLOB")]
    pub deny: Vec<String>,
    /// Remove the server's recorded filter.
    #[arg(long, conflicts_with_all = ["allow", "deny"])]
    pub no_filter: bool,
    /// Arguments for a wrapped server's own command, written into the entry after
    /// `agx serve SERVER --` (refused for an agx server).
    #[arg(last = true, value_name = "ARG")]
    pub args: Vec<String>,
}

#[derive(Debug, Args)]
pub struct SkillArgs {
    /// The client (claude-code, codex, gemini, vscode, cursor, opencode, or `all`), then the
    /// skill as `publisher/package/skill` (its package must be installed); with --client,
    /// the skill alone.
    #[arg(value_names = ["CLIENT", "QUALIFIED_SKILL"], num_args = 1..=2, required = true)]
    pub targets: Vec<String>,
    /// A client to copy into (or remove from), in place of the positional client; repeat
    /// it for several: `--client claude-code --client codex`.
    #[arg(long = "client", value_name = "CLIENT")]
    pub clients: Vec<String>,
    /// The user's skills folders (under the home folder) or the project's.
    #[arg(long, value_enum, default_value_t = SkillScope::User)]
    pub scope: SkillScope,
    /// Project folder for --scope project (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// `shared`: `.agents/skills` (and `.claude/skills` for Claude Code), which all six
    /// clients read between them; `own`: each client's own folder.
    #[arg(long, value_enum, default_value_t = SkillFolder::Shared)]
    pub folder: SkillFolder,
    /// Replace (or remove) a folder agx did not write, or a copy edited since.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct InstallSkillArgs {
    #[command(flatten)]
    pub skill: SkillArgs,
    #[command(flatten)]
    pub accept: AcceptArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SkillScope {
    User,
    Project,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SkillFolder {
    Shared,
    Own,
}

#[derive(Debug, Args)]
pub struct UninstallServerArgs {
    /// The MCP client (see `agx clients`).
    pub client: String,
    /// The entry's key, or the qualified server it launches.
    #[arg(value_name = "KEY|QUALIFIED_SERVER")]
    pub entry: String,
    /// Which configuration to edit.
    #[arg(long, value_enum, default_value_t = Scope::User)]
    pub scope: Scope,
    /// Project folder for --scope project or local (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// Edit this file instead of the client's default path.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Print the change as a diff and write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// `agx config` (docs/settings.md).
#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Set a setting's value. A secret is never taken from the command line: it is read
    /// without echo on a terminal, or from standard input with --stdin.
    Set(ConfigSetArgs),
    /// Print a setting's value (a secret prints as `set` unless --reveal).
    Get(ConfigGetArgs),
    /// Remove a stored value (the default, if any, applies again).
    Unset(ConfigKeyArgs),
    /// List the settings of installed packages and where each value comes from.
    List(ConfigListArgs),
}

#[derive(Debug, Subcommand)]
pub enum PermissionsCommand {
    /// Record what a server may touch, replacing what its package declares (unset keys take
    /// the defaults: read the package, write {data} and {tmp}, network any).
    Set(PermissionsSetArgs),
    /// Print the permissions you recorded for a server.
    Show(PermissionsServerArgs),
    /// Forget the permissions you recorded: the package's own apply again.
    Reset(PermissionsServerArgs),
    /// In a project: trust the permissions its agx.toml gives a server, where they grant
    /// more than the package's (or yours); agx serve refuses them until you do.
    Accept(PermissionsServerArgs),
}

#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    /// Sign in to a remote server in the browser; the tokens go to the keyring.
    Login(AuthLoginArgs),
    /// Forget the sign-in to a remote server (its tokens and record).
    Logout(AuthServerArgs),
    /// Show the sign-ins (or one), their issuer, scopes and when their token expires.
    Status(AuthStatusArgs),
}

#[derive(Debug, Args)]
pub struct AuthServerArgs {
    /// An installed remote server (`publisher/name[/server]`) or its URL (`https://…`).
    #[arg(value_name = "SERVER|URL")]
    pub server: String,
}

#[derive(Debug, Args)]
pub struct AuthLoginArgs {
    /// An installed remote server (`publisher/name[/server]`) or its URL (`https://…`).
    #[arg(value_name = "SERVER|URL")]
    pub server: String,
    /// A client ID the authorization server's administrator gave you (instead of
    /// registering agx).
    #[arg(long, value_name = "ID")]
    pub client_id: Option<String>,
    /// Read that client's secret from standard input (one line).
    #[arg(long, requires = "client_id")]
    pub client_secret_stdin: bool,
    /// Sign in as that client itself, with its secret and no browser (OAuth client
    /// credentials: for machines and CI where the server allows it).
    #[arg(long, requires_all = ["client_id", "client_secret_stdin"])]
    pub client_credentials: bool,
    /// An HTTPS URL serving agx's client metadata document, used as the client ID where the
    /// server accepts those (docs/auth.md). Default: `AGX_OAUTH_CLIENT_METADATA_URL`.
    #[arg(long, value_name = "URL")]
    pub client_metadata_url: Option<String>,
    /// A scope to ask for (repeat for more; default: what the server asks for).
    #[arg(long = "scope", value_name = "SCOPE")]
    pub scopes: Vec<String>,
    /// The loopback port of the redirect (default: any free port). For a client ID
    /// registered with a fixed redirect URI.
    #[arg(long, value_name = "PORT")]
    pub callback_port: Option<u16>,
    /// Print the sign-in URL without opening a browser.
    #[arg(long)]
    pub no_browser: bool,
    /// How long to wait for the browser, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    pub timeout: u64,
    /// Print JSON (the shapes are documented in docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct AuthStatusArgs {
    /// An installed remote server or its URL (default: every sign-in).
    #[arg(value_name = "SERVER|URL")]
    pub server: Option<String>,
    /// Print JSON (the shapes are documented in docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum PolicyCommand {
    /// Print the effective policy: each rule, its value, and the file and line it is from.
    Show(PolicyShowArgs),
}

#[derive(Debug, Args)]
pub struct PolicyShowArgs {
    /// The project whose `[policy]` counts (default: the nearest folder at or above the
    /// current one with an agx.toml).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// Print JSON (the shapes are documented in docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct PermissionsServerArgs {
    /// The server, as `publisher/name/server` (`agx info PKG` lists them).
    #[arg(value_name = "QUALIFIED_SERVER")]
    pub server: String,
}

#[derive(Debug, Args)]
pub struct PermissionsSetArgs {
    #[command(flatten)]
    pub target: PermissionsServerArgs,
    /// A path it may read: absolute, or `{package}`, `{data}`, `{project}`, `{home}/…`,
    /// `{tmp}` followed by `/…` (repeat for more).
    #[arg(long, value_name = "PATH")]
    pub read: Vec<String>,
    /// A path it may read and write (same forms; repeat for more).
    #[arg(long, value_name = "PATH")]
    pub write: Vec<String>,
    /// `none`, `loopback`, `any`, or a host (repeat for a list).
    #[arg(long, value_name = "NETWORK")]
    pub network: Vec<String>,
    /// A variable passed through from agx's environment (repeat for more).
    #[arg(long, value_name = "NAME")]
    pub env: Vec<String>,
}

#[derive(Debug, Args)]
pub struct ConfigKeyArgs {
    /// The package, as `publisher/name`.
    #[arg(value_name = "PKG")]
    pub package: String,
    /// The setting's key, as the package declares it.
    pub key: String,
    /// Address a package that is not installed, or a key it does not declare.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct ConfigSetArgs {
    #[command(flatten)]
    pub target: ConfigKeyArgs,
    /// The value (not for secrets).
    pub value: Option<String>,
    /// Read the value from standard input (one trailing newline is dropped).
    #[arg(long, conflicts_with = "value")]
    pub stdin: bool,
    /// With --force: keep the undeclared value as a secret.
    #[arg(long, requires = "force")]
    pub secret: bool,
}

#[derive(Debug, Args)]
pub struct ConfigGetArgs {
    #[command(flatten)]
    pub target: ConfigKeyArgs,
    /// Print a secret's value.
    #[arg(long)]
    pub reveal: bool,
}

#[derive(Debug, Args)]
pub struct ConfigListArgs {
    /// Only this package.
    #[arg(value_name = "PKG")]
    pub package: Option<String>,
    /// Print JSON (the shapes are documented in docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Repair what can be repaired safely.
    #[arg(long)]
    pub fix: bool,
    /// Print JSON (the shapes are documented in docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The server to run, as `publisher/name/server` (or `name/server`); `@=VERSION` after
    /// it serves exactly that installed version (`acme/weather/forecast@=1.1.0`), as project
    /// entries written by `agx sync` do. `@NAME` serves the profile NAME: every server of it
    /// as one (docs/profiles.md).
    #[arg(value_name = "QUALIFIED_SERVER[@=VERSION]|@PROFILE")]
    pub server: String,
    /// Serve Streamable HTTP on this loopback address instead of stdio.
    #[arg(long, value_name = "127.0.0.1:PORT")]
    pub http: Option<String>,
    /// Arguments appended to a wrapped server's own command (npm, PyPI, OCI, MCPB, MCP
    /// registry entries): `agx serve npm/server-filesystem -- /data`. Refused for an agx
    /// server.
    #[arg(last = true, value_name = "ARG")]
    pub args: Vec<String>,
    /// Run the server's programs unconfined, whatever their permissions (docs/sandbox.md);
    /// the log says so. The same as AGX_SANDBOX=off.
    #[arg(long)]
    pub no_sandbox: bool,
}

#[derive(Debug, Args)]
pub struct CallArgs {
    /// The tool to run, as `publisher/package/tool`.
    #[arg(value_name = "QUALIFIED_TOOL")]
    pub tool: String,
    /// An argument, as NAME=VALUE; VALUE is JSON unless the tool's schema says text.
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    pub args: Vec<String>,
    /// All arguments as one JSON object (`--arg` values are set over it).
    #[arg(long, value_name = "{…}")]
    pub json: Option<String>,
    /// How to print the result: its text, or the MCP result as JSON.
    #[arg(long, value_enum, default_value_t = ResultFormat::Text)]
    pub format: ResultFormat,
}

#[derive(Debug, Args)]
pub struct PromptArgs {
    /// The prompt to render, as `publisher/package/prompt`.
    #[arg(value_name = "QUALIFIED_PROMPT")]
    pub prompt: String,
    /// An argument, as NAME=VALUE (prompt arguments are text).
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    pub args: Vec<String>,
    /// How to print the messages: their text, or the MCP result as JSON.
    #[arg(long, value_enum, default_value_t = ResultFormat::Text)]
    pub format: ResultFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ResultFormat {
    /// The text of the content, for people.
    Text,
    /// The MCP result, as a client receives it.
    Json,
}

#[derive(Debug, Args)]
pub struct NewArgs {
    /// The folder to create (it must not exist, or be empty).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The package name, as `publisher/name` or `name` (default: the folder's name).
    #[arg(long, value_name = "PUBLISHER/NAME")]
    pub name: Option<String>,
    /// The language of the new tool's script.
    #[arg(long, value_enum, default_value_t)]
    pub lang: agx_ops::new::Language,
    /// Make a package of one Agent Skill with this name (`skills/NAME/SKILL.md`) instead of
    /// a tool, a prompt and a server.
    #[arg(long, value_name = "NAME", conflicts_with = "lang")]
    pub skill: Option<String>,
}

#[derive(Debug, Args)]
pub struct DiscoverArgs {
    /// The folder of scripts (default: the current directory). Scripts a definition of its
    /// agx.toml runs are left alone.
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Write what was found: agx.toml (or the tools added to the one there), a server
    /// offering the tools, and a definition file per tool; never over a file that exists.
    #[arg(long)]
    pub write: bool,
    /// The package name when --write creates agx.toml (default: the folder's name).
    #[arg(long, value_name = "PUBLISHER/NAME", requires = "write")]
    pub name: Option<String>,
    /// How long each probe of a script may take, in milliseconds.
    #[arg(
        long,
        value_name = "MS",
        env = "AGX_PROBE_TIMEOUT_MS",
        default_value_t = 200
    )]
    pub timeout: u64,
    /// Print JSON (the shapes are documented in docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to generate completions for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn serve_takes_a_wrapped_server_s_arguments_after_a_double_dash() {
        let serve = |line: &[&str]| match Cli::try_parse_from(line).unwrap().command {
            Command::Serve(a) => (a.server, a.args),
            other => panic!("{other:?}"),
        };
        let strings = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            serve(&["agx", "serve", "npm/x", "--", "--db-path", "--", "f"]),
            ("npm/x".to_string(), strings(&["--db-path", "--", "f"]))
        );
        // The command line a helper of another build goes back to `agx` with.
        for args in [vec![], strings(&["--", "-x", "a b"])] {
            let handoff = agx_runtime::handoff::Handoff {
                agx: "/bin/agx".into(),
                build: "0".into(),
                color: false,
                server: "npm/x".into(),
                http: Some("127.0.0.1:1".into()),
                args: args.clone(),
            };
            let line = ["agx".into(), "serve".into()]
                .into_iter()
                .chain(handoff.agx_serve_args());
            match Cli::try_parse_from(line).unwrap().command {
                Command::Serve(a) => {
                    assert_eq!((a.server, a.args), ("npm/x".to_string(), args));
                    assert_eq!(a.http.as_deref(), Some("127.0.0.1:1"));
                }
                other => panic!("{other:?}"),
            }
        }
    }
}


using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'agx' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'agx'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'agx' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Install packages from the registry, or a local package folder or tarball')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove installed packages')
            [CompletionResult]::new('update', 'update', [CompletionResultType]::ParameterValue, 'Update installed packages to the newest versions their requirements allow')
            [CompletionResult]::new('outdated', 'outdated', [CompletionResultType]::ParameterValue, 'Show installed packages that have newer versions in the registry')
            [CompletionResult]::new('gc', 'gc', [CompletionResultType]::ParameterValue, 'Remove installed versions that neither the user nor any project holds')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List installed packages and what they contribute')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search the registry''s catalog by name, description and item names')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show details of a package or a server')
            [CompletionResult]::new('tools', 'tools', [CompletionResultType]::ParameterValue, 'List the tools a client sees of a server after its filter, with token estimates')
            [CompletionResult]::new('trust', 'trust', [CompletionResultType]::ParameterValue, 'Accept what a wrapped or remote server lists now as its pinned definitions')
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Create a package folder with a tool, a prompt and a server, ready to validate')
            [CompletionResult]::new('discover', 'discover', [CompletionResultType]::ParameterValue, 'Find the tools in a folder of scripts and write their definitions')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check an extension package before publishing')
            [CompletionResult]::new('audit', 'audit', [CompletionResultType]::ParameterValue, 'Run the poisoning scan over installed packages (docs/security.md)')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check installed files and signers against what their install recorded')
            [CompletionResult]::new('pack', 'pack', [CompletionResultType]::ParameterValue, 'Build a deterministic .tar.gz of a package')
            [CompletionResult]::new('publish', 'publish', [CompletionResultType]::ParameterValue, 'Publish a package to an OCI registry (oci://HOST/NAMESPACE) or a folder registry')
            [CompletionResult]::new('sbom', 'sbom', [CompletionResultType]::ParameterValue, 'Write a software bill of materials (CycloneDX or SPDX JSON)')
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Store a registry''s credential in the keyring (docs/organizations.md)')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Forget a registry''s stored credential')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'Sign in to remote MCP servers that ask for it (OAuth), once for every client')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write packages as Claude Code/Codex, Gemini CLI or Agent Plugins bundles')
            [CompletionResult]::new('registry', 'registry', [CompletionResultType]::ParameterValue, 'Manage configured registries and folder registries')
            [CompletionResult]::new('install-server', 'install-server', [CompletionResultType]::ParameterValue, 'Add an entry that launches `agx serve` to an MCP client''s configuration')
            [CompletionResult]::new('uninstall-server', 'uninstall-server', [CompletionResultType]::ParameterValue, 'Remove an entry that agx wrote from an MCP client''s configuration')
            [CompletionResult]::new('install-skill', 'install-skill', [CompletionResultType]::ParameterValue, 'Copy a package''s Agent Skill into a client''s skills folder (or every client''s)')
            [CompletionResult]::new('uninstall-skill', 'uninstall-skill', [CompletionResultType]::ParameterValue, 'Remove a skill copy that agx wrote from a client''s skills folder')
            [CompletionResult]::new('clients', 'clients', [CompletionResultType]::ParameterValue, 'List supported MCP clients, their config files and the agx entries in them')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Find drift between recorded client entries, client files and the store')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Set, show and remove the values of packages'' settings and secrets')
            [CompletionResult]::new('permissions', 'permissions', [CompletionResultType]::ParameterValue, 'Set, show and reset your permissions of a server (docs/sandbox.md)')
            [CompletionResult]::new('policy', 'policy', [CompletionResultType]::ParameterValue, 'Show the organisation''s policy in effect here, rule by rule (docs/policy.md)')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Run a package''s server as an MCP server (stdio, or Streamable HTTP on loopback)')
            [CompletionResult]::new('call', 'call', [CompletionResultType]::ParameterValue, 'Run one installed tool as `agx serve` would, and print its result')
            [CompletionResult]::new('prompt', 'prompt', [CompletionResultType]::ParameterValue, 'Render one installed prompt as `agx serve` would, and print its messages')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a server to the project''s agx.toml, lock it and sync (docs/projects.md)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove a server or skill from the project''s agx.toml, agx.lock and client files')
            [CompletionResult]::new('lock', 'lock', [CompletionResultType]::ParameterValue, 'Resolve the project''s servers into agx.lock')
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Install the locked versions and write each listed client''s project file')
            [CompletionResult]::new('tree', 'tree', [CompletionResultType]::ParameterValue, 'Show which packages the project needs, and why')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agx;install' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--sha256', '--sha256', [CompletionResultType]::ParameterName, 'The sha256 (64 hex digits) an MCPB bundle must have: required for a bundle from a URL, checked for a bundle file when given')
            [CompletionResult]::new('--prefer', '--prefer', [CompletionResultType]::ParameterName, 'For a server from an MCP registry: install its package of this kind, or its remote (default: the first package whose runtime is on this machine, in the order npm, pypi, oci, mcpb; then a remote)')
            [CompletionResult]::new('--accept-finding', '--accept-finding', [CompletionResultType]::ParameterName, 'Install even though the poisoning scan has high findings of this code (`S001`, …; repeatable); the receipt records it, and `agx serve` then shows the items it is about')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Reinstall even when the same version is already installed')
            [CompletionResult]::new('--allow-scripts', '--allow-scripts', [CompletionResultType]::ParameterName, 'Let npm run the package''s install scripts (off by default: installing runs no package code)')
            [CompletionResult]::new('--allow-sdist', '--allow-sdist', [CompletionResultType]::ParameterName, 'Let pip build PyPI packages from source distributions (off by default: wheels only, as building runs the package''s code)')
            [CompletionResult]::new('--warm', '--warm', [CompletionResultType]::ParameterName, 'Start each newly installed wrapped or remote server once to fill its compile cache and pin its definitions before a client sees them (this runs the server''s code)')
            [CompletionResult]::new('--allow-signer-change', '--allow-signer-change', [CompletionResultType]::ParameterName, 'Install a version signed by someone other than the signer its installed version recorded, and trust the new signer from now on (recorded; `agx info` shows it)')
            [CompletionResult]::new('--allow-unsigned', '--allow-unsigned', [CompletionResultType]::ParameterName, 'Install a version without a Sigstore bundle although its installed version had one (recorded; the earlier signer stays the one expected next)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;uninstall' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Remove even when other packages or client entries depend on it')
            [CompletionResult]::new('--purge', '--purge', [CompletionResultType]::ParameterName, 'Also remove the packages'' data folders (kept otherwise, docs/store.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;update' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--accept-permissions', '--accept-permissions', [CompletionResultType]::ParameterName, 'Move to newer versions even when they ask for more permissions than the installed ones (without it, such a package keeps its version and agx says what grew)')
            [CompletionResult]::new('--allow-signer-change', '--allow-signer-change', [CompletionResultType]::ParameterName, 'Install a version signed by someone other than the signer its installed version recorded, and trust the new signer from now on (recorded; `agx info` shows it)')
            [CompletionResult]::new('--allow-unsigned', '--allow-unsigned', [CompletionResultType]::ParameterName, 'Install a version without a Sigstore bundle although its installed version had one (recorded; the earlier signer stays the one expected next)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;outdated' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;gc' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say what would be removed, and remove nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;list' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--include-remote', '--include-remote', [CompletionResultType]::ParameterName, 'Also list what the registry''s catalog offers (downloads no package)')
            [CompletionResult]::new('--servers', '--servers', [CompletionResultType]::ParameterName, 'List servers by qualified name')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'List tools by qualified name')
            [CompletionResult]::new('--prompts', '--prompts', [CompletionResultType]::ParameterName, 'List prompts by qualified name')
            [CompletionResult]::new('--skills', '--skills', [CompletionResultType]::ParameterName, 'List skills by qualified name')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;search' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;info' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;tools' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--tokens', '--tokens', [CompletionResultType]::ParameterName, 'Estimate each tool''s context cost in tokens, with totals before and after the filter')
            [CompletionResult]::new('--diff', '--diff', [CompletionResultType]::ParameterName, 'Show how what the server lists now differs from its pinned definitions (changed, new and removed tools, prompts and resource templates)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;trust' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;new' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The package name, as `publisher/name` or `name` (default: the folder''s name)')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'The language of the new tool''s script')
            [CompletionResult]::new('--skill', '--skill', [CompletionResultType]::ParameterName, 'Make a package of one Agent Skill with this name (`skills/NAME/SKILL.md`) instead of a tool, a prompt and a server')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;discover' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The package name when --write creates agx.toml (default: the folder''s name)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long each probe of a script may take, in milliseconds')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--write', '--write', [CompletionResultType]::ParameterName, 'Write what was found: agx.toml (or the tools added to the one there), a server offering the tools, and a definition file per tool; never over a file that exists')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;validate' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--probe', '--probe', [CompletionResultType]::ParameterName, 'Also run each tool''s self-test (`{"__test__": true}`); this runs package code')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Fail on warnings too (an author''s own package: body references that point nowhere, keys only some clients read, …)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;audit' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The packages of the project''s agx.lock instead (the nearest folder at or above the current one with an agx.toml that has [project] or [servers])')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;verify' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;pack' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Where to write the archive (default: the current directory)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Where to write the archive (default: the current directory)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;publish' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'Where to: a configured source''s name, an oci://HOST/NAMESPACE location, or a registry folder')
            [CompletionResult]::new('--publisher', '--publisher', [CompletionResultType]::ParameterName, 'With --skill: the package''s publisher (the repository''s second-to-last segment)')
            [CompletionResult]::new('--skill-version', '--skill-version', [CompletionResultType]::ParameterName, 'With --skill: the version to tag (default: `version` in SKILL.md''s front matter, then `metadata.version`)')
            [CompletionResult]::new('--keys', '--keys', [CompletionResultType]::ParameterName, 'The keys folder (`agx registry keys generate`); keys may also come from AGX_TUF_KEY_<ROLE> (a PEM) or AGX_TUF_KEY_<ROLE>_FILE (a path, e.g. /dev/fd/3)')
            [CompletionResult]::new('--expires', '--expires', [CompletionResultType]::ParameterName, 'How long a role''s new metadata stays valid, as ROLE=DURATION (30d, 12h, 90m, 3600s); defaults: root=365d, targets=90d, snapshot=7d, timestamp=1d')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--skill', '--skill', [CompletionResultType]::ParameterName, 'DIR is one Agent Skill (SKILL.md at its root): push it to the OCI registry as ToolHive''s skill artifact, as the package PUBLISHER/SKILL')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;sbom' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The packages of the project''s agx.lock instead of the installed ones (the nearest folder at or above the current one with an agx.toml, or DIR)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'The document''s format')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write it to FILE (default: standard output)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write it to FILE (default: standard output)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;login' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-u', '-u', [CompletionResultType]::ParameterName, 'The user name (absent: the secret is a token)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'The user name (absent: the secret is a token)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--password-stdin', '--password-stdin', [CompletionResultType]::ParameterName, 'Read the password from standard input (one line)')
            [CompletionResult]::new('--token-stdin', '--token-stdin', [CompletionResultType]::ParameterName, 'Read a token from standard input (one line)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;logout' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;auth' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Sign in to a remote server in the browser; the tokens go to the keyring')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Forget the sign-in to a remote server (its tokens and record)')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show the sign-ins (or one), their issuer, scopes and when their token expires')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agx;auth;login' {
            [CompletionResult]::new('--client-id', '--client-id', [CompletionResultType]::ParameterName, 'A client ID the authorization server''s administrator gave you (instead of registering agx)')
            [CompletionResult]::new('--client-metadata-url', '--client-metadata-url', [CompletionResultType]::ParameterName, 'An HTTPS URL serving agx''s client metadata document, used as the client ID where the server accepts those (docs/auth.md). Default: `AGX_OAUTH_CLIENT_METADATA_URL`')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'A scope to ask for (repeat for more; default: what the server asks for)')
            [CompletionResult]::new('--callback-port', '--callback-port', [CompletionResultType]::ParameterName, 'The loopback port of the redirect (default: any free port). For a client ID registered with a fixed redirect URI')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long to wait for the browser, in seconds')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--client-secret-stdin', '--client-secret-stdin', [CompletionResultType]::ParameterName, 'Read that client''s secret from standard input (one line)')
            [CompletionResult]::new('--client-credentials', '--client-credentials', [CompletionResultType]::ParameterName, 'Sign in as that client itself, with its secret and no browser (OAuth client credentials: for machines and CI where the server allows it)')
            [CompletionResult]::new('--no-browser', '--no-browser', [CompletionResultType]::ParameterName, 'Print the sign-in URL without opening a browser')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;auth;logout' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;auth;status' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;auth;help' {
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Sign in to a remote server in the browser; the tokens go to the keyring')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Forget the sign-in to a remote server (its tokens and record)')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show the sign-ins (or one), their issuer, scopes and when their token expires')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agx;auth;help;login' {
            break
        }
        'agx;auth;help;logout' {
            break
        }
        'agx;auth;help;status' {
            break
        }
        'agx;auth;help;help' {
            break
        }
        'agx;export' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The marketplace''s name (claude-, codex- and cursor-marketplace; default: OUT_DIR''s name in kebab-case)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;registry' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create an empty folder registry')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Publish a package folder or tarball into a folder registry')
            [CompletionResult]::new('yank', 'yank', [CompletionResultType]::ParameterValue, 'Mark a published version as yanked (or undo it)')
            [CompletionResult]::new('keys', 'keys', [CompletionResultType]::ParameterValue, 'Create the signing keys of a TUF-signed registry (docs/registry.md)')
            [CompletionResult]::new('sign', 'sign', [CompletionResultType]::ParameterValue, 'Sign a folder registry as a TUF repository: every file a client fetches becomes a signed target (docs/registry.md)')
            [CompletionResult]::new('refresh-timestamp', 'refresh-timestamp', [CompletionResultType]::ParameterValue, 'Sign a new timestamp for a signed registry: run it (from cron) more often than the timestamp expires (default 1 day)')
            [CompletionResult]::new('rotate', 'rotate', [CompletionResultType]::ParameterValue, 'Replace a role''s keys with new ones and sign a new root version with the old and new keys, so that clients follow; the old key files move to KEYS_DIR/retired/')
            [CompletionResult]::new('add-source', 'add-source', [CompletionResultType]::ParameterValue, 'Configure a registry to search and install from: an agx index, an MCP registry or a Claude-format marketplace')
            [CompletionResult]::new('remove-source', 'remove-source', [CompletionResultType]::ParameterValue, 'Remove a configured registry (its cached data stays until `agx` cleans the cache)')
            [CompletionResult]::new('sources', 'sources', [CompletionResultType]::ParameterValue, 'List the configured registries with their kinds')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agx;registry;init' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Name recorded in config.json (default: the folder''s name)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;registry;add' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--bundle', '--bundle', [CompletionResultType]::ParameterName, 'The archive''s Sigstore bundle (`FILE.sigstore.json`): checked against the archive, then published beside it so installs verify who built it (docs/registry.md)')
            [CompletionResult]::new('--trusted-root', '--trusted-root', [CompletionResultType]::ParameterName, 'The Sigstore trusted root the bundle is checked against (default: Sigstore''s public-good instance)')
            [CompletionResult]::new('--keys', '--keys', [CompletionResultType]::ParameterName, 'The keys folder (`agx registry keys generate`); keys may also come from AGX_TUF_KEY_<ROLE> (a PEM) or AGX_TUF_KEY_<ROLE>_FILE (a path, e.g. /dev/fd/3)')
            [CompletionResult]::new('--expires', '--expires', [CompletionResultType]::ParameterName, 'How long a role''s new metadata stays valid, as ROLE=DURATION (30d, 12h, 90m, 3600s); defaults: root=365d, targets=90d, snapshot=7d, timestamp=1d')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;registry;yank' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--keys', '--keys', [CompletionResultType]::ParameterName, 'The keys folder (`agx registry keys generate`); keys may also come from AGX_TUF_KEY_<ROLE> (a PEM) or AGX_TUF_KEY_<ROLE>_FILE (a path, e.g. /dev/fd/3)')
            [CompletionResult]::new('--expires', '--expires', [CompletionResultType]::ParameterName, 'How long a role''s new metadata stays valid, as ROLE=DURATION (30d, 12h, 90m, 3600s); defaults: root=365d, targets=90d, snapshot=7d, timestamp=1d')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--undo', '--undo', [CompletionResultType]::ParameterName, 'Un-yank the version')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;registry;keys' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Generate ed25519 keys for the root, targets, snapshot and timestamp roles into a folder kept outside the registry (private keys are written with mode 0600)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agx;registry;keys;generate' {
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'How many root keys must sign a new root')
            [CompletionResult]::new('--root-keys', '--root-keys', [CompletionResultType]::ParameterName, 'How many root keys to generate (default: the threshold)')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;registry;keys;help' {
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Generate ed25519 keys for the root, targets, snapshot and timestamp roles into a folder kept outside the registry (private keys are written with mode 0600)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agx;registry;keys;help;generate' {
            break
        }
        'agx;registry;keys;help;help' {
            break
        }
        'agx;registry;sign' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--keys', '--keys', [CompletionResultType]::ParameterName, 'The keys folder (`agx registry keys generate`); keys may also come from AGX_TUF_KEY_<ROLE> (a PEM) or AGX_TUF_KEY_<ROLE>_FILE (a path, e.g. /dev/fd/3)')
            [CompletionResult]::new('--expires', '--expires', [CompletionResultType]::ParameterName, 'How long a role''s new metadata stays valid, as ROLE=DURATION (30d, 12h, 90m, 3600s); defaults: root=365d, targets=90d, snapshot=7d, timestamp=1d')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;registry;refresh-timestamp' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--keys', '--keys', [CompletionResultType]::ParameterName, 'The keys folder (`agx registry keys generate`); keys may also come from AGX_TUF_KEY_<ROLE> (a PEM) or AGX_TUF_KEY_<ROLE>_FILE (a path, e.g. /dev/fd/3)')
            [CompletionResult]::new('--expires', '--expires', [CompletionResultType]::ParameterName, 'How long a role''s new metadata stays valid, as ROLE=DURATION (30d, 12h, 90m, 3600s); defaults: root=365d, targets=90d, snapshot=7d, timestamp=1d')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;registry;rotate' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--keys', '--keys', [CompletionResultType]::ParameterName, 'The keys folder (`agx registry keys generate`); keys may also come from AGX_TUF_KEY_<ROLE> (a PEM) or AGX_TUF_KEY_<ROLE>_FILE (a path, e.g. /dev/fd/3)')
            [CompletionResult]::new('--expires', '--expires', [CompletionResultType]::ParameterName, 'How long a role''s new metadata stays valid, as ROLE=DURATION (30d, 12h, 90m, 3600s); defaults: root=365d, targets=90d, snapshot=7d, timestamp=1d')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;registry;add-source' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--ca', '--ca', [CompletionResultType]::ParameterName, 'A PEM file of certificate authorities to trust for this source beside the system''s (an OCI registry behind a company CA)')
            [CompletionResult]::new('--trusted-root', '--trusted-root', [CompletionResultType]::ParameterName, 'The Sigstore trusted root (`trusted_root.json`) its packages'' bundles are verified against, for a registry whose publishers sign with their own Sigstore instance (default: Sigstore''s public-good instance); agx keeps a copy')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'What it is; detected when absent (an agx index serves config.json, an MCP registry answers /v0.1/servers, a marketplace holds .claude-plugin/marketplace.json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Trust a signed source''s root without asking (scripts; prefer --root, which pins the root you were given; without either, a source that publishes TUF metadata shows its root''s keys and asks)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;registry;remove-source' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;registry;sources' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;registry;help' {
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create an empty folder registry')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Publish a package folder or tarball into a folder registry')
            [CompletionResult]::new('yank', 'yank', [CompletionResultType]::ParameterValue, 'Mark a published version as yanked (or undo it)')
            [CompletionResult]::new('keys', 'keys', [CompletionResultType]::ParameterValue, 'Create the signing keys of a TUF-signed registry (docs/registry.md)')
            [CompletionResult]::new('sign', 'sign', [CompletionResultType]::ParameterValue, 'Sign a folder registry as a TUF repository: every file a client fetches becomes a signed target (docs/registry.md)')
            [CompletionResult]::new('refresh-timestamp', 'refresh-timestamp', [CompletionResultType]::ParameterValue, 'Sign a new timestamp for a signed registry: run it (from cron) more often than the timestamp expires (default 1 day)')
            [CompletionResult]::new('rotate', 'rotate', [CompletionResultType]::ParameterValue, 'Replace a role''s keys with new ones and sign a new root version with the old and new keys, so that clients follow; the old key files move to KEYS_DIR/retired/')
            [CompletionResult]::new('add-source', 'add-source', [CompletionResultType]::ParameterValue, 'Configure a registry to search and install from: an agx index, an MCP registry or a Claude-format marketplace')
            [CompletionResult]::new('remove-source', 'remove-source', [CompletionResultType]::ParameterValue, 'Remove a configured registry (its cached data stays until `agx` cleans the cache)')
            [CompletionResult]::new('sources', 'sources', [CompletionResultType]::ParameterValue, 'List the configured registries with their kinds')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agx;registry;help;init' {
            break
        }
        'agx;registry;help;add' {
            break
        }
        'agx;registry;help;yank' {
            break
        }
        'agx;registry;help;keys' {
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Generate ed25519 keys for the root, targets, snapshot and timestamp roles into a folder kept outside the registry (private keys are written with mode 0600)')
            break
        }
        'agx;registry;help;keys;generate' {
            break
        }
        'agx;registry;help;sign' {
            break
        }
        'agx;registry;help;refresh-timestamp' {
            break
        }
        'agx;registry;help;rotate' {
            break
        }
        'agx;registry;help;add-source' {
            break
        }
        'agx;registry;help;remove-source' {
            break
        }
        'agx;registry;help;sources' {
            break
        }
        'agx;registry;help;help' {
            break
        }
        'agx;install-server' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--client', '--client', [CompletionResultType]::ParameterName, 'A client to write the entry for, in place of the positional client; repeat it for several: `--client claude-code --client codex`')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Which configuration to write')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Project folder for --scope project or local (default: the current directory)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Key of the entry in the client''s config (default: derived from the server name)')
            [CompletionResult]::new('--env', '--env', [CompletionResultType]::ParameterName, 'Extra environment variable for the server (repeatable)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Write into this file instead of the client''s default path')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Show only the tools matching this glob (repeatable); recorded for the server, not written into the entry (docs/profiles.md)')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Hide the tools matching this glob (repeatable), e.g. `--deny ''*_delete*''`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the change as a diff and write nothing')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace an existing entry with the same key')
            [CompletionResult]::new('--no-filter', '--no-filter', [CompletionResultType]::ParameterName, 'Remove the server''s recorded filter')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;uninstall-server' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Which configuration to edit')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Project folder for --scope project or local (default: the current directory)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Edit this file instead of the client''s default path')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the change as a diff and write nothing')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;install-skill' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--client', '--client', [CompletionResultType]::ParameterName, 'A client to copy into (or remove from), in place of the positional client; repeat it for several: `--client claude-code --client codex`')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'The user''s skills folders (under the home folder) or the project''s')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Project folder for --scope project (default: the current directory)')
            [CompletionResult]::new('--folder', '--folder', [CompletionResultType]::ParameterName, '`shared`: `.agents/skills` (and `.claude/skills` for Claude Code), which all six clients read between them; `own`: each client''s own folder')
            [CompletionResult]::new('--accept-finding', '--accept-finding', [CompletionResultType]::ParameterName, 'Install even though the poisoning scan has high findings of this code (`S001`, …; repeatable); the receipt records it, and `agx serve` then shows the items it is about')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace (or remove) a folder agx did not write, or a copy edited since')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;uninstall-skill' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--client', '--client', [CompletionResultType]::ParameterName, 'A client to copy into (or remove from), in place of the positional client; repeat it for several: `--client claude-code --client codex`')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'The user''s skills folders (under the home folder) or the project''s')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Project folder for --scope project (default: the current directory)')
            [CompletionResult]::new('--folder', '--folder', [CompletionResultType]::ParameterName, '`shared`: `.agents/skills` (and `.claude/skills` for Claude Code), which all six clients read between them; `own`: each client''s own folder')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace (or remove) a folder agx did not write, or a copy edited since')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;clients' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;doctor' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--fix', '--fix', [CompletionResultType]::ParameterName, 'Repair what can be repaired safely')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;config' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set a setting''s value. A secret is never taken from the command line: it is read without echo on a terminal, or from standard input with --stdin')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Print a setting''s value (a secret prints as `set` unless --reveal)')
            [CompletionResult]::new('unset', 'unset', [CompletionResultType]::ParameterValue, 'Remove a stored value (the default, if any, applies again)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the settings of installed packages and where each value comes from')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agx;config;set' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Address a package that is not installed, or a key it does not declare')
            [CompletionResult]::new('--stdin', '--stdin', [CompletionResultType]::ParameterName, 'Read the value from standard input (one trailing newline is dropped)')
            [CompletionResult]::new('--secret', '--secret', [CompletionResultType]::ParameterName, 'With --force: keep the undeclared value as a secret')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;config;get' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Address a package that is not installed, or a key it does not declare')
            [CompletionResult]::new('--reveal', '--reveal', [CompletionResultType]::ParameterName, 'Print a secret''s value')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;config;unset' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Address a package that is not installed, or a key it does not declare')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;config;list' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;config;help' {
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set a setting''s value. A secret is never taken from the command line: it is read without echo on a terminal, or from standard input with --stdin')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Print a setting''s value (a secret prints as `set` unless --reveal)')
            [CompletionResult]::new('unset', 'unset', [CompletionResultType]::ParameterValue, 'Remove a stored value (the default, if any, applies again)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the settings of installed packages and where each value comes from')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agx;config;help;set' {
            break
        }
        'agx;config;help;get' {
            break
        }
        'agx;config;help;unset' {
            break
        }
        'agx;config;help;list' {
            break
        }
        'agx;config;help;help' {
            break
        }
        'agx;permissions' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Record what a server may touch, replacing what its package declares (unset keys take the defaults: read the package, write {data} and {tmp}, network any)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print the permissions you recorded for a server')
            [CompletionResult]::new('reset', 'reset', [CompletionResultType]::ParameterValue, 'Forget the permissions you recorded: the package''s own apply again')
            [CompletionResult]::new('accept', 'accept', [CompletionResultType]::ParameterValue, 'In a project: trust the permissions its agx.toml gives a server, where they grant more than the package''s (or yours); agx serve refuses them until you do')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agx;permissions;set' {
            [CompletionResult]::new('--read', '--read', [CompletionResultType]::ParameterName, 'A path it may read: absolute, or `{package}`, `{data}`, `{project}`, `{home}/…`, `{tmp}` followed by `/…` (repeat for more)')
            [CompletionResult]::new('--write', '--write', [CompletionResultType]::ParameterName, 'A path it may read and write (same forms; repeat for more)')
            [CompletionResult]::new('--network', '--network', [CompletionResultType]::ParameterName, '`none`, `loopback`, `any`, or a host (repeat for a list)')
            [CompletionResult]::new('--env', '--env', [CompletionResultType]::ParameterName, 'A variable passed through from agx''s environment (repeat for more)')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;permissions;show' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;permissions;reset' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;permissions;accept' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;permissions;help' {
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Record what a server may touch, replacing what its package declares (unset keys take the defaults: read the package, write {data} and {tmp}, network any)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print the permissions you recorded for a server')
            [CompletionResult]::new('reset', 'reset', [CompletionResultType]::ParameterValue, 'Forget the permissions you recorded: the package''s own apply again')
            [CompletionResult]::new('accept', 'accept', [CompletionResultType]::ParameterValue, 'In a project: trust the permissions its agx.toml gives a server, where they grant more than the package''s (or yours); agx serve refuses them until you do')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agx;permissions;help;set' {
            break
        }
        'agx;permissions;help;show' {
            break
        }
        'agx;permissions;help;reset' {
            break
        }
        'agx;permissions;help;accept' {
            break
        }
        'agx;permissions;help;help' {
            break
        }
        'agx;policy' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print the effective policy: each rule, its value, and the file and line it is from')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agx;policy;show' {
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project whose `[policy]` counts (default: the nearest folder at or above the current one with an agx.toml)')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;policy;help' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print the effective policy: each rule, its value, and the file and line it is from')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agx;policy;help;show' {
            break
        }
        'agx;policy;help;help' {
            break
        }
        'agx;serve' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--http', '--http', [CompletionResultType]::ParameterName, 'Serve Streamable HTTP on this loopback address instead of stdio')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--no-sandbox', '--no-sandbox', [CompletionResultType]::ParameterName, 'Run the server''s programs unconfined, whatever their permissions (docs/sandbox.md); the log says so. The same as AGX_SANDBOX=off')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;call' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--arg', '--arg', [CompletionResultType]::ParameterName, 'An argument, as NAME=VALUE; VALUE is JSON unless the tool''s schema says text')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'All arguments as one JSON object (`--arg` values are set over it)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print the result: its text, or the MCP result as JSON')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;prompt' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--arg', '--arg', [CompletionResultType]::ParameterName, 'An argument, as NAME=VALUE (prompt arguments are text)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print the messages: their text, or the MCP result as JSON')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;add' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The key in [servers] and in client files (default: derived from the server''s name; for a skill, its name)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder (default: the nearest folder at or above the current one whose agx.toml has [project] or [servers])')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--skill', '--skill', [CompletionResultType]::ParameterName, 'Add a skill (`publisher/package/skill[@REQ]`) to [skills] instead: sync copies it into the project''s skills folders (docs/skills.md)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;remove' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder (default: the nearest folder at or above the current one whose agx.toml has [project] or [servers])')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;lock' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--upgrade-package', '--upgrade-package', [CompletionResultType]::ParameterName, 'Let this package move (repeatable); the others keep their locked versions')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder (default: the nearest folder at or above the current one whose agx.toml has [project] or [servers])')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--upgrade', '--upgrade', [CompletionResultType]::ParameterName, 'Let every package move to the newest version its requirements allow')
            [CompletionResult]::new('--allow-signer-change', '--allow-signer-change', [CompletionResultType]::ParameterName, 'Install a version signed by someone other than the signer its installed version recorded, and trust the new signer from now on (recorded; `agx info` shows it)')
            [CompletionResult]::new('--allow-unsigned', '--allow-unsigned', [CompletionResultType]::ParameterName, 'Install a version without a Sigstore bundle although its installed version had one (recorded; the earlier signer stays the one expected next)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;sync' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--accept-finding', '--accept-finding', [CompletionResultType]::ParameterName, 'Install even though the poisoning scan has high findings of this code (`S001`, …; repeatable); the receipt records it, and `agx serve` then shows the items it is about')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder (default: the nearest folder at or above the current one whose agx.toml has [project] or [servers])')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Fail if agx.lock does not match agx.toml (it would change)')
            [CompletionResult]::new('--frozen', '--frozen', [CompletionResultType]::ParameterName, 'Use agx.lock as it is, without comparing it with agx.toml')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Change nothing: list every difference and exit non-zero when there is one (for CI)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace hand-written client entries whose keys the project uses')
            [CompletionResult]::new('--warm', '--warm', [CompletionResultType]::ParameterName, 'Start each newly installed wrapped or remote server once to fill its compile cache and pin its definitions (this runs the server''s code)')
            [CompletionResult]::new('--allow-signer-change', '--allow-signer-change', [CompletionResultType]::ParameterName, 'Install a version signed by someone other than the signer its installed version recorded, and trust the new signer from now on (recorded; `agx info` shows it)')
            [CompletionResult]::new('--allow-unsigned', '--allow-unsigned', [CompletionResultType]::ParameterName, 'Install a version without a Sigstore bundle although its installed version had one (recorded; the earlier signer stays the one expected next)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;tree' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project folder (default: the nearest folder at or above the current one whose agx.toml has [project] or [servers])')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON (the shapes are documented in docs/json.md)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;completions' {
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry to use: a configured name, an https:// URL or a local folder')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours in messages')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: only results and errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more detail (repeat for even more)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Use only cached index data; never touch the network')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agx;help' {
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Install packages from the registry, or a local package folder or tarball')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove installed packages')
            [CompletionResult]::new('update', 'update', [CompletionResultType]::ParameterValue, 'Update installed packages to the newest versions their requirements allow')
            [CompletionResult]::new('outdated', 'outdated', [CompletionResultType]::ParameterValue, 'Show installed packages that have newer versions in the registry')
            [CompletionResult]::new('gc', 'gc', [CompletionResultType]::ParameterValue, 'Remove installed versions that neither the user nor any project holds')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List installed packages and what they contribute')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search the registry''s catalog by name, description and item names')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show details of a package or a server')
            [CompletionResult]::new('tools', 'tools', [CompletionResultType]::ParameterValue, 'List the tools a client sees of a server after its filter, with token estimates')
            [CompletionResult]::new('trust', 'trust', [CompletionResultType]::ParameterValue, 'Accept what a wrapped or remote server lists now as its pinned definitions')
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Create a package folder with a tool, a prompt and a server, ready to validate')
            [CompletionResult]::new('discover', 'discover', [CompletionResultType]::ParameterValue, 'Find the tools in a folder of scripts and write their definitions')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check an extension package before publishing')
            [CompletionResult]::new('audit', 'audit', [CompletionResultType]::ParameterValue, 'Run the poisoning scan over installed packages (docs/security.md)')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check installed files and signers against what their install recorded')
            [CompletionResult]::new('pack', 'pack', [CompletionResultType]::ParameterValue, 'Build a deterministic .tar.gz of a package')
            [CompletionResult]::new('publish', 'publish', [CompletionResultType]::ParameterValue, 'Publish a package to an OCI registry (oci://HOST/NAMESPACE) or a folder registry')
            [CompletionResult]::new('sbom', 'sbom', [CompletionResultType]::ParameterValue, 'Write a software bill of materials (CycloneDX or SPDX JSON)')
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Store a registry''s credential in the keyring (docs/organizations.md)')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Forget a registry''s stored credential')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'Sign in to remote MCP servers that ask for it (OAuth), once for every client')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write packages as Claude Code/Codex, Gemini CLI or Agent Plugins bundles')
            [CompletionResult]::new('registry', 'registry', [CompletionResultType]::ParameterValue, 'Manage configured registries and folder registries')
            [CompletionResult]::new('install-server', 'install-server', [CompletionResultType]::ParameterValue, 'Add an entry that launches `agx serve` to an MCP client''s configuration')
            [CompletionResult]::new('uninstall-server', 'uninstall-server', [CompletionResultType]::ParameterValue, 'Remove an entry that agx wrote from an MCP client''s configuration')
            [CompletionResult]::new('install-skill', 'install-skill', [CompletionResultType]::ParameterValue, 'Copy a package''s Agent Skill into a client''s skills folder (or every client''s)')
            [CompletionResult]::new('uninstall-skill', 'uninstall-skill', [CompletionResultType]::ParameterValue, 'Remove a skill copy that agx wrote from a client''s skills folder')
            [CompletionResult]::new('clients', 'clients', [CompletionResultType]::ParameterValue, 'List supported MCP clients, their config files and the agx entries in them')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Find drift between recorded client entries, client files and the store')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Set, show and remove the values of packages'' settings and secrets')
            [CompletionResult]::new('permissions', 'permissions', [CompletionResultType]::ParameterValue, 'Set, show and reset your permissions of a server (docs/sandbox.md)')
            [CompletionResult]::new('policy', 'policy', [CompletionResultType]::ParameterValue, 'Show the organisation''s policy in effect here, rule by rule (docs/policy.md)')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Run a package''s server as an MCP server (stdio, or Streamable HTTP on loopback)')
            [CompletionResult]::new('call', 'call', [CompletionResultType]::ParameterValue, 'Run one installed tool as `agx serve` would, and print its result')
            [CompletionResult]::new('prompt', 'prompt', [CompletionResultType]::ParameterValue, 'Render one installed prompt as `agx serve` would, and print its messages')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a server to the project''s agx.toml, lock it and sync (docs/projects.md)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove a server or skill from the project''s agx.toml, agx.lock and client files')
            [CompletionResult]::new('lock', 'lock', [CompletionResultType]::ParameterValue, 'Resolve the project''s servers into agx.lock')
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Install the locked versions and write each listed client''s project file')
            [CompletionResult]::new('tree', 'tree', [CompletionResultType]::ParameterValue, 'Show which packages the project needs, and why')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'agx;help;install' {
            break
        }
        'agx;help;uninstall' {
            break
        }
        'agx;help;update' {
            break
        }
        'agx;help;outdated' {
            break
        }
        'agx;help;gc' {
            break
        }
        'agx;help;list' {
            break
        }
        'agx;help;search' {
            break
        }
        'agx;help;info' {
            break
        }
        'agx;help;tools' {
            break
        }
        'agx;help;trust' {
            break
        }
        'agx;help;new' {
            break
        }
        'agx;help;discover' {
            break
        }
        'agx;help;validate' {
            break
        }
        'agx;help;audit' {
            break
        }
        'agx;help;verify' {
            break
        }
        'agx;help;pack' {
            break
        }
        'agx;help;publish' {
            break
        }
        'agx;help;sbom' {
            break
        }
        'agx;help;login' {
            break
        }
        'agx;help;logout' {
            break
        }
        'agx;help;auth' {
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Sign in to a remote server in the browser; the tokens go to the keyring')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Forget the sign-in to a remote server (its tokens and record)')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show the sign-ins (or one), their issuer, scopes and when their token expires')
            break
        }
        'agx;help;auth;login' {
            break
        }
        'agx;help;auth;logout' {
            break
        }
        'agx;help;auth;status' {
            break
        }
        'agx;help;export' {
            break
        }
        'agx;help;registry' {
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create an empty folder registry')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Publish a package folder or tarball into a folder registry')
            [CompletionResult]::new('yank', 'yank', [CompletionResultType]::ParameterValue, 'Mark a published version as yanked (or undo it)')
            [CompletionResult]::new('keys', 'keys', [CompletionResultType]::ParameterValue, 'Create the signing keys of a TUF-signed registry (docs/registry.md)')
            [CompletionResult]::new('sign', 'sign', [CompletionResultType]::ParameterValue, 'Sign a folder registry as a TUF repository: every file a client fetches becomes a signed target (docs/registry.md)')
            [CompletionResult]::new('refresh-timestamp', 'refresh-timestamp', [CompletionResultType]::ParameterValue, 'Sign a new timestamp for a signed registry: run it (from cron) more often than the timestamp expires (default 1 day)')
            [CompletionResult]::new('rotate', 'rotate', [CompletionResultType]::ParameterValue, 'Replace a role''s keys with new ones and sign a new root version with the old and new keys, so that clients follow; the old key files move to KEYS_DIR/retired/')
            [CompletionResult]::new('add-source', 'add-source', [CompletionResultType]::ParameterValue, 'Configure a registry to search and install from: an agx index, an MCP registry or a Claude-format marketplace')
            [CompletionResult]::new('remove-source', 'remove-source', [CompletionResultType]::ParameterValue, 'Remove a configured registry (its cached data stays until `agx` cleans the cache)')
            [CompletionResult]::new('sources', 'sources', [CompletionResultType]::ParameterValue, 'List the configured registries with their kinds')
            break
        }
        'agx;help;registry;init' {
            break
        }
        'agx;help;registry;add' {
            break
        }
        'agx;help;registry;yank' {
            break
        }
        'agx;help;registry;keys' {
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Generate ed25519 keys for the root, targets, snapshot and timestamp roles into a folder kept outside the registry (private keys are written with mode 0600)')
            break
        }
        'agx;help;registry;keys;generate' {
            break
        }
        'agx;help;registry;sign' {
            break
        }
        'agx;help;registry;refresh-timestamp' {
            break
        }
        'agx;help;registry;rotate' {
            break
        }
        'agx;help;registry;add-source' {
            break
        }
        'agx;help;registry;remove-source' {
            break
        }
        'agx;help;registry;sources' {
            break
        }
        'agx;help;install-server' {
            break
        }
        'agx;help;uninstall-server' {
            break
        }
        'agx;help;install-skill' {
            break
        }
        'agx;help;uninstall-skill' {
            break
        }
        'agx;help;clients' {
            break
        }
        'agx;help;doctor' {
            break
        }
        'agx;help;config' {
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set a setting''s value. A secret is never taken from the command line: it is read without echo on a terminal, or from standard input with --stdin')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Print a setting''s value (a secret prints as `set` unless --reveal)')
            [CompletionResult]::new('unset', 'unset', [CompletionResultType]::ParameterValue, 'Remove a stored value (the default, if any, applies again)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the settings of installed packages and where each value comes from')
            break
        }
        'agx;help;config;set' {
            break
        }
        'agx;help;config;get' {
            break
        }
        'agx;help;config;unset' {
            break
        }
        'agx;help;config;list' {
            break
        }
        'agx;help;permissions' {
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Record what a server may touch, replacing what its package declares (unset keys take the defaults: read the package, write {data} and {tmp}, network any)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print the permissions you recorded for a server')
            [CompletionResult]::new('reset', 'reset', [CompletionResultType]::ParameterValue, 'Forget the permissions you recorded: the package''s own apply again')
            [CompletionResult]::new('accept', 'accept', [CompletionResultType]::ParameterValue, 'In a project: trust the permissions its agx.toml gives a server, where they grant more than the package''s (or yours); agx serve refuses them until you do')
            break
        }
        'agx;help;permissions;set' {
            break
        }
        'agx;help;permissions;show' {
            break
        }
        'agx;help;permissions;reset' {
            break
        }
        'agx;help;permissions;accept' {
            break
        }
        'agx;help;policy' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print the effective policy: each rule, its value, and the file and line it is from')
            break
        }
        'agx;help;policy;show' {
            break
        }
        'agx;help;serve' {
            break
        }
        'agx;help;call' {
            break
        }
        'agx;help;prompt' {
            break
        }
        'agx;help;add' {
            break
        }
        'agx;help;remove' {
            break
        }
        'agx;help;lock' {
            break
        }
        'agx;help;sync' {
            break
        }
        'agx;help;tree' {
            break
        }
        'agx;help;completions' {
            break
        }
        'agx;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}

# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_agx_global_optspecs
    string join \n registry= root= q/quiet v/verbose offline color= h/help V/version
end

function __fish_agx_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_agx_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_agx_using_subcommand
    set -l cmd (__fish_agx_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c agx -n "__fish_agx_needs_command" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_needs_command" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_needs_command" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_needs_command" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_needs_command" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_needs_command" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_needs_command" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_needs_command" -f -a "install" -d 'Install packages from the registry, or a local package folder or tarball'
complete -c agx -n "__fish_agx_needs_command" -f -a "uninstall" -d 'Remove installed packages'
complete -c agx -n "__fish_agx_needs_command" -f -a "update" -d 'Update installed packages to the newest versions their requirements allow'
complete -c agx -n "__fish_agx_needs_command" -f -a "outdated" -d 'Show installed packages that have newer versions in the registry'
complete -c agx -n "__fish_agx_needs_command" -f -a "gc" -d 'Remove installed versions that neither the user nor any project holds'
complete -c agx -n "__fish_agx_needs_command" -f -a "list" -d 'List installed packages and what they contribute'
complete -c agx -n "__fish_agx_needs_command" -f -a "search" -d 'Search the registry\'s catalog by name, description and item names'
complete -c agx -n "__fish_agx_needs_command" -f -a "info" -d 'Show details of a package or a server'
complete -c agx -n "__fish_agx_needs_command" -f -a "tools" -d 'List the tools a client sees of a server after its filter, with token estimates'
complete -c agx -n "__fish_agx_needs_command" -f -a "trust" -d 'Accept what a wrapped or remote server lists now as its pinned definitions'
complete -c agx -n "__fish_agx_needs_command" -f -a "new" -d 'Create a package folder with a tool, a prompt and a server, ready to validate'
complete -c agx -n "__fish_agx_needs_command" -f -a "discover" -d 'Find the tools in a folder of scripts and write their definitions'
complete -c agx -n "__fish_agx_needs_command" -f -a "validate" -d 'Check an extension package before publishing'
complete -c agx -n "__fish_agx_needs_command" -f -a "audit" -d 'Run the poisoning scan over installed packages (docs/security.md)'
complete -c agx -n "__fish_agx_needs_command" -f -a "verify" -d 'Check installed files and signers against what their install recorded'
complete -c agx -n "__fish_agx_needs_command" -f -a "pack" -d 'Build a deterministic .tar.gz of a package'
complete -c agx -n "__fish_agx_needs_command" -f -a "publish" -d 'Publish a package to an OCI registry (oci://HOST/NAMESPACE) or a folder registry'
complete -c agx -n "__fish_agx_needs_command" -f -a "sbom" -d 'Write a software bill of materials (CycloneDX or SPDX JSON)'
complete -c agx -n "__fish_agx_needs_command" -f -a "login" -d 'Store a registry\'s credential in the keyring (docs/organizations.md)'
complete -c agx -n "__fish_agx_needs_command" -f -a "logout" -d 'Forget a registry\'s stored credential'
complete -c agx -n "__fish_agx_needs_command" -f -a "auth" -d 'Sign in to remote MCP servers that ask for it (OAuth), once for every client'
complete -c agx -n "__fish_agx_needs_command" -f -a "export" -d 'Write packages as Claude Code/Codex, Gemini CLI or Agent Plugins bundles'
complete -c agx -n "__fish_agx_needs_command" -f -a "registry" -d 'Manage configured registries and folder registries'
complete -c agx -n "__fish_agx_needs_command" -f -a "install-server" -d 'Add an entry that launches `agx serve` to an MCP client\'s configuration'
complete -c agx -n "__fish_agx_needs_command" -f -a "uninstall-server" -d 'Remove an entry that agx wrote from an MCP client\'s configuration'
complete -c agx -n "__fish_agx_needs_command" -f -a "install-skill" -d 'Copy a package\'s Agent Skill into a client\'s skills folder (or every client\'s)'
complete -c agx -n "__fish_agx_needs_command" -f -a "uninstall-skill" -d 'Remove a skill copy that agx wrote from a client\'s skills folder'
complete -c agx -n "__fish_agx_needs_command" -f -a "clients" -d 'List supported MCP clients, their config files and the agx entries in them'
complete -c agx -n "__fish_agx_needs_command" -f -a "doctor" -d 'Find drift between recorded client entries, client files and the store'
complete -c agx -n "__fish_agx_needs_command" -f -a "config" -d 'Set, show and remove the values of packages\' settings and secrets'
complete -c agx -n "__fish_agx_needs_command" -f -a "permissions" -d 'Set, show and reset your permissions of a server (docs/sandbox.md)'
complete -c agx -n "__fish_agx_needs_command" -f -a "policy" -d 'Show the organisation\'s policy in effect here, rule by rule (docs/policy.md)'
complete -c agx -n "__fish_agx_needs_command" -f -a "serve" -d 'Run a package\'s server as an MCP server (stdio, or Streamable HTTP on loopback)'
complete -c agx -n "__fish_agx_needs_command" -f -a "call" -d 'Run one installed tool as `agx serve` would, and print its result'
complete -c agx -n "__fish_agx_needs_command" -f -a "prompt" -d 'Render one installed prompt as `agx serve` would, and print its messages'
complete -c agx -n "__fish_agx_needs_command" -f -a "add" -d 'Add a server to the project\'s agx.toml, lock it and sync (docs/projects.md)'
complete -c agx -n "__fish_agx_needs_command" -f -a "remove" -d 'Remove a server or skill from the project\'s agx.toml, agx.lock and client files'
complete -c agx -n "__fish_agx_needs_command" -f -a "lock" -d 'Resolve the project\'s servers into agx.lock'
complete -c agx -n "__fish_agx_needs_command" -f -a "sync" -d 'Install the locked versions and write each listed client\'s project file'
complete -c agx -n "__fish_agx_needs_command" -f -a "tree" -d 'Show which packages the project needs, and why'
complete -c agx -n "__fish_agx_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c agx -n "__fish_agx_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agx -n "__fish_agx_using_subcommand install" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand install" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand install" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand install" -l sha256 -d 'The sha256 (64 hex digits) an MCPB bundle must have: required for a bundle from a URL, checked for a bundle file when given' -r
complete -c agx -n "__fish_agx_using_subcommand install" -l prefer -d 'For a server from an MCP registry: install its package of this kind, or its remote (default: the first package whose runtime is on this machine, in the order npm, pypi, oci, mcpb; then a remote)' -r -f -a "npm\t''
pypi\t''
oci\t''
mcpb\t''
remote\t''"
complete -c agx -n "__fish_agx_using_subcommand install" -l accept-finding -d 'Install even though the poisoning scan has high findings of this code (`S001`, …; repeatable); the receipt records it, and `agx serve` then shows the items it is about' -r
complete -c agx -n "__fish_agx_using_subcommand install" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand install" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand install" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand install" -l force -d 'Reinstall even when the same version is already installed'
complete -c agx -n "__fish_agx_using_subcommand install" -l allow-scripts -d 'Let npm run the package\'s install scripts (off by default: installing runs no package code)'
complete -c agx -n "__fish_agx_using_subcommand install" -l allow-sdist -d 'Let pip build PyPI packages from source distributions (off by default: wheels only, as building runs the package\'s code)'
complete -c agx -n "__fish_agx_using_subcommand install" -l warm -d 'Start each newly installed wrapped or remote server once to fill its compile cache and pin its definitions before a client sees them (this runs the server\'s code)'
complete -c agx -n "__fish_agx_using_subcommand install" -l allow-signer-change -d 'Install a version signed by someone other than the signer its installed version recorded, and trust the new signer from now on (recorded; `agx info` shows it)'
complete -c agx -n "__fish_agx_using_subcommand install" -l allow-unsigned -d 'Install a version without a Sigstore bundle although its installed version had one (recorded; the earlier signer stays the one expected next)'
complete -c agx -n "__fish_agx_using_subcommand install" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand install" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand uninstall" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand uninstall" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand uninstall" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand uninstall" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand uninstall" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand uninstall" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand uninstall" -l force -d 'Remove even when other packages or client entries depend on it'
complete -c agx -n "__fish_agx_using_subcommand uninstall" -l purge -d 'Also remove the packages\' data folders (kept otherwise, docs/store.md)'
complete -c agx -n "__fish_agx_using_subcommand uninstall" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand uninstall" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand update" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand update" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand update" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand update" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand update" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand update" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand update" -l accept-permissions -d 'Move to newer versions even when they ask for more permissions than the installed ones (without it, such a package keeps its version and agx says what grew)'
complete -c agx -n "__fish_agx_using_subcommand update" -l allow-signer-change -d 'Install a version signed by someone other than the signer its installed version recorded, and trust the new signer from now on (recorded; `agx info` shows it)'
complete -c agx -n "__fish_agx_using_subcommand update" -l allow-unsigned -d 'Install a version without a Sigstore bundle although its installed version had one (recorded; the earlier signer stays the one expected next)'
complete -c agx -n "__fish_agx_using_subcommand update" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand update" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand outdated" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand outdated" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand outdated" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand outdated" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand outdated" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand outdated" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand outdated" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand outdated" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand outdated" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand gc" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand gc" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand gc" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand gc" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand gc" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand gc" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand gc" -l dry-run -d 'Say what would be removed, and remove nothing'
complete -c agx -n "__fish_agx_using_subcommand gc" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand gc" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand gc" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand list" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand list" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand list" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand list" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand list" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand list" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand list" -l include-remote -d 'Also list what the registry\'s catalog offers (downloads no package)'
complete -c agx -n "__fish_agx_using_subcommand list" -l servers -d 'List servers by qualified name'
complete -c agx -n "__fish_agx_using_subcommand list" -l tools -d 'List tools by qualified name'
complete -c agx -n "__fish_agx_using_subcommand list" -l prompts -d 'List prompts by qualified name'
complete -c agx -n "__fish_agx_using_subcommand list" -l skills -d 'List skills by qualified name'
complete -c agx -n "__fish_agx_using_subcommand list" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand list" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand search" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand search" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand search" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand search" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand search" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand search" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand search" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand search" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand search" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand info" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand info" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand info" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand info" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand info" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand info" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand info" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand info" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand info" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand tools" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand tools" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand tools" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand tools" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand tools" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand tools" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand tools" -l tokens -d 'Estimate each tool\'s context cost in tokens, with totals before and after the filter'
complete -c agx -n "__fish_agx_using_subcommand tools" -l diff -d 'Show how what the server lists now differs from its pinned definitions (changed, new and removed tools, prompts and resource templates)'
complete -c agx -n "__fish_agx_using_subcommand tools" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand tools" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand tools" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand trust" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand trust" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand trust" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand trust" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand trust" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand trust" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand trust" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand trust" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand trust" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand new" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand new" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand new" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand new" -l name -d 'The package name, as `publisher/name` or `name` (default: the folder\'s name)' -r
complete -c agx -n "__fish_agx_using_subcommand new" -l lang -d 'The language of the new tool\'s script' -r -f -a "sh\t'A POSIX shell script: needs nothing installed'
python\t'A Python 3 script, run with `python3 -S` (no site packages) so it starts fast'
node\t'A Node.js script'"
complete -c agx -n "__fish_agx_using_subcommand new" -l skill -d 'Make a package of one Agent Skill with this name (`skills/NAME/SKILL.md`) instead of a tool, a prompt and a server' -r
complete -c agx -n "__fish_agx_using_subcommand new" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand new" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand new" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand new" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand new" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand discover" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand discover" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand discover" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand discover" -l name -d 'The package name when --write creates agx.toml (default: the folder\'s name)' -r
complete -c agx -n "__fish_agx_using_subcommand discover" -l timeout -d 'How long each probe of a script may take, in milliseconds' -r
complete -c agx -n "__fish_agx_using_subcommand discover" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand discover" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand discover" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand discover" -l write -d 'Write what was found: agx.toml (or the tools added to the one there), a server offering the tools, and a definition file per tool; never over a file that exists'
complete -c agx -n "__fish_agx_using_subcommand discover" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand discover" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand discover" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand validate" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand validate" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand validate" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand validate" -l format -d 'Output format' -r -f -a "human\t'Diagnostics for people, with the offending source line'
json\t'One JSON document with every finding (see docs/validate.md)'"
complete -c agx -n "__fish_agx_using_subcommand validate" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand validate" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand validate" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand validate" -l probe -d 'Also run each tool\'s self-test (`{"__test__": true}`); this runs package code'
complete -c agx -n "__fish_agx_using_subcommand validate" -l strict -d 'Fail on warnings too (an author\'s own package: body references that point nowhere, keys only some clients read, …)'
complete -c agx -n "__fish_agx_using_subcommand validate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand validate" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand audit" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand audit" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand audit" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand audit" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand audit" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand audit" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand audit" -l project -d 'The packages of the project\'s agx.lock instead (the nearest folder at or above the current one with an agx.toml that has [project] or [servers])'
complete -c agx -n "__fish_agx_using_subcommand audit" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand audit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand audit" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand verify" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand verify" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand verify" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand verify" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand verify" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand verify" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand verify" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand verify" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand verify" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand pack" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand pack" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand pack" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand pack" -s o -l output -d 'Where to write the archive (default: the current directory)' -r -F
complete -c agx -n "__fish_agx_using_subcommand pack" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand pack" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand pack" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand pack" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand pack" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand publish" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand publish" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand publish" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand publish" -l to -d 'Where to: a configured source\'s name, an oci://HOST/NAMESPACE location, or a registry folder' -r
complete -c agx -n "__fish_agx_using_subcommand publish" -l publisher -d 'With --skill: the package\'s publisher (the repository\'s second-to-last segment)' -r
complete -c agx -n "__fish_agx_using_subcommand publish" -l skill-version -d 'With --skill: the version to tag (default: `version` in SKILL.md\'s front matter, then `metadata.version`)' -r
complete -c agx -n "__fish_agx_using_subcommand publish" -l keys -d 'The keys folder (`agx registry keys generate`); keys may also come from AGX_TUF_KEY_<ROLE> (a PEM) or AGX_TUF_KEY_<ROLE>_FILE (a path, e.g. /dev/fd/3)' -r -F
complete -c agx -n "__fish_agx_using_subcommand publish" -l expires -d 'How long a role\'s new metadata stays valid, as ROLE=DURATION (30d, 12h, 90m, 3600s); defaults: root=365d, targets=90d, snapshot=7d, timestamp=1d' -r
complete -c agx -n "__fish_agx_using_subcommand publish" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand publish" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand publish" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand publish" -l skill -d 'DIR is one Agent Skill (SKILL.md at its root): push it to the OCI registry as ToolHive\'s skill artifact, as the package PUBLISHER/SKILL'
complete -c agx -n "__fish_agx_using_subcommand publish" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand publish" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand publish" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand sbom" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand sbom" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand sbom" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand sbom" -l project -d 'The packages of the project\'s agx.lock instead of the installed ones (the nearest folder at or above the current one with an agx.toml, or DIR)' -r -F
complete -c agx -n "__fish_agx_using_subcommand sbom" -l format -d 'The document\'s format' -r -f -a "cyclonedx\t'CycloneDX 1.6 JSON'
spdx\t'SPDX 2.3 JSON'"
complete -c agx -n "__fish_agx_using_subcommand sbom" -s o -l output -d 'Write it to FILE (default: standard output)' -r -F
complete -c agx -n "__fish_agx_using_subcommand sbom" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand sbom" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand sbom" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand sbom" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand sbom" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand login" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand login" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand login" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand login" -s u -l username -d 'The user name (absent: the secret is a token)' -r
complete -c agx -n "__fish_agx_using_subcommand login" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand login" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand login" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand login" -l password-stdin -d 'Read the password from standard input (one line)'
complete -c agx -n "__fish_agx_using_subcommand login" -l token-stdin -d 'Read a token from standard input (one line)'
complete -c agx -n "__fish_agx_using_subcommand login" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand login" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand logout" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand logout" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand logout" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand logout" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand logout" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand logout" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand logout" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand logout" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand auth; and not __fish_seen_subcommand_from login logout status help" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand auth; and not __fish_seen_subcommand_from login logout status help" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand auth; and not __fish_seen_subcommand_from login logout status help" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand auth; and not __fish_seen_subcommand_from login logout status help" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand auth; and not __fish_seen_subcommand_from login logout status help" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand auth; and not __fish_seen_subcommand_from login logout status help" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand auth; and not __fish_seen_subcommand_from login logout status help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand auth; and not __fish_seen_subcommand_from login logout status help" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand auth; and not __fish_seen_subcommand_from login logout status help" -f -a "login" -d 'Sign in to a remote server in the browser; the tokens go to the keyring'
complete -c agx -n "__fish_agx_using_subcommand auth; and not __fish_seen_subcommand_from login logout status help" -f -a "logout" -d 'Forget the sign-in to a remote server (its tokens and record)'
complete -c agx -n "__fish_agx_using_subcommand auth; and not __fish_seen_subcommand_from login logout status help" -f -a "status" -d 'Show the sign-ins (or one), their issuer, scopes and when their token expires'
complete -c agx -n "__fish_agx_using_subcommand auth; and not __fish_seen_subcommand_from login logout status help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from login" -l client-id -d 'A client ID the authorization server\'s administrator gave you (instead of registering agx)' -r
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from login" -l client-metadata-url -d 'An HTTPS URL serving agx\'s client metadata document, used as the client ID where the server accepts those (docs/auth.md). Default: `AGX_OAUTH_CLIENT_METADATA_URL`' -r
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from login" -l scope -d 'A scope to ask for (repeat for more; default: what the server asks for)' -r
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from login" -l callback-port -d 'The loopback port of the redirect (default: any free port). For a client ID registered with a fixed redirect URI' -r
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from login" -l timeout -d 'How long to wait for the browser, in seconds' -r
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from login" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from login" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from login" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from login" -l client-secret-stdin -d 'Read that client\'s secret from standard input (one line)'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from login" -l client-credentials -d 'Sign in as that client itself, with its secret and no browser (OAuth client credentials: for machines and CI where the server allows it)'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from login" -l no-browser -d 'Print the sign-in URL without opening a browser'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from login" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from login" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from login" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from login" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from login" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from login" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from logout" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from logout" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from logout" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from logout" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from logout" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from logout" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from logout" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from logout" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from status" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from status" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from status" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from status" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from status" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from status" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "login" -d 'Sign in to a remote server in the browser; the tokens go to the keyring'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "logout" -d 'Forget the sign-in to a remote server (its tokens and record)'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "status" -d 'Show the sign-ins (or one), their issuer, scopes and when their token expires'
complete -c agx -n "__fish_agx_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agx -n "__fish_agx_using_subcommand export" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand export" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand export" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand export" -l name -d 'The marketplace\'s name (claude-, codex- and cursor-marketplace; default: OUT_DIR\'s name in kebab-case)' -r
complete -c agx -n "__fish_agx_using_subcommand export" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand export" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand export" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand export" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand export" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand export" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand registry; and not __fish_seen_subcommand_from init add yank keys sign refresh-timestamp rotate add-source remove-source sources help" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand registry; and not __fish_seen_subcommand_from init add yank keys sign refresh-timestamp rotate add-source remove-source sources help" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand registry; and not __fish_seen_subcommand_from init add yank keys sign refresh-timestamp rotate add-source remove-source sources help" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand registry; and not __fish_seen_subcommand_from init add yank keys sign refresh-timestamp rotate add-source remove-source sources help" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand registry; and not __fish_seen_subcommand_from init add yank keys sign refresh-timestamp rotate add-source remove-source sources help" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand registry; and not __fish_seen_subcommand_from init add yank keys sign refresh-timestamp rotate add-source remove-source sources help" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand registry; and not __fish_seen_subcommand_from init add yank keys sign refresh-timestamp rotate add-source remove-source sources help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand registry; and not __fish_seen_subcommand_from init add yank keys sign refresh-timestamp rotate add-source remove-source sources help" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand registry; and not __fish_seen_subcommand_from init add yank keys sign refresh-timestamp rotate add-source remove-source sources help" -f -a "init" -d 'Create an empty folder registry'
complete -c agx -n "__fish_agx_using_subcommand registry; and not __fish_seen_subcommand_from init add yank keys sign refresh-timestamp rotate add-source remove-source sources help" -f -a "add" -d 'Publish a package folder or tarball into a folder registry'
complete -c agx -n "__fish_agx_using_subcommand registry; and not __fish_seen_subcommand_from init add yank keys sign refresh-timestamp rotate add-source remove-source sources help" -f -a "yank" -d 'Mark a published version as yanked (or undo it)'
complete -c agx -n "__fish_agx_using_subcommand registry; and not __fish_seen_subcommand_from init add yank keys sign refresh-timestamp rotate add-source remove-source sources help" -f -a "keys" -d 'Create the signing keys of a TUF-signed registry (docs/registry.md)'
complete -c agx -n "__fish_agx_using_subcommand registry; and not __fish_seen_subcommand_from init add yank keys sign refresh-timestamp rotate add-source remove-source sources help" -f -a "sign" -d 'Sign a folder registry as a TUF repository: every file a client fetches becomes a signed target (docs/registry.md)'
complete -c agx -n "__fish_agx_using_subcommand registry; and not __fish_seen_subcommand_from init add yank keys sign refresh-timestamp rotate add-source remove-source sources help" -f -a "refresh-timestamp" -d 'Sign a new timestamp for a signed registry: run it (from cron) more often than the timestamp expires (default 1 day)'
complete -c agx -n "__fish_agx_using_subcommand registry; and not __fish_seen_subcommand_from init add yank keys sign refresh-timestamp rotate add-source remove-source sources help" -f -a "rotate" -d 'Replace a role\'s keys with new ones and sign a new root version with the old and new keys, so that clients follow; the old key files move to KEYS_DIR/retired/'
complete -c agx -n "__fish_agx_using_subcommand registry; and not __fish_seen_subcommand_from init add yank keys sign refresh-timestamp rotate add-source remove-source sources help" -f -a "add-source" -d 'Configure a registry to search and install from: an agx index, an MCP registry or a Claude-format marketplace'
complete -c agx -n "__fish_agx_using_subcommand registry; and not __fish_seen_subcommand_from init add yank keys sign refresh-timestamp rotate add-source remove-source sources help" -f -a "remove-source" -d 'Remove a configured registry (its cached data stays until `agx` cleans the cache)'
complete -c agx -n "__fish_agx_using_subcommand registry; and not __fish_seen_subcommand_from init add yank keys sign refresh-timestamp rotate add-source remove-source sources help" -f -a "sources" -d 'List the configured registries with their kinds'
complete -c agx -n "__fish_agx_using_subcommand registry; and not __fish_seen_subcommand_from init add yank keys sign refresh-timestamp rotate add-source remove-source sources help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from init" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from init" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from init" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from init" -l name -d 'Name recorded in config.json (default: the folder\'s name)' -r
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from init" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from init" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from init" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from init" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from init" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add" -l bundle -d 'The archive\'s Sigstore bundle (`FILE.sigstore.json`): checked against the archive, then published beside it so installs verify who built it (docs/registry.md)' -r -F
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add" -l trusted-root -d 'The Sigstore trusted root the bundle is checked against (default: Sigstore\'s public-good instance)' -r -F
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add" -l keys -d 'The keys folder (`agx registry keys generate`); keys may also come from AGX_TUF_KEY_<ROLE> (a PEM) or AGX_TUF_KEY_<ROLE>_FILE (a path, e.g. /dev/fd/3)' -r -F
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add" -l expires -d 'How long a role\'s new metadata stays valid, as ROLE=DURATION (30d, 12h, 90m, 3600s); defaults: root=365d, targets=90d, snapshot=7d, timestamp=1d' -r
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from yank" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from yank" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from yank" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from yank" -l keys -d 'The keys folder (`agx registry keys generate`); keys may also come from AGX_TUF_KEY_<ROLE> (a PEM) or AGX_TUF_KEY_<ROLE>_FILE (a path, e.g. /dev/fd/3)' -r -F
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from yank" -l expires -d 'How long a role\'s new metadata stays valid, as ROLE=DURATION (30d, 12h, 90m, 3600s); defaults: root=365d, targets=90d, snapshot=7d, timestamp=1d' -r
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from yank" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from yank" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from yank" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from yank" -l undo -d 'Un-yank the version'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from yank" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from yank" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from keys" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from keys" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from keys" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from keys" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from keys" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from keys" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from keys" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from keys" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from keys" -f -a "generate" -d 'Generate ed25519 keys for the root, targets, snapshot and timestamp roles into a folder kept outside the registry (private keys are written with mode 0600)'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from keys" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from sign" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from sign" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from sign" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from sign" -l keys -d 'The keys folder (`agx registry keys generate`); keys may also come from AGX_TUF_KEY_<ROLE> (a PEM) or AGX_TUF_KEY_<ROLE>_FILE (a path, e.g. /dev/fd/3)' -r -F
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from sign" -l expires -d 'How long a role\'s new metadata stays valid, as ROLE=DURATION (30d, 12h, 90m, 3600s); defaults: root=365d, targets=90d, snapshot=7d, timestamp=1d' -r
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from sign" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from sign" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from sign" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from sign" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from sign" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from refresh-timestamp" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from refresh-timestamp" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from refresh-timestamp" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from refresh-timestamp" -l keys -d 'The keys folder (`agx registry keys generate`); keys may also come from AGX_TUF_KEY_<ROLE> (a PEM) or AGX_TUF_KEY_<ROLE>_FILE (a path, e.g. /dev/fd/3)' -r -F
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from refresh-timestamp" -l expires -d 'How long a role\'s new metadata stays valid, as ROLE=DURATION (30d, 12h, 90m, 3600s); defaults: root=365d, targets=90d, snapshot=7d, timestamp=1d' -r
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from refresh-timestamp" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from refresh-timestamp" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from refresh-timestamp" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from refresh-timestamp" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from refresh-timestamp" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from rotate" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from rotate" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from rotate" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from rotate" -l keys -d 'The keys folder (`agx registry keys generate`); keys may also come from AGX_TUF_KEY_<ROLE> (a PEM) or AGX_TUF_KEY_<ROLE>_FILE (a path, e.g. /dev/fd/3)' -r -F
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from rotate" -l expires -d 'How long a role\'s new metadata stays valid, as ROLE=DURATION (30d, 12h, 90m, 3600s); defaults: root=365d, targets=90d, snapshot=7d, timestamp=1d' -r
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from rotate" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from rotate" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from rotate" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from rotate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from rotate" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add-source" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add-source" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add-source" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add-source" -l ca -d 'A PEM file of certificate authorities to trust for this source beside the system\'s (an OCI registry behind a company CA)' -r -F
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add-source" -l trusted-root -d 'The Sigstore trusted root (`trusted_root.json`) its packages\' bundles are verified against, for a registry whose publishers sign with their own Sigstore instance (default: Sigstore\'s public-good instance); agx keeps a copy' -r -F
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add-source" -l kind -d 'What it is; detected when absent (an agx index serves config.json, an MCP registry answers /v0.1/servers, a marketplace holds .claude-plugin/marketplace.json)' -r -f -a "agx-index\t''
mcp-registry\t''
claude-marketplace\t''
oci\t''
well-known\t''"
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add-source" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add-source" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add-source" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add-source" -l yes -d 'Trust a signed source\'s root without asking (scripts; prefer --root, which pins the root you were given; without either, a source that publishes TUF metadata shows its root\'s keys and asks)'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add-source" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from add-source" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from remove-source" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from remove-source" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from remove-source" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from remove-source" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from remove-source" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from remove-source" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from remove-source" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from remove-source" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from sources" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from sources" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from sources" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from sources" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from sources" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from sources" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from sources" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from sources" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from sources" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from help" -f -a "init" -d 'Create an empty folder registry'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from help" -f -a "add" -d 'Publish a package folder or tarball into a folder registry'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from help" -f -a "yank" -d 'Mark a published version as yanked (or undo it)'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from help" -f -a "keys" -d 'Create the signing keys of a TUF-signed registry (docs/registry.md)'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from help" -f -a "sign" -d 'Sign a folder registry as a TUF repository: every file a client fetches becomes a signed target (docs/registry.md)'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from help" -f -a "refresh-timestamp" -d 'Sign a new timestamp for a signed registry: run it (from cron) more often than the timestamp expires (default 1 day)'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from help" -f -a "rotate" -d 'Replace a role\'s keys with new ones and sign a new root version with the old and new keys, so that clients follow; the old key files move to KEYS_DIR/retired/'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from help" -f -a "add-source" -d 'Configure a registry to search and install from: an agx index, an MCP registry or a Claude-format marketplace'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from help" -f -a "remove-source" -d 'Remove a configured registry (its cached data stays until `agx` cleans the cache)'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from help" -f -a "sources" -d 'List the configured registries with their kinds'
complete -c agx -n "__fish_agx_using_subcommand registry; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agx -n "__fish_agx_using_subcommand install-server" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand install-server" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand install-server" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand install-server" -l client -d 'A client to write the entry for, in place of the positional client; repeat it for several: `--client claude-code --client codex`' -r
complete -c agx -n "__fish_agx_using_subcommand install-server" -l scope -d 'Which configuration to write' -r -f -a "user\t'The user\'s own configuration (all projects)'
project\t'The project\'s shared configuration file, under --project'
local\t'Claude Code\'s per-project entry inside ~/.claude.json'"
complete -c agx -n "__fish_agx_using_subcommand install-server" -l project -d 'Project folder for --scope project or local (default: the current directory)' -r -F
complete -c agx -n "__fish_agx_using_subcommand install-server" -l name -d 'Key of the entry in the client\'s config (default: derived from the server name)' -r
complete -c agx -n "__fish_agx_using_subcommand install-server" -l env -d 'Extra environment variable for the server (repeatable)' -r
complete -c agx -n "__fish_agx_using_subcommand install-server" -l config -d 'Write into this file instead of the client\'s default path' -r -F
complete -c agx -n "__fish_agx_using_subcommand install-server" -l allow -d 'Show only the tools matching this glob (repeatable); recorded for the server, not written into the entry (docs/profiles.md)' -r
complete -c agx -n "__fish_agx_using_subcommand install-server" -l deny -d 'Hide the tools matching this glob (repeatable), e.g. `--deny \'*_delete*\'`' -r
complete -c agx -n "__fish_agx_using_subcommand install-server" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand install-server" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand install-server" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand install-server" -l dry-run -d 'Print the change as a diff and write nothing'
complete -c agx -n "__fish_agx_using_subcommand install-server" -l force -d 'Replace an existing entry with the same key'
complete -c agx -n "__fish_agx_using_subcommand install-server" -l no-filter -d 'Remove the server\'s recorded filter'
complete -c agx -n "__fish_agx_using_subcommand install-server" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand install-server" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand uninstall-server" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand uninstall-server" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand uninstall-server" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand uninstall-server" -l scope -d 'Which configuration to edit' -r -f -a "user\t'The user\'s own configuration (all projects)'
project\t'The project\'s shared configuration file, under --project'
local\t'Claude Code\'s per-project entry inside ~/.claude.json'"
complete -c agx -n "__fish_agx_using_subcommand uninstall-server" -l project -d 'Project folder for --scope project or local (default: the current directory)' -r -F
complete -c agx -n "__fish_agx_using_subcommand uninstall-server" -l config -d 'Edit this file instead of the client\'s default path' -r -F
complete -c agx -n "__fish_agx_using_subcommand uninstall-server" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand uninstall-server" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand uninstall-server" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand uninstall-server" -l dry-run -d 'Print the change as a diff and write nothing'
complete -c agx -n "__fish_agx_using_subcommand uninstall-server" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand uninstall-server" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand install-skill" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand install-skill" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand install-skill" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand install-skill" -l client -d 'A client to copy into (or remove from), in place of the positional client; repeat it for several: `--client claude-code --client codex`' -r
complete -c agx -n "__fish_agx_using_subcommand install-skill" -l scope -d 'The user\'s skills folders (under the home folder) or the project\'s' -r -f -a "user\t''
project\t''"
complete -c agx -n "__fish_agx_using_subcommand install-skill" -l project -d 'Project folder for --scope project (default: the current directory)' -r -F
complete -c agx -n "__fish_agx_using_subcommand install-skill" -l folder -d '`shared`: `.agents/skills` (and `.claude/skills` for Claude Code), which all six clients read between them; `own`: each client\'s own folder' -r -f -a "shared\t''
own\t''"
complete -c agx -n "__fish_agx_using_subcommand install-skill" -l accept-finding -d 'Install even though the poisoning scan has high findings of this code (`S001`, …; repeatable); the receipt records it, and `agx serve` then shows the items it is about' -r
complete -c agx -n "__fish_agx_using_subcommand install-skill" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand install-skill" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand install-skill" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand install-skill" -l force -d 'Replace (or remove) a folder agx did not write, or a copy edited since'
complete -c agx -n "__fish_agx_using_subcommand install-skill" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand install-skill" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand uninstall-skill" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand uninstall-skill" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand uninstall-skill" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand uninstall-skill" -l client -d 'A client to copy into (or remove from), in place of the positional client; repeat it for several: `--client claude-code --client codex`' -r
complete -c agx -n "__fish_agx_using_subcommand uninstall-skill" -l scope -d 'The user\'s skills folders (under the home folder) or the project\'s' -r -f -a "user\t''
project\t''"
complete -c agx -n "__fish_agx_using_subcommand uninstall-skill" -l project -d 'Project folder for --scope project (default: the current directory)' -r -F
complete -c agx -n "__fish_agx_using_subcommand uninstall-skill" -l folder -d '`shared`: `.agents/skills` (and `.claude/skills` for Claude Code), which all six clients read between them; `own`: each client\'s own folder' -r -f -a "shared\t''
own\t''"
complete -c agx -n "__fish_agx_using_subcommand uninstall-skill" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand uninstall-skill" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand uninstall-skill" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand uninstall-skill" -l force -d 'Replace (or remove) a folder agx did not write, or a copy edited since'
complete -c agx -n "__fish_agx_using_subcommand uninstall-skill" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand uninstall-skill" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand clients" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand clients" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand clients" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand clients" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand clients" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand clients" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand clients" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand clients" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand clients" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand doctor" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand doctor" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand doctor" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand doctor" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand doctor" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand doctor" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand doctor" -l fix -d 'Repair what can be repaired safely'
complete -c agx -n "__fish_agx_using_subcommand doctor" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand doctor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand doctor" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand config; and not __fish_seen_subcommand_from set get unset list help" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand config; and not __fish_seen_subcommand_from set get unset list help" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand config; and not __fish_seen_subcommand_from set get unset list help" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand config; and not __fish_seen_subcommand_from set get unset list help" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand config; and not __fish_seen_subcommand_from set get unset list help" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand config; and not __fish_seen_subcommand_from set get unset list help" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand config; and not __fish_seen_subcommand_from set get unset list help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand config; and not __fish_seen_subcommand_from set get unset list help" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand config; and not __fish_seen_subcommand_from set get unset list help" -f -a "set" -d 'Set a setting\'s value. A secret is never taken from the command line: it is read without echo on a terminal, or from standard input with --stdin'
complete -c agx -n "__fish_agx_using_subcommand config; and not __fish_seen_subcommand_from set get unset list help" -f -a "get" -d 'Print a setting\'s value (a secret prints as `set` unless --reveal)'
complete -c agx -n "__fish_agx_using_subcommand config; and not __fish_seen_subcommand_from set get unset list help" -f -a "unset" -d 'Remove a stored value (the default, if any, applies again)'
complete -c agx -n "__fish_agx_using_subcommand config; and not __fish_seen_subcommand_from set get unset list help" -f -a "list" -d 'List the settings of installed packages and where each value comes from'
complete -c agx -n "__fish_agx_using_subcommand config; and not __fish_seen_subcommand_from set get unset list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from set" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from set" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from set" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from set" -l force -d 'Address a package that is not installed, or a key it does not declare'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from set" -l stdin -d 'Read the value from standard input (one trailing newline is dropped)'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from set" -l secret -d 'With --force: keep the undeclared value as a secret'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from set" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from set" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from set" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from set" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from get" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from get" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from get" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from get" -l force -d 'Address a package that is not installed, or a key it does not declare'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from get" -l reveal -d 'Print a secret\'s value'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from get" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from get" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from get" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from get" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from get" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from unset" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from unset" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from unset" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from unset" -l force -d 'Address a package that is not installed, or a key it does not declare'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from unset" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from unset" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from unset" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from unset" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from unset" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from list" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from list" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from list" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from list" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from list" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "set" -d 'Set a setting\'s value. A secret is never taken from the command line: it is read without echo on a terminal, or from standard input with --stdin'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "get" -d 'Print a setting\'s value (a secret prints as `set` unless --reveal)'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "unset" -d 'Remove a stored value (the default, if any, applies again)'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the settings of installed packages and where each value comes from'
complete -c agx -n "__fish_agx_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agx -n "__fish_agx_using_subcommand permissions; and not __fish_seen_subcommand_from set show reset accept help" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand permissions; and not __fish_seen_subcommand_from set show reset accept help" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand permissions; and not __fish_seen_subcommand_from set show reset accept help" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand permissions; and not __fish_seen_subcommand_from set show reset accept help" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand permissions; and not __fish_seen_subcommand_from set show reset accept help" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand permissions; and not __fish_seen_subcommand_from set show reset accept help" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand permissions; and not __fish_seen_subcommand_from set show reset accept help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand permissions; and not __fish_seen_subcommand_from set show reset accept help" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand permissions; and not __fish_seen_subcommand_from set show reset accept help" -f -a "set" -d 'Record what a server may touch, replacing what its package declares (unset keys take the defaults: read the package, write {data} and {tmp}, network any)'
complete -c agx -n "__fish_agx_using_subcommand permissions; and not __fish_seen_subcommand_from set show reset accept help" -f -a "show" -d 'Print the permissions you recorded for a server'
complete -c agx -n "__fish_agx_using_subcommand permissions; and not __fish_seen_subcommand_from set show reset accept help" -f -a "reset" -d 'Forget the permissions you recorded: the package\'s own apply again'
complete -c agx -n "__fish_agx_using_subcommand permissions; and not __fish_seen_subcommand_from set show reset accept help" -f -a "accept" -d 'In a project: trust the permissions its agx.toml gives a server, where they grant more than the package\'s (or yours); agx serve refuses them until you do'
complete -c agx -n "__fish_agx_using_subcommand permissions; and not __fish_seen_subcommand_from set show reset accept help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from set" -l read -d 'A path it may read: absolute, or `{package}`, `{data}`, `{project}`, `{home}/…`, `{tmp}` followed by `/…` (repeat for more)' -r
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from set" -l write -d 'A path it may read and write (same forms; repeat for more)' -r
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from set" -l network -d '`none`, `loopback`, `any`, or a host (repeat for a list)' -r
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from set" -l env -d 'A variable passed through from agx\'s environment (repeat for more)' -r
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from set" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from set" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from set" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from set" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from set" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from set" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from set" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from show" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from show" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from show" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from show" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from reset" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from reset" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from reset" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from reset" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from reset" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from reset" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from reset" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from reset" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from accept" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from accept" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from accept" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from accept" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from accept" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from accept" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from accept" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from accept" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from help" -f -a "set" -d 'Record what a server may touch, replacing what its package declares (unset keys take the defaults: read the package, write {data} and {tmp}, network any)'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from help" -f -a "show" -d 'Print the permissions you recorded for a server'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from help" -f -a "reset" -d 'Forget the permissions you recorded: the package\'s own apply again'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from help" -f -a "accept" -d 'In a project: trust the permissions its agx.toml gives a server, where they grant more than the package\'s (or yours); agx serve refuses them until you do'
complete -c agx -n "__fish_agx_using_subcommand permissions; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agx -n "__fish_agx_using_subcommand policy; and not __fish_seen_subcommand_from show help" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand policy; and not __fish_seen_subcommand_from show help" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand policy; and not __fish_seen_subcommand_from show help" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand policy; and not __fish_seen_subcommand_from show help" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand policy; and not __fish_seen_subcommand_from show help" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand policy; and not __fish_seen_subcommand_from show help" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand policy; and not __fish_seen_subcommand_from show help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand policy; and not __fish_seen_subcommand_from show help" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand policy; and not __fish_seen_subcommand_from show help" -f -a "show" -d 'Print the effective policy: each rule, its value, and the file and line it is from'
complete -c agx -n "__fish_agx_using_subcommand policy; and not __fish_seen_subcommand_from show help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agx -n "__fish_agx_using_subcommand policy; and __fish_seen_subcommand_from show" -l project -d 'The project whose `[policy]` counts (default: the nearest folder at or above the current one with an agx.toml)' -r -F
complete -c agx -n "__fish_agx_using_subcommand policy; and __fish_seen_subcommand_from show" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand policy; and __fish_seen_subcommand_from show" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand policy; and __fish_seen_subcommand_from show" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand policy; and __fish_seen_subcommand_from show" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand policy; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand policy; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand policy; and __fish_seen_subcommand_from show" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand policy; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand policy; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand policy; and __fish_seen_subcommand_from help" -f -a "show" -d 'Print the effective policy: each rule, its value, and the file and line it is from'
complete -c agx -n "__fish_agx_using_subcommand policy; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agx -n "__fish_agx_using_subcommand serve" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand serve" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand serve" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand serve" -l http -d 'Serve Streamable HTTP on this loopback address instead of stdio' -r
complete -c agx -n "__fish_agx_using_subcommand serve" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand serve" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand serve" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand serve" -l no-sandbox -d 'Run the server\'s programs unconfined, whatever their permissions (docs/sandbox.md); the log says so. The same as AGX_SANDBOX=off'
complete -c agx -n "__fish_agx_using_subcommand serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand serve" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand call" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand call" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand call" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand call" -l arg -d 'An argument, as NAME=VALUE; VALUE is JSON unless the tool\'s schema says text' -r
complete -c agx -n "__fish_agx_using_subcommand call" -l json -d 'All arguments as one JSON object (`--arg` values are set over it)' -r
complete -c agx -n "__fish_agx_using_subcommand call" -l format -d 'How to print the result: its text, or the MCP result as JSON' -r -f -a "text\t'The text of the content, for people'
json\t'The MCP result, as a client receives it'"
complete -c agx -n "__fish_agx_using_subcommand call" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand call" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand call" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand call" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand call" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand prompt" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand prompt" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand prompt" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand prompt" -l arg -d 'An argument, as NAME=VALUE (prompt arguments are text)' -r
complete -c agx -n "__fish_agx_using_subcommand prompt" -l format -d 'How to print the messages: their text, or the MCP result as JSON' -r -f -a "text\t'The text of the content, for people'
json\t'The MCP result, as a client receives it'"
complete -c agx -n "__fish_agx_using_subcommand prompt" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand prompt" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand prompt" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand prompt" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand prompt" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand add" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand add" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand add" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand add" -l name -d 'The key in [servers] and in client files (default: derived from the server\'s name; for a skill, its name)' -r
complete -c agx -n "__fish_agx_using_subcommand add" -l project -d 'The project folder (default: the nearest folder at or above the current one whose agx.toml has [project] or [servers])' -r -F
complete -c agx -n "__fish_agx_using_subcommand add" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand add" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand add" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand add" -l skill -d 'Add a skill (`publisher/package/skill[@REQ]`) to [skills] instead: sync copies it into the project\'s skills folders (docs/skills.md)'
complete -c agx -n "__fish_agx_using_subcommand add" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand add" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand remove" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand remove" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand remove" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand remove" -l project -d 'The project folder (default: the nearest folder at or above the current one whose agx.toml has [project] or [servers])' -r -F
complete -c agx -n "__fish_agx_using_subcommand remove" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand remove" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand remove" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand remove" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand remove" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand remove" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand lock" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand lock" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand lock" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand lock" -l upgrade-package -d 'Let this package move (repeatable); the others keep their locked versions' -r
complete -c agx -n "__fish_agx_using_subcommand lock" -l project -d 'The project folder (default: the nearest folder at or above the current one whose agx.toml has [project] or [servers])' -r -F
complete -c agx -n "__fish_agx_using_subcommand lock" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand lock" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand lock" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand lock" -l upgrade -d 'Let every package move to the newest version its requirements allow'
complete -c agx -n "__fish_agx_using_subcommand lock" -l allow-signer-change -d 'Install a version signed by someone other than the signer its installed version recorded, and trust the new signer from now on (recorded; `agx info` shows it)'
complete -c agx -n "__fish_agx_using_subcommand lock" -l allow-unsigned -d 'Install a version without a Sigstore bundle although its installed version had one (recorded; the earlier signer stays the one expected next)'
complete -c agx -n "__fish_agx_using_subcommand lock" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand lock" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand lock" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand sync" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand sync" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand sync" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand sync" -l accept-finding -d 'Install even though the poisoning scan has high findings of this code (`S001`, …; repeatable); the receipt records it, and `agx serve` then shows the items it is about' -r
complete -c agx -n "__fish_agx_using_subcommand sync" -l project -d 'The project folder (default: the nearest folder at or above the current one whose agx.toml has [project] or [servers])' -r -F
complete -c agx -n "__fish_agx_using_subcommand sync" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand sync" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand sync" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand sync" -l locked -d 'Fail if agx.lock does not match agx.toml (it would change)'
complete -c agx -n "__fish_agx_using_subcommand sync" -l frozen -d 'Use agx.lock as it is, without comparing it with agx.toml'
complete -c agx -n "__fish_agx_using_subcommand sync" -l check -d 'Change nothing: list every difference and exit non-zero when there is one (for CI)'
complete -c agx -n "__fish_agx_using_subcommand sync" -l force -d 'Replace hand-written client entries whose keys the project uses'
complete -c agx -n "__fish_agx_using_subcommand sync" -l warm -d 'Start each newly installed wrapped or remote server once to fill its compile cache and pin its definitions (this runs the server\'s code)'
complete -c agx -n "__fish_agx_using_subcommand sync" -l allow-signer-change -d 'Install a version signed by someone other than the signer its installed version recorded, and trust the new signer from now on (recorded; `agx info` shows it)'
complete -c agx -n "__fish_agx_using_subcommand sync" -l allow-unsigned -d 'Install a version without a Sigstore bundle although its installed version had one (recorded; the earlier signer stays the one expected next)'
complete -c agx -n "__fish_agx_using_subcommand sync" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand sync" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand sync" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand tree" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand tree" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand tree" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand tree" -l project -d 'The project folder (default: the nearest folder at or above the current one whose agx.toml has [project] or [servers])' -r -F
complete -c agx -n "__fish_agx_using_subcommand tree" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand tree" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand tree" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand tree" -l json -d 'Print JSON (the shapes are documented in docs/json.md)'
complete -c agx -n "__fish_agx_using_subcommand tree" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand tree" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand completions" -l registry -d 'Registry to use: a configured name, an https:// URL or a local folder' -r
complete -c agx -n "__fish_agx_using_subcommand completions" -l root -d 'A TUF root (`root.json` from the registry\'s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run' -r -F
complete -c agx -n "__fish_agx_using_subcommand completions" -l color -d 'When to use colours in messages' -r -f -a "auto\t'Colour on a terminal unless NO_COLOR is set'
always\t'Always colour'
never\t'Never colour'"
complete -c agx -n "__fish_agx_using_subcommand completions" -s q -l quiet -d 'Print less: only results and errors'
complete -c agx -n "__fish_agx_using_subcommand completions" -s v -l verbose -d 'Print more detail (repeat for even more)'
complete -c agx -n "__fish_agx_using_subcommand completions" -l offline -d 'Use only cached index data; never touch the network'
complete -c agx -n "__fish_agx_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agx -n "__fish_agx_using_subcommand completions" -s V -l version -d 'Print version'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "install" -d 'Install packages from the registry, or a local package folder or tarball'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "uninstall" -d 'Remove installed packages'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "update" -d 'Update installed packages to the newest versions their requirements allow'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "outdated" -d 'Show installed packages that have newer versions in the registry'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "gc" -d 'Remove installed versions that neither the user nor any project holds'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "list" -d 'List installed packages and what they contribute'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "search" -d 'Search the registry\'s catalog by name, description and item names'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "info" -d 'Show details of a package or a server'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "tools" -d 'List the tools a client sees of a server after its filter, with token estimates'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "trust" -d 'Accept what a wrapped or remote server lists now as its pinned definitions'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "new" -d 'Create a package folder with a tool, a prompt and a server, ready to validate'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "discover" -d 'Find the tools in a folder of scripts and write their definitions'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "validate" -d 'Check an extension package before publishing'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "audit" -d 'Run the poisoning scan over installed packages (docs/security.md)'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "verify" -d 'Check installed files and signers against what their install recorded'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "pack" -d 'Build a deterministic .tar.gz of a package'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "publish" -d 'Publish a package to an OCI registry (oci://HOST/NAMESPACE) or a folder registry'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "sbom" -d 'Write a software bill of materials (CycloneDX or SPDX JSON)'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "login" -d 'Store a registry\'s credential in the keyring (docs/organizations.md)'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "logout" -d 'Forget a registry\'s stored credential'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "auth" -d 'Sign in to remote MCP servers that ask for it (OAuth), once for every client'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "export" -d 'Write packages as Claude Code/Codex, Gemini CLI or Agent Plugins bundles'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "registry" -d 'Manage configured registries and folder registries'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "install-server" -d 'Add an entry that launches `agx serve` to an MCP client\'s configuration'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "uninstall-server" -d 'Remove an entry that agx wrote from an MCP client\'s configuration'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "install-skill" -d 'Copy a package\'s Agent Skill into a client\'s skills folder (or every client\'s)'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "uninstall-skill" -d 'Remove a skill copy that agx wrote from a client\'s skills folder'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "clients" -d 'List supported MCP clients, their config files and the agx entries in them'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "doctor" -d 'Find drift between recorded client entries, client files and the store'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "config" -d 'Set, show and remove the values of packages\' settings and secrets'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "permissions" -d 'Set, show and reset your permissions of a server (docs/sandbox.md)'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "policy" -d 'Show the organisation\'s policy in effect here, rule by rule (docs/policy.md)'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "serve" -d 'Run a package\'s server as an MCP server (stdio, or Streamable HTTP on loopback)'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "call" -d 'Run one installed tool as `agx serve` would, and print its result'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "prompt" -d 'Render one installed prompt as `agx serve` would, and print its messages'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "add" -d 'Add a server to the project\'s agx.toml, lock it and sync (docs/projects.md)'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "remove" -d 'Remove a server or skill from the project\'s agx.toml, agx.lock and client files'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "lock" -d 'Resolve the project\'s servers into agx.lock'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "sync" -d 'Install the locked versions and write each listed client\'s project file'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "tree" -d 'Show which packages the project needs, and why'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "completions" -d 'Print a shell completion script'
complete -c agx -n "__fish_agx_using_subcommand help; and not __fish_seen_subcommand_from install uninstall update outdated gc list search info tools trust new discover validate audit verify pack publish sbom login logout auth export registry install-server uninstall-server install-skill uninstall-skill clients doctor config permissions policy serve call prompt add remove lock sync tree completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "login" -d 'Sign in to a remote server in the browser; the tokens go to the keyring'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "logout" -d 'Forget the sign-in to a remote server (its tokens and record)'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "status" -d 'Show the sign-ins (or one), their issuer, scopes and when their token expires'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from registry" -f -a "init" -d 'Create an empty folder registry'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from registry" -f -a "add" -d 'Publish a package folder or tarball into a folder registry'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from registry" -f -a "yank" -d 'Mark a published version as yanked (or undo it)'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from registry" -f -a "keys" -d 'Create the signing keys of a TUF-signed registry (docs/registry.md)'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from registry" -f -a "sign" -d 'Sign a folder registry as a TUF repository: every file a client fetches becomes a signed target (docs/registry.md)'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from registry" -f -a "refresh-timestamp" -d 'Sign a new timestamp for a signed registry: run it (from cron) more often than the timestamp expires (default 1 day)'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from registry" -f -a "rotate" -d 'Replace a role\'s keys with new ones and sign a new root version with the old and new keys, so that clients follow; the old key files move to KEYS_DIR/retired/'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from registry" -f -a "add-source" -d 'Configure a registry to search and install from: an agx index, an MCP registry or a Claude-format marketplace'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from registry" -f -a "remove-source" -d 'Remove a configured registry (its cached data stays until `agx` cleans the cache)'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from registry" -f -a "sources" -d 'List the configured registries with their kinds'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "set" -d 'Set a setting\'s value. A secret is never taken from the command line: it is read without echo on a terminal, or from standard input with --stdin'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "get" -d 'Print a setting\'s value (a secret prints as `set` unless --reveal)'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "unset" -d 'Remove a stored value (the default, if any, applies again)'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "list" -d 'List the settings of installed packages and where each value comes from'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from permissions" -f -a "set" -d 'Record what a server may touch, replacing what its package declares (unset keys take the defaults: read the package, write {data} and {tmp}, network any)'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from permissions" -f -a "show" -d 'Print the permissions you recorded for a server'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from permissions" -f -a "reset" -d 'Forget the permissions you recorded: the package\'s own apply again'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from permissions" -f -a "accept" -d 'In a project: trust the permissions its agx.toml gives a server, where they grant more than the package\'s (or yours); agx serve refuses them until you do'
complete -c agx -n "__fish_agx_using_subcommand help; and __fish_seen_subcommand_from policy" -f -a "show" -d 'Print the effective policy: each rule, its value, and the file and line it is from'

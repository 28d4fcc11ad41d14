
use builtin;
use str;

set edit:completion:arg-completer[agx] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'agx'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'agx'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand install 'Install packages from the registry, or a local package folder or tarball'
            cand uninstall 'Remove installed packages'
            cand update 'Update installed packages to the newest versions their requirements allow'
            cand outdated 'Show installed packages that have newer versions in the registry'
            cand gc 'Remove installed versions that neither the user nor any project holds'
            cand list 'List installed packages and what they contribute'
            cand search 'Search the registry''s catalog by name, description and item names'
            cand info 'Show details of a package or a server'
            cand tools 'List the tools a client sees of a server after its filter, with token estimates'
            cand trust 'Accept what a wrapped or remote server lists now as its pinned definitions'
            cand new 'Create a package folder with a tool, a prompt and a server, ready to validate'
            cand discover 'Find the tools in a folder of scripts and write their definitions'
            cand validate 'Check an extension package before publishing'
            cand audit 'Run the poisoning scan over installed packages (docs/security.md)'
            cand verify 'Check installed files and signers against what their install recorded'
            cand pack 'Build a deterministic .tar.gz of a package'
            cand publish 'Publish a package to an OCI registry (oci://HOST/NAMESPACE) or a folder registry'
            cand sbom 'Write a software bill of materials (CycloneDX or SPDX JSON)'
            cand login 'Store a registry''s credential in the keyring (docs/organizations.md)'
            cand logout 'Forget a registry''s stored credential'
            cand auth 'Sign in to remote MCP servers that ask for it (OAuth), once for every client'
            cand export 'Write packages as Claude Code/Codex, Gemini CLI or Agent Plugins bundles'
            cand registry 'Manage configured registries and folder registries'
            cand install-server 'Add an entry that launches `agx serve` to an MCP client''s configuration'
            cand uninstall-server 'Remove an entry that agx wrote from an MCP client''s configuration'
            cand install-skill 'Copy a package''s Agent Skill into a client''s skills folder (or every client''s)'
            cand uninstall-skill 'Remove a skill copy that agx wrote from a client''s skills folder'
            cand clients 'List supported MCP clients, their config files and the agx entries in them'
            cand doctor 'Find drift between recorded client entries, client files and the store'
            cand config 'Set, show and remove the values of packages'' settings and secrets'
            cand permissions 'Set, show and reset your permissions of a server (docs/sandbox.md)'
            cand policy 'Show the organisation''s policy in effect here, rule by rule (docs/policy.md)'
            cand serve 'Run a package''s server as an MCP server (stdio, or Streamable HTTP on loopback)'
            cand call 'Run one installed tool as `agx serve` would, and print its result'
            cand prompt 'Render one installed prompt as `agx serve` would, and print its messages'
            cand add 'Add a server to the project''s agx.toml, lock it and sync (docs/projects.md)'
            cand remove 'Remove a server or skill from the project''s agx.toml, agx.lock and client files'
            cand lock 'Resolve the project''s servers into agx.lock'
            cand sync 'Install the locked versions and write each listed client''s project file'
            cand tree 'Show which packages the project needs, and why'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agx;install'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --sha256 'The sha256 (64 hex digits) an MCPB bundle must have: required for a bundle from a URL, checked for a bundle file when given'
            cand --prefer 'For a server from an MCP registry: install its package of this kind, or its remote (default: the first package whose runtime is on this machine, in the order npm, pypi, oci, mcpb; then a remote)'
            cand --accept-finding 'Install even though the poisoning scan has high findings of this code (`S001`, …; repeatable); the receipt records it, and `agx serve` then shows the items it is about'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --force 'Reinstall even when the same version is already installed'
            cand --allow-scripts 'Let npm run the package''s install scripts (off by default: installing runs no package code)'
            cand --allow-sdist 'Let pip build PyPI packages from source distributions (off by default: wheels only, as building runs the package''s code)'
            cand --warm 'Start each newly installed wrapped or remote server once to fill its compile cache and pin its definitions before a client sees them (this runs the server''s code)'
            cand --allow-signer-change 'Install a version signed by someone other than the signer its installed version recorded, and trust the new signer from now on (recorded; `agx info` shows it)'
            cand --allow-unsigned 'Install a version without a Sigstore bundle although its installed version had one (recorded; the earlier signer stays the one expected next)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;uninstall'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --force 'Remove even when other packages or client entries depend on it'
            cand --purge 'Also remove the packages'' data folders (kept otherwise, docs/store.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;update'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --accept-permissions 'Move to newer versions even when they ask for more permissions than the installed ones (without it, such a package keeps its version and agx says what grew)'
            cand --allow-signer-change 'Install a version signed by someone other than the signer its installed version recorded, and trust the new signer from now on (recorded; `agx info` shows it)'
            cand --allow-unsigned 'Install a version without a Sigstore bundle although its installed version had one (recorded; the earlier signer stays the one expected next)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;outdated'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;gc'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --dry-run 'Say what would be removed, and remove nothing'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;list'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --include-remote 'Also list what the registry''s catalog offers (downloads no package)'
            cand --servers 'List servers by qualified name'
            cand --tools 'List tools by qualified name'
            cand --prompts 'List prompts by qualified name'
            cand --skills 'List skills by qualified name'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;search'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;info'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;tools'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --tokens 'Estimate each tool''s context cost in tokens, with totals before and after the filter'
            cand --diff 'Show how what the server lists now differs from its pinned definitions (changed, new and removed tools, prompts and resource templates)'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;trust'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;new'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --name 'The package name, as `publisher/name` or `name` (default: the folder''s name)'
            cand --lang 'The language of the new tool''s script'
            cand --skill 'Make a package of one Agent Skill with this name (`skills/NAME/SKILL.md`) instead of a tool, a prompt and a server'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;discover'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --name 'The package name when --write creates agx.toml (default: the folder''s name)'
            cand --timeout 'How long each probe of a script may take, in milliseconds'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --write 'Write what was found: agx.toml (or the tools added to the one there), a server offering the tools, and a definition file per tool; never over a file that exists'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;validate'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --format 'Output format'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --probe 'Also run each tool''s self-test (`{"__test__": true}`); this runs package code'
            cand --strict 'Fail on warnings too (an author''s own package: body references that point nowhere, keys only some clients read, …)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;audit'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --project 'The packages of the project''s agx.lock instead (the nearest folder at or above the current one with an agx.toml that has [project] or [servers])'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;verify'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;pack'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -o 'Where to write the archive (default: the current directory)'
            cand --output 'Where to write the archive (default: the current directory)'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;publish'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --to 'Where to: a configured source''s name, an oci://HOST/NAMESPACE location, or a registry folder'
            cand --publisher 'With --skill: the package''s publisher (the repository''s second-to-last segment)'
            cand --skill-version 'With --skill: the version to tag (default: `version` in SKILL.md''s front matter, then `metadata.version`)'
            cand --keys 'The keys folder (`agx registry keys generate`); keys may also come from AGX_TUF_KEY_<ROLE> (a PEM) or AGX_TUF_KEY_<ROLE>_FILE (a path, e.g. /dev/fd/3)'
            cand --expires 'How long a role''s new metadata stays valid, as ROLE=DURATION (30d, 12h, 90m, 3600s); defaults: root=365d, targets=90d, snapshot=7d, timestamp=1d'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --skill 'DIR is one Agent Skill (SKILL.md at its root): push it to the OCI registry as ToolHive''s skill artifact, as the package PUBLISHER/SKILL'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;sbom'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --project 'The packages of the project''s agx.lock instead of the installed ones (the nearest folder at or above the current one with an agx.toml, or DIR)'
            cand --format 'The document''s format'
            cand -o 'Write it to FILE (default: standard output)'
            cand --output 'Write it to FILE (default: standard output)'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;login'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -u 'The user name (absent: the secret is a token)'
            cand --username 'The user name (absent: the secret is a token)'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --password-stdin 'Read the password from standard input (one line)'
            cand --token-stdin 'Read a token from standard input (one line)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;logout'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;auth'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand login 'Sign in to a remote server in the browser; the tokens go to the keyring'
            cand logout 'Forget the sign-in to a remote server (its tokens and record)'
            cand status 'Show the sign-ins (or one), their issuer, scopes and when their token expires'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agx;auth;login'= {
            cand --client-id 'A client ID the authorization server''s administrator gave you (instead of registering agx)'
            cand --client-metadata-url 'An HTTPS URL serving agx''s client metadata document, used as the client ID where the server accepts those (docs/auth.md). Default: `AGX_OAUTH_CLIENT_METADATA_URL`'
            cand --scope 'A scope to ask for (repeat for more; default: what the server asks for)'
            cand --callback-port 'The loopback port of the redirect (default: any free port). For a client ID registered with a fixed redirect URI'
            cand --timeout 'How long to wait for the browser, in seconds'
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --client-secret-stdin 'Read that client''s secret from standard input (one line)'
            cand --client-credentials 'Sign in as that client itself, with its secret and no browser (OAuth client credentials: for machines and CI where the server allows it)'
            cand --no-browser 'Print the sign-in URL without opening a browser'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;auth;logout'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;auth;status'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;auth;help'= {
            cand login 'Sign in to a remote server in the browser; the tokens go to the keyring'
            cand logout 'Forget the sign-in to a remote server (its tokens and record)'
            cand status 'Show the sign-ins (or one), their issuer, scopes and when their token expires'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agx;auth;help;login'= {
        }
        &'agx;auth;help;logout'= {
        }
        &'agx;auth;help;status'= {
        }
        &'agx;auth;help;help'= {
        }
        &'agx;export'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --name 'The marketplace''s name (claude-, codex- and cursor-marketplace; default: OUT_DIR''s name in kebab-case)'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;registry'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand init 'Create an empty folder registry'
            cand add 'Publish a package folder or tarball into a folder registry'
            cand yank 'Mark a published version as yanked (or undo it)'
            cand keys 'Create the signing keys of a TUF-signed registry (docs/registry.md)'
            cand sign 'Sign a folder registry as a TUF repository: every file a client fetches becomes a signed target (docs/registry.md)'
            cand refresh-timestamp 'Sign a new timestamp for a signed registry: run it (from cron) more often than the timestamp expires (default 1 day)'
            cand rotate 'Replace a role''s keys with new ones and sign a new root version with the old and new keys, so that clients follow; the old key files move to KEYS_DIR/retired/'
            cand add-source 'Configure a registry to search and install from: an agx index, an MCP registry or a Claude-format marketplace'
            cand remove-source 'Remove a configured registry (its cached data stays until `agx` cleans the cache)'
            cand sources 'List the configured registries with their kinds'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agx;registry;init'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --name 'Name recorded in config.json (default: the folder''s name)'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;registry;add'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --bundle 'The archive''s Sigstore bundle (`FILE.sigstore.json`): checked against the archive, then published beside it so installs verify who built it (docs/registry.md)'
            cand --trusted-root 'The Sigstore trusted root the bundle is checked against (default: Sigstore''s public-good instance)'
            cand --keys 'The keys folder (`agx registry keys generate`); keys may also come from AGX_TUF_KEY_<ROLE> (a PEM) or AGX_TUF_KEY_<ROLE>_FILE (a path, e.g. /dev/fd/3)'
            cand --expires 'How long a role''s new metadata stays valid, as ROLE=DURATION (30d, 12h, 90m, 3600s); defaults: root=365d, targets=90d, snapshot=7d, timestamp=1d'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;registry;yank'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --keys 'The keys folder (`agx registry keys generate`); keys may also come from AGX_TUF_KEY_<ROLE> (a PEM) or AGX_TUF_KEY_<ROLE>_FILE (a path, e.g. /dev/fd/3)'
            cand --expires 'How long a role''s new metadata stays valid, as ROLE=DURATION (30d, 12h, 90m, 3600s); defaults: root=365d, targets=90d, snapshot=7d, timestamp=1d'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --undo 'Un-yank the version'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;registry;keys'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand generate 'Generate ed25519 keys for the root, targets, snapshot and timestamp roles into a folder kept outside the registry (private keys are written with mode 0600)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agx;registry;keys;generate'= {
            cand --threshold 'How many root keys must sign a new root'
            cand --root-keys 'How many root keys to generate (default: the threshold)'
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;registry;keys;help'= {
            cand generate 'Generate ed25519 keys for the root, targets, snapshot and timestamp roles into a folder kept outside the registry (private keys are written with mode 0600)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agx;registry;keys;help;generate'= {
        }
        &'agx;registry;keys;help;help'= {
        }
        &'agx;registry;sign'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --keys 'The keys folder (`agx registry keys generate`); keys may also come from AGX_TUF_KEY_<ROLE> (a PEM) or AGX_TUF_KEY_<ROLE>_FILE (a path, e.g. /dev/fd/3)'
            cand --expires 'How long a role''s new metadata stays valid, as ROLE=DURATION (30d, 12h, 90m, 3600s); defaults: root=365d, targets=90d, snapshot=7d, timestamp=1d'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;registry;refresh-timestamp'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --keys 'The keys folder (`agx registry keys generate`); keys may also come from AGX_TUF_KEY_<ROLE> (a PEM) or AGX_TUF_KEY_<ROLE>_FILE (a path, e.g. /dev/fd/3)'
            cand --expires 'How long a role''s new metadata stays valid, as ROLE=DURATION (30d, 12h, 90m, 3600s); defaults: root=365d, targets=90d, snapshot=7d, timestamp=1d'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;registry;rotate'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --keys 'The keys folder (`agx registry keys generate`); keys may also come from AGX_TUF_KEY_<ROLE> (a PEM) or AGX_TUF_KEY_<ROLE>_FILE (a path, e.g. /dev/fd/3)'
            cand --expires 'How long a role''s new metadata stays valid, as ROLE=DURATION (30d, 12h, 90m, 3600s); defaults: root=365d, targets=90d, snapshot=7d, timestamp=1d'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;registry;add-source'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --ca 'A PEM file of certificate authorities to trust for this source beside the system''s (an OCI registry behind a company CA)'
            cand --trusted-root 'The Sigstore trusted root (`trusted_root.json`) its packages'' bundles are verified against, for a registry whose publishers sign with their own Sigstore instance (default: Sigstore''s public-good instance); agx keeps a copy'
            cand --kind 'What it is; detected when absent (an agx index serves config.json, an MCP registry answers /v0.1/servers, a marketplace holds .claude-plugin/marketplace.json)'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --yes 'Trust a signed source''s root without asking (scripts; prefer --root, which pins the root you were given; without either, a source that publishes TUF metadata shows its root''s keys and asks)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;registry;remove-source'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;registry;sources'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;registry;help'= {
            cand init 'Create an empty folder registry'
            cand add 'Publish a package folder or tarball into a folder registry'
            cand yank 'Mark a published version as yanked (or undo it)'
            cand keys 'Create the signing keys of a TUF-signed registry (docs/registry.md)'
            cand sign 'Sign a folder registry as a TUF repository: every file a client fetches becomes a signed target (docs/registry.md)'
            cand refresh-timestamp 'Sign a new timestamp for a signed registry: run it (from cron) more often than the timestamp expires (default 1 day)'
            cand rotate 'Replace a role''s keys with new ones and sign a new root version with the old and new keys, so that clients follow; the old key files move to KEYS_DIR/retired/'
            cand add-source 'Configure a registry to search and install from: an agx index, an MCP registry or a Claude-format marketplace'
            cand remove-source 'Remove a configured registry (its cached data stays until `agx` cleans the cache)'
            cand sources 'List the configured registries with their kinds'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agx;registry;help;init'= {
        }
        &'agx;registry;help;add'= {
        }
        &'agx;registry;help;yank'= {
        }
        &'agx;registry;help;keys'= {
            cand generate 'Generate ed25519 keys for the root, targets, snapshot and timestamp roles into a folder kept outside the registry (private keys are written with mode 0600)'
        }
        &'agx;registry;help;keys;generate'= {
        }
        &'agx;registry;help;sign'= {
        }
        &'agx;registry;help;refresh-timestamp'= {
        }
        &'agx;registry;help;rotate'= {
        }
        &'agx;registry;help;add-source'= {
        }
        &'agx;registry;help;remove-source'= {
        }
        &'agx;registry;help;sources'= {
        }
        &'agx;registry;help;help'= {
        }
        &'agx;install-server'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --client 'A client to write the entry for, in place of the positional client; repeat it for several: `--client claude-code --client codex`'
            cand --scope 'Which configuration to write'
            cand --project 'Project folder for --scope project or local (default: the current directory)'
            cand --name 'Key of the entry in the client''s config (default: derived from the server name)'
            cand --env 'Extra environment variable for the server (repeatable)'
            cand --config 'Write into this file instead of the client''s default path'
            cand --allow 'Show only the tools matching this glob (repeatable); recorded for the server, not written into the entry (docs/profiles.md)'
            cand --deny 'Hide the tools matching this glob (repeatable), e.g. `--deny ''*_delete*''`'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --dry-run 'Print the change as a diff and write nothing'
            cand --force 'Replace an existing entry with the same key'
            cand --no-filter 'Remove the server''s recorded filter'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;uninstall-server'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --scope 'Which configuration to edit'
            cand --project 'Project folder for --scope project or local (default: the current directory)'
            cand --config 'Edit this file instead of the client''s default path'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --dry-run 'Print the change as a diff and write nothing'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;install-skill'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --client 'A client to copy into (or remove from), in place of the positional client; repeat it for several: `--client claude-code --client codex`'
            cand --scope 'The user''s skills folders (under the home folder) or the project''s'
            cand --project 'Project folder for --scope project (default: the current directory)'
            cand --folder '`shared`: `.agents/skills` (and `.claude/skills` for Claude Code), which all six clients read between them; `own`: each client''s own folder'
            cand --accept-finding 'Install even though the poisoning scan has high findings of this code (`S001`, …; repeatable); the receipt records it, and `agx serve` then shows the items it is about'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --force 'Replace (or remove) a folder agx did not write, or a copy edited since'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;uninstall-skill'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --client 'A client to copy into (or remove from), in place of the positional client; repeat it for several: `--client claude-code --client codex`'
            cand --scope 'The user''s skills folders (under the home folder) or the project''s'
            cand --project 'Project folder for --scope project (default: the current directory)'
            cand --folder '`shared`: `.agents/skills` (and `.claude/skills` for Claude Code), which all six clients read between them; `own`: each client''s own folder'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --force 'Replace (or remove) a folder agx did not write, or a copy edited since'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;clients'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;doctor'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --fix 'Repair what can be repaired safely'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;config'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand set 'Set a setting''s value. A secret is never taken from the command line: it is read without echo on a terminal, or from standard input with --stdin'
            cand get 'Print a setting''s value (a secret prints as `set` unless --reveal)'
            cand unset 'Remove a stored value (the default, if any, applies again)'
            cand list 'List the settings of installed packages and where each value comes from'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agx;config;set'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --force 'Address a package that is not installed, or a key it does not declare'
            cand --stdin 'Read the value from standard input (one trailing newline is dropped)'
            cand --secret 'With --force: keep the undeclared value as a secret'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;config;get'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --force 'Address a package that is not installed, or a key it does not declare'
            cand --reveal 'Print a secret''s value'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;config;unset'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --force 'Address a package that is not installed, or a key it does not declare'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;config;list'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;config;help'= {
            cand set 'Set a setting''s value. A secret is never taken from the command line: it is read without echo on a terminal, or from standard input with --stdin'
            cand get 'Print a setting''s value (a secret prints as `set` unless --reveal)'
            cand unset 'Remove a stored value (the default, if any, applies again)'
            cand list 'List the settings of installed packages and where each value comes from'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agx;config;help;set'= {
        }
        &'agx;config;help;get'= {
        }
        &'agx;config;help;unset'= {
        }
        &'agx;config;help;list'= {
        }
        &'agx;config;help;help'= {
        }
        &'agx;permissions'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand set 'Record what a server may touch, replacing what its package declares (unset keys take the defaults: read the package, write {data} and {tmp}, network any)'
            cand show 'Print the permissions you recorded for a server'
            cand reset 'Forget the permissions you recorded: the package''s own apply again'
            cand accept 'In a project: trust the permissions its agx.toml gives a server, where they grant more than the package''s (or yours); agx serve refuses them until you do'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agx;permissions;set'= {
            cand --read 'A path it may read: absolute, or `{package}`, `{data}`, `{project}`, `{home}/…`, `{tmp}` followed by `/…` (repeat for more)'
            cand --write 'A path it may read and write (same forms; repeat for more)'
            cand --network '`none`, `loopback`, `any`, or a host (repeat for a list)'
            cand --env 'A variable passed through from agx''s environment (repeat for more)'
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;permissions;show'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;permissions;reset'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;permissions;accept'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;permissions;help'= {
            cand set 'Record what a server may touch, replacing what its package declares (unset keys take the defaults: read the package, write {data} and {tmp}, network any)'
            cand show 'Print the permissions you recorded for a server'
            cand reset 'Forget the permissions you recorded: the package''s own apply again'
            cand accept 'In a project: trust the permissions its agx.toml gives a server, where they grant more than the package''s (or yours); agx serve refuses them until you do'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agx;permissions;help;set'= {
        }
        &'agx;permissions;help;show'= {
        }
        &'agx;permissions;help;reset'= {
        }
        &'agx;permissions;help;accept'= {
        }
        &'agx;permissions;help;help'= {
        }
        &'agx;policy'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand show 'Print the effective policy: each rule, its value, and the file and line it is from'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agx;policy;show'= {
            cand --project 'The project whose `[policy]` counts (default: the nearest folder at or above the current one with an agx.toml)'
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;policy;help'= {
            cand show 'Print the effective policy: each rule, its value, and the file and line it is from'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agx;policy;help;show'= {
        }
        &'agx;policy;help;help'= {
        }
        &'agx;serve'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --http 'Serve Streamable HTTP on this loopback address instead of stdio'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --no-sandbox 'Run the server''s programs unconfined, whatever their permissions (docs/sandbox.md); the log says so. The same as AGX_SANDBOX=off'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;call'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --arg 'An argument, as NAME=VALUE; VALUE is JSON unless the tool''s schema says text'
            cand --json 'All arguments as one JSON object (`--arg` values are set over it)'
            cand --format 'How to print the result: its text, or the MCP result as JSON'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;prompt'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --arg 'An argument, as NAME=VALUE (prompt arguments are text)'
            cand --format 'How to print the messages: their text, or the MCP result as JSON'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;add'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --name 'The key in [servers] and in client files (default: derived from the server''s name; for a skill, its name)'
            cand --project 'The project folder (default: the nearest folder at or above the current one whose agx.toml has [project] or [servers])'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --skill 'Add a skill (`publisher/package/skill[@REQ]`) to [skills] instead: sync copies it into the project''s skills folders (docs/skills.md)'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;remove'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --project 'The project folder (default: the nearest folder at or above the current one whose agx.toml has [project] or [servers])'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;lock'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --upgrade-package 'Let this package move (repeatable); the others keep their locked versions'
            cand --project 'The project folder (default: the nearest folder at or above the current one whose agx.toml has [project] or [servers])'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --upgrade 'Let every package move to the newest version its requirements allow'
            cand --allow-signer-change 'Install a version signed by someone other than the signer its installed version recorded, and trust the new signer from now on (recorded; `agx info` shows it)'
            cand --allow-unsigned 'Install a version without a Sigstore bundle although its installed version had one (recorded; the earlier signer stays the one expected next)'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;sync'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --accept-finding 'Install even though the poisoning scan has high findings of this code (`S001`, …; repeatable); the receipt records it, and `agx serve` then shows the items it is about'
            cand --project 'The project folder (default: the nearest folder at or above the current one whose agx.toml has [project] or [servers])'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --locked 'Fail if agx.lock does not match agx.toml (it would change)'
            cand --frozen 'Use agx.lock as it is, without comparing it with agx.toml'
            cand --check 'Change nothing: list every difference and exit non-zero when there is one (for CI)'
            cand --force 'Replace hand-written client entries whose keys the project uses'
            cand --warm 'Start each newly installed wrapped or remote server once to fill its compile cache and pin its definitions (this runs the server''s code)'
            cand --allow-signer-change 'Install a version signed by someone other than the signer its installed version recorded, and trust the new signer from now on (recorded; `agx info` shows it)'
            cand --allow-unsigned 'Install a version without a Sigstore bundle although its installed version had one (recorded; the earlier signer stays the one expected next)'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;tree'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand --project 'The project folder (default: the nearest folder at or above the current one whose agx.toml has [project] or [servers])'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand --json 'Print JSON (the shapes are documented in docs/json.md)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;completions'= {
            cand --registry 'Registry to use: a configured name, an https:// URL or a local folder'
            cand --root 'A TUF root (`root.json` from the registry''s operator): pins it for `registry add-source`, or verifies a `--registry URL|FOLDER` against it for this run'
            cand --color 'When to use colours in messages'
            cand -q 'Print less: only results and errors'
            cand --quiet 'Print less: only results and errors'
            cand -v 'Print more detail (repeat for even more)'
            cand --verbose 'Print more detail (repeat for even more)'
            cand --offline 'Use only cached index data; never touch the network'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'agx;help'= {
            cand install 'Install packages from the registry, or a local package folder or tarball'
            cand uninstall 'Remove installed packages'
            cand update 'Update installed packages to the newest versions their requirements allow'
            cand outdated 'Show installed packages that have newer versions in the registry'
            cand gc 'Remove installed versions that neither the user nor any project holds'
            cand list 'List installed packages and what they contribute'
            cand search 'Search the registry''s catalog by name, description and item names'
            cand info 'Show details of a package or a server'
            cand tools 'List the tools a client sees of a server after its filter, with token estimates'
            cand trust 'Accept what a wrapped or remote server lists now as its pinned definitions'
            cand new 'Create a package folder with a tool, a prompt and a server, ready to validate'
            cand discover 'Find the tools in a folder of scripts and write their definitions'
            cand validate 'Check an extension package before publishing'
            cand audit 'Run the poisoning scan over installed packages (docs/security.md)'
            cand verify 'Check installed files and signers against what their install recorded'
            cand pack 'Build a deterministic .tar.gz of a package'
            cand publish 'Publish a package to an OCI registry (oci://HOST/NAMESPACE) or a folder registry'
            cand sbom 'Write a software bill of materials (CycloneDX or SPDX JSON)'
            cand login 'Store a registry''s credential in the keyring (docs/organizations.md)'
            cand logout 'Forget a registry''s stored credential'
            cand auth 'Sign in to remote MCP servers that ask for it (OAuth), once for every client'
            cand export 'Write packages as Claude Code/Codex, Gemini CLI or Agent Plugins bundles'
            cand registry 'Manage configured registries and folder registries'
            cand install-server 'Add an entry that launches `agx serve` to an MCP client''s configuration'
            cand uninstall-server 'Remove an entry that agx wrote from an MCP client''s configuration'
            cand install-skill 'Copy a package''s Agent Skill into a client''s skills folder (or every client''s)'
            cand uninstall-skill 'Remove a skill copy that agx wrote from a client''s skills folder'
            cand clients 'List supported MCP clients, their config files and the agx entries in them'
            cand doctor 'Find drift between recorded client entries, client files and the store'
            cand config 'Set, show and remove the values of packages'' settings and secrets'
            cand permissions 'Set, show and reset your permissions of a server (docs/sandbox.md)'
            cand policy 'Show the organisation''s policy in effect here, rule by rule (docs/policy.md)'
            cand serve 'Run a package''s server as an MCP server (stdio, or Streamable HTTP on loopback)'
            cand call 'Run one installed tool as `agx serve` would, and print its result'
            cand prompt 'Render one installed prompt as `agx serve` would, and print its messages'
            cand add 'Add a server to the project''s agx.toml, lock it and sync (docs/projects.md)'
            cand remove 'Remove a server or skill from the project''s agx.toml, agx.lock and client files'
            cand lock 'Resolve the project''s servers into agx.lock'
            cand sync 'Install the locked versions and write each listed client''s project file'
            cand tree 'Show which packages the project needs, and why'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'agx;help;install'= {
        }
        &'agx;help;uninstall'= {
        }
        &'agx;help;update'= {
        }
        &'agx;help;outdated'= {
        }
        &'agx;help;gc'= {
        }
        &'agx;help;list'= {
        }
        &'agx;help;search'= {
        }
        &'agx;help;info'= {
        }
        &'agx;help;tools'= {
        }
        &'agx;help;trust'= {
        }
        &'agx;help;new'= {
        }
        &'agx;help;discover'= {
        }
        &'agx;help;validate'= {
        }
        &'agx;help;audit'= {
        }
        &'agx;help;verify'= {
        }
        &'agx;help;pack'= {
        }
        &'agx;help;publish'= {
        }
        &'agx;help;sbom'= {
        }
        &'agx;help;login'= {
        }
        &'agx;help;logout'= {
        }
        &'agx;help;auth'= {
            cand login 'Sign in to a remote server in the browser; the tokens go to the keyring'
            cand logout 'Forget the sign-in to a remote server (its tokens and record)'
            cand status 'Show the sign-ins (or one), their issuer, scopes and when their token expires'
        }
        &'agx;help;auth;login'= {
        }
        &'agx;help;auth;logout'= {
        }
        &'agx;help;auth;status'= {
        }
        &'agx;help;export'= {
        }
        &'agx;help;registry'= {
            cand init 'Create an empty folder registry'
            cand add 'Publish a package folder or tarball into a folder registry'
            cand yank 'Mark a published version as yanked (or undo it)'
            cand keys 'Create the signing keys of a TUF-signed registry (docs/registry.md)'
            cand sign 'Sign a folder registry as a TUF repository: every file a client fetches becomes a signed target (docs/registry.md)'
            cand refresh-timestamp 'Sign a new timestamp for a signed registry: run it (from cron) more often than the timestamp expires (default 1 day)'
            cand rotate 'Replace a role''s keys with new ones and sign a new root version with the old and new keys, so that clients follow; the old key files move to KEYS_DIR/retired/'
            cand add-source 'Configure a registry to search and install from: an agx index, an MCP registry or a Claude-format marketplace'
            cand remove-source 'Remove a configured registry (its cached data stays until `agx` cleans the cache)'
            cand sources 'List the configured registries with their kinds'
        }
        &'agx;help;registry;init'= {
        }
        &'agx;help;registry;add'= {
        }
        &'agx;help;registry;yank'= {
        }
        &'agx;help;registry;keys'= {
            cand generate 'Generate ed25519 keys for the root, targets, snapshot and timestamp roles into a folder kept outside the registry (private keys are written with mode 0600)'
        }
        &'agx;help;registry;keys;generate'= {
        }
        &'agx;help;registry;sign'= {
        }
        &'agx;help;registry;refresh-timestamp'= {
        }
        &'agx;help;registry;rotate'= {
        }
        &'agx;help;registry;add-source'= {
        }
        &'agx;help;registry;remove-source'= {
        }
        &'agx;help;registry;sources'= {
        }
        &'agx;help;install-server'= {
        }
        &'agx;help;uninstall-server'= {
        }
        &'agx;help;install-skill'= {
        }
        &'agx;help;uninstall-skill'= {
        }
        &'agx;help;clients'= {
        }
        &'agx;help;doctor'= {
        }
        &'agx;help;config'= {
            cand set 'Set a setting''s value. A secret is never taken from the command line: it is read without echo on a terminal, or from standard input with --stdin'
            cand get 'Print a setting''s value (a secret prints as `set` unless --reveal)'
            cand unset 'Remove a stored value (the default, if any, applies again)'
            cand list 'List the settings of installed packages and where each value comes from'
        }
        &'agx;help;config;set'= {
        }
        &'agx;help;config;get'= {
        }
        &'agx;help;config;unset'= {
        }
        &'agx;help;config;list'= {
        }
        &'agx;help;permissions'= {
            cand set 'Record what a server may touch, replacing what its package declares (unset keys take the defaults: read the package, write {data} and {tmp}, network any)'
            cand show 'Print the permissions you recorded for a server'
            cand reset 'Forget the permissions you recorded: the package''s own apply again'
            cand accept 'In a project: trust the permissions its agx.toml gives a server, where they grant more than the package''s (or yours); agx serve refuses them until you do'
        }
        &'agx;help;permissions;set'= {
        }
        &'agx;help;permissions;show'= {
        }
        &'agx;help;permissions;reset'= {
        }
        &'agx;help;permissions;accept'= {
        }
        &'agx;help;policy'= {
            cand show 'Print the effective policy: each rule, its value, and the file and line it is from'
        }
        &'agx;help;policy;show'= {
        }
        &'agx;help;serve'= {
        }
        &'agx;help;call'= {
        }
        &'agx;help;prompt'= {
        }
        &'agx;help;add'= {
        }
        &'agx;help;remove'= {
        }
        &'agx;help;lock'= {
        }
        &'agx;help;sync'= {
        }
        &'agx;help;tree'= {
        }
        &'agx;help;completions'= {
        }
        &'agx;help;help'= {
        }
    ]
    $completions[$command]
}

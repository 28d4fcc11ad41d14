#!/usr/bin/env bash
# The settings tests against a REAL Secret Service: a private D-Bus session with a fresh,
# unlocked GNOME Keyring whose files live in a temp folder, so nothing reads or writes the
# developer's own keyring. The same tests run against the secrets file in `cargo test`
# (AGX_KEYRING=file); here AGX_TEST_KEYRING=os makes them use the keyring instead. Last, a
# locked keyring must give a clear error (scripts/ci/keyring-locked.sh).
# Needs Debian's `dbus` and `gnome-keyring` (.ci/run installs them).
set -euo pipefail
cd "$(dirname "$0")/../.."

for tool in dbus-run-session gnome-keyring-daemon; do
    command -v "$tool" >/dev/null || {
        echo "keyring.sh: $tool is missing; install it with: apt-get install -y dbus gnome-keyring" >&2
        exit 1
    }
done

keyring_home=$(mktemp -d)
trap 'rm -rf "$keyring_home"' EXIT
export XDG_DATA_HOME="$keyring_home/data" XDG_RUNTIME_DIR="$keyring_home/run"
mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"

# Inside the session: start the daemon with a throwaway password (it creates and unlocks
# the `login` keyring, the default collection; an empty password leaves none), run the
# tests that use it, then lock it and check agx's error (scripts/ci/keyring-locked.sh).
dbus-run-session -- bash -euo pipefail -c '
    printf agx-ci | gnome-keyring-daemon --components=secrets --daemonize --unlock >/dev/null
    AGX_TEST_KEYRING=os cargo test --test it settings:: -- --test-threads=1
    scripts/ci/keyring-locked.sh
'

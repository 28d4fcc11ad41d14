# Sourced by scripts/ci/oci-reference.sh and benches/oci.sh (bash).
#
#   oras_python          prints the python of a venv with the pinned oras-py
#                        ($AGX_CI_CACHE/oras-venv, made when missing)
#   start_oci_registry D starts Debian's docker-registry on a free 127.0.0.1 port with its
#                        storage and log in folder D; sets OCI_HOST (HOST:PORT) and
#                        OCI_REGISTRY_PID (the caller kills it)

ORAS_VERSION=0.2.43

oras_python() {
    local venv="${AGX_CI_CACHE:-$HOME/.cache/agx-ci}/oras-venv" installed
    installed="$("$venv/bin/python" -c "import importlib.metadata as m; print(m.version('oras'))" 2>/dev/null || true)"
    if [ "$installed" != "$ORAS_VERSION" ]; then
        echo "==> pip install oras==$ORAS_VERSION into $venv" >&2
        python3 -m venv "$venv"
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "oras==$ORAS_VERSION" >&2
    fi
    echo "$venv/bin/python"
}

start_oci_registry() {
    local dir=$1 port
    mkdir -p "$dir"
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    printf 'version: 0.1\nlog:\n  level: warn\n  accesslog:\n    disabled: true\nstorage:\n  filesystem:\n    rootdirectory: %s\nhttp:\n  addr: 127.0.0.1:%s\n' \
        "$dir/data" "$port" >"$dir/registry.yml"
    docker-registry serve "$dir/registry.yml" >"$dir/registry.log" 2>&1 &
    OCI_REGISTRY_PID=$!
    OCI_HOST="127.0.0.1:$port"
    for _ in $(seq 100); do
        python3 -c "import urllib.request; urllib.request.urlopen('http://$OCI_HOST/v2/', timeout=1)" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "docker-registry did not start: $(cat "$dir/registry.log")" >&2
    return 1
}

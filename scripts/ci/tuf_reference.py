#!/usr/bin/env python3
"""python-tuf's side of scripts/ci/tuf-reference.sh: its client against a registry agx
signed, and its repository code signing a registry for agx's client.

    tuf_reference.py client URL REGISTRY_DIR STATE_DIR [EXPECTED_TARGET]
        Refresh with tuf.ngclient from URL/metadata/ (trusting REGISTRY_DIR/metadata/1.root.json
        on the first run, STATE_DIR's persisted root after), then download every file of
        REGISTRY_DIR outside metadata/ as a target and compare it with the file.
        EXPECTED_TARGET must be among them.
    tuf_reference.py sign REGISTRY_DIR
        Sign every file of REGISTRY_DIR as a target into REGISTRY_DIR/metadata/ (new ed25519
        keys, succinct hashed bins, consistent_snapshot false).
"""
import pathlib
import sys
from datetime import datetime, timedelta, timezone

from securesystemslib.signer import CryptoSigner
from tuf.api.metadata import (
    TOP_LEVEL_ROLE_NAMES,
    Delegations,
    Metadata,
    MetaFile,
    Root,
    Snapshot,
    SuccinctRoles,
    TargetFile,
    Targets,
    Timestamp,
)
from tuf.api.serialization.json import JSONSerializer
from tuf.ngclient import Updater


def registry_files(registry):
    """Every file a client fetches, as target paths: all but metadata/."""
    return sorted(
        path.relative_to(registry).as_posix()
        for path in registry.rglob("*")
        if path.is_file() and path.relative_to(registry).parts[0] != "metadata"
    )


def client(url, registry, state, expected=None):
    metadata_dir = state / "metadata"
    first = not (metadata_dir / "root.json").exists()
    metadata_dir.mkdir(parents=True, exist_ok=True)
    downloads = state / "downloads"
    bootstrap = (registry / "metadata" / "1.root.json").read_bytes() if first else None
    updater = Updater(
        metadata_dir=str(metadata_dir),
        metadata_base_url=url + "/metadata/",
        target_base_url=url + "/",
        target_dir=str(downloads),
        bootstrap=bootstrap,
    )
    updater.refresh()
    targets = registry_files(registry)
    if expected is not None and expected not in targets:
        sys.exit(f"{expected} is not a file of {registry}")
    for target in targets:
        info = updater.get_targetinfo(target)
        if info is None:
            sys.exit(f"python-tuf: {target} is not in the signed metadata")
        path = downloads / target
        path.parent.mkdir(parents=True, exist_ok=True)
        updater.download_target(info, str(path))
        if path.read_bytes() != (registry / target).read_bytes():
            sys.exit(f"python-tuf: {target} downloaded other bytes than the registry's file")
    trusted = Metadata.from_file(str(metadata_dir / "timestamp.json")).signed.version
    print(f"python-tuf refreshed (timestamp v{trusted}) and verified {len(targets)} targets")


def sign(registry):
    expires = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(days=30)
    signers = {role: CryptoSigner.generate_ed25519() for role in [*TOP_LEVEL_ROLE_NAMES, "bins"]}
    root = Root(expires=expires, consistent_snapshot=False)
    for role in TOP_LEVEL_ROLE_NAMES:
        root.add_key(signers[role].public_key, role)
    bins = SuccinctRoles([], 1, 4, "bins")
    targets = Targets(expires=expires)
    targets.delegations = Delegations(keys={}, succinct_roles=bins)
    targets.add_key(signers["bins"].public_key)
    bin_roles = {name: Targets(expires=expires) for name in bins.get_roles()}
    for target in registry_files(registry):
        info = TargetFile.from_file(target, str(registry / target), ["sha256"])
        bin_roles[bins.get_role_for_target(target)].targets[target] = info

    out = registry / "metadata"
    out.mkdir()
    serializer = JSONSerializer(compact=False)

    def write(signed, role, name):
        md = Metadata(signed)
        md.sign(signers[role])
        data = md.to_bytes(serializer)
        (out / name).write_bytes(data)
        return data

    snapshot = Snapshot(expires=expires)
    for name, signed in bin_roles.items():
        write(signed, "bins", f"{name}.json")
        snapshot.meta[f"{name}.json"] = MetaFile(1)
    write(targets, "targets", "targets.json")
    snapshot.meta["targets.json"] = MetaFile(1)
    data = write(snapshot, "snapshot", "snapshot.json")
    write(Timestamp(expires=expires, snapshot_meta=MetaFile.from_data(1, data, ["sha256"])),
          "timestamp", "timestamp.json")
    root_bytes = write(root, "root", "1.root.json")
    (out / "root.json").write_bytes(root_bytes)
    print(f"python-tuf signed {sum(len(b.targets) for b in bin_roles.values())} targets "
          f"into {len(bin_roles)} hashed bins")


def main():
    mode, *args = sys.argv[1:]
    if mode == "client":
        url, registry, state, *expected = args
        client(url.rstrip("/"), pathlib.Path(registry), pathlib.Path(state), *expected)
    elif mode == "sign":
        sign(pathlib.Path(args[0]))
    else:
        sys.exit(__doc__)


main()

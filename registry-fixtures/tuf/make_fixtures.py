#!/usr/bin/env python3
"""Build the TUF repositories of registry-fixtures/tuf/<case>/ with python-tuf, so that the
expectations of agx-tuf's tests (crates/agx-tuf/src/reference_tests.rs) are not agx's own.

Each case folder holds `metadata/` (what the repository serves: `N.root.json`,
`timestamp.json`, `snapshot.json`, `targets.json`, delegated roles), target files, and
`initial_root.json`, the root the client trusts. Keys come from fixed seeds and ed25519
signatures are deterministic, so the output is the same on every run.

Needs python-tuf 7.0.0 (`tuf`, `securesystemslib[crypto]`); run from anywhere:
    python3 -m venv /tmp/tufvenv && /tmp/tufvenv/bin/pip install tuf==7.0.0
    /tmp/tufvenv/bin/python registry-fixtures/tuf/make_fixtures.py
"""
import hashlib
import json
import pathlib
import shutil
from datetime import datetime, timezone

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from securesystemslib.signer import CryptoSigner, SSlibKey
from tuf.api.metadata import (
    DelegatedRole,
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

HERE = pathlib.Path(__file__).resolve().parent
FUTURE = datetime(2099, 1, 1, tzinfo=timezone.utc)
PAST = datetime(2001, 1, 1, tzinfo=timezone.utc)
SERIALIZER = JSONSerializer(compact=False)


def signer(name):
    """An ed25519 signer whose private key is the SHA-256 of `name` (fixed, reproducible)."""
    private = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(name.encode()).digest())
    return CryptoSigner(private, SSlibKey.from_crypto(private.public_key()))


def key(name):
    return signer(name).public_key


def sign(signed, *names):
    md = Metadata(signed)
    for name in names:
        md.sign(signer(name), append=True)
    return md


def write(md, path):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(md.to_bytes(SERIALIZER))


def make_root(version, roles, consistent=False, expires=FUTURE):
    """`roles`: role -> (key names, threshold)."""
    root = Root(version=version, expires=expires, consistent_snapshot=consistent)
    for role, (names, threshold) in roles.items():
        for name in names:
            root.add_key(key(name), role)
        root.roles[role].threshold = threshold
    return root


def single_keys():
    return {role: ([role], 1) for role in ("root", "timestamp", "snapshot", "targets")}


def target_file(case_dir, path, data):
    """Write a target file under the case folder and return its TargetFile."""
    full = case_dir / path
    full.parent.mkdir(parents=True, exist_ok=True)
    full.write_bytes(data)
    return TargetFile.from_data(path, data, ["sha256"])


class Repo:
    """The top-level roles of one case, signed and written with the given tweaks."""

    def __init__(self, case, roles=None, consistent=False):
        self.dir = HERE / case
        self.meta = self.dir / "metadata"
        self.roles = roles or single_keys()
        self.root = make_root(1, self.roles, consistent)
        self.targets = Targets(version=1, expires=FUTURE)
        self.snapshot = Snapshot(version=1, expires=FUTURE)
        self.timestamp = Timestamp(version=1, expires=FUTURE, snapshot_meta=MetaFile(1))

    def add_target(self, path, data):
        self.targets.targets[path] = target_file(self.dir, path, data)

    def signers(self, role):
        names, threshold = self.roles[role]
        return names[:threshold]

    def write_root(self, md, version):
        write(md, self.meta / f"{version}.root.json")

    def write_top(self, name, md, version=None):
        write(md, self.meta / f"{name}.json")
        if self.root.consistent_snapshot and name in ("snapshot", "targets"):
            write(md, self.meta / f"{version}.{name}.json")

    def finish(self, root_md=None):
        """Write 1.root.json, initial_root.json, targets, snapshot and timestamp."""
        root_md = root_md or sign(self.root, *self.signers("root"))
        self.write_root(root_md, 1)
        write(root_md, self.dir / "initial_root.json")
        targets_md = sign(self.targets, *self.signers("targets"))
        self.write_top("targets", targets_md, self.targets.version)
        self.snapshot.meta["targets.json"] = MetaFile(self.targets.version)
        snapshot_md = sign(self.snapshot, *self.signers("snapshot"))
        self.write_top("snapshot", snapshot_md, self.snapshot.version)
        if self.timestamp.snapshot_meta.version == self.snapshot.version:
            # Length and hashes, as python-tuf's repositories give them.
            self.timestamp.snapshot_meta = MetaFile.from_data(
                self.snapshot.version, snapshot_md.to_bytes(SERIALIZER), ["sha256"]
            )
        self.write_top("timestamp", sign(self.timestamp, *self.signers("timestamp")))


HELLO = b"hello from python-tuf\n"


def valid():
    repo = Repo("valid")
    repo.add_target("files/hello.txt", HELLO)
    repo.finish()


def rollback():
    # The repository serves timestamp v1; the client trusted v2 (timestamp.v2.json) before.
    repo = Repo("rollback")
    repo.add_target("files/hello.txt", HELLO)
    repo.finish()
    ts = Timestamp(version=2, expires=FUTURE, snapshot_meta=MetaFile(2))
    write(sign(ts, "timestamp"), repo.dir / "timestamp.v2.json")
    # A newer timestamp that names an older snapshot than v2 did.
    ts = Timestamp(version=3, expires=FUTURE, snapshot_meta=MetaFile(1))
    write(sign(ts, "timestamp"), repo.dir / "timestamp.v3.json")


def freeze(case, expired):
    repo = Repo(case)
    repo.add_target("files/hello.txt", HELLO)
    for role in expired:
        getattr(repo, role).expires = PAST
    repo.finish()


def mix_and_match_snapshot():
    # The timestamp names snapshot v2 (no hashes, so the version is what differs); v1 is served.
    repo = Repo("mix_and_match_snapshot")
    repo.add_target("files/hello.txt", HELLO)
    repo.timestamp.snapshot_meta = MetaFile(2)
    repo.finish()


def mix_and_match_targets():
    # The snapshot names targets v2; targets v1 is served.
    repo = Repo("mix_and_match_targets")
    repo.add_target("files/hello.txt", HELLO)
    repo.finish()
    repo.snapshot.meta["targets.json"] = MetaFile(2)
    snapshot_md = sign(repo.snapshot, "snapshot")
    write(snapshot_md, repo.meta / "snapshot.json")
    repo.timestamp.snapshot_meta = MetaFile.from_data(
        1, snapshot_md.to_bytes(SERIALIZER), ["sha256"]
    )
    write(sign(repo.timestamp, "timestamp"), repo.meta / "timestamp.json")


def threshold():
    roles = single_keys()
    roles["root"] = (["root", "root-2"], 2)
    roles["timestamp"] = (["timestamp", "timestamp-2"], 2)
    repo = Repo("threshold", roles)
    repo.add_target("files/hello.txt", HELLO)
    repo.finish()
    # The timestamp: one valid signature, and timestamp-2's signature of other bytes.
    md = sign(repo.timestamp, "timestamp")
    other = Timestamp(version=9, expires=FUTURE, snapshot_meta=MetaFile(1))
    forged = sign(other, "timestamp-2").signatures
    md.signatures.update(forged)
    write(md, repo.meta / "timestamp.json")
    # A root that needs two of its keys but carries one signature: never trusted.
    write(sign(repo.root, "root"), repo.dir / "root_one_signature.json")


def wrong_key():
    repo = Repo("wrong_key")
    repo.add_target("files/hello.txt", HELLO)
    repo.finish()
    write(sign(repo.timestamp, "stranger"), repo.meta / "timestamp.json")


def rotation(case, good):
    # v1: root key root-a, v2: root-b, v3: root-c (good); v3 also rotates the timestamp key,
    # so the served timestamp verifies only under the last root.
    repo = Repo(case)
    repo.add_target("files/hello.txt", HELLO)
    if good:
        repo.roles["timestamp"] = (["timestamp-3"], 1)
    v1 = make_root(1, {**single_keys(), "root": (["root-a"], 1)})
    repo.finish(sign(v1, "root-a"))
    # finish() wrote initial_root.json from v1 signed by root-a; the other keys are in v1.
    v2 = make_root(2, {**single_keys(), "root": (["root-b"], 1)})
    if good:
        repo.write_root(sign(v2, "root-a", "root-b"), 2)
        v3 = make_root(3, {**single_keys(), "root": (["root-c"], 1), "timestamp": (["timestamp-3"], 1)})
        repo.write_root(sign(v3, "root-b", "root-c"), 3)
    else:
        # Signed by the new key alone: the trusted root's threshold is not met.
        repo.write_root(sign(v2, "root-b"), 2)


def hashed_bins():
    repo = Repo("hashed_bins", consistent=True)
    repo.roles["bins"] = (["bins"], 1)
    bins = SuccinctRoles([], 1, 3, "bins")
    repo.targets.delegations = Delegations(keys={}, succinct_roles=bins)
    repo.targets.add_key(key("bins"))
    paths = [
        "index/acme/weather.json",
        "index/acme/geo.json",
        "dl/acme/weather/acme-weather-1.2.0.tar.gz",
        "dl/contoso/web/contoso-web-2.1.0.tar.gz",
        "catalog.json",
    ]
    roles = {name: Targets(version=1, expires=FUTURE) for name in bins.get_roles()}
    expected = {}
    for path in paths:
        data = f"{path}: content from python-tuf\n".encode()
        info = target_file(repo.dir, path, data)
        # Consistent snapshots: the file is also served under its hash-prefixed name.
        digest = info.hashes["sha256"]
        folder, _, base = path.rpartition("/")
        prefixed = f"{folder}/{digest}.{base}" if folder else f"{digest}.{base}"
        target_file(repo.dir, prefixed, data)
        role = bins.get_role_for_target(path)
        roles[role].targets[path] = info
        expected[path] = role
    for name, signed in roles.items():
        md = sign(signed, "bins")
        write(md, repo.meta / f"1.{name}.json")
        repo.snapshot.meta[f"{name}.json"] = MetaFile(1)
    (repo.dir / "expected_bins.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
    repo.finish()


def tampered_target():
    repo = Repo("tampered_target")
    repo.add_target("files/hello.txt", HELLO)
    repo.finish()
    # Same length, one byte changed: only the hash can tell.
    (repo.dir / "files/hello.txt").write_bytes(HELLO.replace(b"hello", b"jello"))


def main():
    for case in HERE.iterdir():
        if case.is_dir():
            shutil.rmtree(case)
    valid()
    rollback()
    freeze("freeze", ["timestamp", "snapshot", "targets"])
    freeze("freeze_snapshot", ["snapshot", "targets"])
    freeze("freeze_targets", ["targets"])
    mix_and_match_snapshot()
    mix_and_match_targets()
    threshold()
    wrong_key()
    rotation("rotation_ok", True)
    rotation("rotation_bad", False)
    hashed_bins()
    tampered_target()
    for case in sorted(HERE.iterdir()):
        if case.is_dir():
            print(case.name, sorted(p.name for p in (case / "metadata").iterdir()))


main()

#!/usr/bin/env python3
"""Build the TUF repositories of registry-fixtures/tuf/<case>/ with python-tuf, so that the
expectations of agx-tuf's tests (crates/agx-tuf/src/reference_tests.rs) are not agx's own.

Each case folder holds `metadata/` (what the repository serves: `N.root.json`,
`timestamp.json`, `snapshot.json`, `targets.json`, delegated roles), target files, and
`initial_root.json`, the root the client trusts. Keys come from fixed seeds, ed25519 and
RSA PKCS#1 v1.5 signatures are deterministic and ECDSA uses RFC 6979 nonces, so the output
is the same on every run; RSA-PSS salts are random, so a file whose signed content did not
change keeps its previous signature.

Needs python-tuf 7.0.0 (`tuf`, `securesystemslib[crypto]`); run from anywhere:
    python3 -m venv /tmp/tufvenv
    /tmp/tufvenv/bin/pip install tuf==7.0.0 "securesystemslib[crypto]==1.4.0"
    /tmp/tufvenv/bin/python registry-fixtures/tuf/make_fixtures.py
"""
import functools
import hashlib
import json
import math
import pathlib
import random
import shutil
import urllib.parse
from datetime import datetime, timezone

from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.hashes import SHA256, SHA384
from securesystemslib.signer import CryptoSigner, Signature, Signer, SSlibKey
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


# The files of the previous run: a signature that cannot be made again byte for byte
# (RSA-PSS salts are random) is kept when what it signs is unchanged.
PREVIOUS = {}


def is_prime(n, rng):
    if n % 2 == 0:
        return n == 2
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for _ in range(40):
        x = pow(rng.randrange(2, n - 1), d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True


@functools.cache
def rsa_key(name):
    """A 2048-bit RSA key from primes drawn with a PRNG seeded by `name` (fixed)."""
    rng = random.Random(name)

    def prime():
        while True:
            n = rng.getrandbits(1024) | (3 << 1022) | 1
            if is_prime(n, rng):
                return n

    e = 65537
    while True:
        p, q = prime(), prime()
        if p != q and math.gcd(e, (p - 1) * (q - 1)) == 1:
            break
    d = pow(e, -1, (p - 1) * (q - 1))
    return rsa.RSAPrivateNumbers(
        p, q, d, rsa.rsa_crt_dmp1(d, p), rsa.rsa_crt_dmq1(d, q), rsa.rsa_crt_iqmp(p, q),
        rsa.RSAPublicNumbers(e, p * q),
    ).private_key()


def signer(name):
    """A signer whose private key is derived from `name` (fixed, reproducible): ed25519 by
    default; names starting `ecdsa256-`, `ecdsa384-`, `rsa-pss-`, `rsa-pkcs-` give those."""
    seed = hashlib.sha256(name.encode()).digest()
    scheme = None
    if name.startswith(("ecdsa256-", "ecdsa384-")):
        curve = ec.SECP256R1() if name.startswith("ecdsa256-") else ec.SECP384R1()
        private = ec.derive_private_key(int.from_bytes(seed) >> 8, curve)
    elif name.startswith(("rsa-pss-", "rsa-pkcs-")):
        private = rsa_key(name)
        scheme = "rsassa-pss-sha256" if name.startswith("rsa-pss-") else "rsa-pkcs1v15-sha256"
    else:
        private = Ed25519PrivateKey.from_private_bytes(seed)
    public = SSlibKey.from_crypto(private.public_key(), scheme=scheme)
    if isinstance(private, ec.EllipticCurvePrivateKey):
        # CryptoSigner signs with random nonces and not with P-384 at all; RFC 6979 nonces
        # give the same signature on every run.
        return DeterministicEcdsa(private, public)
    return CryptoSigner(private, public)


class DeterministicEcdsa(Signer):
    def __init__(self, private, public):
        self.private = private
        self._public = public

    @classmethod
    def from_priv_key_uri(cls, priv_key_uri, public_key, secrets_handler=None):
        raise NotImplementedError("made in code only")

    @property
    def public_key(self):
        return self._public

    def sign(self, payload):
        digest = SHA384() if isinstance(self.private.curve, ec.SECP384R1) else SHA256()
        sig = self.private.sign(payload, ec.ECDSA(digest, deterministic_signing=True))
        return Signature(self._public.keyid, sig.hex())


def key(name):
    return signer(name).public_key


def sign(signed, *names):
    md = Metadata(signed)
    for name in names:
        md.sign(signer(name), append=True)
    return md


def write(md, path):
    """Write `md` (or the previous run's file, when it signs the same content with the same
    keys) and return the bytes written."""
    data = md.to_bytes(SERIALIZER)
    previous = PREVIOUS.get(path)
    if previous is not None:
        old = json.loads(previous)
        if old["signed"] == md.signed.to_dict() and sorted(
            s["keyid"] for s in old["signatures"]
        ) == sorted(md.signatures):
            data = previous
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return data


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
        data = write(md, self.meta / f"{name}.json")
        if self.root.consistent_snapshot and name in ("snapshot", "targets"):
            (self.meta / f"{version}.{name}.json").write_bytes(data)
        return data

    def finish(self, root_md=None):
        """Write 1.root.json, initial_root.json, targets, snapshot and timestamp."""
        root_md = root_md or sign(self.root, *self.signers("root"))
        self.write_root(root_md, 1)
        write(root_md, self.dir / "initial_root.json")
        targets_md = sign(self.targets, *self.signers("targets"))
        self.write_top("targets", targets_md, self.targets.version)
        self.snapshot.meta["targets.json"] = MetaFile(self.targets.version)
        snapshot_md = sign(self.snapshot, *self.signers("snapshot"))
        data = self.write_top("snapshot", snapshot_md, self.snapshot.version)
        if self.timestamp.snapshot_meta.version == self.snapshot.version:
            # Length and hashes, as python-tuf's repositories give them.
            self.timestamp.snapshot_meta = MetaFile.from_data(
                self.snapshot.version, data, ["sha256"]
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


def rotation(case, mode):
    # v1: root key root-a, v2: root-b, v3: root-c ("ok"); v2 has expired (only the last root
    # must be current) and v3 also rotates the timestamp key, so the served timestamp
    # verifies only under the last root. The bad modes each break 2.root.json one way.
    good = mode == "ok"
    repo = Repo(case)
    repo.add_target("files/hello.txt", HELLO)
    if good:
        repo.roles["timestamp"] = (["timestamp-3"], 1)
    v1 = make_root(1, {**single_keys(), "root": (["root-a"], 1)})
    repo.finish(sign(v1, "root-a"))
    # finish() wrote initial_root.json from v1 signed by root-a; the other keys are in v1.
    v2 = make_root(2, {**single_keys(), "root": (["root-b"], 1)}, expires=PAST if good else FUTURE)
    if good:
        repo.write_root(sign(v2, "root-a", "root-b"), 2)
        v3 = make_root(3, {**single_keys(), "root": (["root-c"], 1), "timestamp": (["timestamp-3"], 1)})
        repo.write_root(sign(v3, "root-b", "root-c"), 3)
        # What a client trusted before the timestamp key was rotated: a high version signed
        # by the old key, which must not block the new key's v1 (fast-forward recovery).
        ts = Timestamp(version=9, expires=FUTURE, snapshot_meta=MetaFile(1))
        write(sign(ts, "timestamp"), repo.dir / "timestamp.old-key.v9.json")
    elif mode == "old_threshold":
        # Signed by the new key alone: the trusted root's threshold is not met.
        repo.write_root(sign(v2, "root-b"), 2)
    elif mode == "new_threshold":
        # Signed by the old key alone: the new root's own threshold is not met.
        repo.write_root(sign(v2, "root-a"), 2)
    else:
        # Served as 2.root.json, but version 3.
        v2.version = 3
        repo.write_root(sign(v2, "root-a", "root-b"), 2)


def freeze_root():
    # 2.root.json (same keys) expired: the final root must be current.
    repo = Repo("freeze_root")
    repo.add_target("files/hello.txt", HELLO)
    repo.finish()
    repo.write_root(sign(make_root(2, single_keys(), expires=PAST), "root"), 2)


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


def delegations():
    # targets -> "files" (files/* and files/*/*, terminating), "ops team/2" (ops/*, a name to quote),
    # "hashed" (a path hash prefix), "other" (*); "files" -> "files-deep" (files/deep/*).
    repo = Repo("delegations")
    repo.add_target("files/hello.txt", HELLO)
    delegated = {
        "files": (["files/*", "files/*/*"], None, True),
        "ops team/2": (["ops/*"], None, False),
        "hashed": (None, [hashlib.sha256(b"bin/tool.txt").hexdigest()[:4]], False),
        "other": (["*", "*/*"], None, False),
    }
    roles = {}
    keys = {}
    for name, (paths, prefixes, terminating) in delegated.items():
        keys[name] = key(f"role-{name}")
        roles[name] = DelegatedRole(
            name, [keys[name].keyid], 1, terminating, paths=paths, path_hash_prefixes=prefixes
        )
    repo.targets.delegations = Delegations(
        keys={k.keyid: k for k in keys.values()}, roles=roles
    )
    content = {
        "files": ["files/a.txt"],
        "ops team/2": ["ops/runbook.txt"],
        "hashed": ["bin/tool.txt"],
        # files/b.txt is listed here too, but "files" terminates the search for files/*.
        "other": ["docs/c.txt", "files/b.txt", "top.txt"],
        "files-deep": ["files/deep/d.txt"],
    }
    signed = {name: Targets(version=1, expires=FUTURE) for name in content}
    deep_key = key("role-files-deep")
    signed["files"].delegations = Delegations(
        keys={deep_key.keyid: deep_key},
        roles={"files-deep": DelegatedRole("files-deep", [deep_key.keyid], 1, False, paths=["files/*/*"])},
    )
    for name, paths in content.items():
        for path in paths:
            signed[name].targets[path] = target_file(repo.dir, path, f"{path} ({name})\n".encode())
        # The file name is quoted (python-tuf's URL form), the snapshot names the role as is.
        quoted = urllib.parse.quote(name, safe="")
        write(sign(signed[name], f"role-{name}"), repo.meta / f"{quoted}.json")
        repo.snapshot.meta[f"{name}.json"] = MetaFile(1)
    repo.finish()


def key_types():
    # Every key type agx reads, as securesystemslib makes them: ECDSA P-384 (root), P-256
    # (timestamp), RSA-PSS (snapshot), RSA PKCS#1 v1.5 (targets).
    roles = {
        "root": (["ecdsa384-root"], 1),
        "timestamp": (["ecdsa256-timestamp"], 1),
        "snapshot": (["rsa-pss-snapshot"], 1),
        "targets": (["rsa-pkcs-targets"], 1),
    }
    repo = Repo("key_types", roles)
    repo.add_target("files/hello.txt", HELLO)
    repo.finish()


def canonical_json():
    # Signatures cover canonical JSON: non-ASCII kept as UTF-8, only " and \\ escaped (control
    # characters raw), keys sorted by code point, big integers; in target names, `custom`
    # and fields the specification does not name (which clients must keep and verify).
    repo = Repo("canonical_json")
    extra = {
        "x-agx-test": {
            "ünïcode ✓": "line\nbreak\ttab\u0001 \"quoted\" back\\slash",
            "big": 2**63 + 1,
            "negative": -5,
            "list": [True, None, "é", {"b": 1, "a": 2, "B": 3, "é": 4, "z": 5}],
        }
    }
    for role in (repo.root, repo.timestamp, repo.snapshot, repo.targets):
        role.unrecognized_fields.update(extra)
    repo.add_target("files/café ünïcode.txt", "é\n".encode())
    info = target_file(repo.dir, "files/plain.txt", HELLO)
    info.unrecognized_fields["custom"] = extra
    repo.targets.targets["files/plain.txt"] = info
    repo.finish()


def float_in_signed():
    # A float in `signed` has no canonical JSON: python-tuf refuses the file
    # (SerializationError). Anyone between client and server can add one, so no key is
    # needed: the valid timestamp with a field added, its signature kept.
    repo = Repo("float_in_signed")
    repo.add_target("files/hello.txt", HELLO)
    repo.finish()
    path = repo.meta / "timestamp.json"
    md = json.loads(path.read_bytes())
    md["signed"]["x-float"] = 1.5
    path.write_text(json.dumps(md, indent=1, sort_keys=True) + "\n")


# (pattern, target path) pairs for delegated roles' `paths`, answered by python-tuf.
PATH_PATTERNS = [
    ("files/*", "files/a.txt"),
    ("files/*", "files/a/b.txt"),
    ("*", "top.txt"),
    ("*", ""),
    ("*/*", "index/acme"),
    ("FILES/*", "files/a.txt"),
    ("a?c", "abc"),
    ("a?c", "ac"),
    ("a*b*c", "aXbYc"),
    ("*.tar.gz", "weather-1.2.0.tar.gz"),
    ("*.tar.gz", "weather-1.2.0.tgz"),
    ("file[0-9].txt", "file7.txt"),
    ("file[!0-9].txt", "file7.txt"),
    ("file[!0-9].txt", "filex.txt"),
    ("[a-c]x", "bx"),
    ("[a-]", "-"),
    ("[!a-c]", "d"),
    ("[]a]", "]"),
    ("[!]a]", "]"),
    ("[!]a]", "b"),
    ("[!]a]", "ba]"),
    ("[", "["),
    ("a[b", "a[b"),
    ("dir/", "dir/"),
    ("/abs/*", "/abs/x"),
    ("?", "é"),
    ("caf?", "café"),
    ("[é]", "é"),
    ("*é", "café"),
]


def path_patterns():
    answers = [
        {"pattern": pattern, "target": target,
         "matches": DelegatedRole("r", [], 1, False, paths=[pattern]).is_delegated_path(target)}
        for pattern, target in PATH_PATTERNS
    ]
    text = json.dumps(answers, indent=1, ensure_ascii=False) + "\n"
    (HERE / "path_patterns.json").write_text(text, encoding="utf-8")


def tampered_target():
    repo = Repo("tampered_target")
    repo.add_target("files/hello.txt", HELLO)
    repo.finish()
    # Same length, one byte changed: only the hash can tell.
    (repo.dir / "files/hello.txt").write_bytes(HELLO.replace(b"hello", b"jello"))


def main():
    for case in HERE.iterdir():
        if case.is_dir():
            for path in case.rglob("*.json"):
                PREVIOUS[path] = path.read_bytes()
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
    rotation("rotation_ok", "ok")
    rotation("rotation_bad", "old_threshold")
    rotation("rotation_bad_new", "new_threshold")
    rotation("rotation_bad_version", "version")
    freeze_root()
    hashed_bins()
    delegations()
    key_types()
    canonical_json()
    float_in_signed()
    tampered_target()
    path_patterns()
    for case in sorted(HERE.iterdir()):
        if case.is_dir():
            print(case.name, sorted(p.name for p in (case / "metadata").iterdir()))


main()

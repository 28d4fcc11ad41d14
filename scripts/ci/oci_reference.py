"""oras-py, the reference ORAS client, against the loopback registry (scripts/ci/oci-reference.sh).

    oci_reference.py pull HOST:PORT/REPO:TAG OUT_DIR      -> prints the files pulled
    oci_reference.py push HOST:PORT/REPO:TAG ARCHIVE      -> pushes ARCHIVE as an agx package
    oci_reference.py push-skill HOST:PORT/REPO:TAG DIR    -> pushes the skill in DIR as ToolHive does

`push` is oras-py's plain `push`: the layer typed as agx's, the config typed as the artifact
(oras-py sets no `artifactType`), an annotation with the version; none of agx's own
annotations, so agx must read the artifact from the OCI fields alone.

`push-skill` writes ToolHive's skill artifact (`thv skill push`) with oras-py: one layer, a
gzipped tar with the skill's files at its root, typed as an image layer and titled
`skill.tar.gz`; an OCI image config whose labels repeat the front matter; the manifest's
`dev.toolhive.skills.*` annotations. oras-py cannot set `artifactType`, so agx must know the
skill by ToolHive's annotations.
"""

import gzip
import hashlib
import io
import json
import os
import sys
import tarfile

import oras.client


def client(target):
    return oras.client.OrasClient(hostname=target.split("/", 1)[0], insecure=True)


def main():
    verb, target, path = sys.argv[1:4]
    if verb == "pull":
        for name in client(target).pull(target=target, outdir=path):
            print(name)
    elif verb == "push":
        folder, name = os.path.split(os.path.abspath(path))
        os.chdir(folder)
        client(target).push(
            target=target,
            files=[f"{name}:application/vnd.agx.package.layer.v1.tar+gzip"],
            # A path that does not exist gives the config `{}` of this media type.
            manifest_config="no-config.json:application/vnd.agx.package.v1",
            manifest_annotations={
                "org.opencontainers.image.version": target.rsplit(":", 1)[1]
            },
        )
    elif verb == "push-skill":
        push_skill(target, os.path.abspath(path))
    else:
        sys.exit(f"unknown verb {verb}")


def push_skill(target, skill_dir):
    name = target.rsplit("/", 1)[1].split(":", 1)[0]
    version = target.rsplit(":", 1)[1]
    description = f"The {name} skill, pushed in ToolHive's form"
    files = []
    tar_bytes = io.BytesIO()
    with tarfile.open(fileobj=tar_bytes, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for root, dirs, names in os.walk(skill_dir):
            dirs.sort()
            for file in sorted(names):
                path = os.path.join(root, file)
                rel = os.path.relpath(path, skill_dir).replace(os.sep, "/")
                info = tarfile.TarInfo(rel)
                info.size = os.path.getsize(path)
                info.mode = 0o644
                with open(path, "rb") as data:
                    tar.addfile(info, data)
                files.append(rel)
    work = os.path.join(os.path.dirname(skill_dir), "push-skill")
    os.makedirs(work, exist_ok=True)
    os.chdir(work)
    with open("skill.tar.gz", "wb") as out:
        out.write(gzip.compress(tar_bytes.getvalue(), mtime=0))
    labels = {
        "dev.toolhive.skills.name": name,
        "dev.toolhive.skills.description": description,
        "dev.toolhive.skills.version": version,
        "dev.toolhive.skills.files": json.dumps(sorted(files)),
        "dev.toolhive.skills.allowedTools": "null",
        "dev.toolhive.skills.license": "",
    }
    diff_id = "sha256:" + hashlib.sha256(tar_bytes.getvalue()).hexdigest()
    with open("config.json", "w") as out:
        json.dump(
            {
                "architecture": "amd64",
                "os": "linux",
                "config": {"Labels": labels},
                "rootfs": {"type": "layers", "diff_ids": [diff_id]},
            },
            out,
        )
    client(target).push(
        target=target,
        files=["skill.tar.gz:application/vnd.oci.image.layer.v1.tar+gzip"],
        manifest_config="config.json:application/vnd.oci.image.config.v1+json",
        manifest_annotations={
            "dev.toolhive.skills.name": name,
            "dev.toolhive.skills.description": description,
            "dev.toolhive.skills.version": version,
        },
    )


if __name__ == "__main__":
    main()

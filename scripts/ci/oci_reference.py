"""oras-py, the reference ORAS client, against the loopback registry (scripts/ci/oci-reference.sh).

    oci_reference.py pull HOST:PORT/REPO:TAG OUT_DIR      -> prints the files pulled
    oci_reference.py push HOST:PORT/REPO:TAG ARCHIVE      -> pushes ARCHIVE as an agx package

`push` is oras-py's plain `push`: the layer typed as agx's, the config typed as the artifact
(oras-py sets no `artifactType`), an annotation with the version; none of agx's own
annotations, so agx must read the artifact from the OCI fields alone.
"""

import os
import sys

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
    else:
        sys.exit(f"unknown verb {verb}")


if __name__ == "__main__":
    main()

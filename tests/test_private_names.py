"""No module of the project uses another module's ``_private`` name (issue 26.5): a helper that
another module needs has a public name.  Checked on the source: every ``from x import _name`` and
every ``x._name`` where ``x`` is a project module imported by name (an object's private attribute
reached through an instance is not seen; Django's ``Model._meta`` is its public API)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "accounts", "fairplay", "plumbing", "rummyhub")
DJANGO_PUBLIC = {"_meta", "_state"}  # underscored by Django, documented as public


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in DJANGO_PUBLIC


def _project(module: str) -> bool:
    return module.split(".")[0] in PACKAGES


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def private_uses(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """(line, "other.module._name") for each use of another project module's private name."""
    tree = ast.parse(source)
    names: dict[str, str] = {}  # a local name -> the module (or module.attribute) it stands for
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                source_module = ".".join(base + ([node.module] if node.module else []))
            else:
                source_module = node.module or ""
            for alias in node.names:
                if _private(alias.name) and _project(source_module):
                    found.append((node.lineno, f"{source_module}.{alias.name}"))
                names[alias.asname or alias.name] = f"{source_module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name.split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0]
                )
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            chain, value = [], node.value
            while isinstance(value, ast.Attribute):
                chain.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name) and value.id in names:
                target = ".".join([names[value.id], *reversed(chain)])
                if _project(target):
                    found.append((node.lineno, f"{target}.{node.attr}"))
    return found


def test_no_module_uses_another_modules_private_name():
    uses = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            module = module_name(path)
            for line, name in private_uses(path.read_text(), module, path.name == "__init__.py"):
                if name.rsplit(".", 1)[0] != module:
                    uses.append(f"{path.relative_to(ROOT)}:{line}: {name}")
    assert uses == []


def test_a_private_use_is_found():
    source = (
        "from games.services.rounds import _deal\n"
        "from games.services import turns\n"
        "from . import _helper\n"
        "import games.store\n"
        "turns._apply(1)\n"
        "games.store._qn('x')\n"
        "match._meta\n"
    )
    assert private_uses(source, "games.services.clock") == [
        (1, "games.services.rounds._deal"),
        (3, "games.services._helper"),
        (5, "games.services.turns._apply"),
        (6, "games.store._qn"),
    ]

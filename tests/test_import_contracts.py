"""Every module of the project is under an import-linter contract (issue 26.5): `lint-imports` checks
the contracts, and this test checks that no module escapes them.

A module is under a contract when the contract names it or a package above it (a layer, a forbidden
contract's source, an independence contract's module) below the project's top packages themselves: the
project-wide contract (``rummyhub`` > ``accounts`` > ``games`` > ``plumbing``) alone does not place a
module inside its package.  A package is also under a contract when it is a layers contract's container
or when every module in it is.  Migrations are Django's generated history and stay out.
"""

from __future__ import annotations

import configparser
import pkgutil
from importlib import import_module
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / ".importlinter"
SKIPPED = (".migrations",)  # Django's generated schema history


def _lines(value: str) -> list[str]:
    return [line.split("#", 1)[0].strip() for line in value.splitlines() if line.split("#", 1)[0].strip()]


def read_config(path: Path = CONFIG) -> tuple[list[str], set[str], set[str]]:
    """(root packages, modules the contracts name, the layers contracts' containers)."""
    parser = configparser.ConfigParser()
    parser.read(path)
    roots = _lines(parser["importlinter"]["root_packages"])
    named: set[str] = set()
    containers: set[str] = set()
    for section in parser.sections():
        if not section.startswith("importlinter:contract:"):
            continue
        contract = parser[section]
        kind = contract["type"]
        if kind == "layers":
            within = _lines(contract.get("containers", "")) or [""]
            containers.update(c for c in within if c)
            for layer in _lines(contract["layers"]):
                for sibling in layer.replace(":", "|").split("|"):
                    name = sibling.strip().strip("()")
                    named.update(f"{c}.{name}" if c else name for c in within)
        elif kind == "forbidden":
            named.update(_lines(contract["source_modules"]))
        elif kind == "independence":
            named.update(_lines(contract["modules"]))
        else:
            raise AssertionError(f"{section}: a contract type this test does not read: {kind}")
    return roots, named, containers


def project_modules(roots: list[str]) -> list[str]:
    """Every module of the project's packages, packages included, migrations left out."""
    found = []
    for root in roots:
        package = import_module(root)
        found.append(root)
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{root}."):
            if not any(skip in f"{info.name}." for skip in (s + "." for s in SKIPPED)):
                found.append(info.name)
    return sorted(found)


def uncovered(modules: list[str], roots: list[str], named: set[str], containers: set[str]) -> list[str]:
    """The modules no contract places (the top packages themselves are containers of the project's)."""
    placing = {n for n in named if n not in roots}

    def placed(module: str) -> bool:
        return any(module == n or module.startswith(n + ".") for n in placing)

    missing = []
    for module in modules:
        if module in roots or module in containers or placed(module):
            continue
        children = [m for m in modules if m.startswith(module + ".")]
        if children and all(placed(c) or c in containers for c in children):
            continue  # a package whose every module is placed
        missing.append(module)
    return sorted(missing)


def test_every_module_of_the_project_is_under_a_contract():
    roots, named, containers = read_config()
    modules = project_modules(roots)
    assert len(modules) > 100, modules  # the walk found the project
    assert uncovered(modules, roots, named, containers) == []


def test_every_module_a_contract_names_exists():
    """A contract naming a module that is gone (renamed, moved) would place nothing: import-linter
    skips a layer that does not exist."""
    roots, named, containers = read_config()
    modules = set(project_modules(roots))
    assert sorted(n for n in named | containers if n.split(".")[0] in roots and n not in modules) == []


def test_a_module_outside_every_contract_is_found(tmp_path):
    config = tmp_path / ".importlinter"
    config.write_text(
        "[importlinter]\nroot_packages =\n    games\n\n"
        "[importlinter:contract:x]\nname = x\ntype = layers\ncontainers =\n    games\nlayers =\n    views\n    models\n"
    )
    roots, named, containers = read_config(config)
    modules = ["games", "games.models", "games.views", "games.forms", "games.board", "games.board.data"]
    assert uncovered(modules, roots, named, containers) == ["games.board", "games.board.data", "games.forms"]

"""The Manipulation solver as it was at ``PREVIOUS`` (the start of issue 17's work) or at ``BEFORE_28``
(the start of issue 28's), loaded from git.

``load(commit)`` writes that commit's ``games/engine/manipulation/solver/`` package to a temporary folder and
imports it as ``games.engine.manipulation._solver_previous`` (its relative imports then reach today's
cards and melds modules, which its code uses the same way).  None without git or the commit.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
PREVIOUS = "2f9ba592137740b323e6f6f0b669806868824aaf"
# the solver before issue 28's work (depth-first search, new_meld_only cases one at a time)
BEFORE_28 = "3188fb15f0b2da541d5cffe5d83f5e9b9b957c00"
PACKAGE = "games/engine/manipulation/solver"
NAME = "games.engine.manipulation._solver_previous"


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def load(commit: str = PREVIOUS) -> ModuleType | None:
    """The solver package of ``commit`` (default :data:`PREVIOUS`), imported; None without git or it."""
    try:
        files = _git("ls-tree", "--name-only", f"{commit}:{PACKAGE}").split()
        sources = {f: _git("show", f"{commit}:{PACKAGE}/{f}") for f in files if f.endswith(".py")}
    except (OSError, subprocess.CalledProcessError):
        return None
    name = NAME if commit == PREVIOUS else f"{NAME}_{commit[:12]}"
    if name in sys.modules:
        return sys.modules[name]
    folder = Path(tempfile.mkdtemp(prefix="solver_previous_"))
    for fname, text in sources.items():
        (folder / fname).write_text(text)
    spec = importlib.util.spec_from_file_location(
        name, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module

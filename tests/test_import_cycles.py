"""No import cycle among the project's modules (issue 14): grimp builds the import graph, and every
strongly connected component of more than one module is a cycle."""

from __future__ import annotations

import grimp

# The packages whose modules are checked: the whole project.
CHECKED_PACKAGES = ("games", "accounts", "fairplay", "plumbing", "rummyhub")


def _checked(module: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in CHECKED_PACKAGES)


def import_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one checked module (Tarjan's algorithm)."""
    modules = sorted(m for m in graph.modules if _checked(m))
    edges = {m: sorted(n for n in graph.find_modules_directly_imported_by(m) if _checked(n)) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(m: str) -> None:
        index[m] = low[m] = len(index)
        stack.append(m)
        on_stack.add(m)
        for n in edges[m]:
            if n not in index:
                visit(n)
                low[m] = min(low[m], low[n])
            elif n in on_stack:
                low[m] = min(low[m], index[n])
        if low[m] == index[m]:
            component = []
            while True:
                n = stack.pop()
                on_stack.discard(n)
                component.append(n)
                if n == m:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for m in modules:
        if m not in index:
            visit(m)
    return cycles


def test_no_import_cycles():
    roots = sorted({p.split(".")[0] for p in CHECKED_PACKAGES})
    graph = grimp.build_graph(*roots, cache_dir=None)
    assert any(_checked(m) for m in graph.modules), CHECKED_PACKAGES
    assert import_cycles(graph) == []


def test_a_cycle_is_found():
    graph = grimp.ImportGraph()
    for m in ("games.engine.a", "games.engine.b", "games.engine.c", "games.views"):
        graph.add_module(m)
    graph.add_import(importer="games.engine.a", imported="games.engine.b")
    graph.add_import(importer="games.engine.b", imported="games.engine.a")
    graph.add_import(importer="games.engine.c", imported="games.engine.a")
    graph.add_import(importer="games.views", imported="games.engine.c")
    assert import_cycles(graph) == [["games.engine.a", "games.engine.b"]]

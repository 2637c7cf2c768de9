r"""The layout shows the architecture: imports point down, and each kind of module has one
home (issue 11).

Every module under `services/` and `engine/` is parsed with `ast`, so an import inside a
function and one made only for type checking count like any other, and each import of a
project module is checked against the layers below, listed from the top. A module may
import its own package and anything in a lower layer; never a higher layer, nor another
package of its own layer (two processes never import each other: what they share lives
beneath them). The relay is a process that lives beside its bus, so it is named on its
own; the rest of `services/bus/` is the bus port and its adapters.

Every `sahra` subcommand lives in `services/cli/` and every bench (and the soak) in
`services/bench/`: a `*_cli.py`, a `cli.py` or a bench module anywhere else is refused.

Services depend only on the seam (issue 11): no module under `services/` imports a game
package (each package under `engine/` is one game family's, and every registered game
built into the engine lives in one), nor names one in its text, the way
`grep -rln "engine\.banakil\|from engine import banakil" services/` would find it. A
service reaches a game through the registry (`engine.protocol.get`) alone.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from engine import protocol

_ROOT = Path(__file__).resolve().parents[2]

# Top to bottom. Why each sits where it does:
_LAYERS: tuple[tuple[str, ...], ...] = (
    ("services.cli",),  # the `sahra` command: one module per subcommand
    ("services.bench",),  # the benches and the soak: they start and drive whole processes
    ("services.runtime",),  # process plumbing: configuration, entry, embedded servers, workers
    # The processes. The gateway also serves the verifier's API and page.
    ("services.gateway", "services.clock", "services.bots", "services.bus.relay"),
    # What the processes read: read models, and deal records audited from the store.
    ("services.projections", "services.verifier"),
    ("services.tables",),  # the table application service: the one write path
    ("services.bus",),  # the bus port and its adapters (its messages name stored events)
    ("services.store",),  # the event store port and its adapters
    ("engine",),  # the pure rules
)
_PACKAGES = ("services", "engine")


def _modules(root: Path) -> dict[str, Path]:
    """Every module of the project's packages under `root`, by dotted name."""
    found: dict[str, Path] = {}
    for package in _PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _imports(module: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[int, str]]:
    """(line, module imported) for each import of a project module in `path`."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            # `from services.tables import codec` imports the module codec, not its package.
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            if target.split(".")[0] in _PACKAGES:
                yield node.lineno, target


def _layer(module: str) -> tuple[int, str] | None:
    """The layer of `module` and the package that puts it there (the longest that fits)."""
    best: tuple[int, str] | None = None
    for index, packages in enumerate(_LAYERS):
        for package in packages:
            fits = module == package or module.startswith(package + ".")
            if fits and (best is None or len(package) > len(best[1])):
                best = (index, package)
    return best


def layering_violations(root: Path) -> list[str]:
    """Each import under `root` that points up or sideways, or names a module of no layer."""
    known = _modules(root)
    found: list[str] = []
    for module, path in known.items():
        if module in _PACKAGES:
            continue  # the top packages themselves hold nothing
        own = _layer(module)
        if own is None:
            found.append(f"{module}: in no layer")
            continue
        for line, target in _imports(module, path, known):
            theirs = _layer(target)
            where = f"{module}:{line} imports {target}"
            if theirs is None:
                found.append(f"{where}, which is in no layer")
            elif theirs[0] < own[0]:
                found.append(f"{where}, a layer above ({theirs[1]} over {own[1]})")
            elif theirs[0] == own[0] and theirs[1] != own[1]:
                found.append(f"{where}, beside it ({theirs[1]} and {own[1]})")
    return sorted(found)


def misplaced_modules(root: Path) -> list[str]:
    """The command-line and bench modules under `root`/services outside their package."""
    found: list[str] = []
    for path in sorted((root / "services").rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        home = relative.split("/")[1] if relative.count("/") > 1 else ""
        if (path.stem == "cli" or path.stem.endswith("_cli")) and home != "cli":
            found.append(f"{relative}: a command-line module outside services/cli/")
        # services/cli/bench.py is the `sahra bench` sub-command, which only wires the benches.
        if ("bench" in path.stem or "soak" in path.stem) and home not in ("bench", "cli"):
            found.append(f"{relative}: a bench outside services/bench/")
    return sorted(found)


def game_packages(root: Path) -> set[str]:
    """Every game package under `root`: each package directly under engine/ (one per game
    family, docs/games.md)."""
    engine = root / "engine"
    return {f"engine.{p.name}" for p in engine.iterdir() if (p / "__init__.py").is_file()}


def game_imports(root: Path) -> list[str]:
    """Each import of a game package by a module under `root`/services, and each line of
    such a module that names one (`engine.<game>`, `from engine import <game>`)."""
    games = game_packages(root)
    known = _modules(root)
    names = "|".join(re.escape(g.split(".")[1]) for g in sorted(games))
    named = re.compile(rf"\bengine\.({names})\b|\bfrom engine import .*\b({names})\b")
    found: list[str] = []
    for module, path in known.items():
        if not module.startswith("services."):
            continue
        for line, target in _imports(module, path, known):
            if any(target == g or target.startswith(g + ".") for g in games):
                found.append(f"{module}:{line} imports {target}, a game package")
        if not names:
            continue
        for number, text in enumerate(path.read_text().splitlines(), start=1):
            if named.search(text):
                found.append(f"{module}:{number} names a game package: {text.strip()}")
    return sorted(found)


def test_no_module_under_services_imports_or_names_a_game_package() -> None:
    assert game_imports(_ROOT) == []


def game_name_literals(root: Path) -> list[str]:
    """Each string constant under `root`/services that is a built-in game's name (docstrings
    aside): the registry names the games, and the default (`protocol.DEFAULT_GAME`)."""
    games = {g.split(".")[1] for g in game_packages(root)}
    found: list[str] = []
    for module, path in _modules(root).items():
        if not module.startswith("services."):
            continue
        tree = ast.parse(path.read_text())
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and node.value in games
                and id(node) not in docstrings
            ):
                found.append(f"{module}:{node.lineno} names the game {node.value!r}")
    return sorted(found)


def test_no_module_under_services_names_a_game_but_through_the_registry() -> None:
    assert game_name_literals(_ROOT) == []


def test_a_service_naming_a_game_in_a_string_is_found(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "engine/__init__.py": "",
            "engine/banakil/__init__.py": "",
            "services/__init__.py": "",
            "services/bench/__init__.py": "",
            "services/bench/engine.py": '"""The banakil bench."""\n_GAME = "banakil"\n',
        },
    )
    assert game_name_literals(root) == ["services.bench.engine:2 names the game 'banakil'"]


def test_every_game_built_into_the_engine_lives_in_a_game_package() -> None:
    packages = game_packages(_ROOT)
    assert "engine.banakil" in packages
    for name in protocol.hosted():
        home = protocol.get(name).decide.__module__
        if home.startswith("engine."):  # a game registered by the tests lives in tests/
            assert ".".join(home.split(".")[:2]) in packages, name


def test_no_module_imports_a_layer_above_its_own_or_a_package_beside_it() -> None:
    assert layering_violations(_ROOT) == []


def test_every_command_line_module_and_every_bench_lives_in_its_own_package() -> None:
    assert misplaced_modules(_ROOT) == []


def test_the_layers_name_every_package_under_services() -> None:
    packages = {p.name for p in (_ROOT / "services").iterdir() if (p / "__init__.py").exists()}
    named = {package.split(".")[1] for layer in _LAYERS for package in layer if "." in package}
    assert packages == named


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for package in ("services", "engine"):
        for directory in [root / package, *(root / package).rglob("*")]:
            if directory.is_dir() and not (directory / "__init__.py").exists():
                (directory / "__init__.py").write_text("")
    return root


def test_an_import_upwards_beside_lazy_relative_or_for_types_only_is_found(
    tmp_path: Path,
) -> None:
    root = _tree(
        tmp_path,
        {
            "engine/table.py": "",
            "services/gateway/app.py": "from services.tables.service import TableService\n",
            "services/tables/service.py": "from engine import table\nTableService = 1\n",
            "services/tables/codec.py": "from ..gateway import app\n",
            "services/clock/clock.py": "import services.bots.worker\n",
            "services/bots/worker.py": "from services.bus.relay import Relay\n",
            "services/bus/relay.py": "from services.bus.port import Bus\nRelay = 1\n",
            "services/bus/port.py": "Bus = 1\n",
            "services/store/port.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n"
                "    from services.bus.port import Bus\n"
                "def load():\n"
                "    from services.tables import service\n"
            ),
            "services/extra/thing.py": "",
        },
    )
    assert layering_violations(root) == [
        "services.bots.worker:1 imports services.bus.relay, beside it "
        "(services.bus.relay and services.bots)",
        "services.clock.clock:1 imports services.bots.worker, beside it "
        "(services.bots and services.clock)",
        "services.extra.thing: in no layer",
        "services.extra: in no layer",
        "services.store.port:3 imports services.bus.port, a layer above "
        "(services.bus over services.store)",
        "services.store.port:5 imports services.tables.service, a layer above "
        "(services.tables over services.store)",
        "services.tables.codec:1 imports services.gateway.app, a layer above "
        "(services.gateway over services.tables)",
    ]


def test_a_command_line_module_or_a_bench_outside_its_package_is_found(
    tmp_path: Path,
) -> None:
    root = _tree(
        tmp_path,
        {
            "services/cli/clock.py": "",
            "services/cli/main.py": "",
            "services/cli/bench.py": "",
            "services/bench/store.py": "",
            "services/bench/soak.py": "",
            "services/clock/cli.py": "",
            "services/fair_cli.py": "",
            "services/store/bench.py": "",
            "services/soak.py": "",
        },
    )
    assert misplaced_modules(root) == [
        "services/clock/cli.py: a command-line module outside services/cli/",
        "services/fair_cli.py: a command-line module outside services/cli/",
        "services/soak.py: a bench outside services/bench/",
        "services/store/bench.py: a bench outside services/bench/",
    ]


def test_a_service_importing_or_naming_a_game_package_is_found(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "engine/cards.py": "",
            "engine/protocol.py": "",
            "engine/chess/rules.py": "",
            "services/gateway/views.py": "from engine import chess\n",
            "services/tables/moves.py": "import engine.chess.rules\nfrom engine import cards\n",
            "services/bench/play.py": "def run():\n    from engine.chess.rules import x\n",
            "services/verifier/audit.py": '"""Reads `engine.chess.rules` records."""\n',
            "services/store/port.py": "from engine import protocol, cards\n",
        },
    )
    assert game_packages(root) == {"engine.chess"}
    assert game_imports(root) == [
        "services.bench.play:2 imports engine.chess.rules, a game package",
        "services.bench.play:2 names a game package: from engine.chess.rules import x",
        "services.gateway.views:1 imports engine.chess, a game package",
        "services.gateway.views:1 names a game package: from engine import chess",
        "services.tables.moves:1 imports engine.chess.rules, a game package",
        "services.tables.moves:1 names a game package: import engine.chess.rules",
        'services.verifier.audit:1 names a game package: """Reads `engine.chess.rules` records."""',
    ]

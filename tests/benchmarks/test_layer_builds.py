"""The layers' Makefiles (what ``sam build`` runs for them) ship bytecode Lambda can use.

On Lambda ``/opt`` is read-only: a layer without compiled bytecode is compiled again in every
cold start and the result thrown away (``make bench`` prints both import times). So the build
must compile every module, for good (hash-based and unchecked: a layer version never
changes).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from mineduel.benchmarks.layer_builds import LAYERS
from mineduel.template import load_template

ROOT = Path(__file__).resolve().parents[2]
UNCHECKED_HASH = 0b01
"""PEP 552: bit 0 of a ``.pyc``'s flags says hash-based, bit 1 that the hash is checked."""


def test_every_layer_of_the_template_is_built_by_its_makefile() -> None:
    resources = load_template().resources
    layers = {
        name: r for name, r in resources.items() if r.get("Type") == "AWS::Serverless::LayerVersion"
    }
    assert set(layers) == set(LAYERS)
    for name, layer in layers.items():
        assert layer["Metadata"]["BuildMethod"] == "makefile"
        assert (ROOT / layer["Properties"]["ContentUri"]).resolve() == LAYERS[name].resolve()
        makefile = (LAYERS[name] / "Makefile").read_text()
        assert f"build-{name}:" in makefile
        assert "compileall -q -j 0 --invalidation-mode unchecked-hash" in makefile


def test_the_engine_layer_ships_bytecode_that_is_used_without_its_source(tmp_path: Path) -> None:
    subprocess.run(  # noqa: S603  (our own Makefile, fixed arguments)
        [  # noqa: S607  (make from PATH, as sam build runs it)
            "make",
            "-s",
            "-C",
            str(LAYERS["EngineLayer"]),
            "build-EngineLayer",
            f"ARTIFACTS_DIR={tmp_path}",
            f"PYTHON={sys.executable}",
        ],
        check=True,
    )
    site = tmp_path / "python"
    sources = sorted(site.rglob("*.py"))
    assert len(sources) > 20
    tag = sys.implementation.cache_tag
    for source in sources:
        compiled = Path(importlib.util.cache_from_source(str(source)))
        assert compiled.exists(), f"no bytecode for {source.relative_to(site)}"
        header = compiled.read_bytes()[:16]
        assert int.from_bytes(header[4:8], "little") == UNCHECKED_HASH, source
        assert compiled.name.endswith(f".{tag}.pyc")
    # Only the built copy's own dev caches would name another path: none were copied.
    assert not [p for p in site.rglob("*.pyc") if f".{tag}." not in p.name]

    # Break one source: an import that still works is running the shipped bytecode.
    settings = site / "mineduel_engine" / "settings.py"
    settings.write_text("raise RuntimeError('the source was compiled, not the bytecode used')\n")
    # The layer on PYTHONPATH, as Lambda puts /opt/python; -S: nothing else installed.
    probe = "import mineduel_engine.settings as s; print(s.__file__, len(s.VARIANT_SPECS))"
    done = subprocess.run(  # noqa: S603  (our own interpreter and code)
        [sys.executable, "-S", "-B", "-c", probe],
        env={**os.environ, "PYTHONPATH": str(site)},
        check=True,
        capture_output=True,
        text=True,
    )
    assert done.stdout.split() == [str(settings), "3"]

"""The worker processes: a language's build never takes anything from another language's build.

Sphinx translates some interface strings when their module is first imported (the Python module
index's name, written into objects.inv), so the build runs in a fresh interpreter here: the test
process itself may have run Sphinx in another language already.
"""

from __future__ import annotations

import subprocess
import sys
import zlib
from pathlib import Path

SITE = Path(__file__).resolve().parents[2] / "data" / "site"

BUILD = """
import sys
from pathlib import Path
from patiencebook.generator.site.build import build_site
build_site(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), langs=sys.argv[4:], jobs=1,
           echo=False, report=False)
"""


def _labels(inventory: Path) -> dict[str, str]:
    """Sphinx's objects.inv: each name to its display name."""
    data = inventory.read_bytes()
    start = 0
    for _ in range(4):  # four header lines, then the zlib-compressed entries
        start = data.index(b"\n", start) + 1
    labels = {}
    for line in zlib.decompress(data[start:]).decode("utf-8").splitlines():
        name, _role, _priority, _uri, display = line.split(" ", 4)
        labels[name] = display
    return labels


def test_a_language_built_after_another_in_one_worker_keeps_its_own_interface_strings(tmp_path):
    out = tmp_path / "out"
    subprocess.run([sys.executable, "-c", BUILD, str(SITE / "C"), str(SITE / "locales"), str(out), "de", "el"],
                   check=True, timeout=600)
    assert _labels(out / "de" / "objects.inv")["py-modindex"] == "Python-Modulindex"
    assert _labels(out / "el" / "objects.inv")["py-modindex"] == "Ευρετήριο Μονάδων της Python"

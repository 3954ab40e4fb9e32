"""Which folders of the project go into the ``patiencebook`` package (the rest is in pyproject.toml).

The package is one import namespace over the project's folders, none of them moved:
``patiencebook`` (``patiencebook/``: the version and ``python -m patiencebook``),
``patiencebook.engine`` (``engine/``), ``patiencebook.generator`` (``generator/``), and as data the
embedded rule sources ``patiencebook/rules`` (``rules/``) and catalogs ``patiencebook/locales``
(``locales/``). Installed, the package folder then holds ``rules/`` and ``locales/`` beside
``generator/`` just as the project folder does, so the commands find them the same way.

The live board's Pyodide runtime (the npm package ``pyodide``, installed by ``npm ci`` into
``node_modules/pyodide``) goes in as ``patiencebook/node_modules/pyodide`` when it is there when the
package is built; without it the package still builds, and ``patiencebook build`` says how to add it.
"""

from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
#: The files of the Pyodide runtime the board loads (generator/pages/board.py, PYODIDE_FILES).
PYODIDE_FILES = ["pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
                 "package.json", "README.md"]

packages = ["patiencebook", "patiencebook.engine", "patiencebook.generator", "patiencebook.generator.sphinxext",
            "patiencebook.generator.check", "patiencebook.generator.docbook", "patiencebook.generator.catalogs",
            "patiencebook.generator.pages", "patiencebook.generator.site", "patiencebook.rules", "patiencebook.locales"]
package_dir = {"patiencebook": "patiencebook", "patiencebook.engine": "engine", "patiencebook.generator": "generator",
               "patiencebook.rules": "rules", "patiencebook.locales": "locales"}
package_data = {
    "patiencebook.generator": ["data/*", "data/**/*"],
    "patiencebook.generator.sphinxext": ["templates/*", "static/*", "locale/**/*"],
    # The live board's service worker and the Node.js script that makes its Python snapshot.
    "patiencebook.generator.pages": ["static/*"],
    "patiencebook.rules": ["*", "**/*"],
    "patiencebook.locales": ["*", "**/*"],
}
if all((HERE / "node_modules" / "pyodide" / name).is_file() for name in PYODIDE_FILES[:6]):
    packages.append("patiencebook.node_modules.pyodide")
    package_dir["patiencebook.node_modules.pyodide"] = "node_modules/pyodide"
    package_data["patiencebook.node_modules.pyodide"] = PYODIDE_FILES

setup(packages=packages, package_dir=package_dir, package_data=package_data, include_package_data=False)

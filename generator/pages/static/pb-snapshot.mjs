// Patience Book: the Python memory snapshot of the live board, made once at build time with Node.js.
//
//   node pb-snapshot.mjs <pyodide folder> <engine archive> <output file> [<warm-up file>]
//
// Starts Pyodide from <pyodide folder> (the npm package's pyodide.js and the files beside it), unpacks
// the engine archive (patiencebook/engine/*.py) where the board unpacks it in the browser, imports
// every engine module, plays the warm-up boards when given (a JSON list of board data, each read by
// BoardGame.from_data as a page's board is, so what the engine reads once and keeps is read), and
// writes Pyodide's memory snapshot of that interpreter, gzip-compressed, to <output file>. A page that loads Pyodide with the snapshot skips starting Python and importing the
// engine. The snapshot holds the build id of the Pyodide that made it; Pyodide refuses one of
// another build, and the board then starts Python the ordinary way.
// Exit status 0 when written; 1 with one line on stderr naming what failed.

import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { gzipSync } from "node:zlib";

// Must be the folder pb-board-start.js unpacks the engine into (ENGINE_DIR there).
const ENGINE_DIR = "/home/pyodide/patiencebook-engine";

async function main(argv) {
  if (argv.length !== 3 && argv.length !== 4) {
    throw new Error("usage: node pb-snapshot.mjs <pyodide folder> <engine archive> <output file> [<warm-up file>]");
  }
  const [folder, archive, output, warmup] = argv.map((path) => resolve(path));
  const require = createRequire(import.meta.url);
  const { loadPyodide } = require(`${folder}/pyodide.js`);
  const quiet = () => {};
  const pyodide = await loadPyodide({ indexURL: `${folder}/`, fullStdLib: false, _makeSnapshot: true,
                                      stdout: quiet, stderr: quiet });
  pyodide.unpackArchive(new Uint8Array(readFileSync(archive)), "zip", { extractDir: ENGINE_DIR });
  pyodide.runPython([
    "import importlib, pkgutil, sys",
    `sys.path.insert(0, ${JSON.stringify(ENGINE_DIR)})`,
    "import patiencebook.engine",
    "for _module in pkgutil.iter_modules(patiencebook.engine.__path__):",
    "    importlib.import_module('patiencebook.engine.' + _module.name)",
    "del _module",
  ].join("\n"));
  if (warmup) {
    pyodide.globals.set("_warmup", readFileSync(warmup, "utf8"));
    pyodide.runPython([
      "import json",
      "from patiencebook.engine.frontend import BoardGame",
      "for _data in json.loads(_warmup):",
      "    _game = BoardGame.from_data(_data)",
      "    _game.state(); _game.hint()",
      "del _warmup, _data, _game",
    ].join("\n"));
  }
  writeFileSync(output, gzipSync(pyodide.makeMemorySnapshot(), { level: 9 }));
}

main(process.argv.slice(2)).then(() => process.exit(0), (error) => {
  const lines = String(error && error.message || error).split("\n").filter((line) => line.trim());
  process.stderr.write(`pb-snapshot: ${lines[lines.length - 1] || "failed"}\n`);
  process.exit(1);
});

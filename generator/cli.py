"""The ``patiencebook`` command line: parses arguments and calls the library, nothing more.

Every user-caused error arrives as a :class:`~patiencebook.generator.errors.PatienceBookError`
(or an engine error) and is printed as one line, ``patiencebook: error: file:line: message``,
with exit status 1. Exit status 2 is a usage error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from patiencebook.engine.errors import EngineError
from patiencebook.generator import project
from patiencebook.generator.errors import PatienceBookError


def _cmd_extract(args: argparse.Namespace) -> int:
    from patiencebook.generator.extract import write_pot
    from patiencebook.generator.sources import load_document

    document = load_document(args.sources or project.default_sources())
    pot = args.pot or project.default_pot(args.catalogs)
    write_pot(document, pot)
    print(f"wrote {pot} ({len({(s.msgctxt, s.msgid) for s in document.segments})} messages)")
    return 0


def _cmd_update(args: argparse.Namespace) -> int:
    from patiencebook.generator.catalogs import update_catalogs

    catalogs = args.catalogs or project.default_catalogs()
    pot = args.pot or project.default_pot(catalogs)
    changed = update_catalogs(pot, catalogs, project.DOMAIN)
    for path, was_changed in changed.items():
        print(f"{'updated' if was_changed else 'unchanged'} {path}")
    return 0


def _cmd_build(args: argparse.Namespace) -> int:
    from patiencebook.generator.build import build_site

    sources = args.sources or project.default_sources()
    catalogs = args.catalogs if args.catalogs is not None else (
        project.default_catalogs() if args.sources is None else None)
    build_site(sources, catalogs, args.out or project.default_site(), langs=args.lang, jobs=args.jobs)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``patiencebook`` command, one sub-command per task."""
    parser = argparse.ArgumentParser(
        prog="patiencebook",
        description="Translated help and a reference rules engine for patience card games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def sources_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--sources", type=Path, metavar="DIR",
                       help="folder of DocBook sources holding index.docbook (default: the embedded rules/)")

    p = sub.add_parser("extract", help="write the POT catalog template from the rule sources")
    sources_option(p)
    p.add_argument("--catalogs", type=Path, metavar="DIR", help="catalogs folder (default: locales/)")
    p.add_argument("--pot", type=Path, metavar="FILE", help="POT file to write (default: CATALOGS/help.pot)")
    p.set_defaults(run=_cmd_extract)

    p = sub.add_parser("update", help="merge the POT into every language's catalog")
    p.add_argument("--catalogs", type=Path, metavar="DIR", help="catalogs folder (default: locales/)")
    p.add_argument("--pot", type=Path, metavar="FILE", help="POT file to merge (default: CATALOGS/help.pot)")
    p.set_defaults(run=_cmd_update)

    p = sub.add_parser("build", help="render the translated help site, one folder per language")
    sources_option(p)
    p.add_argument("--catalogs", type=Path, metavar="DIR",
                   help="folder of catalogs, <lang>/LC_MESSAGES/help.po or <lang>/<lang>.po "
                        "(default: the embedded locales/ when --sources is not given)")
    p.add_argument("--lang", action="append", metavar="LANG",
                   help="build only this language (gettext code, e.g. de or sr@latin); repeatable")
    p.add_argument("--out", type=Path, metavar="DIR", help="output folder (default: ./site)")
    p.add_argument("--jobs", type=int, metavar="N", help="parallel language builds (default: number of cores)")
    p.set_defaults(run=_cmd_build)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except (PatienceBookError, EngineError) as error:
        print(f"patiencebook: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("patiencebook: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

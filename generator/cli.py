"""The ``patiencebook`` command line: parses arguments and calls the library, nothing more.

Every user-caused error arrives as a :class:`~patiencebook.generator.errors.PatienceBookError`
(or an engine error) and is printed as one line, ``patiencebook: error: file:line: message``,
with exit status 1. Exit status 2 is a usage error.
"""

from __future__ import annotations

import argparse
import ipaddress
import signal
import sys
from pathlib import Path
from typing import Sequence

from patiencebook.engine.errors import EngineError
from patiencebook.generator import project
from patiencebook.generator.errors import PatienceBookError
from patiencebook.generator.site.progress import MODES


def _cmd_extract(args: argparse.Namespace) -> int:
    from patiencebook.generator.catalogs.pot import write_pot
    from patiencebook.generator.docbook.sources import load_document

    from patiencebook.generator.errors import CatalogError

    if args.pot is None and args.catalogs is not None and not Path(args.catalogs).is_dir():
        raise CatalogError("no such catalogs folder", args.catalogs)
    document = load_document(args.sources or project.default_sources())
    pot = args.pot or project.default_pot(args.catalogs)
    write_pot(document, pot)
    print(f"wrote {pot} ({len({(s.msgctxt, s.msgid) for s in document.segments})} messages)")
    return 0


def _cmd_update(args: argparse.Namespace) -> int:
    from patiencebook.generator.catalogs import discover_catalogs, merge_catalogs

    catalogs = args.catalogs or project.default_catalogs()
    folder = discover_catalogs(catalogs, args.domain)
    for warning in folder.warnings:
        print(f"patiencebook: {'error' if args.strict else 'warning'}: {warning}", file=sys.stderr)
    if args.strict and folder.warnings:
        return 1
    pot = args.pot or Path(catalogs) / f"{folder.domain}.pot"
    for update in merge_catalogs(pot, folder, fuzzy_matching=args.fuzzy_matching, previous=args.previous):
        count = len(update.guesses)
        guesses = f" ({count} fuzzy guess{'es' if count != 1 else ''} to review)" if count else ""
        print(f"{'updated' if update.changed else 'unchanged'} {update.path}{guesses}")
        for guess in update.guesses:
            print(f"  {update.path}:{guess.line}: {guess.summary()}")
    return 0


def _catalogs(args: argparse.Namespace) -> Path | None:
    """--catalogs, else the embedded locales/ when the embedded sources are used, else none."""
    if args.catalogs is not None:
        return args.catalogs
    return project.default_catalogs() if args.sources is None else None


def _cmd_build(args: argparse.Namespace) -> int:
    from patiencebook.generator.site.build import build_site, unknown_catalogs
    from patiencebook.generator.catalogs import discover_catalogs

    sources = args.sources or project.default_sources()
    catalogs = _catalogs(args)
    if catalogs is not None:
        catalogs = discover_catalogs(catalogs, args.domain)  # its warnings are the build's site warnings
        if args.strict:
            problems = [str(w) for w in catalogs.warnings]
            if args.lang is None:  # a build of every catalog skips those of languages it does not know
                problems += unknown_catalogs(catalogs.catalogs).values()
            for problem in problems:
                print(f"patiencebook: error: {problem}", file=sys.stderr)
            if problems:
                return 1
    build_site(sources, catalogs, args.out or project.default_site(), langs=args.lang, jobs=args.jobs,
               progress=args.progress, fresh=args.fresh, derived=args.derived)
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    from patiencebook.generator.catalogs import discover_catalogs
    from patiencebook.generator.check import run_checks
    from patiencebook.generator.check.report import annotate_catalog, format_json, format_text, write_output
    from patiencebook.generator.check.cachefiles import remembered_facts
    from patiencebook.generator.check.run import REPORTED_CONFIDENCE
    from patiencebook.generator.languages import environment_language

    sources = args.sources or project.default_sources()
    catalogs = _catalogs(args)
    langs = args.lang
    if catalogs is not None:
        catalogs = discover_catalogs(catalogs, args.domain)
        for warning in catalogs.warnings:
            print(f"patiencebook: {'error' if args.strict else 'warning'}: {warning}", file=sys.stderr)
        if args.strict and catalogs.warnings:
            return 1
        if langs is None:
            # As gettext programs do: the environment's language, when a catalog is in it.
            mine = environment_language(list(catalogs.catalogs))
            if mine is not None:
                langs = [mine.code]
                print(f"patiencebook: checking the {mine.code} catalog, the language of the environment "
                      "(LANGUAGE, LC_ALL, LC_MESSAGES, LANG); --lang chooses others", file=sys.stderr)
    sure = REPORTED_CONFIDENCE if args.min_confidence is None else args.min_confidence
    with remembered_facts():
        findings, checked = run_checks(sources, catalogs, langs=langs, pages=args.page, checks=args.check,
                                       min_confidence=sure, jobs=args.jobs)
    if args.format == "po":
        if len(checked) != 1:
            raise PatienceBookError(f"--format po writes one catalog, but {len(checked)} were checked; "
                                    "choose one with --lang")
        (lang, path), = checked.items()
        data = annotate_catalog(path, [f for f in findings if f.lang == lang])
        write_output(data, args.out, protect=[path, sources, *([catalogs] if catalogs else [])])
    else:
        text = format_json(findings) if args.format == "json" else format_text(findings)
        try:
            write_output(text, args.out, protect=[*checked.values(), sources, *([catalogs] if catalogs else [])])
        except BrokenPipeError:
            return _reader_gone()
    return 1 if any(f.severity == "error" for f in findings) else 0


def _confidence(text: str) -> float:
    """A ``--min-confidence`` value: a number from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number from 0 to 1") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 1")
    return value


def _cmd_glossary(args: argparse.Namespace) -> int:
    from patiencebook.generator.catalogs import discover_catalogs
    from patiencebook.generator.check.glossary import write_glossaries

    sources = args.sources or project.default_sources()
    catalogs = discover_catalogs(args.catalogs if args.catalogs is not None else project.default_catalogs(),
                                 args.domain)
    for warning in catalogs.warnings:
        print(f"patiencebook: warning: {warning}", file=sys.stderr)
    for path in write_glossaries(sources, catalogs, args.lang, force=args.force):
        print(f"wrote {path}")
    return 0


def _reader_gone() -> int:
    """Exit quietly when the reader of standard output has gone (``play ... | head``)."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's final flush finds nowhere to fail
    return 0


def _cmd_deal(args: argparse.Namespace) -> int:
    import json

    from patiencebook.engine import Game
    from patiencebook.generator.play import check_deal, find_game, position_dict

    game = find_game(args.game, args.sources)
    position = Game.deal(game.ruleset, check_deal(args.deal)).position
    try:
        if args.json:
            print(json.dumps(position_dict(position, args.deal), ensure_ascii=False))
        else:
            print(position.text(), end="")
        sys.stdout.flush()
    except BrokenPipeError:
        return _reader_gone()
    return 0


def _user_language(asked: str | None, available, environment: bool = True):
    """The :class:`~patiencebook.generator.languages.Language` of ``--lang`` as the user wrote it
    (``de_DE``, ``sr-Latn``), else (with ``environment``) of the environment's language
    (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else the source language; only
    ``available`` codes count. Raises :class:`LanguageError` for a ``--lang`` that names none of them."""
    from patiencebook.generator.languages import environment_language, resolve_language, source_language

    if asked is not None:
        return resolve_language(asked, available)
    found = environment_language(available) if environment else None
    return found if found is not None else resolve_language(source_language())


def _cmd_play(args: argparse.Namespace) -> int:
    from patiencebook.generator.play import (check_deal, find_game, play_languages, random_deal, run_interactive,
                                             run_jsonl)

    game = find_game(args.game, args.sources)
    ruleset = game.variant(args.variant)
    language = _user_language(args.lang, play_languages())
    try:
        if args.jsonl:
            deal = check_deal(args.deal) if args.deal is not None else random_deal()
            return run_jsonl(ruleset, deal, sys.stdin, sys.stdout)
        return run_interactive(game, args.deal, language, variant=args.variant)
    except BrokenPipeError:
        return _reader_gone()


def _cmd_games(args: argparse.Namespace) -> int:
    import json

    from patiencebook.generator.play import game_table

    rows = game_table(args.sources, _user_language(args.lang, None, environment=False))
    try:
        if args.format == "json":
            print(json.dumps(rows, ensure_ascii=False, indent=1))
        else:
            width = max((len(r["id"]) for r in rows), default=2)
            name_width = max((len(r["name"]) for r in rows), default=4)
            for row in rows:
                variants = ", ".join(v["id"] for v in row["variants"]) or "-"
                figure = row["solver_figure"]
                solved = (f"solver: deals {figure['first']}-{figure['last']}: {figure['solved']} won, "
                          f"{figure['unsolvable']} cannot be won, {figure['unknown']} unknown"
                          if figure else "no solver figure")
                print(f"{row['id']:<{width}}  {row['name']:<{name_width}}  variants: {variants}; {solved}")
        sys.stdout.flush()
    except BrokenPipeError:
        return _reader_gone()
    return 0


def _positive(text: str) -> int:
    value = int(text) if text.isascii() and text.isdigit() else 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {text!r}")
    return value


def _cmd_solve(args: argparse.Namespace) -> int:
    import os
    import re

    from patiencebook.generator.pages.figures import FILE_NAME, figure_for, load_figures, record_figure
    from patiencebook.generator.play import find_game, play_languages
    from patiencebook.generator.solving import parse_deal_spec, rates, solution_lines, solve_deals, summary

    game = find_game(args.game, args.sources)
    ruleset = game.variant(args.variant)
    wording = _solution_wording(ruleset, _user_language(args.lang, play_languages())) if args.show else None
    if args.deal is not None and not re.fullmatch(r"(?i:ms)?[0-9]+", args.deal.strip()):
        raise PatienceBookError(f"--deal takes one deal number, such as 7 or ms617, not {args.deal.strip()[:40]!r}; "
                                "for several, use --deals")
    for given, option in ((args.deal, "--deal"), (args.deals, "--deals")):
        if given is not None and not given.strip():
            raise PatienceBookError(f"{option} is empty; give deal numbers, such as 1-100")
    numbering, deals = parse_deal_spec(args.deal or args.deals or "1-100")
    record = (args.sources or project.default_sources()) / FILE_NAME if args.record or args.retry_unknown else None
    known: dict[int, str] = {}
    if record is not None:
        if numbering or deals != list(range(deals[0], deals[-1] + 1)):
            raise PatienceBookError("--record and --retry-unknown keep a range of AisleRiot deal numbers, "
                                    "such as 1-1000")
        # Everything that could stop the recording is checked before the search, not after it.
        kept = figure_for(load_figures(record), ruleset)
        if not os.access(record.parent, os.W_OK) or (record.exists() and not os.access(record, os.W_OK)):
            raise PatienceBookError(f"{record}: cannot write the file, so the answers could not be kept")
        held = f"{record} holds deals {kept.first}-{kept.last} of these rules at {kept.budget} positions" \
            if kept else ""
        if args.retry_unknown:
            if kept is None or (kept.first, kept.last) != (deals[0], deals[-1]):
                raise PatienceBookError(
                    f"--retry-unknown needs answers for deals {deals[0]}-{deals[-1]} of these rules in {record}; "
                    + (f"it holds deals {kept.first}-{kept.last}: give --deals {kept.first}-{kept.last}"
                       if kept else "record them first with --record"))
            if args.budget <= kept.budget:
                raise PatienceBookError(f"--retry-unknown searches the unknown deals again with a larger budget "
                                        f"than the {kept.budget} positions they had")
            known = {deal: kept.status(deal) for deal in deals if kept.status(deal) != "unknown"}
            if len(known) == len(deals):
                print(f"{held}, and none is unknown: nothing to search again")
                return 0
        elif kept is not None and (deals[0] > kept.first or deals[-1] < kept.last or args.budget < kept.budget):
            raise PatienceBookError(f"{held}; recording deals {deals[0]}-{deals[-1]} at {args.budget} positions "
                                    f"would replace them with less. Record at least those deals with at least "
                                    f"that budget, or search the unknown ones again with --retry-unknown")
    variant = (f"{ruleset.variant} variant of {game.slug}.xml" if ruleset.variant
               else f"rules of {game.slug}.xml")
    out = _Output()

    def show(result) -> None:
        moves = f", {result.moves} moves" if result.moves else ""
        out.say(f"deal {result.name}: {result.status} ({result.nodes} positions{moves})")
        if wording is not None and result.solution:
            out.say("\n".join(solution_lines(ruleset, result, wording)))

    try:
        results = solve_deals(ruleset, [d for d in deals if d not in known], args.budget, args.jobs, report=show,
                              numbering=numbering, keep_moves=args.show)
    except KeyboardInterrupt:
        if record is not None:
            print(f"patiencebook: nothing was recorded in {record}", file=sys.stderr)
        raise
    if known:
        out.say(f"{len(known)} deals kept from {record.name}: solved or unsolvable with a smaller budget")
    statuses = {**known, **{r.deal: r.status for r in results}}
    out.say(summary(game.slug, variant, results, args.budget))
    if known:
        out.say(f"  deals {deals[0]}-{deals[-1]} now: {rates([statuses[d] for d in deals])}")
    if record is not None:
        record_figure(record, ruleset, deals[0], args.budget, [statuses[d] for d in deals])
        out.say(f"recorded in {record}")
    return out.finish()


def _solution_wording(ruleset, language):
    """The :class:`~patiencebook.engine.wording.Wording` of ``solve --show``: the interface strings
    and the pile names (the help catalog's Setup-table labels) of ``language``."""
    from patiencebook.engine.wording import Wording
    from patiencebook.generator.languages import ui_strings
    from patiencebook.generator.play import player_pile_names

    return Wording(ruleset, ui_strings(language), player_pile_names(ruleset, language))


class _Output:
    """Standard output that a closed pipe (``solve ... | head``) or a full disk does not stop:
    the work goes on (and is recorded); printing stops. :meth:`finish` gives the exit status."""

    def __init__(self) -> None:
        self.failed: OSError | None = None
        self.gone = False

    def say(self, text: str) -> None:
        if self.gone or self.failed:
            return
        try:
            print(text, flush=True)
        except BrokenPipeError:
            self.gone = True
            _reader_gone()
        except OSError as error:
            self.failed = error

    def finish(self) -> int:
        if self.failed is not None:
            _reader_gone()
            raise PatienceBookError(f"could not write to standard output: {self.failed.strerror or self.failed}")
        return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from patiencebook.generator.serve import make_server

    server = make_server(args.site or project.default_site(), args.host, args.port, verbose=args.verbose)
    host, port = server.server_address[:2]
    shown = f"[{host}]" if ":" in host else host
    if not ipaddress.ip_address(host).is_loopback:
        print(f"patiencebook: warning: serving to the network on {host}: anyone who can reach this address "
              "can read the site", file=sys.stderr)
    print(f"serving {args.site or project.default_site()} at http://{shown}:{port}/ (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0


def _port(text: str) -> int:
    value = int(text) if text.isdigit() else -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port number from 0 to 65535, not {text!r}")
    return value


#: The rule variants of the embedded games, as their rules blocks name them (pb:variant ids; the
#: first of each game is the page's own rules). tests/generator/test_solving.py holds it to rules/.
EMBEDDED_VARIANTS = {"giant": ("alternate-colours", "same-suit"),
                     "klondike": ("single-card-deals", "three-card-deals", "no-redeals", "unlimited-redeals"),
                     "osmosis": ("single-card-deals", "three-card-deals"),
                     "spider": ("four-suits", "two-suits", "one-suit")}
VARIANT_HELP = ("a rule variant of the game, by the id its rules name (" + "; ".join(
    f"{game}: {variants[0]}, the default, {', '.join(variants[1:])}" for game, variants in EMBEDDED_VARIANTS.items())
    + "); default: the rules the page states")

#: How GAME is named (generator/gamenames.py).
GAME_HELP = ("the game: its id (eagle_wing), AisleRiot's name (eagle-wing), its title in English or in a catalog "
             "(\"Eagle Wing\", Adlerschwinge); case, spaces, -, _ and apostrophes do not count")


class _Version(argparse.Action):
    """``--version``: print ``patiencebook <version>`` and exit, as argparse's ``version`` action
    does, with the version read from the package metadata only when asked for (reading it imports
    :mod:`importlib.metadata`, about 13 ms at every start otherwise)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                 help="show the program's version number and exit"):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from patiencebook import __version__

        sys.stdout.write(f"patiencebook {__version__}\n")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``patiencebook`` command, one sub-command per task."""
    parser = argparse.ArgumentParser(
        prog="patiencebook",
        description="Translated help and a reference rules engine for patience card games.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def sources_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--sources", type=Path, metavar="DIR",
                       help="folder of DocBook sources holding index.docbook (default: the embedded rules/)")

    def catalogs_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--catalogs", type=Path, metavar="DIR",
                       help="folder of catalogs: <lang>/LC_MESSAGES/help.po, <lang>/help.po, <lang>/<lang>.po, "
                            "<lang>/LC_MESSAGES/<lang>.po or <lang>.po, only the languages of its LINGUAS file "
                            "when it has one (default: the embedded locales/ when --sources is not given)")

    def domain_option(p: argparse.ArgumentParser, strict: bool = True) -> None:
        p.add_argument("--domain", default=project.DOMAIN, metavar="NAME",
                       help="gettext domain of the catalogs: <lang>/LC_MESSAGES/NAME.po, <lang>/NAME.po "
                            "(default: help)")
        if strict:
            p.add_argument("--strict", action="store_true",
                           help="make every catalog warning (a catalog found but not used, a language of "
                                "LINGUAS without catalog) an error: exit 1 and write nothing")

    p = sub.add_parser("extract", help="write the POT catalog template from the rule sources")
    sources_option(p)
    p.add_argument("--catalogs", type=Path, metavar="DIR", help="catalogs folder (default: the embedded locales/, inside the package when it is installed)")
    p.add_argument("--pot", type=Path, metavar="FILE", help="POT file to write (default: CATALOGS/help.pot)")
    p.set_defaults(run=_cmd_extract)

    p = sub.add_parser("update", help="merge the POT into every language's catalog")
    p.add_argument("--catalogs", type=Path, metavar="DIR", help="catalogs folder (default: the embedded locales/, inside the package when it is installed)")
    p.add_argument("--pot", type=Path, metavar="FILE", help="POT file to merge (default: CATALOGS/DOMAIN.pot)")
    domain_option(p)
    p.add_argument("--no-fuzzy-matching", dest="fuzzy_matching", action="store_false",
                   help="give a new msgid no fuzzy guess from the translation of a similar old one: it "
                        "stays untranslated")
    p.add_argument("--previous", action=argparse.BooleanOptionalAction, default=True,
                   help="keep the msgid a fuzzy unit's translation was made for as '#| msgid' lines "
                        "(default; --no-previous drops them)")
    p.set_defaults(run=_cmd_update)

    p = sub.add_parser("build", help="render the translated help site, one folder per language")
    sources_option(p)
    catalogs_option(p)
    p.add_argument("--lang", action="append", metavar="LANG",
                   help="build only this language (gettext code, e.g. de or sr@latin); repeatable")
    p.add_argument("--out", type=Path, metavar="DIR", help="output folder (default: ./site)")
    p.add_argument("--jobs", type=_positive, metavar="N", help="parallel language builds (default: number of cores)")
    p.add_argument("--progress", choices=MODES, default="auto",
                   help="progress on stderr: a status line (bar), a line per page (lines), a line per language "
                        "(languages) or none; auto: bar on a terminal, else languages")
    p.add_argument("--fresh", action="store_true",
                   help="build everything again, ignoring what the site keeps of its last build")
    p.add_argument("--derived", choices=("auto", "catalog", "derive"), default="auto",
                   help="a derived language with a hand-kept catalog beside its base (sr@latin beside sr): "
                        "use the hand-kept one (catalog), convert the base (derive), or the hand-kept one "
                        "only when it is complete and up to date (auto, the default); the build says which")
    domain_option(p)
    p.set_defaults(run=_cmd_build)

    p = sub.add_parser("check", help="check the translations (and the English) for problems a reader would meet")
    sources_option(p)
    catalogs_option(p)
    p.add_argument("--lang", action="append", metavar="LANG",
                   help="check only this catalog (de, or as a locale: de_DE, sr-Latn); repeatable (default: "
                        "the catalog of the environment's language, LANGUAGE, LC_ALL, LC_MESSAGES or LANG, "
                        "when there is one; else every catalog)")
    p.add_argument("--page", action="append", metavar="SLUG",
                   help="report only findings on this page (hamilton); repeatable")
    p.add_argument("--check", action="append", metavar="NAME",
                   help="report only this check (markup, stale, model...); repeatable")
    p.add_argument("--format", choices=("text", "json", "po"), default="text",
                   help="text grouped by page (default), a JSON list, or the catalog with one "
                        "'# check:' comment per finding (needs one --lang)")
    p.add_argument("--min-confidence", type=_confidence, default=None, metavar="C",
                   help="report only findings at least this sure, from 0 to 1 (default 0.5: rule findings "
                        "below it are information, such as a count the translation leaves to a paraphrase; "
                        "0 shows them too)")
    p.add_argument("--out", type=Path, metavar="FILE", help="write here instead of standard output")
    p.add_argument("--jobs", type=_positive, metavar="N",
                   help="catalogs checked at once, each in a worker process: at most one per catalog and per "
                        "core this process may use (default: that many; 1: one after the other in this process; "
                        "catalogs under 64 KiB together are always checked in this process; a catalog left "
                        "over when they do not share out evenly is checked in two parts, read ahead by a "
                        "helper process while the sources load)")
    domain_option(p)
    p.epilog = ("Between runs, ~/.cache/patiencebook ($XDG_CACHE_HOME/patiencebook, or $PATIENCEBOOK_CACHE_DIR; "
                "set it empty to keep nothing) keeps the lemmas found, CLDR's number words of each language and "
                "each unit's rule-fact results, so a unit whose texts have not changed is not compared again.")
    p.set_defaults(run=_cmd_check)

    p = sub.add_parser("glossary", help="write each language's term glossary (TBX-Basic) inferred from the "
                                        "term labels and their translations, for the translator to edit")
    sources_option(p)
    p.add_argument("--catalogs", type=Path, metavar="DIR", help="catalogs folder (default: the embedded locales/, inside the package when it is installed)")
    p.add_argument("--lang", action="append", metavar="LANG", help="only this language; repeatable")
    p.add_argument("--force", action="store_true", help="replace an existing glossary.tbx")
    domain_option(p, strict=False)
    p.set_defaults(run=_cmd_glossary)

    p = sub.add_parser("deal", help="show the opening position of a numbered deal (AisleRiot's deal numbers)")
    sources_option(p)
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    p.add_argument("--deal", type=int, required=True, metavar="N", help="the deal number, 0 to 4294967295")
    p.add_argument("--json", action="store_true",
                   help="print JSON: game, deal and piles in AisleRiot's slot order (default: the text form)")
    p.set_defaults(run=_cmd_deal)

    p = sub.add_parser("games", help="list the embedded games: id, name, variants and solver figure")
    sources_option(p)
    p.add_argument("--lang", metavar="LANG", help="give the names in this language (default: en)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    p.set_defaults(run=_cmd_games)
    p = sub.add_parser("play", help="play a game in the terminal, or move by move as JSON lines")
    sources_option(p)
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    p.add_argument("--deal", type=int, metavar="N", help="the deal number (default: a random one, printed)")
    p.add_argument("--lang", metavar="LANG",
                   help="language of pile names and messages (en, de, el, sr, sr@latin, or as a locale: de_DE, "
                        "sr-Latn; default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else en)")
    p.add_argument("--variant", metavar="ID", help=VARIANT_HELP)
    p.add_argument("--jsonl", action="store_true",
                   help="read one move in notation per line, write one JSON line of the state after each")
    p.set_defaults(run=_cmd_play)
    p = sub.add_parser("solve", help="which deals of a game can be won with all cards known")
    sources_option(p)
    p.add_argument("game", metavar="GAME", help=GAME_HELP)
    which = p.add_mutually_exclusive_group()
    which.add_argument("--deals", metavar="RANGE",
                       help="AisleRiot deal numbers: 1-1000, 7, or a list such as 1-5,9; for FreeCell also "
                            "Microsoft's: ms1-ms100 (default: 1-100)")
    which.add_argument("--deal", metavar="N", help="one deal: an AisleRiot number, or for FreeCell a Microsoft "
                                                   "deal number such as ms123 (instead of --deals)")
    p.add_argument("--variant", metavar="ID", help=VARIANT_HELP)
    p.add_argument("--budget", type=_positive, default=200_000, metavar="N",
                   help="positions searched per deal before it counts as unknown (default: 200000)")
    p.add_argument("--jobs", type=_positive, metavar="N",
                   help="deals solved at once, at most the number of cores (default: number of cores)")
    p.add_argument("--record", action="store_true",
                   help="keep the answers in solved.json beside the rules, for the game's page")
    p.add_argument("--show", action="store_true",
                   help="print the winning moves of each deal solved, numbered, one a line, in words and notation")
    p.add_argument("--lang", metavar="LANG",
                   help="language of the moves' words with --show (as for play; default: from LANGUAGE, LC_ALL, "
                        "LC_MESSAGES or LANG, else en)")
    p.add_argument("--retry-unknown", action="store_true",
                   help="search again, with --budget, only the deals solved.json has as unknown, and record "
                        "the answers (the others are kept)")
    p.set_defaults(run=_cmd_solve)
    p = sub.add_parser("serve", help="serve the built site on this machine (127.0.0.1)")
    p.add_argument("site", nargs="?", type=Path, metavar="DIR", help="the site folder (default: ./site)")
    p.add_argument("--port", type=_port, default=8000, metavar="N", help="port (default: 8000; 0 picks a free one)")
    p.add_argument("--host", default="127.0.0.1", metavar="ADDR", help="address to bind (default: 127.0.0.1)")
    p.add_argument("--verbose", action="store_true", help="log every request")
    p.set_defaults(run=_cmd_serve)
    return parser


class _Terminated(KeyboardInterrupt):
    """SIGTERM, unwound as an interrupt; the exit status is 128 + 15, as a shell reports it."""


def _terminated(signum, frame) -> None:
    raise _Terminated


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    try:
        args = build_parser().parse_args(argv)
    except KeyboardInterrupt:
        print("patiencebook: interrupted", file=sys.stderr)
        return 130
    # A terminated command unwinds like an interrupted one, so temporary output is removed.
    signal.signal(signal.SIGTERM, _terminated)
    try:
        return args.run(args)
    except (PatienceBookError, EngineError) as error:
        print(f"patiencebook: error: {error}", file=sys.stderr)
        return 1
    except OSError as error:  # a file or folder the checks before could not foresee (its permissions)
        where = f"{error.filename}: " if error.filename else ""
        print(f"patiencebook: error: {where}{error.strerror or error}", file=sys.stderr)
        return 1
    except _Terminated:
        print("patiencebook: terminated", file=sys.stderr)
        return 128 + signal.SIGTERM
    except KeyboardInterrupt:
        print("patiencebook: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""Drives GNOME AisleRiot's compiled game rules under guile-3.0, as a behavioural reference for tests.

``scripts/aisleriot-reference.sh`` unpacks the Debian package ``aisleriot`` into a cache folder;
``shim.scm`` (next to this file) stands in for AisleRiot's C side and speaks a line protocol on a
guile subprocess; it is compiled once per version into the same cache folder. Test code only: the
package never imports this.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Self, Sequence

from patiencebook.engine.cards import Card, Rank, Suit

__all__ = ["HarnessMissing", "AisleRiotGame", "GameOption", "Look", "Action", "cache_dir", "compiled_shim", "guile_dir",
           "SETUP_COMMAND", "card_from_aisleriot", "pile_map", "slot_pile_map"]

SHIM = Path(__file__).with_name("shim.scm")
REPO_ROOT = Path(__file__).resolve().parents[2]
SETUP_COMMAND = "bash scripts/aisleriot-reference.sh"
# AisleRiot's suit numbers (games/api.scm: club 0, diamond 1, heart 2, spade 3).
_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)


class HarnessMissing(RuntimeError):
    """guile-3.0 or the unpacked AisleRiot package is not there; the message says how to set it up."""


def cache_dir() -> Path:
    """The folder the setup script unpacks AisleRiot into (``PATIENCEBOOK_AISLERIOT_DIR`` or the user cache)."""
    env = os.environ.get("PATIENCEBOOK_AISLERIOT_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "patiencebook-aisleriot"


def guile_dir() -> Path:
    """The folder holding AisleRiot's ``aisleriot/api.go`` and the game ``.go`` files.

    Raises :class:`HarnessMissing` naming the setup command when it or guile-3.0 is absent.
    """
    if shutil.which("guile-3.0") is None:
        raise HarnessMissing(f"guile-3.0 is not installed; run `{SETUP_COMMAND}` in {REPO_ROOT}")
    found = sorted(cache_dir().glob("root/usr/lib/*/aisleriot/guile/3.0/aisleriot/api.go"))
    if not found:
        raise HarnessMissing(f"AisleRiot's compiled rules are not unpacked in {cache_dir()}; "
                             f"run `{SETUP_COMMAND}` in {REPO_ROOT}")
    return found[0].parent.parent


def _scheme_string(path: Path) -> str:
    """``path`` as a Scheme string literal (double quotes; backslash and quote escaped)."""
    return '"' + str(path).replace("\\", "\\\\").replace('"', '\\"') + '"'


def compiled_shim() -> Path:
    """``shim.scm`` compiled by guile into the cache folder, once per version of the shim.

    The interpreted shim spent most of a comparison's time listing legal actions; compiled, it
    runs several times faster. Raises :class:`HarnessMissing` as :func:`guile_dir` does, and
    ``RuntimeError`` with guile's message when the shim does not compile.

    Optimization level 1: at guile 3.0's default level 2, the driver's procedures, called once
    the current module is ``(guile-user)``, no longer find the driver's own top-level variables.
    """
    rules = guile_dir()
    digest = hashlib.sha256(SHIM.read_bytes()).hexdigest()[:16]
    target = cache_dir() / f"shim-{digest}-O1.go"
    if target.exists():
        return target
    partial = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    done = subprocess.run(
        ["guile-3.0", "--no-auto-compile", "-L", str(rules), "-C", str(rules), "-c",
         "(use-modules (system base compile))"
         f"(compile-file {_scheme_string(SHIM)} #:output-file {_scheme_string(partial)}"
         " #:optimization-level 1)"],
        capture_output=True, text=True, env={**os.environ, "LC_ALL": "C.UTF-8", "GUILE_AUTO_COMPILE": "0"})
    if done.returncode != 0 or not partial.exists():
        partial.unlink(missing_ok=True)
        raise RuntimeError(f"guile could not compile {SHIM}: {done.stderr.strip()[-2000:]}")
    os.replace(partial, target)
    return target


def card_from_aisleriot(rank: int, suit: int) -> Card:
    """The card for AisleRiot's (rank, suit) numbers; rank 14 is an ace in ace-high games."""
    return Card(Rank(1 if rank == 14 else rank), _SUITS[suit])


#: A player action in AisleRiot's terms: ``("drag", from_slot, n_cards, to_slot)``,
#: ``("click", slot)`` or ``("dclick", slot)`` (the double-click lambda alone).
Action = tuple


@dataclass(frozen=True, slots=True)
class Look:
    """What the reference shows after a step: every slot ``(slot_id, type, cards)`` as in
    :meth:`AisleRiotGame.typed_slots`, the score, the game state, and every legal action.

    ``result`` is the shim's answer to the action just performed (``None`` for a plain look):
    ``"moved droppable=t"``, ``"refused droppable=f"``, ``"refused-press"``, ``"t"`` or ``"f"``.
    """

    slots: tuple
    score: int
    state: str
    actions: frozenset
    result: str | None = None


def pile_map(typed_slots: Iterable[tuple], pile_ids: Iterable[str], roles: Iterable[str]) -> dict[int, str]:
    """AisleRiot slot id -> our pile id: the n-th slot of a type is our n-th pile of that role.

    ``typed_slots`` as :meth:`AisleRiotGame.typed_slots` gives them; ``pile_ids`` and ``roles``
    (role words, ``Role.value``) are our piles in layout order. Raises ``ValueError`` when the
    two sides do not have the same number of piles of each role.
    """
    ours: dict[str, list[str]] = {}
    for pid, role in zip(pile_ids, roles):
        ours.setdefault(role, []).append(pid)
    out: dict[int, str] = {}
    for sid, kind, *_ in typed_slots:
        queue = ours.get(kind)
        if not queue:
            raise ValueError(f"AisleRiot slot {sid} ({kind}) has no pile of that role left on our side")
        out[sid] = queue.pop(0)
    left = [pid for queue in ours.values() for pid in queue]
    if left:
        raise ValueError(f"our piles without an AisleRiot slot: {', '.join(left)}")
    return out


def slot_pile_map(typed_slots: Iterable[tuple], slot_order: Sequence[str]) -> dict[int, str]:
    """AisleRiot slot id -> our pile id, by slot number: slot ``n`` is ``slot_order[n]``.

    ``slot_order`` is our pile ids in AisleRiot's slot order (``Ruleset.slot_order()``, from the
    ``slots`` numbers the rules page gives); the slot types play no part, so this works for games
    whose slots have no type (Golf, Scorpion: ``unknown``). Raises ``ValueError`` when the two
    sides do not have the same number of piles.
    """
    ids = [sid for sid, *_ in typed_slots]
    if sorted(ids) != list(range(len(ids))):
        raise ValueError(f"AisleRiot's slot ids are not 0 to {len(ids) - 1}: {ids}")
    if len(ids) != len(slot_order):
        raise ValueError(f"AisleRiot has {len(ids)} slots, our ruleset {len(slot_order)} piles "
                         f"({', '.join(slot_order)})")
    return {sid: slot_order[sid] for sid in ids}


@dataclass(frozen=True, slots=True)
class GameOption:
    """One entry of an AisleRiot game's Options menu (its ``get-options`` list).

    ``bit`` is the entry's bit in AisleRiot's options value (1, 2, 4 … in list order); ``group``
    numbers the group of radio buttons it belongs to (from 1), 0 for a check box; ``set`` is
    whether it is on.
    """

    name: str
    bit: int
    group: int
    set: bool


def _parse_slot(line: str) -> tuple[int, str, list[tuple[Card, bool]]]:
    words = line.split()
    cards = []
    for text in words[3:]:
        rank, suit, face = text.split(":")
        cards.append((card_from_aisleriot(int(rank), int(suit)), face == "u"))
    return int(words[1]), words[2], cards


class AisleRiotGame:
    """One AisleRiot game (``hamilton``, ``klondike``, ``forty-thieves`` …) started from ``seed``,
    in a guile process.

    The seed is handled as AisleRiot's "choose seed" does: ``g_rand_new_with_seed(seed)`` (the
    system GLib, through Guile's FFI), then ``new-game`` repeated while ``game-over`` says the
    new game cannot go on. Slot ids are AisleRiot's (creation order). ``options``, when given,
    names the entries of the game's Options menu to turn on (every other entry is turned off),
    e.g. ``("Three card deals",)`` for Klondike; they are set before the first deal and kept by
    :meth:`new_game` (see :meth:`set_options`). ``None`` keeps the game's defaults. After every
    action the delayed calls it asks for (automatic moves) run to their end before the answer.
    Use as a context manager, or call :meth:`close`. Raises :class:`HarnessMissing` when the
    reference is not set up, ``ValueError`` for unknown or conflicting option names, and
    ``RuntimeError`` when the guile side reports an error.
    """

    def __init__(self, game: str, seed: int, timeout: float = 60.0,
                 options: Iterable[str] | None = None) -> None:
        self.game = game
        self.timeout = timeout
        self.last_droppable: bool | None = None
        # stderr goes to a file: a pipe nobody reads could fill up and stall guile.
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
        self._proc = subprocess.Popen(
            ["guile-3.0", "--no-auto-compile", "-c", f"(load-compiled {_scheme_string(compiled_shim())})",
             str(guile_dir()), game],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
            text=True, env={**os.environ, "LC_ALL": "C.UTF-8", "GUILE_AUTO_COMPILE": "0"})
        try:
            with self._watchdog():
                first = self._read()
            if first != "ready":
                raise RuntimeError(f"AisleRiot {game}: guile did not start: {first!r} {self._errors()}")
            if options is not None:
                self.set_options(options)
            self.new_game(seed)
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """End the guile process."""
        if self._proc.poll() is None:
            try:
                assert self._proc.stdin is not None
                self._proc.stdin.write("quit\n")
                self._proc.stdin.flush()
                self._proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self._proc.kill()
                self._proc.wait()
        for stream in (self._proc.stdin, self._proc.stdout):
            if stream is not None:
                stream.close()
        self._stderr.close()

    def _errors(self) -> str:
        """What guile wrote to stderr so far (its last 2000 characters)."""
        self._stderr.flush()
        self._stderr.seek(0)
        return self._stderr.read().strip()[-2000:]

    @contextmanager
    def _watchdog(self) -> Iterator[None]:
        # A hung guile is killed after `timeout` seconds, which turns into the error in _read.
        # One timer per command, not per line: starting a thread costs more than a line.
        watchdog = threading.Timer(self.timeout, self._proc.kill)
        watchdog.start()
        try:
            yield
        finally:
            watchdog.cancel()

    def _read(self) -> str:
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            self._proc.wait()
            raise RuntimeError(f"AisleRiot {self.game}: guile exited: {self._errors()}")
        return line.rstrip("\n")

    def _command(self, command: str, multi: bool = False) -> list[str]:
        assert self._proc.stdin is not None
        self._proc.stdin.write(command + "\n")
        self._proc.stdin.flush()
        with self._watchdog():
            return self._answer(command, multi)

    def _answer(self, command: str, multi: bool) -> list[str]:
        lines = []
        while True:
            line = self._read()
            if line.startswith("error "):
                raise RuntimeError(f"AisleRiot {self.game}: {command!r} failed: {line[6:]}")
            if not multi:
                return [line]
            if line == "end":
                return lines
            lines.append(line)

    def new_game(self, seed: int) -> None:
        """Start game ``seed`` (``0 <= seed < 2**32``) afresh in the same process."""
        if not 0 <= seed < 2**32:
            raise ValueError(f"an AisleRiot seed is an unsigned 32-bit integer, not {seed}")
        self._command(f"new {seed}")

    def options(self) -> list[GameOption]:
        """The game's Options menu as :class:`GameOption` entries, in menu order ([] when it has none)."""
        out = []
        for line in self._command("options", multi=True):
            head, bit, kind, group, on, name = line.split(" ", 5)
            if head != "option" or kind not in ("check", "radio"):
                raise RuntimeError(f"AisleRiot {self.game}: unexpected option line {line!r}")
            out.append(GameOption(name, int(bit), int(group), on == "t"))
        return out

    def set_options(self, names: Iterable[str]) -> int:
        """Turn on the options ``names`` and every other one off, as choosing them in AisleRiot's
        Options menu does (``apply-options`` with the changed ``get-options`` list).

        AisleRiot deals afresh after a change: call :meth:`new_game` next. Returns AisleRiot's
        options value (the bits of the options now on). Raises ``ValueError`` naming the game's
        options when a name is unknown, or when a group of radio buttons would not have exactly
        one entry on.
        """
        wanted = list(names)
        menu = self.options()
        known = {opt.name: opt for opt in menu}
        unknown = [n for n in wanted if n not in known]
        if unknown:
            raise ValueError(f"AisleRiot {self.game} has no option {unknown[0]!r}; its options: "
                             + (", ".join(repr(o.name) for o in menu) or "none"))
        for group in sorted({o.group for o in menu if o.group}):
            chosen = [o.name for o in menu if o.group == group and o.name in wanted]
            if len(chosen) != 1:
                choices = ", ".join(repr(o.name) for o in menu if o.group == group)
                raise ValueError(f"AisleRiot {self.game}: choose exactly one of {choices}, not {len(chosen)}")
        value = sum(known[n].bit for n in set(wanted))
        result = int(self._command(f"set-options {value}")[0])
        if result != value:
            raise RuntimeError(f"AisleRiot {self.game}: options value {result} after setting {value}")
        return result

    def slots(self) -> list[tuple[int, list[tuple[Card, bool]]]]:
        """Every slot as ``(slot_id, [(card, face_up), …])``, cards from bottom to top."""
        return [(sid, cards) for sid, _, cards in self.typed_slots()]

    def typed_slots(self) -> list[tuple[int, str, list[tuple[Card, bool]]]]:
        """Every slot as ``(slot_id, type, cards)``; ``type`` is AisleRiot's slot type word
        (``stock``, ``waste``, ``foundation``, ``tableau``, ``reserve``, ``chooser`` or ``unknown``)."""
        out = []
        for line in self._command("slots", multi=True):
            if not line.startswith("slot "):
                raise RuntimeError(f"AisleRiot {self.game}: unexpected slot line {line!r}")
            out.append(_parse_slot(line))
        return out

    def actions(self) -> frozenset:
        """Every legal player action now (see :data:`Action`), computed inside guile.

        Drags follow the board's protocol: for each slot and each card of it, ``button-pressed``
        with the cards from that one to the top; if it accepts, ``droppable?`` for every slot,
        with the lifted cards off their slot. Clicks and double-clicks are tried on every slot and
        undone; those that change the cards or the score are listed.
        """
        return self._look(self._command("actions", multi=True), None).actions

    def look(self) -> Look:
        """Slots, score, state and legal actions in one round trip."""
        return self._look(self._command("look", multi=True), None)

    def step(self, action: Action) -> Look:
        """Perform ``action`` as the board does it (a drag through press, ``droppable?`` and
        ``button-released``; a click or double-click with the end-of-game test after it), run
        delayed calls, and return the :class:`Look` after it in the same round trip."""
        lines = self._command("step " + " ".join(str(x) for x in action), multi=True)
        if not lines or not lines[0].startswith("result "):
            raise RuntimeError(f"AisleRiot {self.game}: unexpected answer to {action!r}: {lines[:1]!r}")
        return self._look(lines[1:], lines[0][7:])

    def _look(self, lines: list[str], result: str | None) -> Look:
        slots, actions = [], set()
        score, state = 0, ""
        for line in lines:
            head, _, rest = line.partition(" ")
            if head == "slot":
                slots.append(_parse_slot(line))
            elif head == "score":
                score = int(rest)
            elif head == "state":
                state = rest
            elif head == "drag":
                a, n, b = rest.split()
                actions.add(("drag", int(a), int(n), int(b)))
            elif head in ("click", "dclick"):
                actions.add((head, int(rest)))
            else:
                raise RuntimeError(f"AisleRiot {self.game}: unexpected line {line!r}")
        return Look(tuple(slots), score, state, frozenset(actions), result)

    def playouts(self, seeds: Iterable[int], steps: int, rng_seed: int = 1) -> tuple[int, float]:
        """Random playouts timed inside guile: for each seed a new game, then up to ``steps``
        actions, each drawn uniformly (guile's ``random`` from ``rng_seed``) from the full legal
        action list, until the game is won or over. Returns (actions played, seconds spent in the
        playout loops, dealing not counted)."""
        reply = self._command(f"playouts {steps} {rng_seed} " + " ".join(str(s) for s in seeds))[0]
        n, secs = reply.split()
        return int(n), float(secs)

    def drag(self, from_slot: int, n_cards: int, to_slot: int) -> bool:
        """Drag the top ``n_cards`` of ``from_slot`` onto ``to_slot``, as AisleRiot's board does.

        Calls ``button-pressed`` with the lifted cards; if it accepts, lifts them off, asks
        ``droppable?`` (kept in :attr:`last_droppable`, ``None`` when the press was refused), and
        drops with ``button-released``. Returns whether the cards moved; a refused drop puts
        them back. After a move the end of game is tested as AisleRiot does.
        """
        reply = self._command(f"drag {from_slot} {n_cards} {to_slot}")[0]
        if reply == "refused-press":
            self.last_droppable = None
            return False
        outcome, dropp = reply.split()
        self.last_droppable = dropp == "droppable=t"
        return outcome == "moved"

    def click(self, slot: int) -> bool:
        """A single click on ``slot`` (``button-clicked``); true when the game did something.

        A real double click in AisleRiot is a click followed by :meth:`double_click`.
        """
        return self._command(f"click {slot}")[0] == "t"

    def double_click(self, slot: int) -> bool:
        """The second click of a double click on ``slot`` (``button-double-clicked``)."""
        return self._command(f"dclick {slot}")[0] == "t"

    def deal(self) -> None:
        """The Deal command (``do-deal-next-cards``), for games that define it."""
        self._command("deal")

    def pending_call(self) -> bool:
        """Whether a delayed call is waiting (never, between commands: each runs them to their end)."""
        return self._command("pending")[0] == "t"

    def score(self) -> int:
        """The score as AisleRiot shows it."""
        return int(self._command("score")[0])

    def state(self) -> str:
        """``begin``, ``running``, ``over`` or ``won`` (AisleRiot's game states)."""
        return self._command("state")[0]

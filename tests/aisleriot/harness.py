"""Drives GNOME AisleRiot's compiled game rules under guile-3.0, as a behavioural reference for tests.

``scripts/aisleriot-reference.sh`` unpacks the Debian package ``aisleriot`` into a cache folder;
``shim.scm`` (next to this file) stands in for AisleRiot's C side and speaks a line protocol on a
guile subprocess. Test code only: the package never imports this.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Self

from patiencebook.engine.cards import Card, Rank, Suit

__all__ = ["HarnessMissing", "AisleRiotGame", "cache_dir", "guile_dir", "SETUP_COMMAND",
           "card_from_aisleriot"]

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


def card_from_aisleriot(rank: int, suit: int) -> Card:
    """The card for AisleRiot's (rank, suit) numbers; rank 14 is an ace in ace-high games."""
    return Card(Rank(1 if rank == 14 else rank), _SUITS[suit])


class AisleRiotGame:
    """One AisleRiot game (``hamilton``, ``agnes``, ``eagle-wing`` …) started from ``seed``, in a guile process.

    The seed is handled as AisleRiot's "choose seed" does: ``g_rand_new_with_seed(seed)`` (the
    system GLib, through Guile's FFI), then ``new-game`` repeated while ``game-over`` says the
    new game cannot go on. Slot ids are AisleRiot's (creation order). Use as a context manager,
    or call :meth:`close`. Raises :class:`HarnessMissing` when the reference is not set up and
    ``RuntimeError`` when the guile side reports an error.
    """

    def __init__(self, game: str, seed: int, timeout: float = 60.0) -> None:
        self.game = game
        self.timeout = timeout
        self.last_droppable: bool | None = None
        # stderr goes to a file: a pipe nobody reads could fill up and stall guile.
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
        self._proc = subprocess.Popen(
            ["guile-3.0", "--no-auto-compile", "-s", str(SHIM), str(guile_dir()), game],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
            text=True, env={**os.environ, "LC_ALL": "C.UTF-8", "GUILE_AUTO_COMPILE": "0"})
        try:
            first = self._read()
            if first != "ready":
                raise RuntimeError(f"AisleRiot {game}: guile did not start: {first!r} {self._errors()}")
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

    def _read(self) -> str:
        assert self._proc.stdout is not None
        # A hung guile is killed after `timeout` seconds, which turns into the error below.
        watchdog = threading.Timer(self.timeout, self._proc.kill)
        watchdog.start()
        try:
            line = self._proc.stdout.readline()
        finally:
            watchdog.cancel()
        if not line:
            self._proc.wait()
            raise RuntimeError(f"AisleRiot {self.game}: guile exited: {self._errors()}")
        return line.rstrip("\n")

    def _command(self, command: str, multi: bool = False) -> list[str]:
        assert self._proc.stdin is not None
        self._proc.stdin.write(command + "\n")
        self._proc.stdin.flush()
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

    def slots(self) -> list[tuple[int, list[tuple[Card, bool]]]]:
        """Every slot as ``(slot_id, [(card, face_up), …])``, cards from bottom to top."""
        return [(sid, cards) for sid, _, cards in self.typed_slots()]

    def typed_slots(self) -> list[tuple[int, str, list[tuple[Card, bool]]]]:
        """Every slot as ``(slot_id, type, cards)``; ``type`` is AisleRiot's slot type word
        (``stock``, ``waste``, ``foundation``, ``tableau``, ``reserve``, ``chooser`` or ``unknown``)."""
        out = []
        for line in self._command("slots", multi=True):
            words = line.split()
            if words[0] != "slot":
                raise RuntimeError(f"AisleRiot {self.game}: unexpected slot line {line!r}")
            cards = []
            for text in words[3:]:
                rank, suit, face = text.split(":")
                cards.append((card_from_aisleriot(int(rank), int(suit)), face == "u"))
            out.append((int(words[1]), words[2], cards))
        return out

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

    def score(self) -> int:
        """The score as AisleRiot shows it."""
        return int(self._command("score")[0])

    def state(self) -> str:
        """``begin``, ``running``, ``over`` or ``won`` (AisleRiot's game states)."""
        return self._command("state")[0]

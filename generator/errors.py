"""The generator's exception family.

Every error a user can cause (a bad source, a bad catalog, an unknown language, a failed build)
is one of these, so the command line prints one clean ``file:line: message`` and exits non-zero.
"""

from __future__ import annotations

from pathlib import Path


class PatienceBookError(Exception):
    """Base of every error the generator reports to a user.

    Attributes:
        file: the file at fault, or ``None`` when no file is involved.
        line: 1-based line in ``file``, or ``None`` when unknown.
        message: what is wrong, one sentence, no trailing period needed.
    """

    def __init__(self, message: str, file: str | Path | None = None, line: int | None = None):
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        super().__init__(self.__str__())

    def __reduce__(self):
        # Pickled with its parts (a worker process sends its errors back), not its whole text.
        return type(self), (self.message, self.file, self.line)

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: "
        return f"{where}{self.message}"


class SourceError(PatienceBookError):
    """A DocBook rule source is malformed, unsafe or inconsistent (file and line of the fault)."""


class CatalogError(PatienceBookError):
    """A gettext catalog (PO, POT or MO) cannot be read or written (file and line of the fault)."""


class LanguageError(PatienceBookError):
    """A language code is unknown or not supported by the project's language table."""


class BuildError(PatienceBookError):
    """Rendering the site failed; the previous site is left as it was."""

"""The ``patiencebook`` command: ``python -m patiencebook``, and the installed ``patiencebook`` script.

The command line itself is :mod:`patiencebook.generator.cli`; importing it takes a moment, and Ctrl-C
meanwhile ends the command as Ctrl-C later does (exit status 130, one line), not with a traceback.
"""

import importlib
import sys


def main() -> int:
    """Run the command line with ``sys.argv``; returns the exit status."""
    try:
        from patiencebook.generator.processes import signals_held

        with signals_held():
            # lxml's module set-up drops an exception raised while it runs, so a Ctrl-C that came
            # then went unnoticed: it is imported with Ctrl-C held back, which arrives just after.
            importlib.import_module("lxml.etree")
        from patiencebook.generator.cli import main as command_line
    except KeyboardInterrupt:
        print("patiencebook: interrupted", file=sys.stderr)
        return 130
    return command_line()


if __name__ == "__main__":
    sys.exit(main())

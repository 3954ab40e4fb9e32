"""The ``patiencebook`` command: ``python -m patiencebook``, and the installed ``patiencebook`` script.

The command line itself is :mod:`patiencebook.generator.cli`; importing it takes a moment, and Ctrl-C
meanwhile ends the command as Ctrl-C later does (exit status 130, one line), not with a traceback.
The process then ends without Python's clean-up of every object it holds (see :func:`run`).
"""

import atexit
import importlib
import os
import sys
import threading


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


def run() -> None:
    """The command's entry point: :func:`main`, then the end of the process with its exit status.

    At a normal exit Python frees every object the process holds, one by one: 43 to 69 ms after a
    check of AisleRiot's three catalogs, up to a tenth of the command's time, for memory the system
    takes back at once anyway. So once the command is done, the functions registered with
    :mod:`atexit` run (the lemma file is written there), standard output and error are flushed, and
    the process ends with :func:`os._exit`. Output that cannot be written then (a full disk) is said
    in one line on standard error, and a command that had succeeded ends with status 120, as
    Python's exit gives. A process still running other threads or child processes exits as Python
    does, which waits for them."""
    status = main()
    run_exit_functions = getattr(atexit, "_run_exitfuncs", None)  # CPython's, as its exit runs them
    if run_exit_functions is None or threading.active_count() > 1 or _has_children():
        sys.exit(status)
    run_exit_functions()
    for name, stream in (("output", "stdout"), ("error", "stderr")):
        try:
            getattr(sys, stream).flush()
        except (OSError, ValueError) as error:  # a full disk, a closed stream: said, as Python's exit says it
            status = status or 120  # the status Python's own exit gives then
            reason = getattr(error, "strerror", None) or str(error)
            try:
                os.write(2, f"patiencebook: error: cannot write to standard {name}: {reason}\n".encode())
            except OSError:
                pass
    os._exit(status)


def _has_children() -> bool:
    """Whether a process started with :mod:`multiprocessing` is still running (only asked once the
    module was imported)."""
    multiprocessing = sys.modules.get("multiprocessing")
    return multiprocessing is not None and bool(multiprocessing.active_children())


if __name__ == "__main__":
    run()

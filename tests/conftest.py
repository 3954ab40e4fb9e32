"""Settings for the whole test session."""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading

import pytest

# The checks keep simplemma's lemmas between runs (generator/check/lemmas.py); the tests keep
# theirs in a folder of their own, not in the user's cache.
os.environ.setdefault("PATIENCEBOOK_CACHE_DIR", tempfile.mkdtemp(prefix="patiencebook-test-cache-"))


@pytest.fixture
def another_thread():
    """A context manager: within it a second thread of this process runs (waiting), ended after."""
    @contextlib.contextmanager
    def running():
        stop = threading.Event()
        thread = threading.Thread(target=stop.wait)
        thread.start()
        try:
            yield thread
        finally:
            stop.set()
            thread.join()
    return running

"""Settings for the whole test session."""

from __future__ import annotations

import os
import tempfile

# The checks keep simplemma's lemmas between runs (generator/check/lemmas.py); the tests keep
# theirs in a folder of their own, not in the user's cache.
os.environ.setdefault("PATIENCEBOOK_CACHE_DIR", tempfile.mkdtemp(prefix="patiencebook-test-cache-"))

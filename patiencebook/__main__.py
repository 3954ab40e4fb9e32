"""``python -m patiencebook``: the ``patiencebook`` command."""

import sys

from patiencebook.generator.cli import main

sys.exit(main())

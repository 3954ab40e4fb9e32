# The two entry points of the README. Each one sets up what it needs first.
.PHONY: site test

site:
	bash scripts/setup.sh site
	.venv/bin/patiencebook build

test:
	bash scripts/setup.sh test
	.venv/bin/python -m pytest

"""Sphinx extension: renders translated DocBook pages with a language switcher and search."""

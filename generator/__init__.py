"""Reads DocBook rule sources and gettext catalogs, and renders translated help."""

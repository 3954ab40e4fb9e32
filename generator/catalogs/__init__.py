"""Stage 2, gettext catalogs: reading PO files strictly (``pofile``), finding them in a catalogs
folder (``discovery``), merging a POT into them (``merge``), writing the POT (``pot``), applying
translations to the document block by block (``translate``) and deriving ``sr@latin`` from ``sr``
(``transliterate``).

The names most callers need are importable from here.
"""

from patiencebook.generator.catalogs.discovery import (CatalogFolder, CatalogWarning, catalog_layouts,
                                                       discover_catalogs, find_catalogs, read_linguas)
from patiencebook.generator.catalogs.merge import (CatalogUpdate, FuzzyGuess, detect_width, merge_catalog,
                                                   merge_catalogs, update_catalog, update_catalogs)
from patiencebook.generator.catalogs.pofile import MAX_CATALOG_BYTES, read_catalog, scrub_flags

__all__ = ["MAX_CATALOG_BYTES", "CatalogFolder", "CatalogUpdate", "CatalogWarning", "FuzzyGuess", "catalog_layouts",
           "detect_width", "discover_catalogs", "find_catalogs", "merge_catalog", "merge_catalogs", "read_catalog",
           "read_linguas", "scrub_flags", "update_catalog", "update_catalogs"]

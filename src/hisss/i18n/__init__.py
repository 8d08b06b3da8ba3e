"""Translations for the front ends: message catalogs, colour and card names, colour-blind letters
and symbols, the rules summary and the explanation of a result, in English and Polish.

The text lives in plain JSON files of this package (one per language, plus ``symbols.json``), read
with :mod:`importlib.resources`: it is the only source of the words, colour names, letters and
symbols of both front ends (the terminal game reads it here; the server sends it to the browser
with :func:`web_catalog`). This package imports only :mod:`hisss.core` and the standard library.

>>> from hisss.core import Colour
>>> catalog = get_catalog(detect_language({"LANG": "pl_PL.UTF-8"}))
>>> catalog.colour_name(Colour.YELLOW), catalog.colour_letter(Colour.YELLOW), symbol(Colour.YELLOW)
('żółty', 'Ż', '★')
"""

from hisss.i18n.catalog import (
    DEFAULT_LANGUAGE,
    LANGUAGE_VARIABLES,
    LANGUAGES,
    PLURAL_FORMS,
    Catalog,
    detect_language,
    get_catalog,
    placeholders,
    plural_form,
    read_catalog_data,
    symbol,
    symbol_path,
    web_catalog,
)
from hisss.i18n.explain import explain_everywhere, explain_result

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANGUAGE_VARIABLES",
    "PLURAL_FORMS",
    "Catalog",
    "detect_language",
    "explain_everywhere",
    "explain_result",
    "get_catalog",
    "placeholders",
    "plural_form",
    "read_catalog_data",
    "symbol",
    "symbol_path",
    "web_catalog",
]

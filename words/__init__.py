"""The words every layer shows, in Ukrainian and English (docs/architecture.md §8): the catalogue
(`words/catalogue/`) and `tr` with its plural rules (`words/i18n.py`).

A base layer: the homes in `faces/` and the toolkit in `rendering/` name their sentences by key
without reaching up into the session layer, so this package imports nothing of the project but
itself (`tests/words/test_layers.py` checks it, with what `faces/` and `rendering/` import).
"""

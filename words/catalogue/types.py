"""What a catalogue entry is: one sentence, or its plural forms (English two, Ukrainian three)."""

from __future__ import annotations

Entry = str | tuple[str, ...]

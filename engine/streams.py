"""What a match draws from its seed, each by its own one-way derivation.

A match's hidden information (Race's decks, Robot Game's damage rolls and spawns, Cave's
creatures and cavern, Arena's placements and victims) is as hidden as the seed is
unguessable. So nothing draws from the seed itself: each purpose gets its own generator,
seeded with HMAC-SHA256(seed, purpose), and each bot gets its own key the same way
(`bot_key`), which is all of the seed that ever crosses into a sandbox child. Knowing one
stream's numbers, or a bot's own key, tells nothing of the seed or of any other stream
(docs/security.md, "A bot learns only what the rules show").
"""
from __future__ import annotations

import hashlib
import hmac
import random


def derive(seed: int, *purpose: object) -> bytes:
    """32 bytes for one purpose of the match: HMAC-SHA256 keyed by the seed, of the
    purpose's parts joined by ':' (`derive(7, "deck", 2)`)."""
    return hmac.new(str(seed).encode(), ":".join(map(str, purpose)).encode(),
                    hashlib.sha256).digest()


def stream(seed: int, *purpose: object) -> random.Random:
    """The match's generator for one purpose, seeded from `derive(seed, *purpose)`."""
    return random.Random(derive(seed, *purpose))


def bot_key(seed: int, ai: int, ais: int) -> str:
    """What the AI of index `ai` (of `ais` in the match) gets in place of the seed, as 64
    hex digits: its bot side seeds the bot's `random` from it. The count of AIs is part
    of it, so an attempt after an erase (fewer AIs) hands no AI a key another had."""
    return derive(seed, "bot", ai, ais).hex()

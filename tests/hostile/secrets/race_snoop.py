"""A Race bot that hunts the match seed in its own process (gc, its call stack, random's
pending seed) and, from any seed it finds, predicts its opponents' first hands: every
deck shuffled as the engine did before (Random(f"{seed}:deck:{i}")) and as it does now
(HMAC-SHA256 of the seed and "deck:i"). It also tries the small seeds a user might give
(0 to 4095) against its own key. It prints what it found, for the test to read."""
import gc
import hashlib
import hmac
import random
import sys

DECK = {"M1": 3, "M2": 2, "M3": 2, "RT": 3, "LT": 3, "UT": 3, "MB": 2, "Ag": 2}
SMALL = 4096
found = {"seeds": set(), "key": None, "ai": None}


def _derive(seed, *purpose):
    return hmac.new(str(seed).encode(), ":".join(map(str, purpose)).encode(),
                    hashlib.sha256).digest()


def _look(obj):
    """Any seed, key, AI index or line-up this object holds."""
    d = obj if type(obj) is dict else getattr(obj, "__dict__", None)
    if type(d) is not dict:
        return
    for name in ("seed", "_seed", "match_seed"):
        if type(d.get(name)) is int:
            found["seeds"].add(d[name])
    if type(d.get("key")) is str and len(d["key"]) == 64:
        found["key"] = d["key"]
    if type(d.get("ai")) is int and ("key" in d or "seed" in d):
        found["ai"] = d["ai"]                           # the runtime, or its start frame


def snoop(n):
    for obj in gc.get_objects():
        try:
            _look(obj)
        except Exception:
            pass
    frame = sys._getframe()
    while frame is not None:
        for value in list(frame.f_locals.values()):
            try:
                _look(value)
            except Exception:
                pass
        frame = frame.f_back
    pending = getattr(random._inst, "_pending", None)     # the runtime's lazy seed
    if type(pending) is str and pending.split(":")[0].lstrip("-").isdigit():
        found["seeds"].add(int(pending.split(":")[0]))
    if found["key"] and found["ai"] is not None:
        for seed in range(SMALL):                        # a user's small --seed
            if _derive(seed, "bot", found["ai"], n).hex() == found["key"]:
                found["seeds"].add(seed)


def hands(seed, seat):
    """Seat's first hand under the old and the new derivation of its deck's stream."""
    out = []
    for rng in (random.Random(f"{seed}:deck:{seat}"), random.Random(_derive(seed, "deck", seat))):
        deck = [card for card, n in DECK.items() for _ in range(n)]
        rng.shuffle(deck)
        out.append(deck[:9])
    return out


def bot(round, order, position, score, cards, bots, factory):
    if round == 0:
        snoop(len(bots) + 1)
        print("SEEDS", sorted(found["seeds"]), "AI", found["ai"])
        return "E"
    if round == 1:
        for seed in sorted(found["seeds"]):
            for seat in range(len(bots) + 1):
                if seat != found["ai"]:
                    for hand in hands(seed, seat):
                        print("PREDICT", seat, " ".join(hand))
    return [c for c in cards if c != "Ag"][:5]

"""Thinker: a greedy racer, thinking aloud (`import marks`). Each register it plays the card
that brings it closest to its next checkpoint, skipping Move 2 and 3; it notes its plan,
dots the checkpoint and draws a line to it (its owner sees them in the viewer)."""
import marks

STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
HEADINGS = "NESW"
TURNS = {"RT": 1, "LT": -1, "UT": 2}


def find(factory, mark):
    for y, row in enumerate(factory):
        for x, cell in enumerate(row):
            if cell.strip() == mark:
                return x, y
    return 0, 0


def bot(round, order, position, score, cards, bots, factory):
    width, height = len(factory[0]), len(factory)
    gx, gy = find(factory, "C2" if score else "C1")
    if round == 0:
        x, y = position[0], position[1]
        return "E" if gx > x else "S" if gy > y else "N"
    x, y, d = position
    marks.dot((gx, gy), "yellow")
    marks.line((x, y), (gx, gy), "yellow")
    hand, plan = list(cards), []
    for _ in range(5):
        best = None
        for card in sorted(set(hand) - {"M2", "M3", "Ag", "Sp"}):
            nx, ny, nd = x, y, d
            if card in TURNS:
                nd = HEADINGS[(HEADINGS.index(d) + TURNS[card]) % 4]
            else:
                dx, dy = STEP[d]
                sign = -1 if card == "MB" else 1
                nx, ny = x + sign * dx, y + sign * dy
                if not (0 < nx < width - 1 and 0 < ny < height - 1):
                    continue
            fx, fy = STEP[nd]
            value = abs(gx - nx) + abs(gy - ny) - 0.5 * ((gx - nx) * fx + (gy - ny) * fy > 0)
            if best is None or value < best[0]:
                best = (value, card, nx, ny, nd)
        if best is None:
            break
        _, card, x, y, d = best
        hand.remove(card)
        plan.append(card)
    marks.note(f"round {round}: checkpoint at {gx},{gy}, plan {' '.join(plan) or 'none'}")
    return plan

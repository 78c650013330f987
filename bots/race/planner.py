"""Planner: the strong sample. It simulates its own five registers on the factory it is
given (belts, corners, double belts, pushing the bots it can see, falling off and
rebooting) and picks, register by register, the card that leaves it closest to its next
checkpoint."""

STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
HEADINGS = "NESW"
ARROWS = {"^": "N", ">": "E", "v": "S", "<": "W"}
MOVES = {"M1": 1, "M2": 2, "M3": 3}
TURNS = {"RT": 1, "LT": -1, "UT": 2}


def read_factory(factory):
    """Belts {square: (heading, double, turn)}, checkpoints, antenna, reboot square."""
    belts, marks = {}, {}
    for y, row in enumerate(factory):
        for x, cell in enumerate(row):
            text = cell.strip()
            if text in ("C1", "C2", "PA"):
                marks[text] = (x, y)
            elif text[:1] == "*":
                marks["reboot"] = (x, y)
            elif len(text) == 1 and text in ARROWS:
                belts[(x, y)] = (ARROWS[text], False, 0)
            elif len(text) == 2 and text[1] in ARROWS:
                turn = {"r": 1, "l": -1, "R": 1}.get(text[0], 0)
                double = text[0] == "R" or text[0] == text[1]
                belts[(x, y)] = (ARROWS[text[1]], double, turn)
    return {"belts": belts, "w": len(factory[0]), "h": len(factory), **marks}


def turn(d, quarters):
    return HEADINGS[(HEADINGS.index(d) + quarters) % 4]


def inside(board, x, y):
    return 0 <= x < board["w"] and 0 <= y < board["h"]


def step(board, state, heading, others):
    """One square along `heading`, pushing a chain of bots; None if it fell off."""
    x, y, d = state
    dx, dy = STEP[heading]
    chain, cx, cy = [], x + dx, y + dy
    while (cx, cy) in others:
        chain.append((cx, cy))
        cx, cy = cx + dx, cy + dy
    if (x + dx, y + dy) == board["PA"] or (cx, cy) == board["PA"]:
        return state
    for square in reversed(chain):
        others.discard(square)
        if inside(board, square[0] + dx, square[1] + dy):
            others.add((square[0] + dx, square[1] + dy))
    if not inside(board, x + dx, y + dy):
        return None
    return x + dx, y + dy, d


def carry(board, state, others):
    """Belts move this bot (the others are assumed to stay put)."""
    belts = board["belts"]
    steps = 0
    if state[:2] in belts:
        steps = 2 if belts[state[:2]][1] else 1
    for _ in range(steps):
        x, y, d = state
        if (x, y) not in belts:
            break
        heading = belts[(x, y)][0]
        dx, dy = STEP[heading]
        nx, ny = x + dx, y + dy
        if (nx, ny) in others or (nx, ny) == board["PA"]:
            break
        if not inside(board, nx, ny):
            return None
        if (nx, ny) in belts and belts[(nx, ny)][2]:
            d = turn(d, belts[(nx, ny)][2])
        state = (nx, ny, d)
    return state


def play(board, state, card, others):
    if card in TURNS:
        return state[0], state[1], turn(state[2], TURNS[card])
    if card in MOVES:
        for _ in range(MOVES[card]):
            state = step(board, state, state[2], others)
            if state is None:
                return None
        return state
    if card == "MB":
        return step(board, state, turn(state[2], 2), others)
    return state


def cost(board, state, scored):
    if state is None:
        return 1000
    goal = board["C2"] if scored else board["C1"]
    dx, dy = goal[0] - state[0], goal[1] - state[1]
    facing = STEP[state[2]]
    toward = facing[0] * dx + facing[1] * dy > 0
    return 10 * (abs(dx) + abs(dy)) + (0 if toward else 3)


def bot(round, order, position, score, cards, bots, factory):
    board = read_factory(factory)
    if round == 0:
        return min(HEADINGS, key=lambda d: cost(board, (position[0], position[1], d), False))
    others = {(x, y) for x, y, _ in bots}
    state, scored, last = tuple(position), score, None
    left, chosen = list(cards), []
    for _ in range(5):
        best = None
        for card in sorted(set(left)):
            move = last if card == "Ag" else card
            if card == "Sp":
                move = None
            pushed = set(others)
            after = play(board, state, move, pushed)
            if after is not None:
                after = carry(board, after, pushed)
            score_after = scored or (after is not None and after[:2] == board["C1"])
            value = cost(board, after, score_after) + (5 if card == "Sp" else 0)
            if best is None or value < best[0]:
                best = (value, card, move, after, pushed, score_after)
        _, card, move, after, pushed, scored = best
        chosen.append(card)
        left.remove(card)
        if after is None:                      # it would fall: the rest does not matter
            break
        state, others, last = after, pushed, move
    return chosen

# Coordinator: plans the whole team once per turn. Robots leave spawn squares before a
# spawn, focus fire on the weakest enemies, swing at squares an enemy is about to enter,
# blow up when they would die anyway, and never walk into each other.
import rg

OPEN = ('invalid', 'obstacle')


class Robot:
    plan_turn = None
    plan = {}

    def act(self, game):
        if Robot.plan_turn != game.turn:
            Robot.plan_turn = game.turn
            Robot.plan = make_plan(game, self.player_id)
        return Robot.plan.get(self.location, ['guard'])


def enemies_next_to(loc, game, me):
    return [n for n in rg.locs_around(loc, filter_out=OPEN)
            if n in game.robots and game.robots[n].player_id != me]


def make_plan(game, me):
    mine = sorted((bot for bot in game.robots.values() if bot.player_id == me),
                  key=lambda bot: (bot.hp, bot.location))
    enemies = [bot for bot in game.robots.values() if bot.player_id != me]
    spawning = game.turn % rg.settings.spawn_every == 0
    plan, taken, hits = {}, set(), {}
    # Robots that will stay put hold their squares; movers claim their destination.
    for bot in mine:
        loc = bot.location
        near = enemies_next_to(loc, game, me)
        if spawning and 'spawn' in rg.loc_types(loc):
            continue                                  # must move: planned below
        if len(near) >= 2 and bot.hp <= 10 * len(near) or near and bot.hp <= 8 and \
                len(near) * 10 >= bot.hp:
            plan[loc] = ['suicide']
        elif near:
            target = min(near, key=lambda n: (game.robots[n].hp - hits.get(n, 0), n))
            hits[target] = hits.get(target, 0) + 9
            plan[loc] = ['attack', target]
        else:
            continue
        taken.add(loc)
    for bot in mine:
        loc = bot.location
        if loc in plan:
            continue
        must_leave = spawning and 'spawn' in rg.loc_types(loc)
        step = best_step(loc, game, me, enemies, taken, must_leave)
        if step is None:
            target = ambush(loc, game, me)
            plan[loc] = ['attack', target] if target else ['guard']
            taken.add(loc)
        else:
            plan[loc] = ['move', step]
            taken.add(step)
    return plan


def ambush(loc, game, me):
    """A square next to us that an enemy two steps away may step into."""
    for n in rg.locs_around(loc, filter_out=OPEN):
        if n not in game.robots and enemies_next_to(n, game, me):
            return n
    return None


def best_step(loc, game, me, enemies, taken, must_leave):
    """Where to go: toward the nearest enemy, or the center; None to stay."""
    goal = rg.CENTER_POINT
    if enemies:
        goal = min(enemies, key=lambda e: (rg.wdist(e.location, loc), e.location)).location
    choices = []
    for n in rg.locs_around(loc, filter_out=OPEN):
        if n in taken or (n in game.robots and game.robots[n].player_id == me):
            continue
        if n in game.robots:
            continue                                  # an enemy: do not bump into it
        types = rg.loc_types(n)
        if 'spawn' in types and game.turn % rg.settings.spawn_every in (0, 9):
            continue
        danger = len(enemies_next_to(n, game, me))
        if danger >= 2:
            continue
        choices.append((rg.wdist(n, goal), danger, n))
    if not choices:
        return None
    dist, danger, step = min(choices)
    if not must_leave and (dist >= rg.wdist(loc, goal) or rg.wdist(loc, goal) <= 1):
        return None
    return step

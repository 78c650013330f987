// Robot Game in the HTML replay viewer: the shared page (orchestrator/viewer/viewer.html)
// inlines this file and calls `renderer` with the replay; it returns how to draw the game.
function renderer({data, names, frames, square}) {
  const size = data.map.size;

  function pieces(frame) {
    const out = [];
    for (const row of frame.robots.values()) {
      out.push({id: row[0], player: row[1], r: row[3], c: row[2], hp: row[4]});
    }
    return out;
  }
  function describe(robot) {
    return `robot ${robot.id} of ${names[robot.player]}\nhp       ${robot.hp}\n` +
      `location (${robot.c}, ${robot.r})\nsight    the whole board (Robot Game)`;
  }
  function tally(frame) {
    const hp = names.map(() => 0);
    for (const robot of pieces(frame)) hp[robot.player] += robot.hp;
    return hp;
  }
  function floor(lctx, cell) {
    const spawn = new Set(data.map.spawn.map(([x, y]) => `${x},${y}`));
    const obstacle = new Set(data.map.obstacle.map(([x, y]) => `${x},${y}`));
    for (let x = 0; x < size; x++) for (let y = 0; y < size; y++) {
      const key = `${x},${y}`;
      lctx.fillStyle = obstacle.has(key) ? "#0b0c0f" : spawn.has(key) ? "#20402a" : "#2a2e37";
      lctx.fillRect(x * cell + 1, y * cell + 1, cell - 2, cell - 2);
    }
  }
  function over(ctx, turn, cell) {
    ctx.strokeStyle = "rgba(255,80,80,.8)"; ctx.lineWidth = 2;
    const at = new Map(pieces(frames[turn - 1]).map((r) => [r.id, r]));
    for (const [id, kind, tx, ty] of data.turns[turn - 1].events.actions || []) {
      const from = at.get(id);
      if (kind === "attack" && from) {
        ctx.beginPath(); ctx.moveTo(from.c * cell + cell / 2, from.r * cell + cell / 2);
        ctx.lineTo(tx * cell + cell / 2, ty * cell + cell / 2); ctx.stroke();
      }
    }
  }
  function log(turn) {
    const lines = [];
    const ev = data.turns[turn - 1].events;
    const counts = names.map(() => ({}));
    const before = new Map(pieces(frames[turn - 1]).map((r) => [r.id, r]));
    for (const [id, kind] of ev.actions) {
      const r = before.get(id);
      if (!r) continue;
      counts[r.player][kind] = (counts[r.player][kind] || 0) + 1;
    }
    counts.forEach((c, p) => {
      const parts = Object.entries(c).map(([m, n]) => `${n} ${m}`);
      if (parts.length) lines.push(`${names[p]}: ${parts.join(", ")}`);
    });
    for (const [id, what] of ev.faults || []) lines.push(`robot ${id}: ${what} (guarded)`);
    const after = new Map(pieces(frames[turn]).map((r) => [r.id, r]));
    for (const [id, r] of before) if (!after.has(id)) lines.push(`robot ${id} of ${names[r.player]} died`);
    for (const [id, r] of after) if (!before.has(id)) lines.push(`robot ${id} of ${names[r.player]} spawned`);
    return lines;
  }
  return {cols: size, rows: size, pieces, describe, tally, floor, seenTurns: true,
          piece: (ctx, robot, cell) => square(ctx, robot, cell, robot.hp), over, log,
          charts: ["robots alive", "total hp"],
          warned: (ev) => Boolean(ev.faults && ev.faults.length)};
}

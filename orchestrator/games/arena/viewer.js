// Robot Arena in the HTML replay viewer: the shared page (orchestrator/viewer/viewer.html)
// inlines this file and calls `renderer` with the replay; it returns how to draw the game.
function renderer({data, names, frames, disc}) {
  const size = data.map.size;
  const owner = new Map(data.map.owners);
  const FACING = "NESW";
  const MOVES = ["none", "LASER", "FORWARD", "FORWARD_TWO", "REVERSE", "SIDESTEP_LEFT",
                 "SIDESTEP_RIGHT", "TURN_LEFT", "TURN_RIGHT", "U_TURN"];
  const blocksAt = [];           // block index -> {r, c, kind, facing}
  for (const [index, r, c, kind, facing] of data.map.blocks) blocksAt[index] = {r, c, kind, facing};

  function pieces(frame) {
    const out = [];
    for (const row of frame.robots.values()) {
      if (row[7] === 0) out.push({id: row[0], player: owner.get(row[0]), r: row[1], c: row[2],
        facing: row[3], life: row[4], charges: row[5], flags: row[6]});
    }
    return out;
  }
  function describe(robot) {
    return `robot ${robot.id} of ${names[robot.player]}\nlife     ${robot.life}\n` +
      `flags    ${robot.flags}\ncharges  ${robot.charges}\nfacing   ${FACING[robot.facing]}\n` +
      `position row ${robot.r}, col ${robot.c}\nsight    the 11x11 square drawn on the board`;
  }
  function tally(frame) {
    const flags = names.map(() => 0);
    for (const row of frame.robots.values()) flags[owner.get(row[0])] += row[6];
    return flags;
  }
  function floor(lctx, cell) {
    const rows = data.map.rows;
    for (let r = 0; r < size; r++) {
      const line = rows[r] || "";
      for (let c = 0; c < size; c++) {
        const ch = line[c] || " ";
        const x = c * cell, y = r * cell;
        if (ch === "&") { lctx.fillStyle = "#000"; lctx.fillRect(x, y, cell, cell); }
        else if (ch === "{" || ch === "}") {
          lctx.fillStyle = "#2b3a4a"; lctx.fillRect(x, y, cell, cell);
          lctx.fillStyle = "#8fb3d9"; lctx.font = `${cell}px monospace`;
          lctx.fillText(ch === "{" ? "↺" : "↻", x, y + cell * 0.85);
        } else if (ch >= "1" && ch <= "9") {
          lctx.fillStyle = "#2d4a2d"; lctx.fillRect(x, y, cell, cell);
          lctx.fillStyle = "#b8f5b8"; lctx.font = `bold ${cell}px monospace`;
          lctx.fillText(ch, x + cell * 0.2, y + cell * 0.85);
        }
      }
    }
  }
  function under(ctx, frame, cell) {
    for (const [index, row] of frame.blocks) {
      const b = blocksAt[index];
      if (!b || row[1] <= 0) continue;
      const x = b.c * cell, y = b.r * cell;
      ctx.fillStyle = b.kind === "wall" ? "#6b6f78" : "#a33";
      ctx.fillRect(x, y, cell, cell);
      if (b.kind === "laser") {
        ctx.fillStyle = "#ffb3b3"; ctx.font = `${cell}px monospace`;
        ctx.fillText("▲▶▼◀"[b.facing], x, y + cell * 0.85);
      }
    }
    for (const row of frame.robots.values()) {          // corpses
      if (row[7] !== 1) continue;
      ctx.fillStyle = "#555"; ctx.fillRect(row[2] * cell + 1, row[1] * cell + 1, cell - 2, cell - 2);
    }
  }
  function over(ctx, turn, cell) {
    ctx.strokeStyle = "rgba(255,80,80,.7)"; ctx.lineWidth = Math.max(1, cell / 8);
    for (const [r1, c1, r2, c2] of data.turns[turn - 1].events.shots || []) {
      ctx.beginPath(); ctx.moveTo(c1 * cell + cell / 2, r1 * cell + cell / 2);
      ctx.lineTo(c2 * cell + cell / 2, r2 * cell + cell / 2); ctx.stroke();
    }
  }
  function chosen(ctx, robot, cell) {
    const reach = Math.floor(data.map.sight / 2);
    ctx.strokeStyle = "rgba(255,255,255,.55)"; ctx.setLineDash([4, 3]);
    ctx.strokeRect((robot.c - reach) * cell, (robot.r - reach) * cell,
                   data.map.sight * cell, data.map.sight * cell);
    ctx.setLineDash([]);
  }
  function log(turn) {
    const lines = [];
    const entry = data.turns[turn - 1];
    const ev = entry.events;
    const counts = names.map(() => ({}));
    for (const [id, code] of ev.moves) {
      const p = owner.get(id);
      counts[p][MOVES[code]] = (counts[p][MOVES[code]] || 0) + 1;
    }
    counts.forEach((c, p) => {
      const parts = Object.entries(c).map(([m, n]) => `${n} ${m}`);
      if (parts.length) lines.push(`${names[p]}: ${parts.join(", ")}`);
    });
    lines.push(`${ev.shots.length} laser shots, ${(ev.hits || []).length} hits`);
    for (const id of ev.pushed || []) lines.push(`robot ${id} of ${names[owner.get(id)]} was pushed`);
    for (const id of ev.overheats) lines.push(`OVERHEAT robot ${id} of ${names[owner.get(id)]}`);
    for (const id of ev.exploded) lines.push(`corpse of robot ${id} exploded`);
    for (const [id, flag] of ev.scored) lines.push(`robot ${id} of ${names[owner.get(id)]} took flag ${flag}`);
    for (const row of (entry.changed.robots || [])) {
      const before = frames[turn - 1].robots.get(row[0]);
      if (before && before[7] === 0 && row[7] !== 0) {
        lines.push(`robot ${row[0]} of ${names[owner.get(row[0])]} ${row[7] === 2 ? "fell" : "died"}`);
      }
    }
    return lines;
  }
  return {cols: size, rows: size, pieces, describe, tally, floor, under, piece: disc, over,
          chosen, log, charts: ["robots alive", "flags taken"],
          warned: (ev) => Boolean(ev.overheats && ev.overheats.length)};
}

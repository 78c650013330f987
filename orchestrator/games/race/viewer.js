// Race some Robots in the HTML replay viewer: the shared page (orchestrator/viewer/viewer.html)
// inlines this file and calls `renderer` with the replay; it returns how to draw the game.
function renderer({data, names, disc}) {
  const size = data.map.size;
  const ARROW = {N: "↑", E: "→", S: "↓", W: "←"};
  const FACING = "NESW";

  function pieces(frame) {
    const out = [];
    for (const row of frame.bots.values()) {
      out.push({id: row[0], player: row[0], r: row[2], c: row[1], facing: FACING.indexOf(row[3]),
        checkpoint: row[4], spam: row[5], reboots: row[6], hp: row[4]});
    }
    return out;
  }
  function describe(robot) {
    return `${names[robot.player]}\nC1       ${robot.checkpoint ? "scored" : "not yet"}\n` +
      `spam     ${robot.spam} in its deck\nreboots  ${robot.reboots}\n` +
      `facing   ${FACING[robot.facing]}\nposition (${robot.c}, ${robot.r})`;
  }
  function tally(frame) {
    const scored = names.map(() => 0);
    for (const robot of pieces(frame)) scored[robot.player] += robot.hp;
    return scored;
  }
  function floor(lctx, cell) {
    data.map.cells.forEach((line, y) => line.forEach((text, x) => {
      const t = text.trim(), px = x * cell, py = y * cell;
      lctx.fillStyle = "#2a2e37"; lctx.fillRect(px + 1, py + 1, cell - 2, cell - 2);
      if (!t) return;
      const arrows = {"^": "N", ">": "E", "v": "S", "<": "W"};
      let label = t, fill = "#2a2e37", ink = "#cfd3da";
      if (t === "C1" || t === "C2") { fill = "#2d4a2d"; ink = "#b8f5b8"; }
      else if (t === "PA") { fill = "#000"; ink = "#f5d76e"; }
      else if (t[0] === "*") { fill = "#4a2d4a"; ink = "#f0b8f0"; label = "⟳"; }
      else {
        const dir = arrows[t[t.length - 1]], double = t[0] === "R" || t[0] === t[1];
        fill = double ? "#1f3a5a" : "#3a4a2a"; ink = double ? "#9cc7ff" : "#c9e69c";
        label = (t[0] === "r" || t[0] === "R" ? "↻" : t[0] === "l" ? "↺" : "") +
          ARROW[dir] + (double && t[0] !== "R" ? ARROW[dir] : "");
      }
      lctx.fillStyle = fill; lctx.fillRect(px + 1, py + 1, cell - 2, cell - 2);
      lctx.fillStyle = ink; lctx.font = `${Math.floor(cell * 0.4)}px monospace`;
      lctx.fillText(label, px + 3, py + cell * 0.62);
    }));
  }
  function over(ctx, turn, cell) {
    ctx.strokeStyle = "rgba(255,80,80,.6)"; ctx.lineWidth = Math.max(1, cell / 10);
    for (const register of data.turns[turn - 1].events.registers || []) {
      for (const [x1, y1, x2, y2] of register.lasers) {
        ctx.beginPath(); ctx.moveTo(x1 * cell + cell / 2, y1 * cell + cell / 2);
        ctx.lineTo(x2 * cell + cell / 2, y2 * cell + cell / 2); ctx.stroke();
      }
    }
  }
  function log(turn) {
    const lines = [];
    const ev = data.turns[turn - 1].events;
    if (ev.facing) ev.facing.forEach((d, seat) => lines.push(`${names[seat]} faces ${d}`));
    (ev.registers || []).forEach((register, k) => {
      const cards = Object.entries(register.cards).map(([seat, card]) => `${names[seat]} ${card || "-"}`);
      lines.push(`register ${k + 1}: ${cards.join(", ")}`);
      for (const seat of register.reboots) lines.push(`  ${names[seat]} fell off and rebooted (+2 Spam)`);
    });
    return lines;
  }
  return {cols: size, rows: size, pieces, describe, tally, floor, piece: disc, over, log,
          charts: ["bots", "C1 scored"]};
}

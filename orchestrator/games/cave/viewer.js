// Cave Rangers in the HTML replay viewer: the shared page (orchestrator/viewer/viewer.html)
// inlines this file and calls `renderer` with the replay; it returns how to draw the game.
function renderer({data, names, frames, square}) {
  const size = data.map.size;
  const COLORS = {G: "#e8c547", F: "#4caf50", W: "#3f7fd9", R: "#c061cb", K: "#5fd3d3",
                  "}": "#5c5f66", P: "#000", L: "#e53935", C: "#ff8a65", B: "#9e9e9e",
                  N: "#ffffff"};
  // What each colour of the cavern means (the spec's symbols), under the board.
  const LEGEND = [["G", "gold"], ["F", "food"], ["W", "water"], ["R", "revealer"],
                  ["K", "knife"], ["}", "boulder"], ["P", "pit"], ["L", "lion"],
                  ["C", "centipede"], ["B", "bats"], ["N", "Nurse Nina"]];

  function pieces(frame) {
    const out = [];
    for (const row of frame.bots.values()) {
      if (row[5]) out.push({id: row[0], player: row[0], r: row[1], c: row[2], hp: row[3],
        gold: row[4], poison: row[6], stuck: row[7]});
    }
    return out;
  }
  function describe(robot) {
    return `${names[robot.player]}\nhealth   ${robot.hp}\ngold     ${robot.gold}\n` +
      `poison   ${robot.poison}\nstuck    ${robot.stuck}\nposition row ${robot.r}, col ${robot.c}`;
  }
  function tally(frame) {
    const gold = names.map(() => 0);
    for (const robot of pieces(frame)) gold[robot.player] += robot.gold;
    return gold;
  }
  // The squares change every turn: drawn with each frame, not on the floor. Boulders and
  // pits fill their square; a thing is its symbol in its colour on the cave's floor, never
  // a filled square, which is a bot (the water's blue is then no bot's blue).
  const FILLED = new Set(["}", "P"]);
  function under(ctx, frame, cell) {
    ctx.font = `bold ${cell}px monospace`;
    for (const [r, line] of frame.squares.values()) {
      for (let c = 0; c < line.length; c++) {
        const ch = line[c];
        if (ch === "-") continue;
        ctx.fillStyle = COLORS[ch] || "#444";
        if (FILLED.has(ch)) ctx.fillRect(c * cell + 1, r * cell + 1, cell - 2, cell - 2);
        else ctx.fillText(ch, c * cell + cell * 0.15, r * cell + cell * 0.85);
      }
    }
    const marks = [...frame.creatures.values()].map(([, kind, r, c]) => [kind, r, c]);
    for (const [, r, c] of (frame.nurse || new Map()).values()) marks.push(["N", r, c]);
    ctx.font = `bold ${cell}px monospace`;
    for (const [kind, r, c] of marks) {
      ctx.fillStyle = COLORS[kind];
      ctx.fillText(kind, c * cell + cell * 0.15, r * cell + cell * 0.85);
    }
  }
  function log(turn) {
    const lines = [];
    for (const [seat, answer] of data.turns[turn - 1].events.answers || []) {
      lines.push(`${names[seat]}: ${answer === null ? "no answer (two holds)" : answer}`);
    }
    const after = new Map(pieces(frames[turn]).map((r) => [r.id, r]));
    for (const r of pieces(frames[turn - 1])) {
      if (!after.has(r.id)) lines.push(`${names[r.player]} died`);
    }
    return lines;
  }
  return {cols: size, rows: size, pieces, describe, tally, floor: () => {}, under,
          piece: (ctx, robot, cell) => square(ctx, robot, cell, robot.hp), log,
          charts: ["bots alive", "gold"],
          legend: {items: LEGEND.map(([symbol, meaning]) => [COLORS[symbol], `${symbol} ${meaning}`]),
                   note: "things: their symbol; bots: a square in their player's colour, with its letter (zoomed in) or health"}};
}

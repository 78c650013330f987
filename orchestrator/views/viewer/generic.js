// The plain view, for a game without a renderer of its own: the static `grid` (rows of
// text) with a mark on every row of a frame table that has "x" and "y" columns (the
// static `columns` name them; the mark is its "player" number, if any), each table's rows,
// and the turn's events as a log. Every string is drawn as text, never as markup.
function renderer({data, frames, colors}) {
  const MAX_ROWS = 200;          // rows shown per table
  const grid = Array.isArray(data.map.grid) && data.map.grid.every((l) => typeof l === "string")
    ? data.map.grid : null;
  const columns = data.map.columns && typeof data.map.columns === "object" ? data.map.columns : {};
  const cols = grid ? Math.max(0, ...grid.map((line) => [...line].length)) : 0;
  const text = (value) => typeof value === "string" ? value : JSON.stringify(value);
  const named = (table) => Array.isArray(columns[table]) ? columns[table].map(text) : null;

  function pieces(frame) {
    const out = [];
    if (!grid) return out;
    for (const [table, rows] of Object.entries(frame)) {
      const heads = named(table);
      if (!heads) continue;
      const x = heads.indexOf("x"), y = heads.indexOf("y"), player = heads.indexOf("player");
      if (x < 0 || y < 0) continue;
      for (const row of rows.values()) {
        const c = row[x], r = row[y];
        if (!Number.isInteger(c) || !Number.isInteger(r) || c < 0 || r < 0 || c >= cols ||
            r >= grid.length) continue;
        out.push({id: `${table} ${text(row[0])}`, key: row[0],
                  player: player < 0 ? null : row[player],
                  r, c, table, row});
      }
    }
    return out;
  }
  function describe(piece) {
    const heads = named(piece.table);
    return [piece.id, ...piece.row.map((value, i) => `${heads[i] || i}: ${text(value)}`)].join("\n");
  }
  function floor(lctx, cell) {
    if (!grid) return;
    lctx.font = `${Math.floor(cell * 0.8)}px monospace`;
    grid.forEach((line, r) => [...line].forEach((ch, c) => {
      lctx.fillStyle = "#2a2e37"; lctx.fillRect(c * cell + 1, r * cell + 1, cell - 2, cell - 2);
      if (ch === " ") return;
      lctx.fillStyle = "#9aa0aa"; lctx.fillText(ch, c * cell + cell * 0.2, r * cell + cell * 0.8);
    }));
  }
  function piece(ctx, mark, cell) {
    const seated = Number.isInteger(mark.player);
    const x = mark.c * cell, y = mark.r * cell, half = cell / 2;
    ctx.fillStyle = seated ? colors[Math.abs(mark.player) % colors.length] : "#e6e6e6";
    ctx.beginPath(); ctx.arc(x + half, y + half, half * 0.85, 0, Math.PI * 2); ctx.fill();
    if (seated) {
      ctx.fillStyle = "#000"; ctx.font = `bold ${Math.floor(cell * 0.6)}px monospace`;
      ctx.fillText(String(mark.player % 10), x + cell * 0.3, y + cell * 0.72);
    }
  }
  function log(turn) {
    const events = data.turns[turn - 1].events;
    if (events === null || typeof events !== "object") return events === undefined ? [] : [text(events)];
    if (Array.isArray(events)) return events.map(text);
    const lines = [];
    for (const [key, value] of Object.entries(events)) {
      if (Array.isArray(value)) for (const item of value) lines.push(`${key}: ${text(item)}`);
      else lines.push(`${key}: ${text(value)}`);
    }
    return lines;
  }
  function tables(turn) {
    return Object.entries(frames[turn]).map(([table, rows]) => {
      const all = [...rows.values()];
      return {name: table, columns: named(table),
              rows: all.slice(0, MAX_ROWS).map((row) => row.map(text)),
              more: Math.max(0, all.length - MAX_ROWS)};
    });
  }
  return {cols, rows: grid ? grid.length : 0, pieces, describe, floor, piece, log, tables,
          charts: ["marks on the board"], noun: "mark", start: "The start.",
          panel: ["Mark", "Click a mark on the board."],
          hint: "Click a mark to see its row. Keys: space, ← →, “,” “.”, Home, End. " +
                "Red marks: erased or forfeit."};
}

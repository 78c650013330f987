"use strict";
// The map editor's page. It paints a square grid of symbols; the server turns the grid
// into the map file, judges it with `arena maps validate`'s parser, and writes it.
// `window.editor` is the state, for a person's console and for the browser test.

// The game's palette comes with the map (`/api/map`): each symbol's kind (its look) and
// label, what mirrors and a half turn make of it, which symbols are unique on a map, what a
// brush's title adds, and how a square is named. This page knows no game.
const isUnique = (symbol) => editor.palette.unique.includes(symbol);

const editor = {
  game: "", file: "", rows: [], tools: [], tool: "#", symmetry: "none", palette: null,
  history: [], version: 0, checkedVersion: -1, verdict: null, dirty: false, painting: false,
  cells: [],
};
window.editor = editor;

const $ = (id) => document.getElementById(id);

function kindOf(symbol) {
  return editor.palette.kinds[symbol] || "unknown";
}

function label(symbol) {
  if (kindOf(symbol) === "unknown") return symbol;
  return editor.palette.labels[symbol] || "";
}

async function call(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ rows: body.map((row) => row.join("")) }),
  });
  const data = await response.json();
  return { status: response.status, data };
}

function setStatus(text, dirty) {
  const status = $("status");
  status.textContent = text;
  status.classList.toggle("dirty", dirty);
}

function drawCell(r, c) {
  const symbol = editor.rows[r][c];
  const cell = editor.cells[r][c];
  cell.className = `cell ${kindOf(symbol)}`;
  cell.textContent = label(symbol);
}

function drawBoard() {
  const n = editor.rows.length;
  const board = $("board");
  const side = Math.max(6, Math.min(28, Math.floor(Math.min(760, window.innerHeight - 140) / n)));
  board.style.setProperty("--cell", `${side}px`);
  board.style.gridTemplateColumns = `repeat(${n}, var(--cell))`;
  board.replaceChildren();
  editor.cells = editor.rows.map((row, r) => row.map((_, c) => {
    const cell = document.createElement("div");
    cell.dataset.r = r;
    cell.dataset.c = c;
    board.appendChild(cell);
    return cell;
  }));
  editor.rows.forEach((row, r) => row.forEach((_, c) => drawCell(r, c)));
  $("size").value = n;
}

function where(r, c) {
  return editor.palette.where.replace(/\{(x|y|line|column)\}/g, (_, name) =>
    String({ x: c, y: r, line: r + 1, column: c + 1 }[name]));
}

function images(r, c) {
  const n = editor.rows.length;
  const mode = editor.symmetry;
  const found = [];
  const { rotate, mirror_x: mirrorX, mirror_y: mirrorY } = editor.palette;
  if (mode === "rotate" || mode === "four") found.push([n - 1 - r, n - 1 - c, rotate]);
  if (mode === "mirror-x" || mode === "four") found.push([r, n - 1 - c, mirrorX]);
  if (mode === "mirror-y" || mode === "four") found.push([n - 1 - r, c, mirrorY]);
  return found;
}

function put(r, c, symbol) {
  if (editor.rows[r][c] === symbol) return;
  editor.rows[r][c] = symbol;
  drawCell(r, c);
}

function paint(r, c) {
  const symbol = editor.tool;
  if (isUnique(symbol)) {
    // A unique symbol (a flag): painting it again moves it. Mirrors do not copy it.
    editor.rows.forEach((row, rr) => row.forEach((s, cc) => {
      if (s === symbol && (rr !== r || cc !== c)) put(rr, cc, " ");
    }));
    put(r, c, symbol);
    return;
  }
  put(r, c, symbol);
  for (const [rr, cc, turn] of images(r, c)) put(rr, cc, turn[symbol] || symbol);
}

function remember() {
  editor.history.push(editor.rows.map((row) => row.slice()));
  if (editor.history.length > 200) editor.history.shift();
}

function changed() {
  editor.version += 1;
  editor.dirty = true;
  setStatus("unsaved changes", true);
  check();
}

async function check() {
  const version = editor.version;
  $("save").disabled = true;
  const { status, data } = await call("/api/check", editor.rows);
  if (version !== editor.version) return;      // the map changed again meanwhile
  if (status !== 200) {
    show({ ok: false, line: `error: ${data.reason || data.error}`, note: "", where: null,
           text: "" });
    return;
  }
  editor.checkedVersion = version;
  show(data);
}

function show(verdict) {
  editor.verdict = verdict;
  const box = $("verdict");
  box.textContent = verdict.line;
  box.className = `verdict ${verdict.ok ? "ok" : "error"}`;
  $("note").hidden = !verdict.note;
  $("note").textContent = verdict.note ? `note: ${verdict.note}` : "";
  $("text").textContent = verdict.text;
  document.querySelectorAll(".cell.flagged").forEach((cell) => cell.classList.remove("flagged"));
  if (verdict.where) {
    const [r, c] = verdict.where;
    if (editor.cells[r] && editor.cells[r][c]) editor.cells[r][c].classList.add("flagged");
  }
  $("save").disabled = !(verdict.ok && editor.checkedVersion === editor.version);
}

async function save() {
  if ($("save").disabled) return;
  const version = editor.version;
  $("save").disabled = true;
  const { status, data } = await call("/api/save", editor.rows);
  if (status === 200) {
    if (version === editor.version) {
      editor.dirty = false;
      setStatus(`saved ${new Date().toLocaleTimeString()}`, false);
    }
    show(data);
  } else if (data.line) {
    show(data);                                  // the validator's refusal
    setStatus("not saved: the map is not valid", true);
  } else {
    setStatus(`not saved: ${data.reason || data.error}`, true);
  }
}

function chooseTool(symbol) {
  editor.tool = symbol;
  document.querySelectorAll("#tools button").forEach((button) =>
    button.classList.toggle("chosen", button.dataset.symbol === symbol));
}

function buildTools() {
  const box = $("tools");
  for (const tool of editor.tools) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.symbol = tool.symbol;
    const swatch = document.createElement("span");
    swatch.className = `swatch cell ${kindOf(tool.symbol)}`;
    swatch.textContent = label(tool.symbol);
    const name = document.createElement("span");
    name.textContent = tool.name;
    const key = document.createElement("kbd");
    key.textContent = tool.key;
    button.append(swatch, name, key);
    button.title = `${tool.name}${editor.palette.notes[tool.symbol] || ""} (key ${tool.key})`;
    button.addEventListener("click", () => chooseTool(tool.symbol));
    box.appendChild(button);
  }
  chooseTool(editor.tools[1].symbol);
}

function cellAt(x, y) {
  const target = document.elementFromPoint(x, y);
  return target && target.parentElement === $("board") ? target : null;
}

function listen() {
  const board = $("board");
  board.addEventListener("pointerdown", (event) => {
    const cell = cellAt(event.clientX, event.clientY);
    if (!cell || event.button !== 0) return;
    event.preventDefault();
    remember();
    editor.painting = true;
    paint(+cell.dataset.r, +cell.dataset.c);
  });
  board.addEventListener("pointermove", (event) => {
    const cell = cellAt(event.clientX, event.clientY);
    if (cell) $("legend").textContent = where(+cell.dataset.r, +cell.dataset.c);
    if (editor.painting && cell) paint(+cell.dataset.r, +cell.dataset.c);
  });
  window.addEventListener("pointerup", () => {
    if (!editor.painting) return;
    editor.painting = false;
    changed();
  });
  $("symmetry").addEventListener("change", (event) => { editor.symmetry = event.target.value; });
  $("fill").addEventListener("click", fill);
  $("undo").addEventListener("click", undo);
  $("save").addEventListener("click", save);
  $("resize").addEventListener("click", () => resize(+$("size").value));
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select")) return;
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") {
      event.preventDefault();
      save();
    } else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z") {
      event.preventDefault();
      undo();
    } else if (!event.ctrlKey && !event.metaKey && !event.altKey) {
      const tool = editor.tools.find((t) => t.key === event.key);
      if (tool) chooseTool(tool.symbol);
      else if (event.key === "f") fill();
    }
  });
  window.addEventListener("beforeunload", (event) => {
    if (editor.dirty) event.preventDefault();
  });
}

function fill() {
  if (isUnique(editor.tool)) {
    setStatus(`a ${kindOf(editor.tool)} is one square: paint it instead`, editor.dirty);
    return;
  }
  remember();
  editor.rows.forEach((row, r) => row.forEach((_, c) => put(r, c, editor.tool)));
  changed();
}

function undo() {
  const before = editor.history.pop();
  if (!before) return;
  const resized = before.length !== editor.rows.length;
  editor.rows = before;
  if (resized) drawBoard();
  else editor.rows.forEach((row, r) => row.forEach((_, c) => drawCell(r, c)));
  changed();
}

function resize(n) {
  const max = +$("size").max;
  if (!Number.isInteger(n) || n < 1 || n > max) {
    setStatus(`the size must be 1 to ${max}`, editor.dirty);
    return;
  }
  if (n === editor.rows.length) return;
  remember();
  // Grow to the south and east with floor; shrink from there.
  editor.rows = Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) =>
    (editor.rows[r] && editor.rows[r][c] !== undefined) ? editor.rows[r][c] : " "));
  drawBoard();
  changed();
}

async function start() {
  const { data } = await call("/api/map");
  Object.assign(editor, { game: data.game, file: data.file, tools: data.tools,
                          palette: data.palette, rows: data.rows.map((row) => Array.from(row)) });
  document.title = `${data.file} · map editor`;
  $("file").textContent = `${data.file} (${data.game})`;
  $("size-box").hidden = !data.resizable;
  $("size").max = data.max_side;
  $("run-hint").textContent = data.run;
  setStatus(data.new ? "new file: not saved yet" : "no changes", data.new);
  editor.dirty = data.new;
  buildTools();
  drawBoard();
  listen();
  await check();
}

start();

#!/usr/bin/env node
// cave-protocol: persistent
// Scout: node, started once per game. It steps toward the nearest gold or food it sees
// and away from lions and centipedes.
const readline = require('readline');
const STEPS = {NN: [-1, 0], NE: [-1, 1], EE: [0, 1], SE: [1, 1], SS: [1, 0], SW: [1, -1],
               WW: [0, -1], NW: [-1, -1]};
let block = [];

function decide(rows) {
  let me = [0, 0];
  rows.forEach((row, r) => { const c = row.indexOf('Y'); if (c >= 0) me = [r, c]; });
  const at = (r, c) => (r >= 0 && r < rows.length && c >= 0 && c < rows[r].length) ? rows[r][c] : null;
  let best = null;
  rows.forEach((row, r) => [...row].forEach((s, c) => {
    if (s === 'G' || s === 'F') {
      const d = Math.max(Math.abs(r - me[0]), Math.abs(c - me[1]));
      if (!best || d < best.d) best = {r, c, d};
    }
  }));
  const scored = Object.entries(STEPS).map(([name, [dr, dc]]) => {
    const r = me[0] + dr, c = me[1] + dc, s = at(r, c);
    if (s === null || s === '}' || s === 'P' || s === '@' || s === 'L' || s === 'C') return [name, -1e9];
    let score = 0;
    for (const [, [er, ec]] of Object.entries(STEPS)) {
      const n = at(r + er, c + ec);
      if (n === 'L') score -= 100;
      if (n === 'C') score -= 20;
    }
    if (best) score -= 10 * Math.max(Math.abs(best.r - r), Math.abs(best.c - c));
    return [name, score];
  });
  scored.sort((a, b) => b[1] - a[1]);
  const step = scored[0][1] > -1e9 ? scored[0][0] : 'NN';
  return 'M' + step + 'H' + 'NN';
}

readline.createInterface({input: process.stdin}).on('line', (line) => {
  if (line.trim() === '') {
    process.stdout.write(decide(block.slice(1)) + '\n');
    block = [];
  } else {
    block.push(line.trim());
  }
});

#!/usr/bin/env node
// cave-protocol: persistent
// figures: game=cave cpu_per_turn=0.2 held_mb=150
// Holds 150 MB and burns 0.2 s of CPU a turn (tests/cave/test_program_figures.py).
const readline = require('readline');
const held = Buffer.alloc(150 << 20, 1);      // filled: every page touched
const cpu = () => { const u = process.cpuUsage(); return u.user + u.system; };
readline.createInterface({input: process.stdin}).on('line', (line) => {
  if (line.trim() !== '') return;
  const stop = cpu() + 200000;
  let sum = 0;
  for (let i = 0; cpu() < stop; i += 4096) sum += held[i % held.length];
  process.stdout.write(sum >= 0 ? 'MNNHNN\n' : 'MSSHSS\n');
});

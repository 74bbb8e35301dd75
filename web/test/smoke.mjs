// The WebAssembly engine answers as the command line does: node web/test/smoke.mjs
// (after web/build.sh).
import { readFileSync } from 'node:fs';
import { strict as assert } from 'node:assert';
import { load } from '../rulebook.js';

const root = new URL('../../', import.meta.url);
const engine = await load(readFileSync(new URL('web/dist/rulebook.wasm', root)));
const chess = readFileSync(new URL('definitions/chess.variant', root), 'utf8');
const gala = readFileSync(new URL('definitions/gala-xiangqi.variant', root), 'utf8');

let start = performance.now();
assert.equal(engine.call({ op: 'perft', definition: chess, depth: 3 }).nodes, 8902);
const perft4 = engine.call({ op: 'perft', definition: chess, depth: 4 });
assert.equal(perft4.nodes, 197281);
console.log(`perft 3 and 4 of chess: ${(performance.now() - start).toFixed(0)} ms`);
start = performance.now();
assert.equal(engine.call({ op: 'perft', definition: gala, depth: 3 }).nodes, 1584692);
console.log(`perft 3 of Gala Xiang-Qi: ${(performance.now() - start).toFixed(0)} ms`);

const after = engine.call({ op: 'position', definition: chess, moves: ['e4', 'e7e5', 'Nf3'] });
assert.equal(after.legal.length, 29);
assert.equal(after.to_move, 'black');
assert.ok(after.svg.startsWith('<svg'));

const bad = engine.call({ op: 'check', definition: chess.replace('in last-rank', 'in last-rnk') });
assert.equal(bad.valid, false);
const problem = bad.report.related[0];
assert.equal(problem.code, 'rulebook::names::unknown_zone');
assert.equal(problem.labels[0].span.line, 30);

assert.match(engine.call({ op: 'perft', definition: 'nonsense', depth: 1 }).error, /error/);
assert.match(engine.call({ op: 'nothing' }).error, /bad request/);
console.log('ok');

// The playground: a definition edited with live diagnostics, its board played on, perft run.
// Every rule lives in the engine (rulebook.wasm, in a worker); this file only shows and asks.

import { createEditor } from './editor.js';

const $ = (id) => document.getElementById(id);
// The worker's script and the engine are fetched once; a worker started later needs neither
// the network nor a second compilation.
const [workerUrl, module] = await Promise.all([
  fetch('worker.js').then((r) => r.blob()).then((b) => URL.createObjectURL(b)),
  fetch('rulebook.wasm').then((r) => r.arrayBuffer()).then((bytes) => WebAssembly.compile(bytes)),
]);
let worker = null;
let nextId = 0;
const waiting = new Map();
// A fresh engine; the old one, if any, is stopped mid-task and its questions get `stopped`.
function startWorker() {
  worker?.terminate();
  for (const resolve of waiting.values()) resolve({ error: 'stopped' });
  waiting.clear();
  worker = new Worker(workerUrl);
  worker.postMessage({ module });
  worker.onmessage = ({ data: { id, answer } }) => {
    waiting.get(id)?.(answer);
    waiting.delete(id);
  };
}
startWorker();
const ask = (request) =>
  new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    worker.postMessage({ id, request });
  });

const state = {
  definition: '', options: {}, fen: null, moves: [], position: null, selected: null, valid: false,
};
// Checked 300 ms after typing stops.
let timer = null;
const editor = createEditor($('editor'), () => {
  clearTimeout(timer);
  timer = setTimeout(() => check(false), 300);
});
state.editor = editor;
// For the browser tests and the curious: the page's state in the console.
window.playground = state;

// --- definitions: the shipped ones, a file, a link ---------------------------------------

const definitions = await fetch('definitions.json').then((r) => r.json());
for (const group of ['games', 'library']) {
  const optgroup = document.createElement('optgroup');
  optgroup.label = group === 'games' ? 'Games' : 'Library';
  for (const d of definitions.filter((d) => d.group === group)) {
    optgroup.append(new Option(d.name, d.file));
  }
  $('menu').append(optgroup);
}

async function encode(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

async function decode(code) {
  const binary = atob(code.replaceAll('-', '+').replaceAll('_', '/'));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Response(stream).text();
}

// `file`: the shipped definition's path, from which its `from` clause names its base.
function loadDefinition(text, file) {
  state.file = file;
  editor.text = text;
  // The edit above scheduled a check; this one restarts the game at once instead.
  clearTimeout(timer);
  state.fen = null;
  check(true);
}

$('menu').onchange = () => {
  const d = definitions.find((d) => d.file === $('menu').value);
  history.replaceState(null, '', location.pathname);
  loadDefinition(d.text, d.file);
};
$('open').onchange = async () => {
  const file = $('open').files[0];
  if (file) loadDefinition(await file.text());
};
$('download').onclick = () => {
  const name = (/variant\s+"([^"]+)"/.exec(editor.text)?.[1] ?? 'definition')
    .toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([editor.text], { type: 'text/plain' }));
  a.download = `${name}.variant`;
  a.click();
};
$('share').onclick = async () => {
  const link = `${location.origin}${location.pathname}#def=${await encode(editor.text)}`;
  history.replaceState(null, '', link);
  try {
    await navigator.clipboard.writeText(link);
    status('link copied');
  } catch {
    status('link in the address bar');
  }
};

function status(text) {
  $('status').textContent = text;
}

// --- checking as you type ------------------------------------------------------------------


async function check(restart) {
  const text = editor.text;
  const answer = await ask({ op: 'check', definition: text, file: state.file });
  if (text !== editor.text) return; // typed on since: a newer check follows
  const panel = $('diagnostics');
  panel.replaceChildren();
  for (const d of answer.report?.related ?? []) {
    const span = d.labels?.[0]?.span;
    const div = document.createElement('div');
    div.className = `diagnostic ${d.severity}`;
    // A span in a base is in another file: named, and not underlined in the editor.
    const where = span ? `${span.file ? `${span.file}:` : ''}${span.line}:${span.column}` : '';
    div.innerHTML = `<b></b> <code></code><div class="message"></div><div class="help"></div>`;
    div.querySelector('b').textContent = where;
    div.querySelector('code').textContent = d.code ?? '';
    div.querySelector('.message').textContent = d.message;
    div.querySelector('.help').textContent = d.help ?? '';
    if (span) {
      div.onclick = () => editor.select(span.offset, span.length);
    }
    panel.append(div);
  }
  if (answer.error) panel.textContent = answer.error;
  editor.show((answer.report?.related ?? []).flatMap((d) =>
    (d.labels ?? []).filter((l) => !l.span.file).map((l) => ({ ...l.span, severity: d.severity, message: `${d.message} [${d.code}]` }))));
  state.valid = answer.valid === true;
  status(state.valid ? 'valid' : 'not valid');
  if (state.valid && (restart || text !== state.definition)) {
    state.definition = text;
    // Options the edited definition still has keep the values chosen.
    state.options = Object.fromEntries(Object.entries(state.options)
      .filter(([name]) => answer.options.includes(name)));
    state.moves = [];
    state.sans = [];
    state.diagramSquare = null;
    $('diagram').textContent = 'Click a piece.';
    await show();
    await showPieces();
  }
}

// --- the board -----------------------------------------------------------------------------

function game() {
  return {
    definition: state.definition,
    file: state.file,
    options: Object.entries(state.options),
    fen: state.fen ?? undefined,
    moves: state.moves,
  };
}

async function show() {
  const p = await ask({ op: 'position', ...game() });
  if (p.error) {
    status(p.error);
    return;
  }
  state.position = p;
  showPlayers(p.players);
  showOptions(p.options);
  state.selected = null;
  state.dropPiece = null;
  state.diagramSquare = null;
  $('diagram').textContent = 'Click a piece.';
  $('board').innerHTML = p.svg;
  $('fen').value = p.fen;
  $('result').textContent = p.outcome ?? `${p.to_move} to move`;
  // The record in rounds: one numbered row per turn of every side, then the result.
  const record = $('record');
  record.replaceChildren();
  for (let i = 0; i < state.sans.length; i += p.sides) {
    const li = document.createElement('li');
    li.append(Object.assign(document.createElement('b'), { textContent: `${i / p.sides + 1}.` }));
    for (const san of state.sans.slice(i, i + p.sides)) {
      li.append(Object.assign(document.createElement('span'), { textContent: san }));
    }
    record.append(li);
  }
  if (p.outcome) {
    record.append(Object.assign(document.createElement('li'), { className: 'result', textContent: p.outcome }));
  }
  // Drops: one button per piece in hand that may be dropped; then a square.
  const drops = $('drops');
  drops.replaceChildren();
  const droppable = [...new Set(p.legal.filter((m) => !m.from).map((m) => m.piece))];
  if (droppable.length) drops.append('drop: ');
  for (const piece of droppable) {
    const b = document.createElement('button');
    b.textContent = piece;
    b.dataset.piece = piece;
    b.title = `Drop a ${piece}: then click a marked square`;
    b.onclick = () => {
      state.selected = null;
      state.dropPiece = piece;
      drops.querySelectorAll('button').forEach((x) => x.classList.toggle('chosen', x === b));
      mark(p.legal.filter((m) => !m.from && m.piece === piece).map((m) => [m.to, '#6a1b9a']));
    };
    drops.append(b);
  }
  $('picker').hidden = true;
}
state.sans = [];

function squareAt(event) {
  const svg = $('board').querySelector('svg');
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
  const hit = state.position.squares.find(([, x, y, size]) =>
    point.x >= x && point.x < x + size && point.y >= y && point.y < y + size);
  return hit?.[0];
}

function mark(squares) {
  const svg = $('board').querySelector('svg');
  svg.querySelectorAll('.mark').forEach((m) => m.remove());
  for (const [name, colour] of squares) {
    const box = state.position.squares.find(([n]) => n === name);
    if (!box) continue;
    const [, x, y, size] = box;
    const c = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
    c.setAttribute('class', 'mark');
    c.dataset.square = name;
    c.setAttribute('cx', x + size / 2);
    c.setAttribute('cy', y + size / 2);
    c.setAttribute('r', size / 5);
    c.setAttribute('fill', colour);
    c.setAttribute('fill-opacity', '0.6');
    c.setAttribute('pointer-events', 'none');
    svg.append(c);
  }
}

// A piece dragged to a square is a move there, as a click on it and on the square would be.
let dragFrom = null;
let dragged = false;
$('board').onpointerdown = (event) => {
  dragFrom = state.position ? squareAt(event) : null;
  dragged = false;
};
$('board').onpointerup = (event) => {
  const to = dragFrom && squareAt(event);
  if (!to || to === dragFrom) return;
  dragged = true;
  const moves = state.position.legal.filter((m) => m.from === dragFrom && m.to === to);
  if (moves.length === 1) play(moves[0]);
  else if (moves.length > 1) pick(moves);
};

$('board').onclick = (event) => {
  if (dragged) {
    dragged = false;
    return;
  }
  if (!state.position) return;
  const square = squareAt(event);
  if (!square) return;
  const legal = state.position.legal;
  if (state.dropPiece) {
    const moves = legal.filter((m) => !m.from && m.piece === state.dropPiece && m.to === square);
    if (moves.length === 1) return play(moves[0]);
    if (moves.length > 1) return pick(moves);
    state.dropPiece = null;
    $('drops').querySelectorAll('button').forEach((x) => x.classList.remove('chosen'));
  }
  if (state.selected) {
    const moves = legal.filter((m) => m.from === state.selected && m.to === square);
    if (moves.length === 1) return play(moves[0]);
    if (moves.length > 1) return pick(moves);
  }
  const from = legal.filter((m) => m.from === square);
  state.selected = from.length ? square : null;
  mark([[square, '#1565c0'], ...from.map((m) => [m.to, m.capture ? '#c62828' : '#1a7f37'])]);
  showDiagram(square);
};

// The move diagram of the piece last clicked, as `rulebook diagram` draws it.
async function showDiagram(square) {
  state.diagramSquare = square;
  const answer = await ask({ op: 'diagram', ...game(), square, alone: $('alone').checked });
  if (answer.svg) {
    state.diagramSvg = answer.svg;
    $('diagram').innerHTML = answer.svg;
    $('diagrambox').open = true;
  }
}
$('alone').onchange = () => state.diagramSquare && showDiagram(state.diagramSquare);

async function showPieces() {
  const pieces = await ask({ op: 'pieces', definition: state.definition, file: state.file, options: Object.entries(state.options) });
  const body = $('pieces').querySelector('tbody');
  body.replaceChildren();
  for (const p of Array.isArray(pieces) ? pieces : []) {
    const tr = document.createElement('tr');
    // The Betza sentence without its frame: `Betza: `QN`.` is shown as QN, an approximate one
    // with a mark.
    const betza = /^Betza has no/.test(p.betza ?? '') ? '—' : (p.betza ?? '').replace(/^Betza: /, '')
      .replace(/^Betza \(approximate[^)]*\): /, '≈ ').replace(/\.$/, '').replaceAll('`', '');
    const cells = [`${p.name} (${p.letter})`, betza, [...p.moves, ...p.facts].join(' ')];
    for (const text of cells) tr.append(Object.assign(document.createElement('td'), { textContent: text }));
    tr.children[1].title = p.betza ?? '';
    // The declaration as written; a click on it selects it in the editor.
    const declaration = document.createElement('td');
    if (p.declaration) {
      const pre = Object.assign(document.createElement('pre'), { textContent: p.declaration.text });
      pre.title = 'Click to select it in the editor';
      pre.onclick = () => editor.select(p.declaration.offset, p.declaration.length);
      declaration.append(pre);
    }
    tr.append(declaration);
    body.append(tr);
  }
}

// Several moves between the same squares: promotions (named by the piece), or moves of
// different kinds (named in notation).
function pick(moves) {
  const picker = $('picker');
  const promoting = moves.some((m) => m.promotion);
  picker.replaceChildren(promoting ? 'promote to: ' : 'which move: ', ...moves.map((m) => {
    const b = document.createElement('button');
    b.textContent = promoting ? m.promotion ?? `${m.piece} (no promotion)` : m.san;
    b.title = m.san;
    b.onclick = () => play(m);
    return b;
  }));
  picker.hidden = false;
}

async function play(m) {
  state.moves.push(m.coord);
  state.sans.push(m.san);
  await show();
  await enginesMove();
}

// The sides the engine plays: one checkbox each, the last side ticked at first (so a person
// plays the first side against the engine); any mix, all or none.
state.engineSides = new Set();
function showPlayers(players) {
  const key = players.join(',');
  if (state.playersKey === key) return;
  state.playersKey = key;
  state.engineSides = new Set(players.slice(1));
  $('players').replaceChildren('engine plays:', ...players.map((name) => {
    const label = document.createElement('label');
    const box = Object.assign(document.createElement('input'), { type: 'checkbox', checked: state.engineSides.has(name) });
    box.dataset.side = name;
    box.onchange = () => {
      if (box.checked) state.engineSides.add(name);
      else state.engineSides.delete(name);
      enginesMove();
    };
    label.append(box, ` ${name}`);
    return label;
  }));
}

// The definition's options, one checkbox each; a change starts a new game under them.
function showOptions(options) {
  $('options').replaceChildren(...(options.length ? ['options:'] : []), ...options.map((o) => {
    const label = document.createElement('label');
    label.title = o.description;
    const box = Object.assign(document.createElement('input'), { type: 'checkbox', checked: o.on });
    box.dataset.option = o.name;
    box.onchange = async () => {
      state.options[o.name] = box.checked;
      state.fen = null;
      state.moves = [];
      state.sans = [];
      await show();
      await showPieces();
      enginesMove();
    };
    label.append(box, ` ${o.name}`);
    return label;
  }));
}

// While the side to move is the engine's, the engine moves (one search at a time).
async function enginesMove() {
  if (state.thinking) return;
  state.thinking = true;
  try {
    while (state.position && !state.position.outcome && state.position.legal.length &&
      state.engineSides.has(state.position.to_move)) {
      if (!(await engineMove())) break;
    }
  } finally {
    state.thinking = false;
  }
}

async function engineMove() {
  status('thinking…');
  const asked = state.moves.length;
  const answer = await ask({ op: 'best', ...game(), millis: Number($('millis').value) || 1000 });
  // Undone or restarted meanwhile: the answer is for a position no longer on the board.
  if (state.moves.length !== asked) return false;
  if (answer.move) {
    state.moves.push(answer.move.coord);
    state.sans.push(answer.move.san);
    status(`engine: ${answer.move.san} (depth ${answer.depth}, ${answer.nodes} nodes)`);
    await show();
    return true;
  }
  status(answer.error ?? 'no move');
  return false;
}

$('new').onclick = async () => {
  state.fen = null;
  state.moves = [];
  state.sans = [];
  await show();
  enginesMove();
};
$('undo').onclick = () => {
  state.moves.pop();
  state.sans.pop();
  show();
};
$('engine').onclick = engineMove;
$('setfen').onclick = async () => {
  state.fen = $('fen').value.trim();
  state.moves = [];
  state.sans = [];
  const p = await ask({ op: 'position', ...game() });
  if (p.error) {
    status(p.error);
    state.fen = null;
    return;
  }
  show();
};
$('perft').onclick = async () => {
  const depth = Number($('depth').value);
  $('perftout').textContent = 'counting…';
  $('stop').hidden = false;
  const start = performance.now();
  const answer = await ask({ op: 'perft', ...game(), depth });
  const ms = performance.now() - start;
  $('stop').hidden = true;
  $('perftout').textContent = answer.error ??
    `${answer.nodes.toLocaleString('en')} nodes in ${ms.toFixed(0)} ms (${Math.round(answer.nodes / ms * 1000).toLocaleString('en')} nodes/s)`;
};
// Stops whatever the engine is doing (a deep perft, a long search) by starting a new one.
$('stop').onclick = () => {
  startWorker();
  $('stop').hidden = true;
};
document.addEventListener('keydown', (e) => {
  if (e.ctrlKey && e.key === 'z' && !$('editor').contains(document.activeElement)) {
    e.preventDefault();
    $('undo').click();
  }
  if (e.ctrlKey && e.key === 'e') {
    e.preventDefault();
    engineMove();
  }
  if (e.key === 'Escape' && state.position) {
    state.selected = null;
    state.dropPiece = null;
    $('picker').hidden = true;
    $('drops').querySelectorAll('button').forEach((x) => x.classList.remove('chosen'));
    mark([]);
  }
});

// --- start: a link's definition, else the first game -----------------------------------------

const shared = /#def=(.+)$/.exec(location.hash)?.[1];
if (shared) {
  loadDefinition(await decode(shared));
} else {
  $('menu').value = 'gala-xiangqi.variant';
  loadDefinition(definitions.find((d) => d.file === 'gala-xiangqi.variant').text, 'gala-xiangqi.variant');
}

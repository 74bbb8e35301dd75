// The playground in headless Chromium: node web/test/page.mjs (after web/build.sh and
// `npm ci` in web/). Serves web/dist on a local port, drives the page as a user would, and
// saves screenshots in web/test/screenshots/.
import { createServer } from 'node:http';
import { readFile, mkdir } from 'node:fs/promises';
import { extname } from 'node:path';
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';

const dist = new URL('../dist/', import.meta.url);
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.json': 'application/json' };
const server = createServer(async (req, res) => {
  const path = new URL(req.url, 'http://x').pathname.replace(/^\/$/, '/index.html');
  try {
    const body = await readFile(new URL(`.${path}`, dist));
    res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/`;
const shots = new URL('./screenshots/', import.meta.url);
await mkdir(shots, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const failures = [];
// The middle of a square of the board, where the page draws it, in page pixels.
const squareCentre = (page, name) => page.evaluate((name) => {
  const svg = document.querySelector('#board svg');
  svg.scrollIntoView({ block: 'center' });
  const r = svg.getBoundingClientRect();
  const vb = svg.viewBox.baseVal;
  const s = window.playground.position.squares.find(([n]) => n === name);
  return [r.left + (s[1] + s[3] / 2) * r.width / vb.width, r.top + (s[2] + s[3] / 2) * r.height / vb.height];
}, name);
const clickSquare = async (page, name) => {
  const [x, y] = await squareCentre(page, name);
  await page.mouse.click(x, y);
};
const step = async (name, body) => {
  try {
    await body();
    console.log(`ok: ${name}`);
  } catch (e) {
    failures.push(name);
    await browser.contexts()[0]?.pages()[0]?.screenshot({ path: new URL(`failed.png`, shots).pathname });
    console.log(`FAILED: ${name}\n${e.stack}`);
  }
};
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('pageerror', (e) => failures.push(`page error: ${e.message}`));
  await page.goto(url);
  await page.waitForSelector('#board svg');

  await step('Gala Xiang-Qi opens with its board and a rook shows the moves the CLI lists', async () => {
    await page.screenshot({ path: new URL('start.png', shots).pathname });
    await clickSquare(page, 'a5');
    const marked = await page.evaluate(() =>
      [...document.querySelectorAll('#board .mark')].map((m) => m.dataset.square).slice(1).sort());
    const root = new URL('../../', import.meta.url).pathname;
    const cli = execFileSync(`${root}target/release/rulebook`,
      ['moves', `${root}definitions/gala-xiangqi.variant`], { encoding: 'utf8' });
    const expected = cli.split('\n').filter((m) => m.startsWith('a5')).map((m) => m.slice(2)).sort();
    assert.ok(expected.length > 0);
    assert.deepEqual(marked, expected);
    // The move diagram below is the one `rulebook diagram` draws for that piece there.
    await page.waitForFunction(() => document.querySelector('#diagram svg'));
    const drawn = await page.evaluate(() => window.playground.diagramSvg);
    const fen = await page.inputValue('#fen');
    const cliSvg = execFileSync(`${root}target/release/rulebook`,
      ['diagram', `${root}definitions/gala-xiangqi.variant`, '--fen', fen, '--piece', 'R', '--at', 'a5',
        '--format', 'svg'], { encoding: 'utf8' });
    assert.equal(drawn.trim(), cliSvg.trim());
    const rows = await page.$$eval('#pieces tbody tr', (r) => r.length);
    assert.ok(rows >= 10, `${rows} pieces listed`);
    // Each piece's declaration as written; a click selects it in the editor.
    const rook = page.locator('#pieces pre', { hasText: /^piece Rook R/ });
    await rook.click();
    assert.equal(await page.evaluate(() => window.playground.editor.selected()), await rook.textContent());
    await page.screenshot({ path: new URL('rook.png', shots).pathname, fullPage: true });
  });

  await step('perft 3 of chess shows 8,902', async () => {
    await page.selectOption('#menu', 'chess.variant');
    await page.waitForFunction(() => document.querySelector('#fen').value.startsWith('rnbqkbnr'));
    await page.fill('#depth', '3');
    await page.click('#perft');
    await page.waitForFunction(() => /nodes in/.test(document.querySelector('#perftout').textContent));
    assert.match(await page.textContent('#perftout'), /^8,902 nodes/);
  });

  await step('a move against the engine gets a legal reply', async () => {
    await page.fill('#millis', '200');
    await clickSquare(page, 'e2');
    await clickSquare(page, 'e4');
    await page.waitForFunction(() => document.querySelectorAll('#record li span').length === 2);
    // A piece dragged: the move is made as by two clicks.
    const [x1, y1] = await squareCentre(page, 'd2');
    const [x2, y2] = await squareCentre(page, 'd4');
    await page.mouse.move(x1, y1);
    await page.mouse.down();
    await page.mouse.move(x2, y2, { steps: 5 });
    await page.mouse.up();
    await page.waitForFunction(() => document.querySelectorAll('#record li span').length === 4);
    const sans = await page.$$eval('#record li span', (s) => s.map((e) => e.textContent));
    assert.equal(sans[0], 'e4');
    assert.equal(sans[2], 'd4');
    const fen = await page.inputValue('#fen');
    assert.match(fen, / w KQkq /);
    await page.screenshot({ path: new URL('played.png', shots).pathname });
  });

  await step('four players: the engine plays the sides ticked, people the others', async () => {
    await page.selectOption('#menu', 'gala-xiangqi-four.variant');
    await page.waitForFunction(() => window.playground.position?.players.length === 4);
    await page.fill('#millis', '50');
    const players = await page.evaluate(() => window.playground.position.players);
    // Every side the engine's: the game plays itself, one search at a time.
    await page.check(`#players input[data-side="${players[0]}"]`);
    await page.waitForFunction(() => document.querySelectorAll('#record li span').length >= 6,
      null, { timeout: 60000 });
    // The first side back to a person: the engine stops at its turn.
    await page.uncheck(`#players input[data-side="${players[0]}"]`);
    await page.waitForFunction((first) => !window.playground.thinking &&
      window.playground.position.to_move === first, players[0], { timeout: 60000 });
    const before = await page.$$eval('#record li span', (s) => s.length);
    await page.waitForTimeout(500);
    assert.equal(await page.$$eval('#record li span', (s) => s.length), before);
    const rows = await page.$$eval('#record li', (r) => r.map((li) => li.querySelectorAll('span').length));
    assert.equal(rows[0], 4, 'a round is one row of four moves');
    await page.screenshot({ path: new URL('four.png', shots).pathname, fullPage: true });
  });

  await step('a mistake is underlined at its line with its code', async () => {
    await page.selectOption('#menu', 'chess.variant');
    await page.waitForFunction(() => window.playground.position?.players.length === 2);
    const text = await page.evaluate(() => window.playground.editor.text);
    // Typed as a user types: the mistaken word replaced in the editor.
    await page.evaluate(() => {
      const { editor } = window.playground;
      const at = editor.text.indexOf('in last-rank') + 'in last-r'.length;
      editor.view.dispatch({ changes: { from: at, to: at + 1 } });
    });
    await page.waitForSelector('.diagnostic');
    const first = await page.textContent('.diagnostic');
    assert.match(first, /^30:42/);
    assert.match(first, /rulebook::names::unknown_zone/);
    await page.waitForSelector('.cm-lintRange-error');
    assert.equal(await page.textContent('.cm-lintRange-error'), 'last-rnk');
    await page.click('.diagnostic');
    const selected = await page.evaluate(() => window.playground.editor.selected());
    assert.equal(selected, 'last-rnk');
    assert.notEqual(text, await page.evaluate(() => window.playground.editor.text));
    await page.screenshot({ path: new URL('diagnostic.png', shots).pathname });
  });

  await step('a shared link reopens the same definition', async () => {
    const text = await page.evaluate(() => window.playground.editor.text);
    await page.click('#share');
    await page.waitForFunction(() => location.hash.startsWith('#def='));
    const link = page.url();
    const other = await browser.newPage();
    await other.goto(link);
    await other.waitForFunction((t) => window.playground?.editor.text === t, text);
    await other.close();
  });

  await step('an option is a checkbox, and perft counts under it as the CLI does', async () => {
    await page.selectOption('#menu', 'gala-xiangqi-four.variant');
    await page.waitForFunction(() => window.playground.position?.players.length === 4);
    for (const box of await page.$$('#players input:checked')) await box.uncheck();
    await page.check('#options input[data-option="korean-cannons"]');
    await page.waitForFunction(() => window.playground.position.options[2].on);
    await page.fill('#depth', '2');
    await page.click('#perft');
    await page.waitForFunction(() => /nodes in/.test(document.querySelector('#perftout').textContent));
    // `rulebook perft definitions/gala-xiangqi-four.variant 2 --option korean-cannons`
    assert.match(await page.textContent('#perftout'), /^10,273 nodes/);
    await page.uncheck('#options input[data-option="korean-cannons"]');
    await page.click('#perft');
    await page.waitForFunction(() => /^3,607 nodes/.test(document.querySelector('#perftout').textContent));
  });

  await step('a promotion is chosen from a picker naming the pieces', async () => {
    await page.selectOption('#menu', 'chess.variant');
    await page.waitForFunction(() => window.playground.position?.players.length === 2);
    await page.fill('#fen', '8/4P3/8/8/8/8/k7/4K3 w - - 0 1');
    await page.click('#setfen');
    await page.waitForFunction(() => window.playground.position.fen.startsWith('8/4P3'));
    await clickSquare(page, 'e7');
    await clickSquare(page, 'e8');
    await page.waitForSelector('#picker:not([hidden]) button');
    const names = await page.$$eval('#picker button', (b) => b.map((e) => e.textContent).sort());
    assert.deepEqual(names, ['Bishop', 'Knight', 'Queen', 'Rook']);
    await page.screenshot({ path: new URL('promotion.png', shots).pathname });
    await page.click('#picker button:text-is("Knight")');
    await page.waitForFunction(() => document.querySelectorAll('#record li span').length === 2);
    assert.equal(await page.textContent('#record li span'), 'e8=N');
  });

  await step('a drop is chosen from the pieces in hand, then a square', async () => {
    await page.selectOption('#menu', 'library/crazyhouse.variant');
    await page.waitForFunction(() => window.playground.position?.fen.startsWith('rnbqkbnr'));
    await page.fill('#fen', 'rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR[P] w KQkq - 0 1');
    await page.click('#setfen');
    await page.waitForSelector('#drops button[data-piece="Pawn"]');
    await page.click('#drops button[data-piece="Pawn"]');
    const marked = await page.$$eval('#board .mark', (m) => m.map((e) => e.dataset.square));
    assert.equal(marked.length, 33, 'the empty squares of ranks 2 to 7');
    await clickSquare(page, 'e4');
    await page.waitForFunction(() => document.querySelectorAll('#record li span').length === 2);
    assert.equal(await page.textContent('#record li span'), 'P*e4');
  });

  await step('a long perft is stopped, and the engine answers again', async () => {
    await page.selectOption('#menu', 'chess.variant');
    await page.waitForFunction(() => window.playground.position?.fen.startsWith('rnbqkbnr'));
    await page.fill('#depth', '7');
    await page.click('#perft');
    await page.waitForSelector('#stop:not([hidden])');
    await page.waitForTimeout(300);
    // Offline from here: the new engine must come from what the page already holds.
    await page.context().setOffline(true);
    await page.click('#stop');
    await page.waitForFunction(() => document.querySelector('#perftout').textContent === 'stopped');
    await page.fill('#depth', '2');
    await page.click('#perft');
    await page.waitForFunction(() => /^400 nodes/.test(document.querySelector('#perftout').textContent));
    await page.context().setOffline(false);
  });

  await step('a game over is named in the record', async () => {
    for (const box of await page.$$('#players input:checked')) await box.uncheck();
    const moves = [['f2', 'f3'], ['e7', 'e5'], ['g2', 'g4'], ['d8', 'h4']];
    for (const [i, [from, to]] of moves.entries()) {
      await clickSquare(page, from);
      await clickSquare(page, to);
      await page.waitForFunction((n) => document.querySelectorAll('#record li span').length === n, i + 1);
    }
    await page.waitForSelector('#record li.result');
    assert.match(await page.textContent('#record li.result'), /black wins/i);
  });

  await step('on a narrow screen the page is one column with nothing cut off', async () => {
    await page.setViewportSize({ width: 420, height: 900 });
    await page.waitForTimeout(200);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 420, `${width} px wide`);
    const [left, right] = await page.$$eval('#left, #right', (e) => e.map((x) => x.getBoundingClientRect().top));
    assert.ok(right > left, 'the board comes below the editor');
    await page.screenshot({ path: new URL('narrow.png', shots).pathname, fullPage: true });
    await page.setViewportSize({ width: 1400, height: 900 });
  });
} finally {
  await browser.close();
  server.close();
}
if (failures.length) {
  console.log(`${failures.length} failed: ${failures.join('; ')}`);
  process.exit(1);
}
console.log('ok');

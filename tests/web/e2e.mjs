// End-to-end test of the browser build: serve web/, load it in headless Chromium with SwiftShader
// WebGL, see the title screen, start Red Stone against the computer by keyboard, place a stone by
// mouse, wait for the computer's reply. Run by `make web-test`.
import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { readFile, mkdir } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';

const webRoot = resolve(process.argv[2] ?? '../../web');
const shots = resolve(process.env.WEB_TEST_SHOTS ?? '/tmp/stoneyard-web-test');
const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };

function fail(message) {
  console.error(`web-test FAILED: ${message}`);
  process.exitCode = 1;
  throw new Error(message);
}

// A static server on a free loopback port (no Python, correct MIME type for .wasm).
const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  const file = join(webRoot, path.endsWith('/') ? `${path}index.html` : path);
  try {
    const body = await readFile(file);
    res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream', 'Content-Length': body.length });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const url = `http://127.0.0.1:${server.address().port}/`;
await mkdir(shots, { recursive: true });
console.log(`web-test: serving ${webRoot} at ${url}; screenshots in ${shots}`);

const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-background-networking',
    '--disable-component-update', '--autoplay-policy=user-gesture-required'],
});
const problems = [];
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  page.on('console', (m) => {
    // ANGLE's SwiftShader backend reports its own performance notes ("GL Driver Message"); they
    // come from the software renderer of this test machine, not from the page.
    if (m.text().includes('GL Driver Message')) return;
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e}`));
  // Counts animation frames the page gets: a blocked main thread (a computer thinking on it) stops them.
  await page.addInitScript(() => {
    window.__frames = 0;
    window.__maxGap = 0;
    let last = performance.now();
    const tick = (now) => {
      window.__frames++;
      window.__maxGap = Math.max(window.__maxGap, now - last);
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });

  const state = async () => {
    const text = await page.evaluate(() => document.getElementById('stoneyard-state')?.textContent ?? '');
    return text ? JSON.parse(text) : null;
  };
  const waitFor = async (what, test, seconds) => {
    const until = Date.now() + seconds * 1000;
    for (;;) {
      const s = await state();
      if (s && test(s)) return s;
      if (Date.now() > until) {
        await page.screenshot({ path: join(shots, 'timeout.png') });
        fail(`${what} did not happen within ${seconds} s; state: ${JSON.stringify(s)?.slice(0, 300)}; console: ${problems.join(' | ')}`);
      }
      await page.waitForTimeout(250);
    }
  };
  // Distinct colours and dark pixels of a screenshot, decoded by the page itself.
  const pixels = async (png) => page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width; c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    let dark = 0;
    for (let i = 0; i < d.length; i += 4) {
      colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
      if (d[i] + d[i + 1] + d[i + 2] < 200) dark++;
    }
    return { colours: colours.size, dark, total: d.length / 4 };
  }, png.toString('base64'));

  const started = Date.now();
  await page.goto(url);
  // The page downloads and compiles the game, then waits for a first key or click (sound needs one).
  await page.waitForSelector('#overlay.ready', { timeout: 240_000 });
  const loaded = (Date.now() - started) / 1000;
  await page.keyboard.press('Enter');
  await waitFor('the title screen', (s) => s.screen === 'Title', 240);
  // The state says Title before the first frame is drawn: wait until the title really shows.
  let title;
  for (let i = 0; ; i++) {
    const png = await page.screenshot({ path: join(shots, '1-title.png') });
    title = await pixels(png);
    if (title.colours > 50 && title.dark > 500) break;
    if (i > 120) fail(`the title screen never rendered (pixels: ${JSON.stringify(title)})`);
    await page.waitForTimeout(500);
  }
  const toTitle = (Date.now() - started) / 1000;
  console.log(`web-test: downloaded and compiled in ${loaded.toFixed(1)} s; title screen rendered ${toTitle.toFixed(1)} s after navigation (${title.colours} colours)`);

  // Keyboard only: Red Stone (second game), size 5 (far left), White played by the computer (Easy), start.
  await page.focus('#bevy');
  const press = async (keys) => {
    for (const key of keys) {
      await page.keyboard.press(key);
      await page.waitForTimeout(100);
    }
  };
  // A screen ignores presses made before it opened, so wait for each screen as a player would.
  await press(['ArrowDown', 'Enter']);
  await waitFor('the setup screen', (s) => s.screen === 'Setup', 30);
  await press(['ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft',
    'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowDown', 'Enter']);
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(shots, '2-setup.png') });
  let s = await waitFor('the Red Stone board', (s) => s.screen === 'Playing' && Object.keys(s.cells).length > 0, 60);
  if (s.game !== 'red-stone') fail(`the keyboard started ${s.game}, not red-stone`);
  if (JSON.stringify(s.players) !== JSON.stringify(['human', 'easy'])) fail(`players are ${JSON.stringify(s.players)}`);
  if (Object.keys(s.cells).length !== 25) fail(`a 5×5 board has 25 points, got ${Object.keys(s.cells).length}`);
  await page.screenshot({ path: join(shots, '3-board.png') });

  // Mouse: click the centre point.
  const [x, y] = s.cells.C3;
  const framesBefore = await page.evaluate(() => { window.__maxGap = 0; return window.__frames; });
  const clickedAt = Date.now();
  await page.mouse.move(x, y);
  await page.waitForTimeout(200);
  await page.mouse.click(x, y);
  s = await waitFor("the computer's reply", (s) => s.history.length >= 2, 90);
  const seconds = (Date.now() - clickedAt) / 1000;
  const frames = (await page.evaluate(() => window.__frames)) - framesBefore;
  const maxGap = await page.evaluate(() => window.__maxGap);
  await page.waitForTimeout(1000);
  await page.screenshot({ path: join(shots, '4-reply.png') });
  if (s.history[0] !== 'C3') fail(`the click played ${s.history[0]}, not C3`);
  // The game in progress is kept in the page's localStorage (its own slot under games/) after
  // every move.
  await page.waitForTimeout(500);
  const kept = await page.evaluate(() => Object.keys(window.localStorage)
    .filter((k) => k.startsWith('stoneyard/games/'))
    .map((k) => window.localStorage.getItem(k)));
  const savedMoves = kept.length === 1 ? JSON.parse(kept[0]).moves.map((m) => m.decision) : null;
  if (JSON.stringify(savedMoves) !== JSON.stringify(s.history)) {
    fail(`localStorage holds ${kept.length} games in progress, with ${JSON.stringify(savedMoves)}; the game ${JSON.stringify(s.history)}`);
  } else {
    console.log(`web-test: localStorage keeps the game in progress with the moves ${JSON.stringify(savedMoves)}`);
  }
  console.log(`web-test: moves ${JSON.stringify(s.history)}; ${frames} frames in the ${seconds.toFixed(1)} s until the reply, longest gap ${maxGap.toFixed(0)} ms`);
  // Software rendering is slow (a few frames a second), but a search that blocked the page would
  // show as one long gap: the computer thinks in slices between frames.
  if (frames < 3 || maxGap > 1200) fail(`the page stalled while the computer thought (${frames} frames, longest gap ${maxGap.toFixed(0)} ms)`);
  if (problems.length) fail(`console errors or warnings:\n  ${problems.join('\n  ')}`);
  console.log('web-test: passed');
} finally {
  await browser.close();
  server.close();
}

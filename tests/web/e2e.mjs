// End-to-end test of the browser build in headless Chromium with SwiftShader WebGL, run by
// `make web-test`. Three runs:
// - desktop (1280×720, keyboard and mouse): the title, Red Stone 5×5 against the computer at Hard
//   by keyboard, a stone placed by mouse, the computer's reply thought in its Web Worker while the
//   page keeps drawing, "move now", a hint, the game kept in localStorage;
//   then clicks on a two-person board, each as the drawing's share of the pixels changes;
// - phone (390×844, touch, device scale factor 2): taps through the title and setup, a game
//   against the computer played by tapping spaces, a 19×19 board zoomed by pinching and by its
//   button and then played by tapping, and a Gravel stack dragged onto another; then turned
//   sideways (640×360), the board beside the panel and played by a tap.
// - online: the page served by `stoneyard serve` ($STONEYARD_SERVER_BIN) opens an invite link and
//   plays a game against a protocol client (a WebSocket in another page), the tab's title saying
//   "(1) Your turn" while a move is due and a notice shown in the background only once the player
//   allowed notices, finds the game again under "Play online" after a reload, and sees the
//   opponent resign.
// Screenshots go to $WEB_TEST_SHOTS (default /tmp/stoneyard-web-test), the phone's under phone-*.
import { launchChromium } from './chromium.mjs';
import { pixels } from './pixels.mjs';
import { spawn } from 'node:child_process';
import { readFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serveStatic } from './static-server.mjs';

const webRoot = resolve(process.argv[2] ?? '../../web');
// Where "Start game" is at the end of a newcomer's setup on the phone (under it: "Learn …" with
// the offer, then "Back").
const START_Y = 616;
// "Learn" on the phone's title scrolled to its end, and the Learn screen's rows (its games, then a
// game's lessons) from the top.
const LEARN_Y = 520;
const LEARN_GAME_Y = [152, 234];
const shots = resolve(process.env.WEB_TEST_SHOTS ?? '/tmp/stoneyard-web-test');
// While the computer thinks (in its worker) no task may hold the page's thread this long. Frame gaps
// are reported, not checked: under SwiftShader they measure the software renderer (the page gets
// frames no faster when idle), not the page's thread.
const LONGEST_TASK_MS = 100;

function fail(message) {
  console.error(`web-test FAILED: ${message}`);
  process.exitCode = 1;
  throw new Error(message);
}

// The page on a free loopback port.
const { server, url } = await serveStatic(webRoot);
await mkdir(shots, { recursive: true });
console.log(`web-test: serving ${webRoot} at ${url}; screenshots in ${shots}`);

/** One page of the game in its own browser context, with helpers to follow and drive it. */
async function openGame(browser, name, contextOptions) {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => {
    // ANGLE's SwiftShader backend reports its own performance notes ("GL Driver Message"); they
    // come from the software renderer of this test machine, not from the page.
    if (m.text().includes('GL Driver Message')) return;
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e}`));
  // Counts animation frames the page gets and the tasks that held its thread for 50 ms or more (a
  // computer thinking on the page's thread would show as both).
  await page.addInitScript(() => {
    window.__frames = 0;
    window.__maxGap = 0;
    window.__longGaps = [];
    window.__longestTask = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longestTask = Math.max(window.__longestTask, e.duration);
    }).observe({ type: 'longtask' });
    // Frames in which the page showed its spinner (the computer thinking; the game draws none for it).
    window.__spinnerFrames = 0;
    const spinning = () => [...document.querySelectorAll('.page-spinner')].some((e) => e.style.display === 'block');
    let last = performance.now();
    const tick = (now) => {
      window.__frames++;
      if (spinning()) window.__spinnerFrames++;
      window.__maxGap = Math.max(window.__maxGap, now - last);
      // The long gaps, each as [when it ended, ms since the measure started; how long it was].
      if (now - last > 50 && window.__since !== undefined) window.__longGaps.push([Math.round(now - window.__since), Math.round(now - last)]);
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const game = {
    page,
    context,
    problems,
    shot: (file) => page.screenshot({ path: join(shots, `${name}${file}.png`) }),
    state: async () => {
      const text = await page.evaluate(() => document.getElementById('stoneyard-state')?.textContent ?? '');
      return text ? JSON.parse(text) : null;
    },
    async waitFor(what, test, seconds) {
      const until = Date.now() + seconds * 1000;
      for (;;) {
        const s = await game.state();
        if (s && test(s)) return s;
        if (Date.now() > until) {
          await game.shot('timeout');
          fail(`${name}${what} did not happen within ${seconds} s; state: ${JSON.stringify(s && { ...s, cells: undefined })?.slice(0, 600)}; console: ${problems.join(' | ')}`);
        }
        await page.waitForTimeout(150);
      }
    },
    // Frames the page drew since `startFrames`, and the longest gap between two.
    startFrames: () => page.evaluate(() => {
      window.__maxGap = 0;
      window.__longGaps = [];
      window.__spinnerFrames = 0;
      window.__longestTask = 0;
      window.__since = performance.now();
      return window.__frames;
    }),
    frames: async (before) => {
      const { frames, gap, task, ms, spinner, longGaps } = await page.evaluate(() => ({
        frames: window.__frames, gap: window.__maxGap, task: window.__longestTask, ms: performance.now() - window.__since,
        spinner: window.__spinnerFrames, longGaps: window.__longGaps,
      }));
      return { frames: frames - before, gap, task, fps: ((frames - before) * 1000) / ms, spinner, longGaps };
    },
    // The page's frames over `ms` of doing nothing, to compare with the frames while thinking.
    async idleFrames(ms) {
      const before = await game.startFrames();
      await page.waitForTimeout(ms);
      return game.frames(before);
    },
    async tap(x, y, wait = 350) {
      await page.touchscreen.tap(x, y);
      await page.waitForTimeout(wait);
    },
    // Taps (x, y) until the state passes `done`, one tap at a time, each followed by waiting for
    // the state to change: a software-rendered frame can take a tap's touch and lift together and
    // drop it, so a count of blind taps sometimes fell short.
    async tapUntil(what, x, y, done, tries = 12) {
      let s = await game.state();
      for (let i = 0; i < tries && !done(s); i++) {
        const before = JSON.stringify(s?.setup);
        await page.touchscreen.tap(x, y);
        const until = Date.now() + 3000;
        do {
          await page.waitForTimeout(150);
          s = await game.state();
        } while (JSON.stringify(s?.setup) === before && Date.now() < until);
      }
      if (!done(s)) {
        await game.shot('timeout');
        fail(`${name}${what}: ${tries} taps at (${x}, ${y}) did not do it; setup: ${JSON.stringify(s?.setup)}`);
      }
      return s;
    },
    // A drag by one finger (Chromium's touch events through the DevTools protocol); `held` runs
    // with the finger still down at the last point (a screenshot of the piece under it).
    async touchPath(points, stepMs = 30, held = async () => {}) {
      const cdp = await context.newCDPSession(page);
      const [first, ...rest] = points;
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: first[0], y: first[1] }] });
      for (const [x, y] of rest) {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
        await page.waitForTimeout(stepMs);
      }
      await held();
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    },
    // Scrolls a menu to its end: three long swipes up (the scroll stops at the end, so where the
    // items land does not depend on how fast the page took the swipes). At the end of every
    // setup screen (a newcomer's: the "Learn" row offers the lessons) "Start game" is at
    // (195, START_Y) and the second side's "▶" just above.
    async toBottom() {
      for (let i = 0; i < 3; i++) await game.swipe([195, 760], [195, 160]);
    },
    // Scrolls a menu to its start (a newcomer's setup opens scrolled to the lessons' offer).
    async toTop() {
      for (let i = 0; i < 3; i++) await game.swipe([195, 160], [195, 760]);
    },
    // A swipe of about a second: the menus scroll by the finger's moves that the game sees in
    // frames between its touching down and its lifting, and the first frames of a screen, before
    // the drawing's share settles, take the software renderer 300 ms each (a quicker swipe fell
    // within one frame and scrolled nothing).
    async swipe(from, to) {
      const steps = Array.from({ length: 16 }, (_, k) => [from[0] + ((to[0] - from[0]) * k) / 15, from[1] + ((to[1] - from[1]) * k) / 15]);
      await game.touchPath(steps, 60);
      await page.waitForTimeout(600);
    },
    // Two fingers moving apart around `centre`, from `from` to `to` pixels between them.
    async pinch(centre, from, to) {
      const cdp = await context.newCDPSession(page);
      const points = (d) => [{ x: centre[0] - d / 2, y: centre[1], id: 1 }, { x: centre[0] + d / 2, y: centre[1], id: 2 }];
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: points(from) });
      for (let k = 1; k <= 12; k++) {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: points(from + ((to - from) * k) / 12) });
        await page.waitForTimeout(40);
      }
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await page.waitForTimeout(600);
    },
  };
  return game;
}


/** Loads the page, starts the game with `start` (a key or a tap) and waits for the drawn title. */
async function toTitle(game, start) {
  const started = Date.now();
  await game.page.goto(url);
  // The page downloads and compiles the game, then waits for a first key or tap (sound needs one).
  await game.page.waitForSelector('#overlay.ready', { timeout: 240_000 });
  const loaded = (Date.now() - started) / 1000;
  await start();
  await game.waitFor('the title screen', (s) => s.screen === 'Title', 240);
  // The state says Title before the first frame is drawn: wait until the title really shows.
  for (let i = 0; ; i++) {
    const png = await game.shot('1-title');
    const title = await pixels(game.page, png);
    if (title.colours > 50 && title.dark > 500) {
      return { loaded, toTitle: (Date.now() - started) / 1000, colours: title.colours };
    }
    if (i > 120) fail(`the title screen never rendered (pixels: ${JSON.stringify(title)})`);
    await game.page.waitForTimeout(500);
  }
}

/** The canvas's drawing buffer: its size and the share of the page's device pixels it draws. */
const drawnAt = async (page) => page.evaluate(() => {
  const c = document.getElementById('bevy');
  return `${c.width}×${c.height} (${Math.round(Number(c.dataset.renderScale ?? 1) * 100)}% of the device pixels across)`;
});

/** Waits for the computer's reply to decision `n`, measuring the page's frames meanwhile. */
async function computerReply(game, n, what) {
  const before = await game.startFrames();
  const askedAt = Date.now();
  const s = await game.waitFor(what, (s) => s.history.length > n && !s.computer.thinking, 180);
  const seconds = (Date.now() - askedAt) / 1000;
  const { frames, gap, task, fps, spinner, longGaps } = await game.frames(before);
  const last = s.computer.last;
  // The page turns the spinner while the worker thinks, and takes it away with the answer.
  const spinnerLeft = await game.page.evaluate(() => [...document.querySelectorAll('.page-spinner')].filter((e) => e.style.display === 'block').length);
  if (spinnerLeft) fail(`${what}: the page still shows a spinner after the computer answered`);
  if (!last || last.place !== 'worker') fail(`${what}: the computer did not think in its Web Worker (${JSON.stringify(last)})`);
  if (task >= LONGEST_TASK_MS) fail(`${what}: a task held the page's thread for ${task.toFixed(0)} ms while the computer thought`);
  // At least a frame a second (a reply that came within the first second, as "move now"'s may
  // before the count starts, needs none).
  if (frames < Math.floor(seconds)) fail(`${what}: only ${frames} frames in ${seconds.toFixed(1)} s while the computer thought`);
  return { s, seconds, frames, gap, task, fps, last, spinner, longGaps };
}

/** Starts `stoneyard serve` on a free loopback port with a throwaway store, serving the page too. */
async function startGameServer() {
  const binary = process.env.STONEYARD_SERVER_BIN;
  if (!binary) fail('STONEYARD_SERVER_BIN (a stoneyard binary with `serve`) is not set');
  const dir = await mkdtemp(join(tmpdir(), 'stoneyard-web-online-'));
  const child = spawn(binary, ['serve', '--listen', '127.0.0.1:0', '--database', `sqlite://${join(dir, 'games.sqlite3')}`, '--web', webRoot],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const origin = await new Promise((ok, no) => {
    const read = (chunk) => {
      output += chunk;
      const found = output.match(/listening on (http:\/\/[0-9.]+:[0-9]+)/);
      if (found) ok(`${found[1]}/`);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => no(new Error(`stoneyard serve exited (${code}): ${output}`)));
    // Unreferenced: a pending timer would keep Node running after the test (30 s from here).
    setTimeout(() => no(new Error(`stoneyard serve did not start in 30 s: ${output}`)), 30_000).unref();
  });
  return {
    origin,
    socket: `${origin.replace('http://', 'ws://')}ws`,
    async stop() {
      child.kill('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A client of the online protocol: a WebSocket opened in a blank page of its own. */
async function protocolClient(browser, socketUrl) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.evaluate((u) => new Promise((ok, no) => {
    window.__inbox = [];
    window.__ws = new WebSocket(u);
    window.__ws.onmessage = (e) => window.__inbox.push(JSON.parse(e.data));
    window.__ws.onopen = () => ok();
    window.__ws.onerror = () => no(new Error(`cannot open ${u}`));
  }), socketUrl);
  return {
    context,
    send: (message) => page.evaluate((m) => window.__ws.send(JSON.stringify(m)), message),
    /** The next message of this type (others stay in the inbox). */
    async receive(type, test = () => true, seconds = 30) {
      const until = Date.now() + seconds * 1000;
      for (;;) {
        const inbox = await page.evaluate(() => window.__inbox);
        const found = inbox.find((m) => m.type === type && test(m));
        if (found) {
          await page.evaluate((i) => window.__inbox.splice(i, 1), inbox.indexOf(found));
          return found;
        }
        const refusal = inbox.find((m) => m.type === 'error');
        if (refusal) fail(`online: the server refused the protocol client: ${JSON.stringify(refusal)}`);
        if (Date.now() > until) fail(`online: no ${type} from the server in ${seconds} s (inbox ${JSON.stringify(inbox).slice(0, 300)})`);
        await page.waitForTimeout(100);
      }
    },
  };
}

const phoneOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true };

/** A phone page on the setup screen of the game whose title card is at height `cardY`. */
async function phoneSetup(browser, name, cardY) {
  const game = await openGame(browser, name, phoneOptions);
  const title = await toTitle(game, () => game.page.tap('#play'));
  // The title's game cards fill the phone's width, one under the other.
  await game.tap(195, cardY, 800);
  await game.waitFor('the setup screen after a tap', (s) => s.screen === 'Setup', 30);
  return { game, title };
}

const browser = await launchChromium();
const report = [];
try {
  // ---------------------------------------------------------------- desktop: keyboard and mouse
  const desk = await openGame(browser, '', { viewport: { width: 1280, height: 720 } });
  const page = desk.page;
  // A three-core machine: the page keeps one core, and Hard thinks on two workers at once, each
  // one searcher of the decision from its own seed, their root visits summed.
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 3 });
  });
  const title = await toTitle(desk, () => page.keyboard.press('Enter'));
  console.log(`web-test: downloaded and compiled in ${title.loaded.toFixed(1)} s; title screen rendered ${title.toTitle.toFixed(1)} s after navigation (${title.colours} colours)`);
  // The service worker keeps the build for offline play, with every game's lesson and practice
  // books (the list comes from the exported books, not from a list of games in sw.js).
  const workerKept = await page.evaluate(async () => {
    const active = await Promise.race([navigator.serviceWorker.ready, new Promise((r) => setTimeout(() => r(null), 60_000))]);
    if (!active) return null;
    const urls = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    }
    return urls;
  });
  if (!workerKept) fail('the service worker never became active');
  const keptBooks = workerKept.filter((path) => /\/pkg\/(lessons|practice)\/[a-z-]+\.json$/.test(path));
  for (const shelf of ['lessons', 'practice']) {
    for (const slug of ['gravel', 'red-stone', 'throngs', 'inchworm', 'hidden-intention']) {
      if (!keptBooks.some((path) => path.endsWith(`/pkg/${shelf}/${slug}.json`))) fail(`the service worker did not keep ${shelf}/${slug}.json (kept: ${workerKept.join(' ')})`);
    }
  }
  console.log(`web-test: the service worker keeps ${workerKept.length} files, ${keptBooks.length} of them books`);

  // Keyboard only: Red Stone (second game), size 5 (far left), White played by the computer (Hard), start.
  await page.focus('#bevy');
  const press = async (keys) => {
    for (const key of keys) {
      await page.keyboard.press(key);
      await page.waitForTimeout(100);
    }
  };
  // A screen ignores presses made before it opened, so wait for each screen as a player would.
  await press(['ArrowDown', 'Enter']);
  await desk.waitFor('the setup screen', (s) => s.screen === 'Setup', 30);
  // A newcomer's first setup of a game offers its lessons (the focus is on "Learn Red Stone"):
  // past "Back", the focus wraps to the first row.
  await desk.shot('2-setup-offer');
  await press(['ArrowDown', 'ArrowDown']);
  await press(['ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft',
    'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowDown', 'Enter']);
  await page.waitForTimeout(500);
  await desk.shot('2-setup');
  let s = await desk.waitFor('the Red Stone board', (s) => s.screen === 'Playing' && Object.keys(s.cells).length > 0, 60);
  if (s.game !== 'red-stone') fail(`the keyboard started ${s.game}, not red-stone`);
  if (JSON.stringify(s.players) !== JSON.stringify(['human', 'hard'])) fail(`players are ${JSON.stringify(s.players)}`);
  if (Object.keys(s.cells).length !== 25) fail(`a 5×5 board has 25 points, got ${Object.keys(s.cells).length}`);
  await desk.shot('3-board');
  await page.mouse.move(...s.cells.C3);
  const idle = await desk.idleFrames(3000);

  // Mouse: click the centre point; the computer (Hard, its full budget) replies from its worker.
  const [x, y] = s.cells.C3;
  await page.mouse.move(x, y);
  await page.waitForTimeout(200);
  await page.mouse.click(x, y);
  const hard = await computerReply(desk, 1, "the Hard computer's reply");
  if (hard.spinner === 0) fail(`the page never showed its spinner in the ${hard.frames} frames while Hard thought`);
  s = hard.s;
  await page.waitForTimeout(1000);
  await desk.shot('4-reply');
  if (s.history[0] !== 'C3') fail(`the click played ${s.history[0]}, not C3`);
  if (hard.last.searchers !== 2) fail(`Hard thought on ${hard.last.searchers} workers, not 2 (one per core but one)`);
  report.push(`desktop drawn at ${await drawnAt(page)}: Hard's reply (${hard.last.iterations} iterations on ${hard.last.searchers} workers) took ${hard.last.ms} ms; while it thought ${hard.fps.toFixed(1)} frames per second (the spinner in ${hard.spinner}), longest gap ${hard.gap.toFixed(0)} ms (gaps over 50 ms, as [ended ms after the click was sent, ms long]: ${JSON.stringify(hard.longGaps)}), longest task ${hard.task.toFixed(0)} ms; idle ${idle.fps.toFixed(1)} frames per second, longest gap ${idle.gap.toFixed(0)} ms`);
  console.log(`web-test: ${report.at(-1)}`);

  // The game in progress is kept in the page's localStorage (its own slot under games/) after
  // every move: a journal, the record as first kept, then a line per decision (or decisions
  // taken back).
  await page.waitForTimeout(500);
  const kept = await page.evaluate(() => Object.keys(window.localStorage)
    .filter((k) => k.startsWith('stoneyard/games/'))
    .map((k) => window.localStorage.getItem(k)));
  const journalMoves = (text) => {
    const [first, ...lines] = text.split('\n').filter((line) => line !== '');
    const moves = JSON.parse(first).moves.map((m) => m.decision);
    for (const line of lines.map((l) => JSON.parse(l))) {
      if (line.move) moves.push(line.move.decision);
      if (line.keep !== undefined) moves.length = line.keep;
    }
    return moves;
  };
  const savedMoves = kept.length === 1 ? journalMoves(kept[0]) : null;
  if (JSON.stringify(savedMoves) !== JSON.stringify(s.history)) {
    fail(`localStorage holds ${kept.length} games in progress, with ${JSON.stringify(savedMoves)}; the game ${JSON.stringify(s.history)}`);
  }
  console.log(`web-test: localStorage keeps the game in progress with the moves ${JSON.stringify(savedMoves)}`);

  // A hint (Q) comes from the worker too: one of the legal decisions.
  await press(['q']);
  s = await desk.waitFor('a hint', (s) => s.computer.hint !== null, 60);
  if (!s.decisions.includes(s.computer.hint)) fail(`the hint ${s.computer.hint} is not a legal decision (${s.decisions})`);
  console.log(`web-test: hint ${s.computer.hint}`);

  // "Move now" (E) while Hard thinks: the worker answers at once with fewer iterations.
  const free = s.decisions.find((d) => s.cells[d] && d !== s.computer.hint) ?? s.computer.hint;
  await page.mouse.move(...s.cells[free]);
  await page.waitForTimeout(200);
  await page.mouse.click(...s.cells[free]);
  await desk.waitFor(`the computer thinking after ${free}`, (s) => s.computer.thinking, 30);
  await page.waitForTimeout(300);
  const movedAt = Date.now();
  await press(['e']);
  const quick = await computerReply(desk, 3, 'the reply after "move now"');
  const afterPress = (Date.now() - movedAt) / 1000;
  if (quick.last.iterations >= hard.last.iterations) fail(`"move now" did not cut the search short (${quick.last.iterations} iterations)`);
  console.log(`web-test: "move now" answered ${afterPress.toFixed(1)} s after the press, after ${quick.last.iterations} iterations`);
  if (desk.problems.length) fail(`console errors or warnings:\n  ${desk.problems.join('\n  ')}`);
  await desk.context.close();

  // ---------------------------------------------------------------- clicks while the drawing's scale changes
  // A slow renderer draws fewer pixels (app/render_scale.rs), and the share changes as frames get
  // slow and quick again, in the middle of a game. Here the page pins a new share right before
  // each click (the app takes it in the update the click wakes): every click must play the point
  // under the pointer, at every share, and the board must stay where it was on the page.
  const scaler = await openGame(browser, 'scale-', { viewport: { width: 1280, height: 720 } });
  await toTitle(scaler, () => scaler.page.keyboard.press('Enter'));
  await scaler.page.focus('#bevy');
  // Red Stone, size 5, two people on this device (the setup's defaults for the sides).
  for (const key of ['ArrowDown', 'Enter']) { await scaler.page.keyboard.press(key); await scaler.page.waitForTimeout(100); }
  await scaler.waitFor('the setup screen', (s) => s.screen === 'Setup', 30);
  for (const key of ['ArrowDown', 'ArrowDown', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft',
    'ArrowDown', 'ArrowDown', 'ArrowDown', 'Enter']) {
    await scaler.page.keyboard.press(key);
    await scaler.page.waitForTimeout(100);
  }
  s = await scaler.waitFor('the two-person Red Stone board', (s) => s.screen === 'Playing' && Object.keys(s.cells).length === 25, 60);
  if (JSON.stringify(s.players) !== JSON.stringify(['human', 'human'])) fail(`scale test: players are ${JSON.stringify(s.players)}`);
  const board = s.cells;
  const clicks = [['A1', 0.6], ['E5', 0.9], ['C3', 0.5], ['A5', 1], ['E1', 0.7], ['C1', 0.55], ['C5', 0.8], ['A3', 0.65]];
  const scalesSeen = [];
  for (const [i, [point, share]] of clicks.entries()) {
    await scaler.page.evaluate((share) => { document.getElementById('bevy').dataset.pinRenderScale = String(share); }, share);
    await scaler.page.mouse.click(...board[point]);
    s = await scaler.waitFor(`the click on ${point} at ${share}`, (s) => s.history.length > i, 20);
    if (s.history[i] !== point) fail(`scale test: a click on ${point} while the drawing changed to ${share} played ${s.history[i]}`);
    await scaler.page.waitForTimeout(400);
    s = await scaler.state();
    for (const [name, at] of Object.entries(board)) {
      if (Math.hypot(s.cells[name][0] - at[0], s.cells[name][1] - at[1]) > 1.5) fail(`scale test: at ${share}, ${name} moved from ${at} to ${s.cells[name]}`);
    }
    scalesSeen.push(await scaler.page.evaluate(() => document.getElementById('bevy').dataset.renderScale));
  }
  if (scalesSeen.join() !== clicks.map(([, share]) => share.toFixed(2)).join()) fail(`scale test: drawn at ${scalesSeen}, pinned ${clicks.map(([, v]) => v)}`);
  await scaler.shot('1-after');
  console.log(`web-test: ${clicks.length} clicks, each as the drawing's share changed (${scalesSeen.join(', ')}), played the points clicked`);
  if (scaler.problems.length) fail(`console errors or warnings:\n  ${scaler.problems.join('\n  ')}`);
  await scaler.context.close();

  // ---------------------------------------------------------------- a review in the worker
  // A finished game in the history (Red Stone's spec record, White's A5 handing Black a red stone
  // that takes everything), opened from Finished games by keys; Q in the replay asks for the
  // computer's review, which the worker fills in position by position.
  const reviewer = await openGame(browser, 'review-', { viewport: { width: 1280, height: 720 } });
  const specMoves = ['C3', 'swap', 'A1', 'B1', 'A2', 'B2', 'A3', 'B3', 'A4', 'B4', 'A5', 'B5*'];
  await reviewer.page.addInitScript((moves) => {
    const key = 'stoneyard/history/1795000000000-red-stone-0000000000000001.json';
    if (window.localStorage.getItem(key)) return;
    const record = { format: 1, game: 'red-stone', options: [['size', '5']], seed: 1, players: ['human', 'human'],
      start: null, moves: moves.map((decision) => ({ decision, at_ms: 0 })), started_unix: 1795000000, result: { winner: 'b' } };
    window.localStorage.setItem(key, JSON.stringify({ format: 1, finished_unix_ms: 1795000000000, result: 'Black wins',
      moves: moves.length, record }));
  }, specMoves);
  // A four-core machine: the page keeps one core and the review runs on three workers at once.
  await reviewer.page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 4 });
  });
  await toTitle(reviewer, () => reviewer.page.keyboard.press('Enter'));
  await reviewer.page.focus('#bevy');
  const keys = async (list) => {
    for (const key of list) {
      await reviewer.page.keyboard.press(key);
      await reviewer.page.waitForTimeout(150);
    }
  };
  // Title: the five games, Learn, Online, Saved games; Saved games: a record, Finished games.
  await keys(['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'Enter']);
  await reviewer.waitFor('Saved games', (s) => s.screen === 'Saves', 30);
  await keys(['ArrowDown', 'Enter']);
  await reviewer.waitFor('Finished games', (s) => s.screen === 'History', 30);
  await keys(['Enter']);
  await reviewer.waitFor('the replay', (s) => s.screen === 'Playing' && s.history.length === specMoves.length, 30);
  const reviewStarted = Date.now();
  await keys(['q']);
  s = await reviewer.waitFor('the review', (s) => s.review && s.review.progress[0] === s.review.progress[1], 120);
  const reviewSeconds = (Date.now() - reviewStarted) / 1000;
  if (s.review.graph.length !== specMoves.length + 1) fail(`the review's graph has ${s.review.graph.length} points`);
  if (s.review.at_once !== 3) fail(`the review analysed ${s.review.at_once} positions at once, not 3 (one worker per core but one)`);
  if (s.review.labels[10] !== 'blunder') fail(`A5 is labelled ${s.review.labels[10]}, not blunder (${s.review.labels})`);
  // The same review as natively (core/src/ai/review/tests.rs checks the desktop's against this file).
  const native = JSON.parse(await readFile(new URL('./review-red-stone.json', import.meta.url), 'utf8'));
  const sameGraph = native.graph.every((v, i) => Math.abs(v - s.review.graph[i]) < 0.0005);
  if (JSON.stringify(native.labels) !== JSON.stringify(s.review.labels) || !sameGraph) {
    fail(`the browser's review differs from the desktop's:\n  browser ${s.review.labels} ${s.review.graph}\n  desktop ${native.labels} ${native.graph}`);
  }
  await reviewer.page.waitForTimeout(500);
  const graphShot = await reviewer.shot('graph');
  const panel = await pixels(reviewer.page, graphShot);
  if (panel.colours < 50) fail('the review screen did not draw');
  console.log(`web-test: review of ${specMoves.length} moves on ${s.review.at_once} workers in ${reviewSeconds.toFixed(1)} s; labels ${s.review.labels.join(' ')}; graph ${s.review.graph.join(' ')}`);
  if (reviewer.problems.length) fail(`console errors or warnings:\n  ${reviewer.problems.join('\n  ')}`);
  await reviewer.context.close();

  // ---------------------------------------------------------------- phone: touch only
  const { game: phone, title: phoneTitle } = await phoneSetup(browser, 'phone-', 310);
  const tap = phone.tap;
  // Board size 11 → 7 with the "−" button (from the top: a newcomer's setup opens at the
  // lessons' offer), then scroll down and make White the computer (Easy).
  await phone.toTop();
  await phone.tapUntil('board size 7 by "−"', 47, 380, (s) => s.setup?.options.size === '7');
  await phone.toBottom();
  await phone.tapUntil('White played by the computer', 98, START_Y - 104, (s) => s.setup?.players[1] === 'easy', 3);
  await phone.shot('2-setup');
  await tap(195, START_Y);
  s = await phone.waitFor('the 7×7 board', (s) => s.screen === 'Playing' && Object.keys(s.cells).length === 49, 60);
  if (JSON.stringify(s.players) !== JSON.stringify(['human', 'easy'])) fail(`phone: players are ${JSON.stringify(s.players)}`);
  await phone.shot('3-board');
  const phoneIdle = await phone.idleFrames(3000);
  // Three moves by tapping free points; the computer answers each.
  let worst = { gap: 0, fps: Infinity, task: 0 };
  const longGaps = [];
  for (let move = 0; move < 3; move++) {
    const n = s.history.length;
    const point = ['D4', 'C3', 'E5', 'C5', 'E3', 'B2', 'F6'].find((p) => s.decisions.includes(p));
    await tap(...s.cells[point], 0);
    const reply = await computerReply(phone, n + 1, `the reply to the phone's move ${move + 1}`);
    s = reply.s;
    if (s.history[n] !== point) fail(`phone: tapping ${point} played ${s.history[n]}`);
    worst = { gap: Math.max(worst.gap, reply.gap), fps: Math.min(worst.fps, reply.fps), task: Math.max(worst.task, reply.task) };
    longGaps.push(reply.longGaps);
    await phone.page.waitForTimeout(800);
  }
  await phone.shot('4-played');
  report.push(`phone drawn at ${await drawnAt(phone.page)}: while the computer thought, slowest ${worst.fps.toFixed(1)} frames per second, longest gap ${worst.gap.toFixed(0)} ms (gaps over 50 ms in each reply, as above: ${JSON.stringify(longGaps)}), longest task ${worst.task.toFixed(0)} ms; idle ${phoneIdle.fps.toFixed(1)} frames per second, longest gap ${phoneIdle.gap.toFixed(0)} ms`);
  console.log(`web-test: phone moves ${JSON.stringify(s.history)}; ${report.at(-1)}`);
  if (phone.problems.length) fail(`phone console errors or warnings:\n  ${phone.problems.join('\n  ')}`);
  await phone.context.close();

  // A 19×19 board: its spaces are too small for a finger, so it zooms (pinch, and the buttons).
  const { game: big } = await phoneSetup(browser, 'phone-zoom-', 310);
  await big.toTop();
  await big.tapUntil('board size 19 by "+"', 171, 380, (s) => s.setup?.options.size === '19');
  await big.toBottom();
  await big.tap(195, START_Y);
  s = await big.waitFor('the 19×19 board', (s) => s.screen === 'Playing' && Object.keys(s.cells).length === 361, 60);
  if (!s.zoom.offered) fail('a 19×19 board on a phone does not offer zoom');
  const spacing = (s) => s.cells.K10[0] - s.cells.J10[0];
  const unzoomed = spacing(s);
  await big.pinch(s.cells.K10, 60, 180);
  s = await big.waitFor('the pinch zooming in', (s) => s.zoom.factor > 1.5, 20);
  const pinched = spacing(s);
  await big.shot('1-pinched');
  // Tap the space nearest the middle of the board area: it is the one played.
  const middle = Object.entries(s.cells).sort(([, a], [, b]) => Math.hypot(a[0] - 195, a[1] - 190) - Math.hypot(b[0] - 195, b[1] - 190))[0];
  await big.page.touchscreen.tap(...middle[1]);
  s = await big.waitFor('a stone placed on the zoomed board', (s) => s.history.length === 1, 20);
  if (s.history[0] !== middle[0]) fail(`tapping ${middle[0]} on the zoomed board played ${s.history[0]}`);
  const pinchedFactor = s.zoom.factor;
  // "−" at the board's top right corner halves the zoom; the tap on it places no stone.
  await big.tap(325, 25, 800);
  s = await big.waitFor('the zoom out button', (s) => s.zoom.factor < pinchedFactor, 20);
  if (s.history.length !== 1) fail(`the tap on the zoom button played ${s.history.slice(1)}`);
  console.log(`web-test: phone 19×19: points ${unzoomed} px apart, ${pinched} px after the pinch (zoom ${pinchedFactor.toFixed(2)}, ${s.zoom.factor.toFixed(2)} after "−"); tapped ${middle[0]}`);
  if (big.problems.length) fail(`phone console errors or warnings:\n  ${big.problems.join('\n  ')}`);
  await big.context.close();

  // Gravel, two people on the phone: two stacks placed by tapping (a turn goes on until "end"),
  // then one dragged onto the other.
  const { game: gravel } = await phoneSetup(browser, 'phone-gravel-', 180);
  await gravel.toBottom();
  await gravel.tap(195, START_Y);
  s = await gravel.waitFor('the Gravel board', (s) => s.screen === 'Playing' && s.game === 'gravel' && Object.keys(s.cells).length > 0, 60);
  for (const [i, space] of ['d4', 'd5'].entries()) {
    await gravel.page.touchscreen.tap(...s.cells[space]);
    s = await gravel.waitFor(`the stack placed on ${space}`, (s) => s.history.length === i + 1, 20);
    await gravel.page.waitForTimeout(700);
  }
  if (!s.decisions.includes('d4>d5')) fail(`Gravel offers no move d4>d5 (${s.decisions})`);
  const [from, to] = [s.cells.d4, s.cells.d5];
  // The stack follows the finger: a picture with the finger still down over d5.
  await gravel.touchPath(Array.from({ length: 11 }, (_, k) => [from[0] + ((to[0] - from[0]) * k) / 10, from[1] + ((to[1] - from[1]) * k) / 10]), 50,
    async () => { await gravel.page.waitForTimeout(300); await gravel.shot('1-dragging'); });
  s = await gravel.waitFor('the dragged stack moving', (s) => s.history.length === 3, 20);
  if (s.history[2] !== 'd4>d5') fail(`dragging d4 onto d5 played ${s.history[2]}`);
  await gravel.page.waitForTimeout(800);
  await gravel.shot('1-dragged');
  console.log(`web-test: phone Gravel: ${JSON.stringify(s.history)} (the last one dragged)`);
  if (gravel.problems.length) fail(`phone console errors or warnings:\n  ${gravel.problems.join('\n  ')}`);
  await gravel.context.close();

  // The phone turned sideways (640×360, touch): the board at the left as tall as the screen, the
  // phone's panel beside it; a tap on a space plays there.
  const sideways = await openGame(browser, 'sideways-', { ...phoneOptions, viewport: { width: 640, height: 360 } });
  await toTitle(sideways, () => sideways.page.tap('#play'));
  await sideways.tap(320, 180, 800);
  await sideways.waitFor('the setup screen after a tap on Gravel', (s) => s.screen === 'Setup', 30);
  // A newcomer's setup offers the lessons first: "Start game" is the row above.
  for (const key of ['ArrowUp', 'Enter']) {
    await sideways.page.keyboard.press(key);
    await sideways.page.waitForTimeout(250);
  }
  s = await sideways.waitFor('the sideways Gravel board', (s) => s.screen === 'Playing' && Object.keys(s.cells).length > 0, 60);
  const across = Object.values(s.cells).map(([x]) => x);
  if (Math.max(...across) > 330) fail(`sideways: the board reaches x = ${Math.max(...across)}, into the panel`);
  await sideways.page.touchscreen.tap(...s.cells.c3);
  s = await sideways.waitFor('the stack placed on c3 by a tap', (s) => s.history.length === 1, 20);
  if (!s.history[0].includes('c3')) fail(`sideways: tapping c3 played ${s.history[0]}`);
  await sideways.page.waitForTimeout(700);
  await sideways.shot('1-played');
  console.log(`web-test: sideways phone: board spaces from x ${Math.min(...across)} to ${Math.max(...across)}, tapped c3`);
  if (sideways.problems.length) fail(`sideways console errors or warnings:\n  ${sideways.problems.join('\n  ')}`);
  await sideways.context.close();

  // A lesson on the phone: the book fetched beside the game's module, the lesson solved by a tap.
  const { game: learner } = await (async () => {
    const game = await openGame(browser, 'phone-learn-', phoneOptions);
    await toTitle(game, () => game.page.tap('#play'));
    // Under the five game cards: "Learn".
    await game.toBottom();
    await game.shot('1-title-bottom');
    await game.tap(195, LEARN_Y, 800);
    await game.waitFor('the Learn screen', (s) => s.screen === 'Learn', 30);
    return { game };
  })();
  s = await learner.waitFor('the five books fetched', (s) => Object.values(s.books).filter((n) => typeof n === 'number').length === 5, 30);
  console.log(`web-test: lessons fetched: ${JSON.stringify(s.books)}`);
  await learner.shot('2-learn');
  // Red Stone, then its first lesson.
  await learner.tap(195, LEARN_GAME_Y[1], 800);
  await learner.tap(195, LEARN_GAME_Y[0], 800);
  s = await learner.waitFor('the first lesson', (s) => s.screen === 'Playing' && s.lesson?.id === 'placing', 30);
  await learner.shot('3-lesson');
  await learner.page.touchscreen.tap(...s.cells.C3);
  s = await learner.waitFor('the lesson solved', (s) => s.lesson?.standing === 'solved', 20);
  await learner.page.waitForTimeout(500);
  await learner.shot('4-solved');
  if (learner.problems.length) fail(`phone console errors or warnings:\n  ${learner.problems.join('\n  ')}`);
  await learner.context.close();

  // ---------------------------------------------------------------- online: the page against a protocol client
  const gameServer = await startGameServer();
  try {
    const host = await protocolClient(browser, gameServer.socket);
    await host.receive('welcome');
    await host.send({ type: 'create', game: 'red-stone', options: [['size', '5']], seat: 'first' });
    const created = await host.receive('created');
    await host.send({ type: 'open', game_id: created.game_id, token: created.token, have: 0 });
    await host.receive('state');
    // The friend opens the invite link: the page joins at once and shows the board.
    const guest = await openGame(browser, 'online-', { viewport: { width: 1280, height: 720 } });
    // The page's notices are recorded as it makes them, and the tab can be sent to the background
    // (document.hidden, as when the player looks at another tab).
    await guest.page.addInitScript(() => {
      window.__notices = [];
      window.__hidden = false;
      Object.defineProperty(document, 'hidden', { get: () => window.__hidden });
      const hasFocus = document.hasFocus.bind(document);
      document.hasFocus = () => !window.__hidden && hasFocus();
      const Real = window.Notification;
      class Recorded extends Real {
        constructor(title, options) {
          window.__notices.push({ title, body: options?.body });
          super(title, options);
        }
      }
      Object.defineProperty(Recorded, 'permission', { get: () => Real.permission });
      Recorded.requestPermission = (...args) => Real.requestPermission(...args);
      window.Notification = Recorded;
    });
    const link = `${gameServer.origin}?join=${created.code}`;
    await guest.page.goto(link);
    await guest.page.waitForSelector('#overlay.ready', { timeout: 240_000 });
    await guest.page.keyboard.press('Enter');
    await guest.page.focus('#bevy');
    s = await guest.waitFor(' the joined game', (s) => s.screen === 'Playing' && s.game === 'red-stone' && Object.keys(s.cells).length === 25, 60);
    // Three moves each: the host's through the protocol, the page's by clicking a point.
    // Rounds 1 and 2 happen with the tab in the background: in round 1 the player has not allowed
    // notices yet (none may be shown), before round 2 they allow them (one must be shown). In
    // every round the tab's title says a move is due until the page moves.
    const titleIs = async (want, what) => {
      const until = Date.now() + 15_000;
      while ((await guest.page.title()) !== want) {
        if (Date.now() > until) fail(`online: the tab's title is "${await guest.page.title()}" ${what}, not "${want}"`);
        await guest.page.waitForTimeout(100);
      }
    };
    for (let round = 0; round < 3; round++) {
      const ply = s.history.length;
      const hostMove = s.decisions.find((d) => s.cells[d]);
      if (round === 2) await guest.context.grantPermissions(['notifications'], { origin: gameServer.origin });
      await guest.page.evaluate((hidden) => { window.__hidden = hidden; }, round > 0);
      await host.send({ type: 'move', game_id: created.game_id, token: created.token, ply, decision: hostMove });
      await host.receive('ack', (m) => m.ply === ply);
      s = await guest.waitFor(` the opponent's ${hostMove}`, (s) => s.history.length === ply + 1 && s.person_to_act, 30);
      await titleIs('(1) Your turn · Stoneyard', `after the opponent's ${hostMove}`);
      await guest.page.waitForTimeout(300);
      const notices = await guest.page.evaluate(() => window.__notices);
      const permission = await guest.page.evaluate(() => Notification.permission);
      if (round === 1 && notices.length) fail(`online: a notice was made without the player's permission (${permission}): ${JSON.stringify(notices)}`);
      if (round === 2 && !notices.some((n) => n.title === 'Your turn · Stoneyard' && n.body === 'Your move in Red Stone')) {
        fail(`online: no notice in the background with permission ${permission}: ${JSON.stringify(notices)}`);
      }
      await guest.page.evaluate(() => { window.__hidden = false; });
      // As a player would, it lets the opponent's move be shown (a press during its animation
      // only skips to the end): the longest flourish of a move lasts under half a second.
      await guest.page.waitForTimeout(500);
      if (s.history[ply] !== hostMove) fail(`online: the host played ${hostMove}, the page shows ${s.history[ply]}`);
      const mine = ['C3', 'B2', 'D4', 'B4', 'D2', 'C2', 'C4'].find((p) => s.decisions.includes(p));
      await guest.page.mouse.move(...s.cells[mine]);
      await guest.page.waitForTimeout(200);
      await guest.page.mouse.click(...s.cells[mine]);
      const moved = await host.receive('moved', (m) => m.mv.ply === ply + 1);
      if (moved.mv.decision !== mine) fail(`online: the page clicked ${mine}, the server stored ${moved.mv.decision}`);
      s = await guest.waitFor(` its own ${mine}`, (s) => s.history.length === ply + 2, 30);
      await titleIs('Stoneyard', `after the page's own ${mine}`);
    }
    const played = s.history;
    await guest.page.waitForTimeout(800);
    await guest.shot('1-played');
    const seats = await guest.page.evaluate(() => window.localStorage.getItem('stoneyard/online/seats.json'));
    if (!seats || !seats.includes(created.game_id)) fail(`online: the page did not keep its seat (${seats})`);
    // After a reload (the link's code is gone from the address) the game is under "Play online".
    await guest.page.goto(gameServer.origin);
    await guest.page.waitForSelector('#overlay.ready', { timeout: 240_000 });
    await guest.page.keyboard.press('Enter');
    await guest.waitFor(' the title after a reload', (s) => s.screen === 'Title', 60);
    await guest.page.focus('#bevy');
    // The five games, "Learn", then "Play online".
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'Enter']) {
      await guest.page.keyboard.press(key);
      await guest.page.waitForTimeout(150);
    }
    await guest.waitFor(' the online screen', (s) => s.screen === 'Online', 30);
    await guest.page.waitForTimeout(1500);
    await guest.shot('2-lobby');
    // Without a name: "Choose a name", "Sign in", then (no open challenges, no game being played
    // between signed-in players) "My online games".
    for (const key of ['ArrowDown', 'ArrowDown', 'Enter']) {
      await guest.page.keyboard.press(key);
      await guest.page.waitForTimeout(150);
    }
    s = await guest.waitFor(' the game found again', (s) => s.screen === 'Playing' && s.history.length === played.length, 30);
    if (JSON.stringify(s.history) !== JSON.stringify(played)) fail(`online: found again with ${s.history}, played ${played}`);
    // The host resigns: the page shows the end.
    await host.send({ type: 'resign', game_id: created.game_id, token: created.token });
    await host.receive('ended');
    s = await guest.waitFor(' the opponent resigning', (s) => s.over, 30);
    await guest.page.waitForTimeout(800);
    await guest.shot('3-resigned');
    console.log(`web-test: online: joined ${created.code} by its link, played ${JSON.stringify(played)} against a protocol client through stoneyard serve, the tab's title and a notice in the background once allowed, found the game again after a reload, saw the resignation`);
    if (guest.problems.length) fail(`online console errors or warnings:\n  ${guest.problems.join('\n  ')}`);
    await guest.context.close();
    await host.context.close();
  } finally {
    await gameServer.stop();
  }

  console.log(`web-test: phone title rendered ${phoneTitle.toTitle.toFixed(1)} s after navigation`);
  for (const line of report) console.log(`web-test: ${line}`);
  console.log('web-test: passed');
} finally {
  await browser.close();
  server.close();
}

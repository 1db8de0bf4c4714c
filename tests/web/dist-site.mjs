// The site of the release zip, served by a plain static file server, played in headless Chromium
// (SwiftShader WebGL), run by scripts/dist/test.sh:
//   WEB_TEST_SHOTS=DIR node dist-site.mjs http://127.0.0.1:PORT/
// For each of the five games, in a fresh browser profile: open the page, press Enter on its "Play"
// overlay, wait for the drawn title, choose the game and start it for two people on this device
// by keys as a player does (the title's cards are the five games in order; a newcomer's setup
// has "Learn <game>" focused, "Start game" just above), then play one move through the board
// with the mouse (Hidden Intention: the figure from the choice list by Tab and Enter, then its
// square by a click, which seals the commitment) and check that the page's state
// (#stoneyard-state, src/app/board/page_mirror.rs) shows it in the history. Any console error or
// warning fails (ANGLE's "GL Driver Message" notes excepted). Screenshots: DIR/site-<game>.png
// after the move (site-<game>-failed.png when a game fails).
import { launchChromium } from './chromium.mjs';
import { pixels } from './pixels.mjs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const url = process.argv[2];
if (!url) {
  console.error('usage: WEB_TEST_SHOTS=DIR node dist-site.mjs http://127.0.0.1:PORT/');
  process.exit(2);
}
const shots = resolve(process.env.WEB_TEST_SHOTS ?? '/tmp/stoneyard-dist-site');
// Generous: a busy machine, or a test build (not size-tuned), under a software renderer is slow to
// load and to draw (loading, then the title, may each take this long).
const TITLE_SECONDS = 240;
const STEP_SECONDS = 60;

/**
 * The five games as the title lists them, and how a person plays one space's decision in each:
 * `token(cell)` is the decision a click on that space makes on the opening board (each game's
 * notation, ../shared/rules/<game>.md). `figureFirst`: the decision starts with a choice that
 * names no space (Hidden Intention's figure), taken from the board's choice list (Tab, Enter).
 */
const GAMES = [
  { slug: 'gravel', token: (cell) => `+${cell}` }, // a stack placed from the pool
  { slug: 'red-stone', token: (cell) => cell }, // a stone of one's colour (the first is black)
  { slug: 'throngs', token: (cell) => `+${cell}` }, // part 1 of the first turn: a placement that stays
  { slug: 'inchworm', token: (cell) => `D${cell}` }, // a drop from the stock
  { slug: 'hidden-intention', figureFirst: true, token: (cell, side) => `${side}:${cell}` }, // the figure's square
];

class Failure extends Error {}
const fail = (message) => {
  throw new Failure(message);
};

await mkdir(shots, { recursive: true });


/** One game: a fresh profile, the title, the setup by keys, one move through the board. */
async function playOne(browser, game, index) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => {
    // ANGLE's SwiftShader backend reports its own performance notes ("GL Driver Message"); they
    // come from the software renderer of the test machine, not from the page.
    if (m.text().includes('GL Driver Message')) return;
    if (m.type() !== 'error' && m.type() !== 'warning') return;
    // A file the server did not have is reported without its address: the location names it.
    const at = m.location()?.url;
    problems.push(`${m.type()}: ${m.text()}${at && !m.text().includes(at) ? ` (${at})` : ''}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e}`));
  const checkConsole = () => {
    if (problems.length) fail(`console errors or warnings:\n  ${problems.join('\n  ')}`);
  };
  const state = async () => {
    const text = await page.evaluate(() => document.getElementById('stoneyard-state')?.textContent ?? '');
    return text ? JSON.parse(text) : null;
  };
  const brief = (s) => JSON.stringify(s && { ...s, cells: `${Object.keys(s.cells ?? {}).length} spaces`, books: undefined })?.slice(0, 700);
  const waitFor = async (what, test, seconds = STEP_SECONDS) => {
    const until = Date.now() + seconds * 1000;
    for (;;) {
      const s = await state();
      if (s && test(s)) return s;
      if (Date.now() > until) fail(`${what} did not happen within ${seconds} s; state: ${brief(s)}`);
      await page.waitForTimeout(150);
    }
  };
  const press = async (...keys) => {
    for (const key of keys) {
      await page.keyboard.press(key);
      await page.waitForTimeout(150);
    }
  };
  // Lets the last change finish showing, as a player would (a press during an animation only
  // skips to its end; the longest flourish of a move lasts under a second). The mirror's
  // "animating" is not rewritten when an animation ends (only with the next change), so it is
  // waited for a few seconds at most, then the time an animation takes.
  const settled = async () => {
    const until = Date.now() + 4000;
    for (;;) {
      const s = await state();
      if (s && !s.animating) return s;
      if (Date.now() > until) return s;
      await page.waitForTimeout(150);
    }
  };
  const click = async ([x, y]) => {
    await page.mouse.move(x, y);
    await page.waitForTimeout(200);
    await page.mouse.click(x, y);
  };

  try {
    // ---- the page, its "Play" overlay, the drawn title
    const started = Date.now();
    const response = await page.goto(url).catch((e) => fail(`the page did not load: ${e.message.split('\n')[0]}`));
    if (!response?.ok()) fail(`the page did not load: ${url} answered ${response?.status()}`);
    await page.waitForSelector('#overlay.ready, #overlay.error', { timeout: TITLE_SECONDS * 1000 });
    const error = await page.evaluate(() => document.getElementById('overlay').classList.contains('error')
      && document.getElementById('status').textContent);
    if (error) fail(`the page did not load: ${error}`);
    // The page waits for a first key or tap (sound needs one).
    await page.keyboard.press('Enter');
    await waitFor('the title screen', (s) => s.screen === 'Title', TITLE_SECONDS);
    // The state says Title before the first frame is drawn: wait until the title really shows.
    for (let i = 0; ; i++) {
      const seen = await pixels(page, await page.screenshot());
      if (seen.colours > 50 && seen.dark > 500) break;
      if (Date.now() - started > TITLE_SECONDS * 1000) fail(`the title screen never rendered (pixels: ${JSON.stringify(seen)})`);
      await page.waitForTimeout(500);
    }
    const toTitle = Date.now() - started;
    checkConsole();

    // ---- the game's setup by keys: its card on the title (no "Continue" in a fresh profile)
    await page.focus('#bevy');
    await press(...Array(index).fill('ArrowDown'), 'Enter');
    await waitFor('the setup screen', (s) => s.screen === 'Setup');
    // A screen ignores presses made before it opened: let it show first, as a player would.
    await page.waitForTimeout(500);
    // A newcomer's setup focuses "Learn <game>"; "Start game" (two people on this device, the
    // default) is the row above it.
    await press('ArrowUp', 'Enter');
    let s = await waitFor('the board after "Start game"', (s) => s.screen !== 'Setup' || (s.game && Object.keys(s.cells).length > 0));
    if (s.screen !== 'Playing') fail(`"Start game" led to the ${s.screen} screen, not the board`);
    s = await waitFor('the board drawn', (s) => s.screen === 'Playing' && Object.keys(s.cells).length > 0);
    if (s.game !== game.slug) fail(`the title's card ${index + 1} started ${s.game}, not ${game.slug}`);
    if (JSON.stringify(s.players) !== '["human","human"]') fail(`the players are ${JSON.stringify(s.players)}, not two people`);
    if (s.history.length !== 0) fail(`the new game already has moves: ${JSON.stringify(s.history)}`);
    await page.waitForTimeout(1000);
    s = await settled();
    if (!s.person_to_act) fail(`no person is to act on the new board: ${brief(s)}`);

    // ---- one move, as a person
    const played = [];
    let side = null;
    if (game.figureFirst) {
      // The choice that names no space: Tab opens the list of such choices over the board, Enter
      // takes the first (focused) one — the first of the decisions offered.
      const figure = s.decisions.find((d) => !Object.keys(s.cells).some((c) => d.endsWith(`:${c}`)));
      if (!figure) fail(`no figure to choose among ${JSON.stringify(s.decisions)}`);
      side = figure.split(':')[0];
      await press('Tab');
      await page.waitForTimeout(300);
      await press('Enter');
      s = await waitFor(`the figure ${figure} chosen from the list`, (s) => s.history.length === 1);
      if (s.history[0] !== figure) fail(`Tab and Enter chose ${s.history[0]}, not ${figure} (the first offered)`);
      played.push(figure);
      s = await settled();
    }
    // A space whose click is one whole decision (no other decision starts there), nearest the
    // middle of the board.
    const cells = Object.entries(s.cells);
    const [mx, my] = [0, 1].map((k) => cells.reduce((sum, [, at]) => sum + at[k], 0) / cells.length);
    const candidates = cells
      .map(([cell, at]) => ({ cell, at, token: game.token(cell, side) }))
      .filter(({ cell, token }) => s.decisions.includes(token)
        && !s.decisions.some((d) => d !== token && (d.startsWith(token) || d.startsWith(`${cell}>`))))
      .sort((a, b) => Math.hypot(a.at[0] - mx, a.at[1] - my) - Math.hypot(b.at[0] - mx, b.at[1] - my));
    if (!candidates.length) fail(`no space makes one decision of ${JSON.stringify(s.decisions).slice(0, 400)}`);
    const { cell, at, token } = candidates[0];
    const before = s.history.length;
    await click(at);
    s = await waitFor(`the click on ${cell} playing ${token}`, (s) => s.history.length > before, 30);
    if (s.history.length !== before + 1 || s.history[before] !== token) {
      fail(`the click on ${cell} played ${JSON.stringify(s.history.slice(before))}, not ${token}`);
    }
    played.push(token);
    if (JSON.stringify(s.history) !== JSON.stringify(played)) fail(`the history is ${JSON.stringify(s.history)}, played ${JSON.stringify(played)}`);
    await settled();
    await page.waitForTimeout(1000);
    await page.screenshot({ path: join(shots, `site-${game.slug}.png`) });
    checkConsole();
    console.log(`dist-site: ${game.slug}: played ${played.join(' then ')} (${toTitle} ms to the title)`);
    return null;
  } catch (e) {
    await page.screenshot({ path: join(shots, `site-${game.slug}-failed.png`) }).catch(() => {});
    const also = problems.length && !(e instanceof Failure && e.message.startsWith('console')) ? `\n  console: ${problems.join('\n  ')}` : '';
    return `${game.slug}: ${e instanceof Failure ? e.message : e.stack ?? e}${also}`;
  } finally {
    await context.close();
  }
}

const browser = await launchChromium();
const failures = [];
try {
  for (const [index, game] of GAMES.entries()) {
    const failure = await playOne(browser, game, index);
    if (failure) {
      failures.push(failure);
      console.error(`dist-site FAILED: ${failure}`);
      // A page that never loads fails the same way for every game.
      if (failure.includes('did not load') || failure.includes('title screen')) break;
    }
  }
} finally {
  await browser.close();
}
if (failures.length) {
  console.error(`dist-site FAILED (${failures.length} of ${GAMES.length} games; screenshots in ${shots})`);
  process.exit(1);
}

// How long the browser's review of whole games takes: each record of a directory (as
// `stoneyard bench --review --records DIR` writes them) put in the page's Finished games, opened
// by keys and reviewed (Q) by the page's Web Workers, timed from the key to the first label and
// to the last position. A measurement run by hand for docs/performance-figures.md, not a test.
//
//   node tests/web/review-times.mjs web RECORDS_DIR [CORES...]
//
// CORES: the navigator.hardwareConcurrency each run tells the page (the review runs on one
// worker per core but one, up to four); without it the machine's own.
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { serveStatic } from './static-server.mjs';
import { launchChromium } from './chromium.mjs';

const [webRoot, recordsDir, ...coreCounts] = process.argv.slice(2);
if (!webRoot || !recordsDir) {
  console.error('usage: node review-times.mjs WEB_DIR RECORDS_DIR [CORES...]');
  process.exit(2);
}
const root = resolve(webRoot);
const { server, url } = await serveStatic(root);
const browser = await launchChromium();

/** One record reviewed in a fresh page that says it has `cores` cores (`null`: the machine's). */
async function reviewTime(text, cores) {
  const record = JSON.parse(text);
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.addInitScript(({ record, text }) => {
    const key = `stoneyard/history/1795000000000-${record.game}-0000000000000001.json`;
    if (window.localStorage.getItem(key)) return;
    window.localStorage.setItem(key, JSON.stringify({ format: 1, finished_unix_ms: 1795000000000,
      result: 'finished', moves: record.moves.length, record: JSON.parse(text) }));
  }, { record, text });
  if (cores) {
    await page.addInitScript((n) => Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n }), cores);
  }
  const state = async () => JSON.parse(await page.evaluate(() => document.getElementById('stoneyard-state')?.textContent || 'null'));
  const waitFor = async (what, test, seconds) => {
    const until = Date.now() + seconds * 1000;
    for (;;) {
      const s = await state();
      if (s && test(s)) return s;
      if (Date.now() > until) throw new Error(`${record.game}: ${what} did not come in ${seconds} s`);
      await page.waitForTimeout(50);
    }
  };
  const keys = async (list) => {
    for (const key of list) {
      await page.keyboard.press(key);
      await page.waitForTimeout(150);
    }
  };
  await page.goto(url);
  await page.waitForSelector('#overlay.ready', { timeout: 240_000 });
  await page.keyboard.press('Enter');
  await waitFor('the title', (s) => s.screen === 'Title', 240);
  await page.waitForTimeout(3000);
  await page.focus('#bevy');
  await keys(['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'Enter']);
  await waitFor('Saved games', (s) => s.screen === 'Saves', 30);
  await keys(['ArrowDown', 'Enter']);
  await waitFor('Finished games', (s) => s.screen === 'History', 30);
  await keys(['Enter']);
  await waitFor('the replay', (s) => s.screen === 'Playing' && s.history.length === record.moves.length, 60);
  const started = Date.now();
  await page.keyboard.press('q');
  const first = await waitFor('the first label', (s) => s.review && s.review.labels.some((l) => l), 120);
  const firstLabel = (Date.now() - started) / 1000;
  const done = await waitFor('the whole review', (s) => s.review && s.review.progress[0] === s.review.progress[1], 600);
  const whole = (Date.now() - started) / 1000;
  await context.close();
  return { game: record.game, decisions: record.moves.length, turns: done.review.labels.length,
    positions: done.review.progress[1], workers: done.review.at_once, first_label_s: firstLabel, whole_s: whole,
    first_progress: first.review.progress };
}

const files = (await readdir(recordsDir)).filter((f) => f.endsWith('.json')).sort();
for (const cores of coreCounts.length ? coreCounts.map(Number) : [null]) {
  for (const file of files) {
    const text = await readFile(join(recordsDir, file), 'utf8');
    console.log(JSON.stringify({ cores: cores ?? 'machine', ...(await reviewTime(text, cores)) }));
  }
}
await browser.close();
server.close();

// The computer's thinking off the page's thread: a module Web Worker running the Bevy-free rules
// and AI (pkg/ai_worker_bg.wasm, built from ai-worker/). The game (src/app/computer/web_worker.rs)
// sends JSON messages:
//   {"kind":"think","id":N,"job":"{…}"}  start thinking about one decision (the job's own JSON
//                                        text, kept as text: its 64-bit seed would not survive
//                                        JavaScript's numbers)
//   {"kind":"move-now","id":N}           answer now with what it has
//   {"kind":"forget","id":N}             stop and drop it (no answer)
//   {"kind":"pause","ms":M}              think no more for up to M ms: the page's renderer lags
//                                        (on a machine that draws in software the two share
//                                        the processor)
//   {"kind":"resume"}                    the renderer has caught up: think on
//   {"kind":"analyse","id":N,"job":"{…}"} analyse one position of a reviewed game (a ProbeJob)
//                                        and answer {"kind":"analysis","id":N,"analysis":"{…}"}
// and gets back {"kind":"decision","id":N,"decision":"C3","iterations":…,"ms":…,"visits":"[…]"}
// (visits: each root decision's visits, as JSON text, which the page sums over the workers thinking
// about the same decision from their own seeds) or
// {"kind":"failed","id":N,"error":"…"} (the game then thinks on the page instead).
import init, { Thinker, analyse } from './pkg/ai_worker.js';

const ready = init({ module_or_path: new URL('./pkg/ai_worker_bg.wasm', import.meta.url) });
/** The decisions being thought about, by id: { thinker, stop, started }. */
const thinking = new Map();
let running = false;
/** Until when (performance.now()) the search is paused, and wakes a paused search early. */
let pausedUntil = 0;
let resumePaused = null;

// Messages are handled one after the other, each after the module is ready, so a "move-now" that
// arrives while the module still loads applies to the "think" sent before it.
let queue = ready;
self.onmessage = (event) => {
  queue = queue.then(() => handle(JSON.parse(event.data))).catch((e) => console.error('ai-worker:', e));
};
ready.catch((e) => self.postMessage(JSON.stringify({ kind: 'unavailable', error: String(e) })));

function handle(message) {
  if (message.kind === 'pause') {
    pausedUntil = Math.max(pausedUntil, performance.now() + message.ms);
    return;
  }
  if (message.kind === 'resume') {
    pausedUntil = 0;
    resumePaused?.();
    return;
  }
  if (message.kind === 'analyse') {
    // One position at a time, whole: a few hundred milliseconds at the review's budget.
    try {
      self.postMessage(JSON.stringify({ kind: 'analysis', id: message.id, analysis: analyse(message.job) }));
    } catch (e) {
      self.postMessage(JSON.stringify({ kind: 'failed', id: message.id, error: String(e) }));
    }
    return;
  }
  const entry = thinking.get(message.id);
  if (message.kind === 'think') {
    try {
      thinking.set(message.id, { thinker: new Thinker(message.job), stop: false, started: performance.now() });
    } catch (e) {
      self.postMessage(JSON.stringify({ kind: 'failed', id: message.id, error: String(e) }));
      return;
    }
    if (!running) run();
  } else if (message.kind === 'move-now' && entry) {
    entry.stop = true;
    resumePaused?.();
  } else if (message.kind === 'forget' && entry) {
    entry.thinker.free();
    thinking.delete(message.id);
  }
}

// A zero-delay yield to the worker's event loop (setTimeout would be clamped to 4 ms when nested).
const channel = new MessageChannel();
const yieldToMessages = () => new Promise((resume) => {
  channel.port1.onmessage = () => resume();
  channel.port2.postMessage(null);
});

// Waits out a pause, taking messages meanwhile (a "resume" or "move-now" ends it early).
const pause = (ms) => new Promise((resume) => {
  const timer = setTimeout(() => { resumePaused = null; resume(); }, ms);
  resumePaused = () => { clearTimeout(timer); resumePaused = null; resume(); };
});

// Thinks in slices of about 10 ms, taking messages between slices (a pause from the page waits
// for the slice under way to end); chunks of iterations grow or
// shrink so that one chunk stays near 2 ms whatever an iteration costs in this game.
async function run() {
  running = true;
  let chunk = 16;
  while (thinking.size) {
    const paused = pausedUntil - performance.now();
    if (paused > 0 && ![...thinking.values()].some((entry) => entry.stop)) {
      await pause(paused);
      continue;
    }
    const sliceEnd = performance.now() + 10;
    for (const [id, entry] of thinking) {
      let done = entry.stop;
      while (!done && performance.now() < sliceEnd) {
        const before = performance.now();
        done = entry.thinker.think(chunk);
        const took = performance.now() - before;
        if (took < 1) chunk = Math.min(chunk * 2, 1 << 20);
        else if (took > 4) chunk = Math.max(chunk >> 1, 1);
      }
      if (done) {
        const answer = { kind: 'decision', id, decision: entry.thinker.decision(), iterations: entry.thinker.iterations(),
          ms: Math.round(performance.now() - entry.started), visits: entry.thinker.visits() };
        entry.thinker.free();
        thinking.delete(id);
        self.postMessage(JSON.stringify(answer));
      }
    }
    await yieldToMessages();
  }
  running = false;
}

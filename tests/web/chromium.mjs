// The browser tests' shared headless Chromium (tests/web/e2e.mjs, tests/web/dist-site.mjs).
import { chromium } from 'playwright-core';

/** Debian's Chromium (or $CHROMIUM) on the software renderer, with no background traffic and no
 *  sound before a gesture, so a run on a machine without a GPU behaves like any other. */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-background-networking',
      '--disable-component-update', '--autoplay-policy=user-gesture-required'],
  });
}

// The browser tests' shared measure of a screenshot (tests/web/e2e.mjs, tests/web/dist-site.mjs).

/** Distinct colours and dark pixels of a screenshot (a PNG buffer), decoded by the page itself. */
export const pixels = async (page, png) => page.evaluate(async (b64) => {
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

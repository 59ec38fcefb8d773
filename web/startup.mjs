// How long the page takes to its first frame in headless Chromium, and how
// large it is (the figures in docs/web.md):
//   node web/startup.mjs [SITE_DIR] [LOADS]      after web/build.sh and web/test.sh
// Each load is a fresh page; the first of a freshly started browser also
// pays for starting its GPU process ("cold"). Times are from the start of
// the navigation, in ms, as the page notes them in <body data-*>: the
// runtime ready, main returned (the window made), the first frame drawn.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';

const site = process.argv[2] || 'build-web';
const loads = Number(process.argv[3] || 10);
const require = createRequire(path.resolve(site, 'node') + '/');
const { chromium } = require('playwright-core');

const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript',
                '.wasm': 'application/wasm' };
const server = http.createServer((req, res) => {
  const name = new URL(req.url, 'http://127.0.0.1').pathname;
  fs.readFile(path.join(site, name), (err, data) => {
    res.writeHead(err ? 404 : 200, { 'Content-Type': types[path.extname(name)] || 'text/plain' });
    res.end(err ? undefined : data);
  });
});
await new Promise(resolve => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/index.html`;
const args = ['--no-sandbox', '--enable-unsafe-swiftshader', '--use-angle=swiftshader',
              '--disable-background-networking', '--disable-component-update', '--disable-sync',
              '--no-first-run', '--disable-quic'];

async function load(browser) {
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.firstFrameMs !== undefined, null,
                             { timeout: 60000 });
  const d = await page.evaluate(() => ({ ...document.body.dataset }));
  await context.close();
  return [Number(d.readyMs), Number(d.mainMs), Number(d.firstFrameMs)];
}

const cold = [], warm = [];
for (let k = 0; k < 3; k++) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args });
  cold.push(await load(browser));
  if (k === 0)
    for (let i = 0; i < loads; i++)
      warm.push(await load(browser));
  await browser.close();
}
server.close();

const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const row = (what, runs) => {
  const cols = [0, 1, 2].map(i => runs.map(r => r[i]));
  console.log(`${what}: ${runs.length} loads, median ready ${median(cols[0])} ms, main ` +
              `${median(cols[1])} ms, first frame ${median(cols[2])} ms ` +
              `(first frame min ${Math.min(...cols[2])}, max ${Math.max(...cols[2])})`);
};
row('cold (a new browser)', cold);
row('warm (the same browser)', warm);
const gz = f => zlib.gzipSync(fs.readFileSync(path.join(site, f)), { level: 9 }).length;
for (const f of ['ballpit.wasm', 'ballpit.js', 'index.html'])
  console.log(`${f}: ${fs.statSync(path.join(site, f)).size} bytes, ${gz(f)} gzipped`);

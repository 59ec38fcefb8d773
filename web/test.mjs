// The browser build, checked in headless Chromium (web/test.sh runs this):
//   node web/test.mjs SITE_DIR NATIVE_BALLPIT
// SITE_DIR holds index.html, ballpit.js and ballpit.wasm (build-web);
// NATIVE_BALLPIT is the desktop program, whose output the page must match.
// The site is served from 127.0.0.1 by a small server here. Prints TAP.
//
// Headless Chromium draws frames at its own pace, sometimes few: nothing
// here counts frames or waits for a number of them; every wait is for a
// state of the page or of the world, with a generous time limit.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const [site, ballpit] = process.argv.slice(2);
if (!site || !ballpit) {
  console.error('usage: node web/test.mjs SITE_DIR NATIVE_BALLPIT');
  process.exit(2);
}
const require = createRequire(path.resolve(site, 'node') + '/');
const { chromium } = require('playwright-core');

let count = 0, failed = 0;
function ok(cond, what, detail) {
  count++;
  if (!cond)
    failed++;
  console.log(`${cond ? 'ok' : 'not ok'} ${count} - ${what}`);
  if (!cond && detail !== undefined)
    for (const line of String(detail).split('\n').slice(0, 20))
      console.log(`#   ${line}`);
}
const note = text => console.log(`# ${text}`);

// --- the server ---------------------------------------------------------
const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript',
                '.wasm': 'application/wasm' };
const served = new Set(['/index.html', '/ballpit.js', '/ballpit.wasm']);
const server = http.createServer((req, res) => {
  const name = new URL(req.url, 'http://127.0.0.1').pathname;
  if (!served.has(name)) {
    res.writeHead(404);
    res.end();
    return;
  }
  fs.readFile(path.join(site, name), (err, data) => {
    if (err) {
      res.writeHead(500);
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': types[path.extname(name)] });
    res.end(data);
  });
});
await new Promise(resolve => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}/index.html`;

// --- the browser --------------------------------------------------------
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--enable-unsafe-swiftshader', '--use-angle=swiftshader',
         '--disable-background-networking', '--disable-component-update', '--disable-sync',
         '--no-first-run', '--disable-quic'],
});

async function open(query, viewport = { width: 1024, height: 768 }, scale = 1, isMobile = false) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: scale,
                                             hasTouch: true, isMobile });
  const page = await context.newPage();
  page.logs = [];
  page.on('console', m => page.logs.push(m.text()));
  page.on('pageerror', e => page.logs.push('page error: ' + e.message));
  await page.goto(base + query);
  await page.waitForFunction(() => document.body.dataset.state !== 'loading', null,
                             { timeout: 60000 });
  return page;
}
const state = page => page.evaluate(() => document.body.dataset.state);

// The running world as scene text, through the page's share hook.
async function sceneNow(page) {
  return page.evaluate(() => {
    if (!Module.ccall('bp_web_save_scene', 'number', ['string'], ['/test.scene']))
      return null;
    return Module.FS.readFile('/test.scene', { encoding: 'utf8' });
  });
}
function balls(sceneText) {
  return sceneText.split('\n').filter(l => l.startsWith('ball ')).map(l => {
    const b = {};
    for (const kv of l.split(' ').slice(1)) {
      const [k, v] = kv.split('=');
      b[k] = Number(v);
    }
    return b;
  });
}

// --- PNG decoding, for the screenshot ----------------------------------
function decodePng(buf) {
  let pos = 8, width = 0, height = 0, channels = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos), type = buf.toString('latin1', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      channels = { 2: 3, 6: 4 }[data[9]];
      if (data[8] !== 8 || !channels)
        throw new Error('PNG: only 8-bit RGB or RGBA');
    } else if (type === 'IDAT')
      idat.push(data);
    pos += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels, out = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[y * stride + x - channels] : 0;
      const b = y > 0 ? out[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? out[(y - 1) * stride + x - channels] : 0;
      let v = line[x];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[y * stride + x] = v & 255;
    }
  }
  return { width, height, channels, pixels: out };
}

// --- native runs --------------------------------------------------------
function nativeLastFrame(scene, steps) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ballpit-web-'));
  try {
    execFileSync(ballpit, ['--headless', '--scene', `scenes/${scene}.scene`, '--steps', String(steps),
                           '--dump', dir, '--dump-every', String(steps)], { stdio: 'pipe' });
    const lines = fs.readFileSync(path.join(dir, 'frames.csv'), 'utf8').split('\n');
    return [lines[0], ...lines.filter(l => l.startsWith(`${steps},`))].join('\n') + '\n';
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
function nativeError(args) {
  const run = spawnSync(ballpit, args, { encoding: 'utf8' });
  return { status: run.status, line: run.stderr.trim() };
}

try {
  // 1. The size the issue allows: wasm and JavaScript at most 400 KB gzipped.
  const gz = f => zlib.gzipSync(fs.readFileSync(path.join(site, f)), { level: 9 }).length;
  const sizeJs = gz('ballpit.js'), sizeWasm = gz('ballpit.wasm');
  ok(sizeJs + sizeWasm <= 400 * 1024,
     `ballpit.wasm and ballpit.js are ${((sizeJs + sizeWasm) / 1024).toFixed(0)} KB gzipped ` +
     `(${(sizeWasm / 1024).toFixed(0)} + ${(sizeJs / 1024).toFixed(0)}), at most 400`);

  // 2. The sandbox runs, full window, at the device's pixel ratio, and a
  //    screenshot shows balls: many pixels of strong colour, in several hues,
  //    on the dark background.
  {
    const page = await open('?balls=60&seed=7', { width: 800, height: 600 }, 2);
    ok(await state(page) === 'running', 'the page runs the sandbox', page.logs.join('\n'));
    await page.waitForFunction(() => document.body.dataset.firstFrameMs !== undefined, null,
                               { timeout: 30000 });
    const dims = await page.evaluate(() => {
      const c = document.getElementById('canvas');
      return { w: c.width, h: c.height, cw: c.clientWidth, ch: c.clientHeight,
               first: Number(document.body.dataset.firstFrameMs) };
    });
    note(`first frame ${dims.first} ms after navigation start (800x600 at 2x)`);
    ok(dims.cw === 800 && dims.ch === 600 && dims.w === 1600 && dims.h === 1200,
       'the canvas fills the window and draws at twice its size on a 2x screen',
       JSON.stringify(dims));
    const shot = await page.screenshot({ path: path.join(site, 'test-screenshot.png') });
    const img = decodePng(shot);
    let coloured = 0;
    const hues = new Set();
    for (let i = 0; i < img.width * img.height; i++) {
      const p = img.pixels.subarray(i * img.channels, i * img.channels + 3);
      const max = Math.max(p[0], p[1], p[2]), min = Math.min(p[0], p[1], p[2]);
      if (max - min > 60 && max > 120) {
        coloured++;
        hues.add(`${p[0] >> 6}${p[1] >> 6}${p[2] >> 6}`);
      }
    }
    const share = coloured / (img.width * img.height);
    ok(share > 0.01 && share < 0.6 && hues.size >= 4,
       `a screenshot shows balls: ${(100 * share).toFixed(1)}% of the pixels in strong ` +
       `colours of ${hues.size} kinds (test-screenshot.png)`);
    await page.context().close();
  }

  // 3. The same physics, bit for bit: the last frame of a headless run in the
  //    page equals the native dump's rows of that frame.
  for (const [scene, steps] of [['funnel', 480], ['pachinko', 600], ['heap', 600],
                                ['billiard', 600], ['ramp', 600]]) {
    const page = await open(`?headless&scene=${scene}&steps=${steps}`);
    await page.waitForFunction(() => document.body.dataset.state !== 'running', null,
                               { timeout: 120000 });
    const web = await page.textContent('#frames');
    const native = nativeLastFrame(scene, steps);
    const rows = native.split('\n').length - 2;
    let where = '';
    if (web !== native) {
      const a = web.split('\n'), b = native.split('\n');
      const k = a.findIndex((l, i) => l !== b[i]);
      where = `first difference at line ${k + 1}:\n web:    ${a[k]}\n native: ${b[k]}\n` +
              page.logs.join('\n');
    }
    ok(rows > 0 && web === native,
       `${scene}: step ${steps} in the browser is byte for byte the native dump's ` +
       `(${rows} balls)`, where);
    await page.context().close();
  }

  // 4. Bad input: the page shows the program's own one-line error.
  for (const [query, args] of [['?balls=-3', ['--balls', '-3']],
                               ['?gravity=strong', ['--gravity', 'strong']],
                               ['?bogus=1', ['--bogus', '1']]]) {
    const page = await open(query);
    const shown = (await page.textContent('#error')).trim();
    const native = nativeError(args);
    ok(native.status === 2 && (await state(page)) === 'error' && shown === native.line,
       `${query} shows the line the program prints for ${args.join(' ')}: ${native.line}`,
       `page: ${shown}`);
    await page.context().close();
  }

  // 5. A scene in the link's fragment, and flicks: one ball in a world
  //    without gravity or drag, grabbed and thrown up and to the right.
  const still = 'world w=1024 h=768 gravity=0 drag=0 restitution=1 friction=0 rolling=0\n' +
                'ball x=300 y=500 r=40\n';
  const fragment = 'text=' + encodeURIComponent(still);
  // A drag of 160 px right and 80 up in 8 moves, 15 ms apart, then the
  // release: through press, move and release, which send DevTools' events.
  async function drag(page, press, move, release) {
    await page.waitForFunction(() => document.body.dataset.firstFrameMs !== undefined, null,
                               { timeout: 30000 });
    await press(300, 500);
    for (let k = 1; k <= 8; k++) {
      await move(300 + 20 * k, 500 - 10 * k);
      await page.waitForTimeout(15);
    }
    await release(460, 420);
  }
  // The ball once it flies (or after 5 s).
  async function flying(page) {
    const deadline = Date.now() + 5000;
    let b;
    do {
      await page.waitForTimeout(50);
      const text = await sceneNow(page);
      b = text && balls(text)[0];
    } while (b && !(Math.hypot(b.vx, b.vy) > 1) && Date.now() < deadline);
    return b;
  }
  // The same drag as events dispatched by the page itself, 15 ms apart by
  // its own clock (Chromium hands DevTools' moves to the page only as fast
  // as it draws frames, which headless may do a few times a second: too
  // slow for a flick). From the canvas on, the path is a real pointer's:
  // SDL's handlers, the app's input, the throw.
  const gesture = (page, kind) => page.evaluate(async kind => {
    const canvas = document.getElementById('canvas');
    const send = (type, x, y) => {
      if (kind === 'mouse') {
        canvas.dispatchEvent(new MouseEvent('mouse' + type, {
          bubbles: true, cancelable: true, clientX: x, clientY: y, screenX: x, screenY: y,
          button: 0, buttons: type === 'up' ? 0 : 1 }));
        return;
      }
      const t = new Touch({ identifier: 1, target: canvas, clientX: x, clientY: y,
                            pageX: x, pageY: y, screenX: x, screenY: y });
      const held = type === 'end' ? [] : [t];
      canvas.dispatchEvent(new TouchEvent('touch' + type, {
        bubbles: true, cancelable: true, changedTouches: [t], touches: held,
        targetTouches: held }));
    };
    const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));
    if (kind === 'mouse')
      send('move', 300, 500); /* SDL presses where the pointer last moved */
    send(kind === 'mouse' ? 'down' : 'start', 300, 500);
    for (let k = 1; k <= 8; k++) {
      await sleep(15);
      send('move', 300 + 20 * k, 500 - 10 * k);
    }
    /* Let go at once, still moving, as a flick does: a release that a busy
     * page delays past the throw's 60 ms would rightly throw nothing. */
    send(kind === 'mouse' ? 'up' : 'end', 460, 420);
  }, kind);
  // Thrown up and to the right at the drag's slope (-1/2): the throw takes
  // the pointer's velocity over its last 60 ms, about 1,300 px/s here;
  // the walls are 300 px and more away.
  const alongDrag = b => b && b.vx > 200 && b.vy < 0 && Math.abs(b.vy / b.vx + 0.5) < 0.25;
  {
    const page = await open('#' + fragment);
    const first = balls((await sceneNow(page)) || '');
    ok(first.length === 1 && first[0].x === 300 && first[0].y === 500 && first[0].r === 40,
       'a scene in the fragment (#text=) is the world the page runs', JSON.stringify(first));
    await page.waitForFunction(() => document.body.dataset.firstFrameMs !== undefined, null,
                               { timeout: 30000 });
    await gesture(page, 'mouse');
    const b = await flying(page);
    ok(alongDrag(b), 'a mouse flick throws the ball up and to the right, along the drag',
       JSON.stringify(b));
    if (b)
      note(`mouse flick: vx ${b.vx.toFixed(0)}, vy ${b.vy.toFixed(0)} px/s`);

    // The running world as a link: opened, it is the same world.
    const shared = await page.evaluate(async () => {
      await share();
      return location.href;
    });
    const before = await sceneNow(page);
    ok(/#scene=[A-Za-z0-9_-]+$/.test(shared), 'share puts the scene, deflated, in the fragment',
       shared);
    const again = await browser.newPage();
    await again.goto(shared);
    await again.waitForFunction(() => document.body.dataset.state !== 'loading', null,
                                { timeout: 60000 });
    const after = await sceneNow(again);
    // The shared page has run a few steps before it is read: compare what
    // steps do not change, the world line and the balls' sizes and masses.
    const keep = t => (t || '').split('\n').filter(l => !l.startsWith('#'))
      .map(l => l.replace(/ (x|y|vx|vy|w|angle)=\S+/g, '')).join('\n');
    ok(after !== null && keep(after) === keep(before) && balls(after).length === 1,
       'the shared link opens the same world', `${before}\n---\n${after}`);
    await again.close();
    await page.context().close();
  }
  {
    const page = await open('#' + fragment);
    await page.waitForFunction(() => document.body.dataset.firstFrameMs !== undefined, null,
                               { timeout: 30000 });
    await gesture(page, 'touch');
    const b = await flying(page);
    ok(alongDrag(b), 'a finger flick (touch events) throws the ball the same way',
       JSON.stringify(b));
    if (b)
      note(`touch flick: vx ${b.vx.toFixed(0)}, vy ${b.vy.toFixed(0)} px/s`);
    await page.context().close();
  }
  {
    // The mouse of DevTools, at whatever pace Chromium delivers it: the
    // ball is carried to the release point and let go up and to the right,
    // or at rest if the moves came in too slowly to make a throw.
    const page = await open('#' + fragment);
    await drag(page, (x, y) => page.mouse.move(x, y).then(() => page.mouse.down()),
               (x, y) => page.mouse.move(x, y), () => page.mouse.up());
    await page.waitForTimeout(300);
    const b = balls((await sceneNow(page)) || '')[0];
    ok(b && b.x >= 455 && b.y <= 425 && b.vx >= 0 && b.vy <= 0,
       'a drag with DevTools\' mouse carries the ball to the release point and lets it go',
       JSON.stringify(b));
    await page.context().close();
  }
  {
    // 6. The keys are the desktop's: Space pauses (the balls stop where
    //    they are, though frames go on) and resumes; F12 and Ctrl+S offer
    //    their files as downloads; Esc ends the program, and the page says
    //    so.
    const page = await open('?scene=funnel');
    await page.waitForFunction(() => document.body.dataset.firstFrameMs !== undefined, null,
                               { timeout: 30000 });
    const where = async () => balls((await sceneNow(page)) || '').map(b => `${b.x},${b.y}`).join(' ');
    await page.keyboard.press('Space');
    await page.waitForTimeout(300);
    const paused1 = await where();
    await page.waitForTimeout(500);
    const paused2 = await where();
    await page.keyboard.press('Space');
    const deadline = Date.now() + 10000;
    let moving = paused2;
    while (moving === paused2 && Date.now() < deadline) {
      await page.waitForTimeout(100);
      moving = await where();
    }
    ok(paused1 !== '' && paused1 === paused2 && moving !== paused2,
       'Space pauses the sandbox (the funnel\'s balls stay put for half a second) and resumes it');
    // F12 and Ctrl+S: the files the desktop writes, offered as downloads.
    const shot = page.waitForEvent('download', { timeout: 20000 });
    await page.keyboard.press('F12');
    const png = await shot;
    const pngFile = await png.path();
    const pngBytes = pngFile ? fs.readFileSync(pngFile) : Buffer.alloc(0);
    let pngSize = '';
    try {
      const img = decodePng(pngBytes);
      pngSize = `${img.width}x${img.height}`;
    } catch (e) { /* not a PNG: the check fails below */ }
    ok(/^ballpit-\d{3}\.png$/.test(png.suggestedFilename()) && pngSize === '1024x768',
       `F12 offers the canvas as ${png.suggestedFilename()}, a PNG of ${pngSize || 'nothing'}`);
    const saved = page.waitForEvent('download', { timeout: 20000 });
    await page.keyboard.press('Control+s');
    const scene = await saved;
    const sceneFile = await scene.path();
    const sceneText = sceneFile ? fs.readFileSync(sceneFile, 'utf8') : '';
    ok(/^ballpit-scene-\d{3}\.scene$/.test(scene.suggestedFilename()) &&
       balls(sceneText).length === 40 && /^world w=1024 h=768 /m.test(sceneText),
       `Ctrl+S offers the scene as ${scene.suggestedFilename()}: the funnel's 40 balls`);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.body.dataset.state !== 'running', null,
                               { timeout: 10000 }).catch(() => {});
    ok(await state(page) === 'ended' && /ended/.test(await page.textContent('#note')),
       'Esc ends the program and the page says so', await state(page));
    await page.context().close();
  }
  // 7. A phone (390x844 points at 3x, touch only): the page fits it both
  //    ways up with nothing to scroll, and fingers play. Touches go in by
  //    DevTools (Input.dispatchTouchEvent), as a phone's reach the page.
  {
    const page = await open('#' + fragment, { width: 390, height: 844 }, 3, true);
    await page.waitForFunction(() => document.body.dataset.firstFrameMs !== undefined, null,
                               { timeout: 30000 });
    const fits = async (w, h) => {
      // SDL resizes the canvas on the page's resize: wait for it.
      await page.waitForFunction(([w, h]) => document.getElementById('canvas').width === w * 3 &&
                                             document.getElementById('canvas').height === h * 3,
                                 [w, h], { timeout: 10000 }).catch(() => {});
      return page.evaluate(() => {
        const c = document.getElementById('canvas'), r = c.getBoundingClientRect();
        const root = document.scrollingElement;
        return { w: c.width, h: c.height, left: r.left, top: r.top, cw: r.width, ch: r.height,
                 vw: innerWidth, vh: innerHeight, sw: root.scrollWidth, sh: root.scrollHeight,
                 sx: scrollX, sy: scrollY };
      });
    };
    const fitted = (d, w, h) => d.w === w * 3 && d.h === h * 3 && d.left === 0 && d.top === 0 &&
      d.cw === w && d.ch === h && d.vw === w && d.vh === h && d.sw <= w && d.sh <= h &&
      d.sx === 0 && d.sy === 0;
    const portrait = await fits(390, 844);
    ok(fitted(portrait, 390, 844),
       'on a 390x844 phone at 3x the canvas fills the screen, 1170x2532 pixels, no page scroll',
       JSON.stringify(portrait));
    const cdp = await page.context().newCDPSession(page);
    let clock = Date.now() / 1000;
    const touch = (type, points) => {
      clock += 0.001;
      return cdp.send('Input.dispatchTouchEvent', { type, timestamp: clock,
        touchPoints: points.map(([x, y], i) => ({ x, y, id: i + 1, radiusX: 4, radiusY: 4,
                                                   force: 1 })) });
    };
    // The 1024x768 arena across 390 points: 0.381 points a px, from 275.8
    // down. The ball at (300, 500) px is at (114.3, 466.2).
    const k = 390 / 1024, top = (844 - 768 * k) / 2, at = (x, y) => [x * k, top + y * k];
    // A long press on empty space, before the ball flies about: one ball
    // there, however long it is held.
    const count = async () => balls((await sceneNow(page)) || '').length;
    const before = await count();
    await touch('touchStart', [at(800, 150)]);
    let during = before;
    for (const deadline = Date.now() + 5000; during === before && Date.now() < deadline;) {
      await page.waitForTimeout(100);
      during = await count();
    }
    await page.waitForTimeout(700);
    await touch('touchEnd', []);
    await page.waitForTimeout(300);
    const after = await count();
    ok(during === before + 1 && after === before + 1,
       `a long press adds exactly one ball (${before} -> ${during}, held 0.7 s more: ${after})`);

    // The flick of the mouse's check (5), by a finger: from the ball's
    // centre 160 px right and 80 up in 8 moves, 15 ms apart.
    // DevTools acknowledges each touch once the page has drawn a frame
    // after it (100-200 ms each in headless Chromium): awaited one by one,
    // the flick would be a slow drag, let go at rest. So they go at the
    // flick's pace, and their acknowledgements are awaited at the end.
    const sent = [touch('touchStart', [at(300, 500)])];
    for (let n = 1; n <= 8; n++) {
      await new Promise(resolve => setTimeout(resolve, 15));
      sent.push(touch('touchMove', [at(300 + 20 * n, 500 - 10 * n)]));
    }
    sent.push(touch('touchEnd', []));
    await Promise.all(sent);
    // The thrown ball (r 40; the long press's is another) once it flies.
    let b;
    for (const deadline = Date.now() + 5000; Date.now() < deadline;) {
      await page.waitForTimeout(50);
      b = balls((await sceneNow(page)) || '').find(ball => ball.r === 40);
      if (!b || Math.hypot(b.vx, b.vy) > 1)
        break;
    }
    ok(alongDrag(b),
       'a one-finger flick (DevTools touches) throws the ball up and to the right, along it',
       JSON.stringify(b));
    if (b)
      note(`phone flick: vx ${b.vx.toFixed(0)}, vy ${b.vy.toFixed(0)} px/s`);

    // A pinch: two fingers 100 px apart about (500, 300) spread to 200 px,
    // so the camera magnifies 2x about that point (camera.h): the window's
    // point (700, 100) then shows the arena's (250 + 700/2, 150 + 100/2) =
    // (600, 200), and a long press there makes its ball there, not at
    // (700, 100). Gravity is 0 here: the ball stays where it is made.
    const near = (list, x, y) => list.some(ball => Math.hypot(ball.x - x, ball.y - y) < 10);
    await touch('touchStart', [at(450, 300), at(550, 300)]);
    for (let n = 1; n <= 5; n++) {
      await page.waitForTimeout(20);
      await touch('touchMove', [at(450 - 10 * n, 300), at(550 + 10 * n, 300)]);
    }
    await touch('touchEnd', []);
    await page.waitForTimeout(200);
    const pinchBefore = balls((await sceneNow(page)) || '');
    await touch('touchStart', [at(700, 100)]);
    let pinchAfter = pinchBefore;
    for (const deadline = Date.now() + 5000;
         pinchAfter.length === pinchBefore.length && Date.now() < deadline;) {
      await page.waitForTimeout(100);
      pinchAfter = balls((await sceneNow(page)) || '');
    }
    await touch('touchEnd', []);
    // The new ball: at rest (the thrown one flies on), where none was.
    const made = pinchAfter.filter(ball => Math.hypot(ball.vx, ball.vy) < 1 &&
                                           !near(pinchBefore, ball.x, ball.y));
    ok(made.length === 1 && near(made, 600, 200) && !near(made, 700, 100),
       'a pinch spreading two fingers to twice their distance zooms 2x about their midpoint: ' +
       'a long press at (700, 100) on screen makes its ball at (600, 200) in the arena',
       JSON.stringify(made));

    // Turned: 844x390, the arena letterboxed between bars 162 points wide.
    await page.setViewportSize({ width: 844, height: 390 });
    const landscape = await fits(844, 390);
    ok(fitted(landscape, 844, 390),
       'turned to 844x390 the canvas fills the screen again, 2532x1170 pixels, no page scroll',
       JSON.stringify(landscape));
    // The panel at 4 pixels a unit (panel.c: 4/3 of a point at 3x), so
    // 633x292 units. Its tab (78x22 units) at the right edge, halfway down:
    // in the right-hand bar, off the arena. Open, the panel (256 units
    // wide, taller than the screen) stands at (369, 8); its gravity track
    // runs 232 units from x 387 at y 86.
    const unit = 4 / 3;
    await touch('touchStart', [[844 - 20, 146 * unit]]);
    await touch('touchEnd', []);
    await page.waitForTimeout(300);
    const gravity = async () => Number(/gravity=(\S+)/.exec((await sceneNow(page)) || '')?.[1]);
    const g0 = await gravity();
    await touch('touchStart', [[(387 + 20) * unit, 86 * unit]]);
    for (let n = 1; n <= 10; n++) {
      await page.waitForTimeout(20);
      await touch('touchMove', [[(387 + 20 + 24 * n) * unit, 86 * unit]]);
    }
    await touch('touchEnd', []);
    let g1 = g0;
    for (const deadline = Date.now() + 5000; g1 === g0 && Date.now() < deadline;) {
      await page.waitForTimeout(100);
      g1 = await gravity();
    }
    ok(g0 === 0 && g1 === 3000,
       `a tap on the panel's tab in the bar, then a finger along the gravity slider: ` +
       `gravity ${g0} -> ${g1} px/s^2`);
    await page.context().close();
  }
} catch (e) {
  ok(false, 'the checks ran to the end', e.stack);
} finally {
  await browser.close();
  server.close();
}
console.log(`1..${count}`);
process.exit(failed ? 1 : 0);

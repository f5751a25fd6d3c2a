// Checks the built doc site in headless Chromium (make site): the build
// is served on loopback, and every page srgen wrote is loaded in a fresh
// tab. A page passes when it loads with no console error, no uncaught
// exception and no failed request; its <title> is its front matter title;
// its heading and the sidebar render, with the page itself active in the
// sidebar; and every link on it leads to a page of the site or a file of
// the build, and every anchor to an element of that page. The build must
// hold no page srgen did not write (but 404.html).
//
//   node check.mjs BUILD_DIR DOCS_DIR
//
// Chromium is the system's (CHROMIUM, default /usr/bin/chromium), driven
// by puppeteer-core, which downloads no browser. Ends with the line
// "N passed, M failed"; exits 1 when a page failed.

import { createServer } from 'node:http';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const [buildDir = 'build', docsDir = 'docs'] = process.argv.slice(2);
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const siteTitle = 'vllm-sr System One'; // docusaurus.config.js's title
const pageTimeout = 30_000;
const concurrency = 2;

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon',
  '.yaml': 'application/yaml', '.txt': 'text/plain', '.woff2': 'font/woff2', '.woff': 'font/woff',
};

async function walk(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...await walk(p));
    else out.push(p);
  }
  return out;
}

// frontMatter reads the keys srgen writes (gen/docsite): plain or
// double-quoted scalars, one per line.
function frontMatter(text, file) {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!m) throw new Error(`${file}: no front matter`);
  const fm = {};
  for (const line of m[1].split('\n')) {
    const i = line.indexOf(':');
    const raw = line.slice(i + 1).trim();
    fm[line.slice(0, i)] = raw.startsWith('"') ? JSON.parse(raw) : raw;
  }
  return fm;
}

// expectedPages are the routes of the pages srgen wrote, with their
// titles: a page's route is its slug, or its path without .md.
async function expectedPages() {
  const pages = new Map();
  for (const file of await walk(docsDir)) {
    if (!file.endsWith('.md')) continue;
    const fm = frontMatter(await readFile(file, 'utf8'), file);
    const rel = path.relative(docsDir, file).split(path.sep).join('/');
    pages.set(fm.slug || '/' + rel.replace(/\.md$/, ''), { file: rel, title: fm.title });
  }
  return pages;
}

// serve serves the build as a static host does with trailingSlash:
// false: /x is x.html, / is index.html; anything else is 404.html with
// status 404.
function serve(dir) {
  const root = path.resolve(dir);
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    // resolve of an absolute path cannot climb above /: the file is
    // always under root.
    const file = path.join(root, path.resolve('/', decodeURIComponent(url.pathname)));
    for (const candidate of [file, file + '.html', path.join(file, 'index.html')]) {
      try {
        if (!(await stat(candidate)).isFile()) continue;
        res.writeHead(200, { 'content-type': types[path.extname(candidate)] || 'application/octet-stream' });
        res.end(await readFile(candidate));
        return;
      } catch { /* the next candidate */ }
    }
    res.writeHead(404, { 'content-type': types['.html'] });
    res.end(await readFile(path.join(root, '404.html')).catch(() => 'not found'));
  });
  server.requestTimeout = 10_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// visit loads one page and returns what it found: problems, the ids of
// its elements, and the same-origin links it has.
async function visit(browser, origin, route, want) {
  const problems = [];
  const tab = await browser.newPage();
  // Wide enough for the desktop layout, which shows the sidebar (the
  // mobile one folds it into the navbar below 997 px).
  await tab.setViewport({ width: 1280, height: 900 });
  tab.setDefaultTimeout(pageTimeout);
  tab.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  tab.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  tab.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
  tab.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} for ${r.url()}`); });
  try {
    await tab.goto(origin + route, { waitUntil: 'networkidle0', timeout: pageTimeout });
    // The title is in the served HTML, and React sets it again when the
    // page's route has loaded: wait for it a while, then check what is
    // there.
    const wantTitle = `${want.title} | ${siteTitle}`;
    await tab.waitForFunction((t) => document.title === t, { timeout: 10_000 }, wantTitle).catch(() => {});
    const seen = await tab.evaluate(() => ({
      title: document.title,
      h1: document.querySelector('article h1')?.textContent.trim() || '',
      sidebarLinks: document.querySelectorAll('.theme-doc-sidebar-container a.menu__link').length,
      active: [...document.querySelectorAll('.theme-doc-sidebar-container a.menu__link--active')]
        .map((a) => new URL(a.href).pathname),
      ids: [...document.querySelectorAll('[id]')].map((e) => e.id),
      links: [...document.querySelectorAll('a[href]')].map((a) => a.href),
    }));
    if (seen.title !== wantTitle) problems.push(`title ${JSON.stringify(seen.title)}, want ${JSON.stringify(wantTitle)}`);
    if (seen.h1 !== want.title) problems.push(`heading ${JSON.stringify(seen.h1)}, want ${JSON.stringify(want.title)}`);
    if (seen.sidebarLinks === 0) problems.push('no sidebar');
    else if (!seen.active.includes(route)) problems.push(`the sidebar does not show the page as active (active: ${seen.active.join(', ') || 'none'})`);
    return { problems, ids: new Set(seen.ids), links: seen.links.filter((l) => l.startsWith(origin)) };
  } catch (e) {
    problems.push(`did not load: ${e.message}`);
    return { problems, ids: new Set(), links: [] };
  } finally {
    await tab.close();
  }
}

async function main() {
  if (!(await stat(chromium).catch(() => null))) {
    throw new Error(`no Chromium at ${chromium}: install Debian's (apt-get install chromium) or set CHROMIUM`);
  }
  const pages = await expectedPages();
  if (pages.size === 0) throw new Error(`no pages under ${docsDir}: run srgen docs --out ${docsDir} first`);
  const builtPages = (await walk(buildDir)).filter((f) => f.endsWith('.html'))
    .map((f) => '/' + path.relative(buildDir, f).split(path.sep).join('/').replace(/\.html$/, '').replace(/(^|\/)index$/, ''))
    .map((r) => (r === '' ? '/' : r.replace(/\/$/, '') || '/'));
  const server = await serve(buildDir);
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    // Root (as CI runs) cannot use Chromium's sandbox.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-extensions'],
  });
  const results = new Map();
  try {
    const routes = [...pages.keys()];
    let next = 0;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < routes.length) {
        const route = routes[next++];
        results.set(route, await visit(browser, origin, route, pages.get(route)));
      }
    }));
  } finally {
    await browser.close();
  }
  // Links and anchors: every target is a page visited (its anchor one of
  // its element ids) or a file the server serves.
  const files = new Map();
  let links = 0;
  let anchors = 0;
  for (const r of results.values()) {
    for (const href of r.links) {
      links++;
      const u = new URL(href);
      const target = u.pathname.replace(/\/$/, '') || '/';
      const anchor = decodeURIComponent(u.hash.slice(1));
      if (anchor) anchors++;
      if (results.has(target)) {
        if (anchor && !results.get(target).ids.has(anchor)) r.problems.push(`link ${href}: ${target} has no element #${anchor}`);
        continue;
      }
      if (!files.has(target)) files.set(target, await fetch(origin + target).then((res) => res.status, () => 0));
      if (files.get(target) !== 200 || target.endsWith('.html') || !path.extname(target)) {
        r.problems.push(`link ${href}: no page or file ${target} (status ${files.get(target)})`);
      }
    }
  }
  server.close();
  for (const route of results.keys()) {
    if (!builtPages.includes(route)) results.get(route).problems.push(`srgen wrote ${pages.get(route).file}, the build has no page for it`);
  }
  let failed = 0;
  for (const [route, r] of results) {
    const problems = [...new Set(r.problems)];
    if (problems.length === 0) continue;
    failed++;
    console.log(`FAIL ${route} (${pages.get(route).file})`);
    for (const p of problems) console.log(`  ${p}`);
  }
  const extra = builtPages.filter((r) => r !== '/404' && !pages.has(r));
  for (const r of extra) console.log(`FAIL ${r}: built, but srgen wrote no such page`);
  console.log(`site check: ${results.size} pages loaded in Chromium from ${buildDir}; ${links} links followed, ${anchors} of them to an anchor, ${files.size} linked files fetched`);
  console.log(`${results.size - failed} passed, ${failed + extra.length} failed`);
  process.exit(failed + extra.length === 0 ? 0 : 1);
}

main().catch((e) => { console.error(`site check: ${e.message}`); process.exit(1); });

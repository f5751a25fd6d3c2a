// Checks the built doc site in headless Chromium (make site): the build
// is served on loopback, and every page srgen wrote is loaded in a fresh
// tab. A page passes when it loads with no console error, no uncaught
// exception and no failed request; its <title> is its front matter title;
// its heading and the sidebar render, with the page itself active in the
// sidebar; and every link on it leads to a page of the site or a file of
// the build, and every anchor to an element of that page. The build must
// hold no page srgen did not write (but 404.html).
//
// What readers of vLLM's or Envoy's docs expect is checked too: the build
// is served by `docusaurus serve` (what `npm run serve` runs), so every
// page loads at its clean URL (/errors, no .html); every page has the
// search box and the footer's repository link; a search run in the page
// finds a page of the site, and no page asks anything of another origin
// (the index is built with the site); a guide has its "Edit this page"
// link into the repository, a generated page none; an OpenAPI operation
// page shows an example request and response bodies; and the front page
// follows the system's light or dark preference.
//
//   node check.mjs BUILD_DIR DOCS_DIR
//
// Chromium is the system's (CHROMIUM, default /usr/bin/chromium), driven
// by puppeteer-core, which downloads no browser. Ends with the line
// "N passed, M failed"; exits 1 when a page failed.

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const [buildDir = 'build', docsDir = 'docs'] = process.argv.slice(2);
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const siteTitle = 'vllm-sr System One'; // docusaurus.config.js's title
const repository = 'https://github.com/vllm-sr/systemone'; // docusaurus.config.js's repository
const pageTimeout = 30_000;
const concurrency = 2;

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

// freePort is a loopback port nothing listens on now.
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

// serve serves the build with `docusaurus serve`, as `npm run serve`
// does, on a free loopback port, and returns its origin and a stop
// function once it answers (within a minute).
async function serve(dir) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['node_modules/@docusaurus/core/bin/docusaurus.mjs', 'serve',
    '--dir', dir, '--port', String(port), '--host', '127.0.0.1', '--no-open'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const stop = () => child.kill('SIGTERM');
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    if (child.exitCode !== null) throw new Error(`docusaurus serve exited with ${child.exitCode}`);
    const up = await fetch(origin + '/', { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);
    if (up) return { origin, stop };
    await new Promise((r) => setTimeout(r, 250));
  }
  stop();
  throw new Error('docusaurus serve did not answer within a minute');
}

// visit loads one page and returns what it found: problems, the ids of
// its elements, and the same-origin links it has.
async function visit(browser, origin, route, want) {
  const problems = [];
  const tab = await browser.newPage();
  tab.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(origin + '/') && !u.startsWith('data:')) problems.push(`a request outside the site: ${u}`);
  });
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
      search: document.querySelectorAll('.navbar input[type="search"], .navbar .navbar__search-input').length,
      footerRepo: [...document.querySelectorAll('footer a[href]')].map((a) => a.href),
      edit: [...document.querySelectorAll('a.theme-edit-this-page')].map((a) => a.href),
      article: document.querySelector('article')?.innerText || '',
      codeBlocks: document.querySelectorAll('article pre').length,
    }));
    if (seen.title !== wantTitle) problems.push(`title ${JSON.stringify(seen.title)}, want ${JSON.stringify(wantTitle)}`);
    if (seen.h1 !== want.title) problems.push(`heading ${JSON.stringify(seen.h1)}, want ${JSON.stringify(want.title)}`);
    if (seen.search === 0) problems.push('no search box in the navbar');
    if (!seen.footerRepo.some((h) => h.replace(/\/$/, '') === repository)) problems.push(`no footer link to ${repository}`);
    const generated = want.file.startsWith('reference/') || want.file === 'index.md';
    const wantEdit = `${repository}/edit/main/docs/${want.file}`;
    if (generated && seen.edit.length > 0) problems.push(`a generated page with an edit link: ${seen.edit.join(', ')}`);
    if (!generated && !seen.edit.includes(wantEdit)) problems.push(`edit link ${seen.edit.join(', ') || 'none'}, want ${wantEdit}`);
    if (/-openapi\/operations\//.test(want.file) &&
      (!seen.article.includes('Example request') || !seen.article.includes('Example response body') || seen.codeBlocks < 2)) {
      problems.push('an operation page without its example request and response bodies');
    }
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

// checkSearch types a word into the front page's search box and wants a
// suggestion that links to a page of the site; the index comes from the
// build (visit's request check holds every other page to the same).
async function checkSearch(browser, origin) {
  const problems = [];
  const tab = await browser.newPage();
  await tab.setViewport({ width: 1280, height: 900 });
  tab.on('request', (r) => {
    if (!r.url().startsWith(origin + '/') && !r.url().startsWith('data:')) problems.push(`search: a request outside the site: ${r.url()}`);
  });
  try {
    await tab.goto(origin + '/', { waitUntil: 'networkidle0', timeout: pageTimeout });
    const box = '.navbar input[type="search"], .navbar .navbar__search-input';
    await tab.waitForSelector(box, { timeout: 10_000 });
    await tab.click(box);
    await tab.type(box, 'glossary', { delay: 20 });
    const hrefs = await tab.waitForFunction((o) => {
      const links = [...document.querySelectorAll('.navbar a[href]')]
        .map((a) => a.href).filter((h) => h.startsWith(o) && h.includes('glossary'));
      return links.length > 0 ? links : false;
    }, { timeout: 15_000 }, origin).then((h) => h.jsonValue(), () => []);
    if (hrefs.length === 0) problems.push('search: typing "glossary" suggested no page of the site');
  } catch (e) {
    problems.push(`search: ${e.message}`);
  } finally {
    await tab.close();
  }
  return problems;
}

// checkColorScheme loads the front page with the system preferring dark,
// then light, and wants the page's theme to follow.
async function checkColorScheme(browser, origin) {
  const problems = [];
  for (const scheme of ['dark', 'light']) {
    const context = await browser.createBrowserContext(); // no theme remembered from another load
    const tab = await context.newPage();
    try {
      await tab.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
      await tab.goto(origin + '/', { waitUntil: 'networkidle0', timeout: pageTimeout });
      const theme = await tab.evaluate(() => document.documentElement.dataset.theme);
      if (theme !== scheme) problems.push(`the system prefers ${scheme}, the page shows ${theme}`);
    } catch (e) {
      problems.push(`colour scheme ${scheme}: ${e.message}`);
    } finally {
      await context.close();
    }
  }
  return problems;
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
  const { origin, stop } = await serve(buildDir);
  process.on('exit', stop); // the server never outlives the check
  let failed;
  try {
    failed = await checkSite(origin, pages, builtPages);
  } finally {
    stop();
  }
  process.exit(failed === 0 ? 0 : 1);
}

// checkSite loads every page, follows its links, and runs the search and
// colour-scheme checks; it prints each failure and returns how many.
async function checkSite(origin, pages, builtPages) {
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    // Root (as CI runs) cannot use Chromium's sandbox.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-extensions'],
  });
  const results = new Map();
  const siteProblems = [];
  try {
    siteProblems.push(...await checkSearch(browser, origin));
    siteProblems.push(...await checkColorScheme(browser, origin));
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
  // The search plugin's own result page (/search) is the one page srgen
  // does not write.
  const extra = builtPages.filter((r) => r !== '/404' && r !== '/search' && !pages.has(r));
  for (const r of extra) console.log(`FAIL ${r}: built, but srgen wrote no such page`);
  for (const p of siteProblems) console.log(`FAIL site: ${p}`);
  console.log(`site check: ${results.size} pages loaded in Chromium from ${buildDir} as docusaurus serve serves it; ${links} links followed, ${anchors} of them to an anchor, ${files.size} linked files fetched; search and the colour scheme checked`);
  console.log(`${results.size - failed} passed, ${failed + extra.length + siteProblems.length} failed`);
  return failed + extra.length + siteProblems.length;
}

main().catch((e) => { console.error(`site check: ${e.message}`); process.exit(1); });

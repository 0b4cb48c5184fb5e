// The HTML API reference in headless Chromium, opened from disk as a reader would open it:
// every page loads with no console error and fetches nothing beyond its own file, every
// internal link (href="#x" and links to the other pages) has its target; then, on the
// page of a multi-version kind: a field's type link leads to the nested type's section,
// the search box narrows the kinds, types and fields, and the kind's version switch opens
// the other version's page at the kind. Screenshots (desktop, phone, dark) go to
// target/docs-screenshots/. Usage: node tests/browser/docs.mjs SITE_DIR...
import { createRequire } from "node:module";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";

const require = createRequire(path.resolve(process.env.PUPPETEER_DIR || "target/browser-test", "package.json"));
const puppeteer = require("puppeteer-core");

const sites = process.argv.slice(2);
const shots = path.resolve("target/docs-screenshots");
fs.mkdirSync(shots, { recursive: true });
for (const old of fs.readdirSync(shots)) if (old.endsWith(".png")) fs.rmSync(path.join(shots, old));
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "kubegen-chromium-"));
const failures = [];
const checked = [];
const fail = (what) => failures.push(what);

function htmlFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...htmlFiles(p));
    else if (entry.name.endsWith(".html")) out.push(path.resolve(p));
  }
  return out.sort();
}

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || "chromium",
  headless: true,
  userDataDir: profile,
  args: [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
  ],
});

// A page that records what goes wrong on it: console errors, uncaught exceptions, and any
// request beyond file:// (the site must need nothing from outside).
async function open(file, viewport = { width: 1280, height: 900 }) {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  const name = path.relative(process.cwd(), file);
  page.on("console", (m) => { if (m.type() === "error") fail(`${name}: console error: ${m.text()}`); });
  page.on("pageerror", (e) => fail(`${name}: uncaught: ${e.message}`));
  page.on("request", (r) => { if (!/^(file|data|about):/.test(r.url())) fail(`${name}: fetched ${r.url()}`); });
  await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  return page;
}

const visible = (page, selector) =>
  page.$$eval(selector, (els) => els.filter((e) => e.offsetParent !== null).length);

try {
  let pages = 0;
  let links = 0;
  for (const site of sites) {
    const files = htmlFiles(site);
    if (files.length < 2) fail(`${site}: no HTML site (run codegen-cli docs)`);
    const ids = new Map();
    const hrefs = new Map();
    for (const file of files) {
      const page = await open(file);
      ids.set(file, new Set(await page.$$eval("[id]", (els) => els.map((e) => e.id))));
      hrefs.set(file, await page.$$eval("a[href]", (els) => els.map((e) => e.getAttribute("href"))));
      await page.close();
      pages += 1;
    }
    for (const [file, list] of hrefs) {
      for (const href of list) {
        if (/^[a-z]+:/.test(href)) continue;
        const [target, anchor] = href.split("#");
        const linked = target ? path.resolve(path.dirname(file), target) : file;
        const name = path.relative(process.cwd(), file);
        if (!ids.has(linked)) fail(`${name}: a link to ${href}, which is no page of the site`);
        else if (anchor && !ids.get(linked).has(anchor)) fail(`${name}: a link to ${href}, which has no such id`);
        links += 1;
      }
    }
  }
  checked.push(`${pages} pages load with no console error and fetch nothing; ${links} internal links all have their targets`);

  // A multi-version kind's page: the zoo's Pavilion (v1, v1beta1).
  const zoo = sites.map((s) => path.resolve(s, "zoo.kubegen.dev/v1.html")).find((f) => fs.existsSync(f));
  if (!zoo) throw new Error("no zoo.kubegen.dev/v1.html among the sites");
  const page = await open(zoo);
  await page.screenshot({ path: path.join(shots, "desktop.png") });

  // A field's type leads to the nested type's section.
  const link = await page.$("table.fields td[data-label=Type] a[href^='#type-']");
  const target = await link.evaluate((a) => a.getAttribute("href").slice(1));
  const field = await link.evaluate((a) => a.closest("tr").id);
  await link.click();
  await page.waitForFunction((t) => location.hash === `#${t}`, {}, target);
  const top = await page.$eval(`#${target}`, (e) => e.getBoundingClientRect().top);
  if (top < 0 || top > 200) fail(`following ${field}'s type: #${target} is at ${top}px, not at the top`);
  await page.screenshot({ path: path.join(shots, "desktop-nested-type.png") });
  checked.push(`field #${field}'s type link opens #${target} at the top of the window`);

  // The search box narrows the navigation tree and the page.
  await page.goto(pathToFileURL(zoo).href + "#main");
  const before = { nav: await visible(page, "#nav li[data-search]"), rows: await visible(page, "tr[data-search]") };
  await page.type("#search", "replicas");
  const after = { nav: await visible(page, "#nav li[data-search]"), rows: await visible(page, "tr[data-search]") };
  const rowNames = await page.$$eval("tr[data-search]", (rows) =>
    rows.filter((r) => r.offsetParent !== null).map((r) => r.getAttribute("data-search")));
  const status = await page.$eval("#search-status", (e) => e.textContent);
  if (!(after.nav > 0 && after.nav < before.nav)) fail(`search: the navigation list went from ${before.nav} to ${after.nav} items`);
  if (!(after.rows > 0 && after.rows < before.rows)) fail(`search: the fields went from ${before.rows} to ${after.rows}`);
  if (rowNames.some((n) => !n.includes("replicas"))) fail(`search: fields that do not match stay: ${rowNames}`);
  if (!status) fail("search: no count of what matches");
  await page.screenshot({ path: path.join(shots, "desktop-search.png") });
  checked.push(`search "replicas": navigation ${before.nav} → ${after.nav} items, fields ${before.rows} → ${after.rows} (${status})`);
  await page.$eval("#search", (e) => { e.value = ""; e.dispatchEvent(new Event("input")); });
  if ((await visible(page, "tr[data-search]")) !== before.rows) fail("search: clearing it does not bring every field back");

  // The version switch opens the other version's page at the kind.
  const other = await page.$("#pavilion nav.versions a.version:not(.current)");
  if (!other) throw new Error("Pavilion has no version switch");
  const version = await other.evaluate((a) => a.textContent);
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), other.click()]);
  const url = page.url();
  const heading = await page.$eval("h1", (e) => e.textContent);
  const current = await page.$eval("#pavilion nav.versions a.current", (e) => e.textContent);
  if (!url.endsWith(`/${version}.html#pavilion`) || !heading.endsWith(`/${version}`) || current !== version) {
    fail(`version switch: to ${version}, got ${url} ("${heading}", current ${current})`);
  }
  checked.push(`version switch: Pavilion v1 → ${path.basename(fileURLToPath(url))}#pavilion`);
  await page.close();

  // Phone width: nothing wider than the screen; the field tables read as cards.
  const phone = await open(zoo, { width: 390, height: 844, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 0) fail(`phone width: the page is ${overflow}px wider than the screen`);
  await phone.screenshot({ path: path.join(shots, "phone.png") });
  await phone.goto(pathToFileURL(zoo).href + "#type-accordspec");
  await phone.screenshot({ path: path.join(shots, "phone-fields.png") });
  await phone.click("#menu");
  const tree = await phone.$eval("#nav", (e) => {
    const r = e.getBoundingClientRect();
    return { shown: e.offsetParent !== null || getComputedStyle(e).position === "fixed", top: r.top, bottom: r.bottom };
  });
  if (!tree.shown || tree.top < 0 || tree.top > 100 || tree.bottom < 400) {
    fail(`phone width: Contents does not open the navigation tree in view (${JSON.stringify(tree)})`);
  }
  await phone.screenshot({ path: path.join(shots, "phone-contents.png") });
  await phone.close();
  checked.push("phone width (390px): no horizontal scrolling, Contents opens the tree");

  // The index lists every group/version's kinds.
  const index = await open(path.join(path.dirname(path.dirname(zoo)), "index.html"));
  await index.screenshot({ path: path.join(shots, "desktop-index.png") });
  await index.close();

  // Dark.
  const dark = await open(zoo);
  await dark.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "dark" }]);
  await dark.goto(pathToFileURL(zoo).href + "#type-accordspec");
  const background = await dark.evaluate(() => getComputedStyle(document.body).backgroundColor);
  if (background === "rgb(255, 255, 255)") fail("dark: the page stays white under prefers-color-scheme: dark");
  await dark.screenshot({ path: path.join(shots, "desktop-dark.png") });
  await dark.close();
  checked.push(`dark color scheme: background ${background}`);
} catch (e) {
  fail(`${e.stack || e}`);
} finally {
  await browser.close();
  fs.rmSync(profile, { recursive: true, force: true });
}

for (const line of checked) console.log(`[browser] ok: ${line}`);
console.log(`[browser] screenshots: ${path.relative(process.cwd(), shots)}/ (${fs.readdirSync(shots).sort().join(", ")})`);
if (failures.length) {
  for (const f of failures) console.error(`[browser] FAIL: ${f}`);
  process.exit(1);
}

#!/usr/bin/env node
// Renders the home-screen icons (PNG, for browsers and iOS that take no SVG icon) from
// public/icons/icon.svg with Debian's Chromium. Run after changing the SVG; the PNGs are committed.
//
//   node scripts/make-icons.mjs
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ICONS = fileURLToPath(new URL('../public/icons/', import.meta.url));
const SIZES = { 'icon-192.png': 192, 'icon-512.png': 512, 'apple-touch-icon.png': 180 };

const svg = await readFile(join(ICONS, 'icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true });
try {
  for (const [name, size] of Object.entries(SIZES)) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    await page.setContent(`<style>html,body{margin:0}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`);
    await page.screenshot({ path: join(ICONS, name), omitBackground: false });
    await page.close();
  }
} finally {
  await browser.close();
}

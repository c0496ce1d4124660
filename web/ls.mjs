import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--use-angle=swiftshader','--enable-unsafe-swiftshader'] });
for (const [w, h, mobile] of [[844, 390, true], [1366, 650, false], [1280, 900, false], [390, 844, true], [1024, 600, true]]) {
const ctx = await b.newContext({ viewport: { width: w, height: h }, isMobile: mobile, hasTouch: mobile, deviceScaleFactor: 1 });
const p = await ctx.newPage();
await p.goto(`http://127.0.0.1:8098/?e2e&lang=ja`); await p.waitForTimeout(600);
await p.click('.mode-button[data-mode="cpu-beginner"]'); await p.waitForTimeout(1500);
await p.click('[data-focus-key="confirm"]'); await p.waitForTimeout(2500);
const r = await p.evaluate(() => { const m = document.querySelector('.board3d-mount'); m.scrollIntoView({ block: 'end' }); const r = m.getBoundingClientRect(); const c = m.querySelector('canvas'); return [Math.round(r.width), Math.round(r.height), c.width, c.height]; });
await p.waitForTimeout(1500);
await p.screenshot({ path: `/tmp/ls-${w}x${h}.png` });
console.log(w, h, r);
await ctx.close();
}
await b.close();

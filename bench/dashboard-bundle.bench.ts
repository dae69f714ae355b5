import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

// Issue 41: the dashboard's initial JavaScript, as a browser downloads it on first visit (the page
// loads one script and one stylesheet, nothing else), raw and gzip-compressed. Goal: under 300 KB gzip.
const DASHBOARD = fileURLToPath(new URL('../apps/dashboard/', import.meta.url));
const GOAL_KB = 300;

execFileSync(process.execPath, ['--import', 'tsx', `${DASHBOARD}scripts/build.ts`], { stdio: 'inherit' });
const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
const rows = ['app.js', 'app.css', 'index.html'].map((file) => {
  const body = readFileSync(`${DASHBOARD}dist/${file}`);
  return { file, rawKb: kb(body.length), gzipKb: kb(gzipSync(body, { level: 9 }).length) };
});
console.table(rows);
const js = rows.find((r) => r.file === 'app.js')!;
console.log(`dashboard initial JavaScript: ${js.gzipKb} KB gzip (${js.rawKb} KB raw); goal < ${GOAL_KB} KB gzip: ${js.gzipKb < GOAL_KB ? 'met' : 'MISSED'}`);
process.exit(js.gzipKb < GOAL_KB ? 0 : 1);

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { ensureChromium, launchChromium } from './chromium';
import { PASSWORD } from './dashboard';
import type { TestService } from './service';

const BUILD = fileURLToPath(new URL('../../apps/dashboard/scripts/build.ts', import.meta.url));
const ARTIFACTS = fileURLToPath(new URL('../artifacts/dashboard/', import.meta.url));
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Builds the dashboard from its sources (about a second) and makes sure chromium is there. */
export function prepareDashboard(): void {
  ensureChromium();
  execFileSync(process.execPath, ['--import', 'tsx', BUILD], { stdio: 'inherit' });
}

export type Browser = Awaited<ReturnType<typeof launchChromium>>;
export const openBrowser = launchChromium;

/** A fresh page of `context`; a page error (an exception in the app) fails the test that reads `errors`. */
export async function newPage(context: BrowserContext): Promise<Page & { errors: string[] }> {
  const page = Object.assign(await context.newPage(), { errors: [] as string[] });
  page.on('pageerror', (error) => page.errors.push(error.message));
  // Under the test's own timeout, so a missing element fails with the locator's message.
  page.setDefaultTimeout(15_000);
  return page;
}

/** Signs in through the sign-in form and waits for the signed-in layout. */
export async function signInUi(page: Page, svc: TestService, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${svc.url}/dashboard/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Dashboard' }).waitFor();
}

/** Goes to a dashboard path through its navigation (as a person clicks), waiting for the page's heading. */
export async function openNav(page: Page, link: string, heading: RegExp | string = link): Promise<void> {
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** Saves a screenshot of the page as a test artifact (test/artifacts/dashboard/<name>.png). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
}

/**
 * axe-core over the page as it stands: no serious or critical violation. Injected through the
 * DevTools protocol (page.evaluate), which the page's CSP does not govern.
 */
export async function expectAccessible(page: Page): Promise<void> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }> }> } }).axe.run();
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  });
  expect(violations).toEqual([]);
}

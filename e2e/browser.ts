/**
 * Chromium (Debian's, /usr/bin/chromium) through playwright-core, and a strict watch on every page of a journey:
 * any console error or warning, hydration message, uncaught page error, failed request or HTTP error answer is a
 * problem, and `expectClean()` fails the journey with the list. Each step leaves a screenshot in .cache/e2e/, and a
 * journey that fails leaves its open pages as they were then (failed-<n>.png, with their addresses in failed.txt).
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium, errors, type Browser, type BrowserContext, type Page } from "playwright-core";
import { onTestFailed, TestRunner } from "vitest";
import { ARTEFACT_DIR } from "./demo";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install -y chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}

/**
 * A screenshot to `file`. Chromium, on a loaded machine, has once produced no frame for a capture within 30 s (the
 * step's page was on screen and settled; CI, journey 4's preflight): a capture that times out is tried once more with
 * the page brought to the front, and a second timeout fails with the file's name.
 */
export async function capture(page: Page, file: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const shoot = (timeout: number) => page.screenshot({ path: file, fullPage: options.fullPage ?? false, timeout });
  try {
    await shoot(20_000);
  } catch (error) {
    if (!(error instanceof errors.TimeoutError)) throw error;
    // Not waited for beyond 5 s: a Chromium that cannot do this either is answered by the second capture's timeout.
    let waited: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([page.bringToFront(), new Promise((resolve) => (waited = setTimeout(resolve, 5_000)))]).finally(() => clearTimeout(waited));
    await shoot(30_000).catch((again: unknown) => {
      if (!(again instanceof errors.TimeoutError)) throw again;
      throw new Error(`no screenshot for ${path.basename(file)}: Chromium gave no frame in two tries`, { cause: again });
    });
  }
}

export interface JourneyOptions {
  /** Folder name under .cache/e2e/ for this journey's screenshots. */
  name: string;
  locale?: "en-US" | "fr-FR";
  timezoneId?: string;
}

export interface Journey {
  context: BrowserContext;
  page: Page;
  /** Screenshot of the page as it is now, numbered in order: .cache/e2e/<journey>/<nn>-<step>.png */
  step: (label: string) => Promise<string>;
  /** Problems seen so far on any page of this journey. */
  problems: string[];
  /** Lets one expected HTTP error answer through (e.g. the unknown order's 404), by URL part and status. */
  allowHttpError: (urlPart: string, status: number) => void;
  /**
   * A file the browser takes over once its answer arrived (headless Chromium turns a PDF tab into a download, which
   * ends that navigation with net::ERR_ABORTED). Only for a URL whose answer the step checks itself.
   */
  allowHandedOverFile: (url: string) => void;
  close: () => Promise<void>;
}

const HYDRATION = /hydrat|did not match|server rendered HTML|Text content does not match|There was an error while hydrating/i;

export async function openJourney(browser: Browser, options: JourneyOptions): Promise<Journey> {
  const locale = options.locale ?? "en-US";
  const context = await browser.newContext({
    locale,
    timezoneId: options.timezoneId ?? (locale === "fr-FR" ? "Europe/Paris" : "America/New_York"),
    viewport: { width: 1280, height: 900 },
  });
  const problems: string[] = [];
  const allowed: { urlPart: string; status: number }[] = [];
  const handedOver = new Set<string>();
  const watch = (page: Page) => {
    page.on("console", (message) => {
      // The first lines say what it is; React's component stack after them would drown the report.
      const text = message.text().split("\n").slice(0, 2).join(" ").slice(0, 400);
      if (message.type() === "error") {
        // Chromium logs every HTTP error answer as a console error too; an allowed one is not a problem.
        const allowedLoad = /Failed to load resource: the server responded with a status of (\d+)/.exec(text);
        if (allowedLoad && allowed.some((entry) => entry.status === Number(allowedLoad[1]) && message.location().url.includes(entry.urlPart))) return;
        // Chromium does not say which resource failed to load; its location does (e.g. the browser's own /favicon.ico).
        problems.push(`console error: ${text}${allowedLoad ? ` (${message.location().url})` : ""}`);
      } else if (message.type() === "warning" || HYDRATION.test(text)) {
        problems.push(`console ${message.type()}: ${text}`);
      }
    });
    page.on("pageerror", (error) => problems.push(`uncaught page error: ${error.message}`));
    page.on("requestfailed", (request) => {
      const errorText = request.failure()?.errorText ?? "?";
      if (handedOver.has(request.url()) && errorText === "net::ERR_ABORTED") return;
      // The browser's own pages (its PDF viewer showing a label file) are not the app's requests.
      if (request.url().startsWith("chrome-extension://")) return;
      // Remix's route discovery (`/__manifest?p=…`) is a background fetch for links on screen; the browser aborts it
      // when the page moves on first (a submit, a new document). Nothing the merchant asked for failed. Any other
      // answer of it (an HTTP error) still counts below.
      if (errorText === "net::ERR_ABORTED" && new URL(request.url()).pathname === "/__manifest") return;
      // Remix aborts a page's data load (`….data`) that a newer one supersedes: the merchant submits while the
      // progress page's refresh is under way, or navigates on. The newer load answers; an HTTP error still counts.
      if (errorText === "net::ERR_ABORTED" && request.method() === "GET" && new URL(request.url()).pathname.endsWith(".data")) return;
      problems.push(`failed request: ${request.method()} ${request.url()} (${errorText})`);
    });
    page.on("response", (response) => {
      if (response.status() < 400) return;
      if (allowed.some((entry) => entry.status === response.status() && response.url().includes(entry.urlPart))) return;
      problems.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
    });
  };
  context.on("page", watch);
  const page = await context.newPage();

  const folder = path.join(ARTEFACT_DIR, options.name);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  let count = 0;
  const step = async (label: string) => {
    count += 1;
    const file = path.join(folder, `${String(count).padStart(2, "0")}-${label.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}.png`);
    await capture(page, file, { fullPage: true });
    return file;
  };
  let closed = false;
  // A failed journey stops before its close(): its pages still show where it stopped, saved beside its steps.
  // (Only a journey opened inside a test: one opened by a beforeAll or afterAll has no test to watch.)
  if (TestRunner.getCurrentTest()) onTestFailed(async () => {
    if (closed) return;
    const lines: string[] = [];
    for (const [index, open] of context.pages().entries()) {
      const file = `failed-${index + 1}.png`;
      const shot = await open.screenshot({ path: path.join(folder, file), fullPage: true, timeout: 10_000 }).then(
        () => file,
        (error: unknown) => `no screenshot (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`,
      );
      lines.push(`${open.url()}: ${shot}`);
    }
    lines.push(...problems.map((problem) => `problem: ${problem}`));
    writeFileSync(path.join(folder, "failed.txt"), lines.map((line) => `${line}\n`).join(""));
  });
  return {
    context,
    page,
    step,
    problems,
    allowHttpError: (urlPart, status) => allowed.push({ urlPart, status }),
    allowHandedOverFile: (url) => handedOver.add(url),
    close: async () => {
      closed = true;
      writeFileSync(path.join(folder, "problems.txt"), problems.map((problem) => `${problem}\n`).join(""));
      await context.close();
    },
  };
}

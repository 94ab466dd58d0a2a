// A real browser against /docs: headless Chromium (Debian's
// `chromium`, installed by .ci/run) driven by puppeteer-core loads Swagger UI
// from a server on a non-default port, authorises with a demo key, runs "Try
// it out" on GET /v1/datasets and sees the 200 body. It only passes when the
// served document names the origin it came from (D-SERVERS). Skipped, with
// the reason printed, when no chromium binary is installed locally.
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import puppeteer, { type Browser } from "puppeteer-core";
import { readConfig } from "../src/config.ts";
import { createLogger } from "../src/platform/request-log.ts";
import { startServer, type RunningServer } from "../src/server.ts";
import { KEYS } from "./helpers.ts";

const CANDIDATES = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(
  (p): p is string => !!p,
);
const chromium = CANDIDATES.find((p) => existsSync(p));
if (!chromium)
  console.warn(
    `browser test skipped: no chromium at ${CANDIDATES.join(", ")} (apt-get install chromium, as .ci/run does)`,
  );

describe.skipIf(!chromium)("/docs in a real browser", () => {
  let running: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    // PORT 0: whatever free port the OS gives, never the documented 3000.
    const read = readConfig({ PORT: "0", HOST: "127.0.0.1", LOG_REQUESTS: "false" });
    if (!read.ok) throw new Error(read.errors.join("; "));
    running = await startServer(read.config, createLogger({ level: "silent" }));
    browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });

  it("runs Try it out on GET /v1/datasets with a demo key and shows the 200 body", async () => {
    expect(new URL(running.url).port).not.toBe("3000");
    const page = await browser.newPage();
    await page.goto(`${running.url}/docs`, { waitUntil: "networkidle0" });
    await page.waitForSelector("#operations-Datasets-Datasets_list", { timeout: 30_000 });
    // Authorise the way a user does, through Swagger UI's own API key store.
    await page.evaluate(
      (key) =>
        (window as unknown as { ui: { preauthorizeApiKey(n: string, k: string): void } }).ui.preauthorizeApiKey(
          "ApiKey",
          key,
        ),
      KEYS.aOwner,
    );

    await page.click("#operations-Datasets-Datasets_list .opblock-summary");
    await page.waitForSelector("#operations-Datasets-Datasets_list .try-out__btn", { timeout: 10_000 });
    await page.click("#operations-Datasets-Datasets_list .try-out__btn");
    await page.waitForSelector("#operations-Datasets-Datasets_list .execute", { timeout: 10_000 });
    await page.click("#operations-Datasets-Datasets_list .execute");
    await page.waitForSelector(
      "#operations-Datasets-Datasets_list .live-responses-table .response .response-col_status",
      { timeout: 30_000 },
    );

    const result = await page.$eval("#operations-Datasets-Datasets_list .live-responses-table", (el) => ({
      status: el.querySelector(".response .response-col_status")?.textContent?.trim(),
      body: el.querySelector(".response-col_description pre")?.textContent ?? "",
      url: document.querySelector("#operations-Datasets-Datasets_list .request-url pre")?.textContent?.trim(),
    }));
    // Swagger UI adds the query defaults (limit, order) to the URL it calls.
    expect(result.url?.startsWith(`${running.url}/v1/datasets`)).toBe(true);
    expect(result.status).toBe("200");
    const body = JSON.parse(result.body);
    expect(body.status).toBe("success");
    expect(Array.isArray(body.data)).toBe(true);
    expect(body.data.length).toBeGreaterThan(0);
  }, 90_000);
});

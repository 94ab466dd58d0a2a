// Scenarios (D-REF-SCENARIOS): a user's own fixture folder (accounts, keys, datasets,
// posts) loads, or is refused with lines naming the file and the field; the
// named scenarios; and POST /_reference/reset putting the loaded data back.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readConfig } from "../src/config.ts";
import { DEMO_FIXTURES } from "../src/fixtures/load.ts";
import { ManualClock } from "../src/platform/clock.ts";
import { Backend } from "../src/scenarios/backend.ts";
import { checkFixtureDir } from "../src/fixtures/check.ts";
import { LARGE_LAYOUT } from "../src/scenarios/large.ts";
import { FixtureError, fixturesUrl } from "../src/scenarios/scenario.ts";
import { KEYS } from "./helpers.ts";

const USER_KEY = "my_own_test_key_0001";

function backend(options: ConstructorParameters<typeof Backend>[0] = {}) {
  const clock = new ManualClock(Date.UTC(2026, 10, 2, 9, 0, 0));
  const b = new Backend({
    ...options,
    app: { clock, stepDelayMs: 0, rateLimitPerSecond: 10_000, logger: () => {}, ...options.app },
  });
  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await b.request(path, {
      method,
      headers: { "x-api-key": key, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as any };
  };
  return { b, clock, call };
}

/** A fixture folder: one account, a plaintext key, a dataset of `posts` posts. */
function userFixtures(posts: number, patch: (files: Record<string, any>) => void = () => {}): string {
  const dir = mkdtempSync(join(tmpdir(), "h17-fixtures-"));
  const files: Record<string, any> = {
    "accounts.json": {
      accounts: [
        {
          id: "acc_mine",
          name: "My Shop",
          team_name: "Shop",
          email: "me@shop.example",
          plan: "pro",
          balance: "50.000000",
          created_at: 1767225600,
          seats: [{ user_id: "usr_me", email: "me@shop.example", name: "Me", created_at: 1767225600 }],
          invitations: [],
        },
      ],
      api_keys: [{ api_key: USER_KEY, account_id: "acc_mine", user_id: "usr_me" }],
    },
    "datasets.json": {
      datasets: [
        {
          account_id: "acc_mine",
          name: "Our launch",
          posts: Array.from({ length: posts }, (_, i) => ({
            source: i % 2 ? "reddit" : "tiktok",
            id: `post${i}`,
            text: i === 7 ? "The zebra-striped kettle is wonderful and I love it" : `Post number ${i} about our launch`,
            created_at: "2026-10-01T12:00:00Z",
            likes: i,
            author: { username: `fan${i}` },
          })),
        },
      ],
    },
  };
  patch(files);
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(content));
  return dir;
}

describe("fixture folders", () => {
  it("the repository's own fixtures/ is in the documented format", () => {
    expect(checkFixtureDir(DEMO_FIXTURES)).toEqual([]);
  });

  it("loads a user's accounts, plaintext key, dataset and posts (one run per 100 posts)", async () => {
    const { call } = backend({ scenario: { fixturesDir: userFixtures(150) } });
    const datasets = await call("GET", "/v1/datasets", USER_KEY);
    expect(datasets.status).toBe(200);
    expect(datasets.json.data).toHaveLength(1);
    expect(datasets.json.data[0]).toMatchObject({ name: "Our launch", mentions_count: 150 });
    const runs = await call("GET", `/v1/datasets/${datasets.json.data[0].id}/runs`, USER_KEY);
    // Both runs are created in the same millisecond, so their list order follows their random ids.
    expect(
      runs.json.data.map((r: any) => [r.status.type, r.mentions_count]).sort((a: any, b: any) => a[1] - b[1]),
    ).toEqual([
      ["completed", 50],
      ["completed", 100],
    ]);
    const found = await call("POST", "/v1/mentions", USER_KEY, { q: "zebra kettle", limit: 5 });
    expect(found.json.data.map((m: any) => m.id)).toEqual(["post7"]);
    expect(found.json.data[0].sentiment).toBeDefined();
    // The demo keys are not in this folder.
    expect((await call("GET", "/v1/me", KEYS.aOwner)).status).toBe(401);
  });

  it("refuses a folder with mistakes, one line per problem naming file and field", () => {
    const dir = userFixtures(3, (f) => {
      f["datasets.json"].datasets[0].posts[1].created_at = "last tuesday";
      f["datasets.json"].datasets[0].posts[2].source = "myspace";
      f["accounts.json"].accounts[0].plan = "gold";
    });
    const problems = checkFixtureDir(fixturesUrl(dir));
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^accounts\.json: accounts\[0\]\.plan: /),
        expect.stringMatching(/^datasets\.json: datasets\[0\]\.posts\[1\]\.created_at: .*ISO 8601/),
        expect.stringMatching(/^datasets\.json: datasets\[0\]\.posts\[2\]\.source: /),
      ]),
    );
    expect(() => backend({ scenario: { fixturesDir: dir } })).toThrow(FixtureError);
  });

  it("checks references between files", () => {
    const dir = userFixtures(1, (f) => {
      f["datasets.json"].datasets[0].account_id = "acc_other";
      f["accounts.json"].api_keys[0].user_id = "usr_nobody";
      f["patterns.json"] = {
        pattern_detections: [
          {
            account_id: "acc_mine",
            dataset: "Nope",
            name: "p",
            research_question: "Why?",
            run_id: "pdr_x",
            pattern_id: "pt_x",
          },
        ],
      };
    });
    expect(checkFixtureDir(fixturesUrl(dir))).toEqual([
      "accounts.json: api_keys[0].user_id: account acc_mine has no seat usr_nobody",
      "datasets.json: datasets[0].account_id: no account acc_other in accounts.json",
      'patterns.json: pattern_detections[0].dataset: no dataset named "Nope" for acc_mine in datasets.json',
    ]);
  });

  it("a folder without accounts.json or with broken JSON says so", () => {
    const empty = mkdtempSync(join(tmpdir(), "h17-empty-"));
    expect(checkFixtureDir(fixturesUrl(empty))).toEqual([expect.stringMatching(/^accounts\.json: missing/)]);
    writeFileSync(join(empty, "accounts.json"), "{ nope");
    expect(checkFixtureDir(fixturesUrl(empty))).toEqual([expect.stringMatching(/^accounts\.json: not valid JSON/)]);
  });
});

describe("named scenarios", () => {
  it("empty has the demo accounts and no data; demo has the seeded datasets", async () => {
    const empty = backend({ scenario: { scenario: "empty" } });
    expect((await empty.call("GET", "/v1/datasets", KEYS.aOwner)).json.data).toEqual([]);
    const demo = backend({ scenario: { scenario: "demo" } });
    expect((await demo.call("GET", "/v1/datasets", KEYS.aOwner)).json.data.length).toBeGreaterThan(0);
  });

  it("large lays out 100,000 mentions across two accounts (built by `npm start -- --scenario large`)", () => {
    const total = LARGE_LAYOUT.flatMap((a) => a.datasets).reduce((n, d) => n + d.mentions, 0);
    expect(total).toBe(100_000);
    expect(new Set(LARGE_LAYOUT.map((a) => a.accountId)).size).toBe(2);
  });

  it("settings: --scenario, --fixtures, --state and their mistakes", () => {
    const read = readConfig({}, ["--scenario", "large", "--fixtures=./mine", "--state", "/tmp/s.db"]);
    expect(read.ok && [read.config.scenario, read.config.fixturesDir, read.config.stateFile]).toEqual([
      "large",
      "./mine",
      "/tmp/s.db",
    ]);
    expect(readConfig({ SCENARIO: "huge" })).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^SCENARIO=huge: expected one of empty, demo, large/)],
    });
    expect(readConfig({}, ["--state"])).toMatchObject({ ok: false, errors: ["--state: needs a value"] });
  });
});

describe("POST /_reference/reset", () => {
  it("puts the loaded scenario back: data, balances and usage as they were", async () => {
    const { b, clock, call } = backend({ scenario: { scenario: "demo" } });
    const before = {
      datasets: (await call("GET", "/v1/datasets?limit=100", KEYS.aOwner)).json.data,
      me: (await call("GET", "/v1/me", KEYS.aOwner)).json.data.usage,
      usage: (await call("GET", "/v1/me/usage_history?limit=100", KEYS.aOwner)).json.data,
    };
    const created = await call("POST", "/v1/datasets", KEYS.aOwner, { name: "scratch" });
    await call("POST", `/v1/datasets/${created.json.data.id}/runs`, KEYS.aOwner, {
      search_query: { type: "prompt", sources: ["reddit"], search_query: "tea" },
      count: 20,
    });
    await clock.runAll();
    expect((await call("GET", "/v1/me", KEYS.aOwner)).json.data.usage.balance).not.toBe(before.me.balance);

    const reset = await call("POST", "/_reference/reset", KEYS.bOwner);
    expect(reset).toEqual({
      status: 200,
      json: { status: "success", data: { scenario: "demo", reset_at: expect.any(String) } },
    });
    expect((await call("GET", "/v1/datasets?limit=100", KEYS.aOwner)).json.data).toEqual(before.datasets);
    expect((await call("GET", "/v1/me", KEYS.aOwner)).json.data.usage).toEqual(before.me);
    expect((await call("GET", "/v1/me/usage_history?limit=100", KEYS.aOwner)).json.data).toEqual(before.usage);
    expect((await call("GET", `/v1/datasets/${created.json.data.id}`, KEYS.aOwner)).status).toBe(404);
    // A second reset gives a fresh copy again (the first one's objects are not reused).
    await call("POST", "/v1/datasets", KEYS.aOwner, { name: "scratch 2" });
    await call("POST", "/_reference/reset", KEYS.aOwner);
    expect((await call("GET", "/v1/datasets?limit=100", KEYS.aOwner)).json.data).toEqual(before.datasets);
    b.close();
  });

  it("needs a key: any key of the loaded accounts, or only RESET_KEY when set", async () => {
    const open = backend({ scenario: { scenario: "empty" } });
    expect(await open.call("POST", "/_reference/reset", "wrong")).toMatchObject({
      status: 401,
      json: { status: "client_error", error_code: "unauthorized", transient: false },
    });
    const locked = backend({ scenario: { scenario: "empty" }, resetKey: "reset-secret" });
    expect((await locked.call("POST", "/_reference/reset", KEYS.aOwner)).status).toBe(401);
    expect((await locked.call("POST", "/_reference/reset", "reset-secret")).status).toBe(200);
  });

  it("is not part of the contract", () => {
    const doc = readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8");
    expect(doc).not.toContain("_reference");
  });
});

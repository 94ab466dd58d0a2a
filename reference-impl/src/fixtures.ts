// Loads the demo fixtures from the repository's fixtures/ folder: accounts
// with seats, API key digests and balances, then seeded datasets whose runs
// are executed to completion before the server listens.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { zDatasetRunsCreateBody } from "../../generated/client/zod.gen.ts";
import type { Services } from "./compose.ts";
import { sha256Hex, type Account } from "./platform/accounts.ts";
import { seedPosts, type FixturePost } from "./scenarios/fixture-posts.ts";
import { money } from "./platform/billing/money.ts";

/** The repository's demo fixtures; `--fixtures DIR` passes another folder to every loader below. */
export const DEMO_FIXTURES = new URL("../../fixtures/", import.meta.url);

function readJson<T>(name: string, dir: URL = DEMO_FIXTURES): T {
  return JSON.parse(readFileSync(fileURLToPath(new URL(name, dir)), "utf8")) as T;
}

export interface AccountFixture extends Omit<Account, "rate_limit"> {
  balance: string;
}

interface AccountsFile {
  accounts: AccountFixture[];
  /** A key's SHA-256 digest, or (in a user's own fixtures) the plaintext `api_key`, digested at load. */
  api_keys: { sha256?: string; api_key?: string; account_id: string; user_id: string }[];
  /** OAuth access tokens for the MCP endpoint, stored as digests like keys. */
  bearer_tokens?: { sha256: string; account_id: string; user_id: string }[];
}

interface DatasetsFile {
  /** `runs`: run bodies executed at load; `posts`: a user's own posts, collected by one run per 100 (scenarios/fixture-posts.ts). */
  datasets: { account_id: string; name: string; runs?: unknown[]; posts?: FixturePost[] }[];
}

export interface DemoKey {
  api_key: string;
  account_id: string;
  user_id: string;
  label: string;
}

export function demoKeys(dir: URL = DEMO_FIXTURES): DemoKey[] {
  if (!existsSync(fileURLToPath(new URL("demo-keys.json", dir)))) return [];
  return readJson<{ keys: DemoKey[] }>("demo-keys.json", dir).keys;
}

export interface DemoBearerToken {
  access_token: string;
  account_id: string;
  user_id: string;
  label: string;
}

/** Plaintext demo OAuth access tokens for the MCP endpoint (the server stores digests only). */
export function demoBearerTokens(dir: URL = DEMO_FIXTURES): DemoBearerToken[] {
  if (!existsSync(fileURLToPath(new URL("demo-keys.json", dir)))) return [];
  return readJson<{ bearer_tokens?: DemoBearerToken[] }>("demo-keys.json", dir).bearer_tokens ?? [];
}

export function loadAccounts(services: Services, dir: URL = DEMO_FIXTURES): void {
  const file = readJson<AccountsFile>("accounts.json", dir);
  for (const { balance, ...account } of file.accounts) {
    services.directory.addAccount({
      ...account,
      seats: account.seats.map((s) => ({ ...s })),
      invitations: [...account.invitations],
    });
    services.ledger.open(account.id, account.plan, money(balance));
  }
  for (const k of file.api_keys)
    services.directory.addKey({
      digest: k.sha256 ?? sha256Hex(k.api_key!),
      account_id: k.account_id,
      user_id: k.user_id,
    });
  for (const t of file.bearer_tokens ?? [])
    services.directory.addBearerToken({ digest: t.sha256, account_id: t.account_id, user_id: t.user_id });
}

export function seedDatasets(services: Services, dir: URL = DEMO_FIXTURES): void {
  const has = (name: string) => existsSync(fileURLToPath(new URL(name, dir)));
  const file = has("datasets.json") ? readJson<DatasetsFile>("datasets.json", dir) : { datasets: [] };
  for (const d of file.datasets) {
    const account = services.directory.account(d.account_id);
    if (!account) throw new Error(`fixture dataset for unknown account ${d.account_id}`);
    const row = services.datasets.insert(account.id, d.name);
    for (const run of d.runs ?? [])
      services.datasetRuns.start(account, row, zDatasetRunsCreateBody.parse(run), { inline: true });
    if (d.posts?.length) seedPosts(services, account, row, d.posts);
  }
  if (has("audiences.json")) seedAudiences(services, dir);
  if (has("patterns.json")) seedPatterns(services, dir);
}

interface PatternsFile {
  pattern_detections: {
    account_id: string;
    dataset: string;
    name: string;
    research_question: string;
    run_id: string;
    pattern_id: string;
  }[];
}

/** Pattern detections over seeded datasets (found by name), completed before the server listens. */
export function seedPatterns(services: Services, dir: URL = DEMO_FIXTURES): void {
  for (const p of readJson<PatternsFile>("patterns.json", dir).pattern_detections) {
    const account = services.directory.account(p.account_id);
    if (!account) throw new Error(`fixture pattern detection for unknown account ${p.account_id}`);
    const dataset = services.datasets.live(account.id).find((d) => d.name === p.dataset);
    if (!dataset) throw new Error(`fixture pattern detection over unknown dataset ${p.dataset}`);
    const caller = { account, seat: account.seats[0]! };
    const body = { dataset_id: dataset.id, name: p.name, research_question: p.research_question };
    services.patterns.create(caller, body, { inline: true, ids: { run: p.run_id, pattern: p.pattern_id } });
  }
}

interface AudiencesFile {
  audience_datasets: {
    account_id: string;
    name: string;
    runs: { source_dataset: string; total_profile_count: number }[];
  }[];
}

/** Audience datasets whose runs (over seeded datasets, found by name) complete before the server listens. */
export function seedAudiences(services: Services, dir: URL = DEMO_FIXTURES): void {
  const file = readJson<AudiencesFile>("audiences.json", dir);
  for (const a of file.audience_datasets) {
    const account = services.directory.account(a.account_id);
    if (!account) throw new Error(`fixture audience dataset for unknown account ${a.account_id}`);
    const caller = { account, seat: account.seats[0]! };
    const row = services.audiences.insert(account.id, a.name);
    for (const run of a.runs) {
      const source = services.datasets.live(account.id).find((d) => d.name === run.source_dataset);
      if (!source) throw new Error(`fixture audience run over unknown dataset ${run.source_dataset}`);
      services.audiences.createRun(
        caller,
        row.id,
        { source_dataset_id: source.id, total_profile_count: run.total_profile_count },
        { inline: true },
      );
    }
  }
}

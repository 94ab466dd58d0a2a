// Checks a user's own fixture folder (`--fixtures DIR`) before anything is
// loaded, so a mistake is a list of lines naming the file and the field
// (`datasets.json: datasets[2].posts[0].created_at: ...`), never a stack
// trace or a half-loaded server. The format is the repository's fixtures/
// folder (README: "Using the reference server as your development backend").
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as z from "zod";
import { zDatasetRunsCreateBody } from "../../../generated/client/zod.gen.ts";
import { SOURCES } from "../simulators/provider.ts";

const decimal = z.string().regex(/^\d+(\.\d{1,6})?$/, 'expected a decimal string of dollars such as "25.000000"');
const unix = z.number().int().nonnegative();

const seat = z.object({
  user_id: z.string().min(1),
  email: z.string().min(3),
  name: z.string().min(1),
  created_at: unix,
});
const account = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  team_name: z.string().min(1),
  email: z.string().min(3),
  plan: z.enum(["trial", "starter", "pro", "business"]),
  balance: decimal,
  created_at: unix,
  seats: z.array(seat).min(1),
  invitations: z.array(z.string()).default([]),
  rate_limit: z.number().int().positive().optional(),
});
const keyRecord = z
  .object({
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, "expected a lower-case hex SHA-256 digest")
      .optional(),
    api_key: z.string().min(8).optional(),
    account_id: z.string(),
    user_id: z.string(),
  })
  .refine(
    (k) => (k.sha256 === undefined) !== (k.api_key === undefined),
    "give exactly one of sha256 (digest) or api_key (plaintext)",
  );
const accountsFile = z.object({
  accounts: z.array(account).min(1),
  api_keys: z.array(keyRecord).min(1),
  bearer_tokens: z.array(keyRecord).optional(),
});

const post = z.object({
  source: z.enum(SOURCES as [string, ...string[]]),
  id: z.string().min(1),
  text: z.string(),
  created_at: z.union([unix, z.string().refine((s) => !Number.isNaN(Date.parse(s)), "expected an ISO 8601 date-time")]),
  url: z.url().optional(),
  title: z.string().optional(),
  language: z.string().optional(),
  country: z.string().length(2).optional(),
  author: z
    .object({
      username: z.string().min(1).optional(),
      display_name: z.string().optional(),
      followers: unix.optional(),
      headline: z.string().nullable().optional(),
    })
    .optional(),
  likes: unix.optional(),
  views: unix.optional(),
  comments: unix.optional(),
  shares: unix.optional(),
});
const datasetsFile = z.object({
  datasets: z.array(
    z.object({
      account_id: z.string(),
      name: z.string().min(1).max(255),
      runs: z.array(zDatasetRunsCreateBody).optional(),
      posts: z.array(post).optional(),
    }),
  ),
});
const audiencesFile = z.object({
  audience_datasets: z.array(
    z.object({
      account_id: z.string(),
      name: z.string().min(1),
      runs: z.array(z.object({ source_dataset: z.string(), total_profile_count: z.number().int().positive() })),
    }),
  ),
});
const patternsFile = z.object({
  pattern_detections: z.array(
    z.object({
      account_id: z.string(),
      dataset: z.string(),
      name: z.string().min(1),
      research_question: z.string().min(1),
      run_id: z.string().regex(/^pdr_/),
      pattern_id: z.string().regex(/^pt_/),
    }),
  ),
});
const demoKeysFile = z.object({
  keys: z.array(z.object({ api_key: z.string(), account_id: z.string(), user_id: z.string(), label: z.string() })),
  bearer_tokens: z
    .array(z.object({ access_token: z.string(), account_id: z.string(), user_id: z.string(), label: z.string() }))
    .optional(),
});

const FILES = {
  "accounts.json": accountsFile,
  "datasets.json": datasetsFile,
  "audiences.json": audiencesFile,
  "patterns.json": patternsFile,
  "demo-keys.json": demoKeysFile,
};

function where(path: PropertyKey[]): string {
  return (
    path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("") || "(file)"
  );
}

/** Every problem of the folder, one line each; empty when it loads. */
export function checkFixtureDir(dir: URL): string[] {
  const errors: string[] = [];
  const parsed: Partial<Record<keyof typeof FILES, any>> = {};
  const path = fileURLToPath(dir);
  if (!existsSync(path)) return [`${path}: no such folder`];
  for (const [name, schema] of Object.entries(FILES) as [keyof typeof FILES, z.ZodType][]) {
    const file = fileURLToPath(new URL(name, dir));
    if (!existsSync(file)) {
      if (name === "accounts.json")
        errors.push(`${name}: missing (it is the one required file: accounts, seats, balances and API keys)`);
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      errors.push(`${name}: not valid JSON (${(error as Error).message})`);
      continue;
    }
    const result = schema.safeParse(json);
    if (!result.success)
      for (const issue of result.error.issues.slice(0, 20))
        errors.push(`${name}: ${where(issue.path)}: ${issue.message}`);
    else parsed[name] = result.data;
  }
  if (errors.length) return errors;
  errors.push(...crossReferences(parsed));
  return errors;
}

/** References between files: keys to seats, datasets to accounts, audiences and patterns to datasets. */
function crossReferences(f: Partial<Record<keyof typeof FILES, any>>): string[] {
  const errors: string[] = [];
  const accounts = new Map<string, Set<string>>(
    f["accounts.json"].accounts.map((a: any) => [a.id, new Set(a.seats.map((s: any) => s.user_id))]),
  );
  const seatOf = (file: string, field: string, r: { account_id: string; user_id: string }) => {
    const seats = accounts.get(r.account_id);
    if (!seats) errors.push(`${file}: ${field}.account_id: no account ${r.account_id} in accounts.json`);
    else if (!seats.has(r.user_id))
      errors.push(`${file}: ${field}.user_id: account ${r.account_id} has no seat ${r.user_id}`);
  };
  f["accounts.json"].api_keys.forEach((k: any, i: number) => seatOf("accounts.json", `api_keys[${i}]`, k));
  (f["accounts.json"].bearer_tokens ?? []).forEach((k: any, i: number) =>
    seatOf("accounts.json", `bearer_tokens[${i}]`, k),
  );
  (f["demo-keys.json"]?.keys ?? []).forEach((k: any, i: number) => seatOf("demo-keys.json", `keys[${i}]`, k));
  const datasets = new Set<string>();
  (f["datasets.json"]?.datasets ?? []).forEach((d: any, i: number) => {
    if (!accounts.has(d.account_id))
      errors.push(`datasets.json: datasets[${i}].account_id: no account ${d.account_id} in accounts.json`);
    datasets.add(`${d.account_id}\u0000${d.name}`);
    const seen = new Set<string>();
    (d.posts ?? []).forEach((p: any, j: number) => {
      const key = `${p.source}:${p.id}`;
      if (seen.has(key))
        errors.push(`datasets.json: datasets[${i}].posts[${j}].id: post ${key} appears twice in this dataset`);
      seen.add(key);
    });
  });
  (f["audiences.json"]?.audience_datasets ?? []).forEach((a: any, i: number) => {
    if (!accounts.has(a.account_id))
      errors.push(`audiences.json: audience_datasets[${i}].account_id: no account ${a.account_id} in accounts.json`);
    a.runs.forEach((r: any, j: number) => {
      if (!datasets.has(`${a.account_id}\u0000${r.source_dataset}`)) {
        errors.push(
          `audiences.json: audience_datasets[${i}].runs[${j}].source_dataset: no dataset named "${r.source_dataset}" for ${a.account_id} in datasets.json`,
        );
      }
    });
  });
  (f["patterns.json"]?.pattern_detections ?? []).forEach((p: any, i: number) => {
    if (!datasets.has(`${p.account_id}\u0000${p.dataset}`)) {
      errors.push(
        `patterns.json: pattern_detections[${i}].dataset: no dataset named "${p.dataset}" for ${p.account_id} in datasets.json`,
      );
    }
  });
  return errors;
}

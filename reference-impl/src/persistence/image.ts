// The whole state of a running reference server as one plain value (an
// "image"), and back (`--state FILE`, D-REF-STATE, and POST /_reference/reset, D-REF-RESET).
// Taken in one synchronous turn, so it is consistent: no run is half landed.
//
// What is in it: accounts with seats and key digests, the ledger (balances,
// holds, usage rows), every Table of every group (datasets, runs, custom
// parameters and their runs, previews, pattern detections and patterns,
// audience datasets and runs, tracking agents with runs and alerts, chats and
// messages), audience profiles, and each account's mention pool. What is not:
// timers and runs in flight (see restoreImage), rate-limit windows, caches
// that rebuild themselves (sorted views, text indexes).
import type { Services } from "../compose.ts";
import { DatasetCoefficients } from "../domain/mentions/dataset-coefficients.ts";
import { ParameterValues } from "../domain/mentions/parameter-values.ts";
import { mentionKey, preparePost, type MentionRecord } from "../domain/mentions/record.ts";
import { assignToPattern, patternAssignmentsOf, type Assignment } from "../domain/patterns/assignments.ts";
import { StoredAuthor, StoredPost } from "../domain/mentions/stored-post.ts";
import type { Account, ApiKeyRecord } from "../platform/accounts.ts";
import type { LedgerImage } from "../platform/billing/ledger.ts";
import { Money } from "../platform/billing/money.ts";
import type { Row, Table } from "../platform/store.ts";
import { failInterrupted } from "./interrupted.ts";

/** Bumped whenever the image's shape changes; an older file is refused, not guessed at. */
export const IMAGE_FORMAT = 1;

export interface StateImage {
  format: number;
  savedAtMs: number;
  directory: { accounts: Account[]; keys: ApiKeyRecord[]; bearerTokens: ApiKeyRecord[] };
  ledger: LedgerImage;
  /** Encoded rows per table name (see `tablesOf`). */
  tables: Record<string, unknown[]>;
  profiles: ReturnType<Services["audiences"]["profiles"]["snapshot"]>;
  /**
   * Each account's pool, records in the order they joined it, and the
   * pattern assignments of those that have any (kept beside the records by
   * patterns/assignments.ts): [mention key, pattern id -> items].
   */
  mentions: { accountId: string; records: MentionRecord[]; assignments: [string, Record<string, Assignment[]>][] }[];
}

/**
 * Every Table of the services, by a stable name. A group that adds a table
 * adds it here; test/dev-backend-state.test.ts fails on a Table it cannot find.
 */
export function tablesOf(services: Services): Record<string, Table<Row>> {
  const t = services.tables as unknown as Record<string, Table<Row>>;
  return {
    ...t,
    agents: services.trackingAgents.tables.agents as unknown as Table<Row>,
    agentRuns: services.trackingAgents.tables.runs as unknown as Table<Row>,
    agentMessages: services.trackingAgents.tables.messages as unknown as Table<Row>,
    chats: services.assistant.chats as unknown as Table<Row>,
    chatMessages: services.assistant.messages as unknown as Table<Row>,
  };
}

export function captureImage(services: Services): StateImage {
  const tables: Record<string, unknown[]> = {};
  for (const [name, table] of Object.entries(tablesOf(services)))
    tables[name] = table.everyRow().map((row) => encode(row, name));
  const accounts = services.directory.all();
  return {
    format: IMAGE_FORMAT,
    savedAtMs: services.clock.now(),
    directory: { accounts, ...services.directory.credentials() },
    ledger: services.ledger.snapshot(),
    tables,
    profiles: services.audiences.profiles.snapshot(),
    // The records themselves: the serializer copies them (structured clone
    // keeps shared sub-objects shared), and restoreImage gives their class
    // instances back their prototypes.
    mentions: accounts.map((a) => ({
      accountId: a.id,
      records: [...services.mentions(a.id).all()],
      assignments: assignmentsOf(services, a.id),
    })),
  };
}

/**
 * Load an image into the services of a fresh app (no accounts, no seeded
 * data). Then runs that were in flight are failed with a full refund, and
 * tracking agents' timers are set again.
 */
export function restoreImage(services: Services, image: StateImage): void {
  if (image.format !== IMAGE_FORMAT)
    throw new Error(`state format ${image.format} is not the supported format ${IMAGE_FORMAT}`);
  for (const account of image.directory.accounts) services.directory.addAccount(account);
  for (const k of image.directory.keys) services.directory.addKey(k);
  for (const t of image.directory.bearerTokens) services.directory.addBearerToken(t);
  services.ledger.restore(image.ledger);
  const tables = tablesOf(services);
  for (const [name, rows] of Object.entries(image.tables)) {
    const table = tables[name];
    if (!table) throw new Error(`state has a table "${name}" this server does not know`);
    for (const row of rows) table.insert(decode(row) as Row);
  }
  services.audiences.profiles.restore(image.profiles);
  for (const { accountId, records, assignments } of image.mentions) {
    restoreMentions(services, accountId, records);
    const pool = services.mentions(accountId);
    for (const [key, byPattern] of assignments) {
      const record = pool.get(key);
      if (!record) throw new Error(`state: pattern assignment of mention ${key}, which is not in the pool`);
      for (const [patternId, items] of Object.entries(byPattern)) assignToPattern(record, patternId, items);
    }
  }
  failInterrupted(services);
  services.trackingAgents.armAll();
}

/**
 * The assignments of the posts the account's patterns hold (every assigned
 * post is in some pattern item's `post_refs`), so a save need not look at
 * every post of a large pool.
 */
function assignmentsOf(services: Services, accountId: string): [string, Record<string, Assignment[]>][] {
  const pool = services.mentions(accountId);
  const keys = new Set<string>();
  for (const pattern of services.tables.patterns.everyRow()) {
    if (pattern.account_id !== accountId) continue;
    for (const item of pattern.items) for (const ref of item.post_refs) keys.add(mentionKey(ref.source, ref.id));
  }
  const out: [string, Record<string, Assignment[]>][] = [];
  for (const key of keys) {
    const record = pool.get(key);
    if (record) out.push([key, patternAssignmentsOf(record)]);
  }
  return out;
}

/**
 * Put records back through the pool's public API (`upsertPrepared`, then
 * `get`): each record is upserted once per run that collected it, with its
 * own saved post (already in the stored form, so nothing is built again) and
 * its analysis compacted as a landing run's is (shared values), and then
 * given its saved fields. The pool's own indexes (by run, sort views, text)
 * are built by the pool.
 */
function restoreMentions(services: Services, accountId: string, records: MentionRecord[]): void {
  const pool = services.mentions(accountId);
  for (const saved of records) {
    reviveRecord(saved);
    const prepared = preparePost(saved.post, saved.analysis);
    const runs = typeof saved.runs === "string" ? [saved.runs] : saved.runs;
    const datasetId = (saved.datasets.keys().next().value as string | undefined) ?? "";
    for (const runId of runs)
      pool.upsertPrepared(prepared, { datasetId, runId, coefficient: 1, runAtMs: saved.datasetRunMs, numComments: 0 });
    const live = pool.get(saved.key);
    if (!live) throw new Error(`mention ${saved.key} did not land`);
    live.post = saved.post;
    live.metrics = saved.metrics;
    live.previous = saved.previous;
    live.engagementRate = saved.engagementRate;
    live.datasetRunMs = saved.datasetRunMs;
    live.datasets = saved.datasets;
    live.runs = saved.runs;
    live.numComments = saved.numComments;
    live.parameters = saved.parameters;
  }
}

/** Class instances inside a record come back as plain objects: give them their prototypes. */
function reviveRecord(r: MentionRecord): void {
  Object.setPrototypeOf(r.post, StoredPost.prototype);
  Object.setPrototypeOf(r.post.author, StoredAuthor.prototype);
  Object.setPrototypeOf(r.datasets, DatasetCoefficients.prototype);
  if (r.parameters) Object.setPrototypeOf(r.parameters, ParameterValues.prototype);
}

// ---- rows: plain data, with Money as decimal strings ------------------------------

/** A row as plain data. Anything that is not plain data fails loudly, naming the table and class. */
function encode(value: unknown, table: string): unknown {
  if (value === null || typeof value !== "object") {
    if (typeof value === "function" || typeof value === "symbol")
      throw new Error(`table ${table}: cannot save a ${typeof value}`);
    return value;
  }
  if (value instanceof Money) return { $money: value.toString() };
  if (Array.isArray(value)) return value.map((v) => encode(v, table));
  if (value instanceof Map) return { $map: [...value].map(([k, v]) => [encode(k, table), encode(v, table)]) };
  if (value instanceof Set) return { $set: [...value].map((v) => encode(v, table)) };
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null)
    throw new Error(`table ${table}: cannot save a ${proto?.constructor?.name ?? "class instance"}`);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = encode(v, table);
  return out;
}

function decode(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(decode);
  const o = value as Record<string, unknown>;
  if (typeof o.$money === "string") return new Money(o.$money);
  if (Array.isArray(o.$map)) return new Map((o.$map as [unknown, unknown][]).map(([k, v]) => [decode(k), decode(v)]));
  if (Array.isArray(o.$set)) return new Set((o.$set as unknown[]).map(decode));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[k] = decode(v);
  return out;
}

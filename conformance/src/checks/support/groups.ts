// Helpers the group-rule checks share: prices per category, polling any run to
// its end, error codes, and small source datasets built from URL runs (one URL
// = at most one post, so they are cheap).
import { createHash } from "node:crypto";
import { Decimal } from "decimal.js";
import type { CheckContext } from "../../types.ts";
import { sleep, type Exchange, type KeyRole } from "../../http.ts";
import { bodyOf, dataOf, isObject, type Untrusted } from "../../typed.ts";
import type {
  AccountMe,
  AccountPrices,
  CommonErrorCode,
  DatasetsDatasetRun,
} from "../../../../generated/client/types.gen.ts";
import { createDataset, setupNotAccepted } from "./util.ts";
import { dec } from "./decimal.ts";

export type Category = "mention" | "audience_profile" | "post_processing" | "preview_generation";

/**
 * The value at `path` inside a JSON value (the contract document, one of its
 * schemas), or undefined where the path breaks off: the document is JSON, so
 * it is read as unknown and narrowed step by step.
 */
export function jsonAt(v: unknown, ...path: string[]): unknown {
  let at = v;
  for (const key of path) {
    if (!isObject(at)) return undefined;
    at = at[key];
  }
  return at;
}

/** The string values of a named schema's `enum` in the contract document, if it has one. */
export function schemaEnum(doc: unknown, schema: string): string[] | undefined {
  const values = jsonAt(doc, "components", "schemas", schema, "enum");
  return Array.isArray(values) ? values.filter((v): v is string => typeof v === "string") : undefined;
}

/** Dollars per result of one price category (GET /v1/prices: units × the account rate). */
export async function priceOf(ctx: CheckContext, category: Category, key: KeyRole = "main"): Promise<Decimal> {
  const ex = await ctx.shared(`prices-${key}`, () => ctx.req({ method: "GET", path: "/v1/prices", key }));
  const p = dec(dataOf<AccountPrices>(ex)?.prices?.[category]);
  if (!p) ctx.skip(`GET /v1/prices gave no prices.${category} (${ex.status})`);
  return p;
}

export async function balanceOf(ctx: CheckContext, key: KeyRole = "main"): Promise<{ balance: Decimal; ex: Exchange }> {
  const ex = await ctx.req({ method: "GET", path: "/v1/me", key });
  const b = dec(dataOf<AccountMe>(ex)?.usage?.balance);
  if (!b) ctx.skip(`GET /v1/me gave no usage.balance (${ex.status})`);
  return { balance: b, ex };
}

/** One read of a run while it was polled: the answer and its `data` read as the run type `T`. */
export interface Observation<T> {
  ex: Exchange;
  d: Untrusted<T> | undefined;
}

/** Poll `path` until `done(data)` or the run timeout; returns every observation, `data` read as `T`. */
export async function pollUntil<T>(
  ctx: CheckContext,
  path: string,
  done: (d: Untrusted<T> | undefined) => boolean,
  key: KeyRole = "main",
): Promise<Observation<T>[]> {
  const out: Observation<T>[] = [];
  const deadline = Date.now() + ctx.settings.runTimeoutMs;
  let wait = 100;
  for (;;) {
    const ex = await ctx.req({ method: "GET", path, key });
    const d = dataOf<T>(ex);
    out.push({ ex, d });
    if (ex.status !== 200 || done(d)) return out;
    if (Date.now() > deadline)
      ctx.skip(`${path} did not settle within ${ctx.settings.runTimeoutMs / 1000}s (raise --run-timeout)`);
    await sleep(wait);
    wait = Math.min(wait * 1.5, 3000);
  }
}

/** Whether a run read (any group's: `status.type`) has ended. */
export function terminalType(d: unknown): boolean {
  const status = isObject(d) ? d.status : undefined;
  return isObject(status) && (status.type === "completed" || status.type === "failed");
}

/**
 * What one read of a run says about its money: held while the run is pending
 * or working, settled to what it delivered once completed, released once
 * failed (seed › Limits › Charges rule 1). `debit` is what the run has taken
 * from the balance in that state.
 */
export interface RunMoney {
  /** the run's state as read */
  state: string;
  /** held (pending or working), settled (completed) or released (failed) */
  money: "reserved" | "settled" | "released";
  debit: Decimal;
}

/** One run a balance depends on: where to read it, and what each read of it says about its money (undefined: unreadable). */
export interface WatchedRun {
  path: string;
  money(d: unknown): RunMoney | undefined;
}

/**
 * A balance read in the same observation window as the runs it depends on:
 * each run read just before and just after GET /v1/me. Runs only move
 * forward, so when the balance was read each run was in the state read
 * before or the one read after it; `allowed` lists the debits those states
 * give (one per combination, the runs' debits summed). A check judges the
 * balance against them, never against a state it did not observe: a fast
 * deployment's run may have completed before the kit's first read.
 */
export interface BalanceWindow {
  balance: Decimal;
  me: Exchange;
  allowed: Array<{ states: string[]; money: RunMoney["money"][]; debit: Decimal }>;
  /** a run read whose money could not be told (no state of the run kind, or not a 200): nothing to judge against */
  unreadable?: Exchange;
}

export async function balanceWindow(
  ctx: CheckContext,
  runs: WatchedRun[],
  key: KeyRole = "main",
): Promise<BalanceWindow> {
  const read = async () => {
    const out: Array<{ ex: Exchange; m: RunMoney | undefined }> = [];
    for (const r of runs) {
      const ex = await ctx.req({ method: "GET", path: r.path, key });
      out.push({ ex, m: ex.status === 200 ? r.money(dataOf(ex)) : undefined });
    }
    return out;
  };
  const before = await read();
  const { balance, ex: me } = await balanceOf(ctx, key);
  const after = await read();
  const unreadable = [...before, ...after].find((o) => !o.m)?.ex;
  // per run, the distinct states read around the balance; then every combination across runs
  let allowed: BalanceWindow["allowed"] = [{ states: [], money: [], debit: new Decimal(0) }];
  if (!unreadable)
    runs.forEach((_, i) => {
      const seenHere = [before[i].m!, after[i].m!].filter(
        (m, j, all) => all.findIndex((o) => o.state === m.state && o.debit.equals(m.debit)) === j,
      );
      allowed = allowed.flatMap((a) =>
        seenHere.map((m) => ({
          states: [...a.states, m.state],
          money: [...a.money, m.money],
          debit: a.debit.plus(m.debit),
        })),
      );
    });
  return { balance, me, allowed: unreadable ? [] : allowed, unreadable };
}

/**
 * The money of a run kind whose states are the seed's (or a group's own names
 * for them): `reserved` while pending or working, `settled` when completed
 * (undefined when the completed read lacks what the settlement is sized by),
 * nothing when failed.
 */
export function moneyBy(o: {
  states: { pending: string; working: string[]; completed: string; failed: string };
  reserved: Decimal;
  settled: (d: unknown) => Decimal | undefined;
  /** where the state sits (default status.type) */
  stateOf?: (d: unknown) => unknown;
}): (d: unknown) => RunMoney | undefined {
  return (d) => {
    const status = isObject(d) ? d.status : undefined;
    const state = o.stateOf ? o.stateOf(d) : isObject(status) ? status.type : undefined;
    if (typeof state !== "string") return undefined;
    if (state === o.states.pending || o.states.working.includes(state))
      return { state, money: "reserved", debit: o.reserved };
    if (state === o.states.failed) return { state, money: "released", debit: new Decimal(0) };
    if (state !== o.states.completed) return undefined;
    const debit = o.settled(d);
    return debit ? { state, money: "settled", debit } : undefined;
  };
}

/**
 * The budget commitment of a dataset run: before the create, the most it may
 * reserve (`count` × the mention price: a deployment may reserve the whole
 * count however few URLs the run names); once the create answer reports the
 * run's own `count`, the commitment follows that count when it is smaller
 * (what the deployment says it reserves and targets), and a run that was not
 * started commits nothing.
 */
export function commitRun(ctx: CheckContext, price: Decimal, count: number, what: string): (create: Exchange) => void {
  const release = ctx.charge(price.mul(count).toFixed(), what);
  return (create) => {
    if (create.status < 200 || create.status >= 300) return release();
    const reported = countOf(isObject(create.json) && isObject(create.json.data) ? create.json.data.count : undefined);
    if (reported === undefined || reported >= count) return;
    release();
    ctx.charge(price.mul(reported).toFixed(), `${what} (count ${reported} as the run reports it)`);
  };
}

/** A count a deployment sent, when it is a non-negative integer. */
export function countOf(v: unknown): number | undefined {
  return typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : undefined;
}

/** How a window's allowed debits read in a finding: "0.712 (pending: reserved) or 0.356 (completed: settled)". */
export function describeAllowed(w: BalanceWindow): string {
  return w.allowed
    .map((a) => `${a.debit.toFixed()} (${a.states.map((s, i) => `${s}: ${a.money[i]}`).join(", ")})`)
    .join(" or ");
}

/** Whether `before − balance` is one of the debits the window's observed states allow. */
export function windowHolds(w: BalanceWindow, before: Decimal): boolean {
  return w.allowed.some((a) => before.minus(w.balance).equals(a.debit));
}

/** Whether every state the window observed holds the money (no run had ended when the balance was read). */
export function windowAllReserved(w: BalanceWindow): boolean {
  return w.allowed.length > 0 && w.allowed.every((a) => a.money.every((m) => m === "reserved"));
}

/** Whether every state the window observed is an end (each run had completed or failed before the balance was read). */
export function windowAllEnded(w: BalanceWindow): boolean {
  return w.allowed.length > 0 && w.allowed.every((a) => a.money.every((m) => m !== "reserved"));
}

/**
 * Judge the balance read right after a chargeable start against the run
 * states read around it (balanceWindow): the reservation while every run was
 * pending or working; the settlement or release of the state read once a run
 * had ended, the reservation then being not observable (reported not
 * exercised, never assumed). `title` words the finding for what was observed
 * (`reserved`: every run in flight; `ended`: every run ended; `mixed`: a run
 * ended between the reads), so each check keeps its attribution.
 */
export function expectAfterStart(
  ctx: CheckContext,
  w: BalanceWindow,
  before: Decimal,
  o: {
    /** the run as a finding names it ("the audience run") */
    run: string;
    title: (seen: "reserved" | "ended" | "mixed", debit: string, states: string) => string;
    /** the reservation as the in-flight finding states it */
    reserved: string;
    ex?: Exchange;
    /** the assertion a finding names, by what was observed (a converted check's `judges`) */
    judges?: string | ((seen: "reserved" | "ended" | "mixed") => string);
  },
): void {
  if (w.unreadable)
    return ctx.notExercised(
      `${o.run} as read around the balance (${w.unreadable.status}) gave no state its money follows from: the balance right after the start was not judged`,
    );
  const seen = windowAllReserved(w) ? "reserved" : windowAllEnded(w) ? "ended" : "mixed";
  if (seen !== "reserved")
    ctx.notExercised(
      `${o.run} had ${seen === "ended" ? "already ended" : "ended between two reads"} when the balance was read right after the start: the reservation itself was not observable, and the balance was judged against the state read`,
    );
  const debit = before.minus(w.balance).toFixed();
  const states = [...new Set(w.allowed.flatMap((a) => a.states))].join(" → ");
  ctx.expect(
    windowHolds(w, before),
    {
      judges: typeof o.judges === "function" ? o.judges(seen) : o.judges,
      title: o.title(seen, debit, states),
      received: { balance: w.balance.toFixed(), debit, states },
      expected: seen === "reserved" ? o.reserved : `a debit of ${describeAllowed(w)}`,
    },
    o.ex ?? w.me,
  );
}

/** Balances around one chargeable create: what every group's billing rule compares. */
export interface BilledCreate {
  price: Decimal;
  before: Decimal;
  /** the balance right after the create, with the run's states read around it */
  afterCreate: BalanceWindow;
  after: Decimal;
  create: Exchange;
}

export interface SourceDataset {
  id: string;
  runId: string;
  run: Untrusted<DatasetsDatasetRun> | undefined;
}

/** The platforms the kit builds post URLs for. */
export type PostSource = "reddit" | "youtube" | "tiktok" | "instagram" | "linkedin";

const BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz";
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const BASE64URL = `${ALNUM}-_`;

/** `n` characters of `alphabet` drawn from a digest of `seed`: distinct seeds give distinct ids (up to a hash collision). */
function idFrom(seed: string, alphabet: string, n: number): string {
  const bytes = createHash("sha256").update(seed).digest();
  let out = "";
  for (let i = 0; i < n; i++) out += alphabet[bytes[i]! % alphabet.length];
  return out;
}

/**
 * A well-formed post URL of `source`, in the form each platform gives a post
 * (reddit /comments/<base36>/, tiktok /video/<digits>, youtube
 * watch?v=<11 characters>, instagram /p/<code>/, linkedin
 * urn:li:activity:<digits>), its post id drawn from `seed`: two URLs with
 * different seeds are two posts, also on a deployment that derives the post
 * id from the URL. A seed that starts with the kit's run id
 * (`YYYYMMDD-<hex>/…`) keeps the run's hex part verbatim in the id and draws
 * the rest from what follows it (a differential run replaces the run's part
 * with a placeholder, and both sides draw the same rest). `slug`
 * (reddit only) keeps the kit's label readable in the URL.
 */
export function postUrl(source: PostSource, seed: string, slug = "oat_milk_latte_art"): string {
  const m = /^\d{8}-([0-9a-f]{6,8})\/(.*)$/.exec(seed);
  const run = m?.[1] ?? idFrom(`run:${seed}`, "0123456789abcdef", 6);
  // what tells the run's URLs apart, without the run (so both sides of a differential run draw the same)
  seed = m?.[2] ?? seed;
  const digits = BigInt(`0x${run}`).toString().padStart(10, "0").slice(-10);
  switch (source) {
    case "reddit":
      return `https://www.reddit.com/r/slk_conformance/comments/1${run}${idFrom(seed, BASE36, 5)}/${slug}/`;
    case "tiktok":
      return `https://www.tiktok.com/@slk_conformance/video/7${digits}${idFrom(seed, "0123456789", 8)}`;
    case "youtube":
      return `https://www.youtube.com/watch?v=${(run + idFrom(seed, BASE64URL, 11)).slice(0, 11)}`;
    case "instagram":
      return `https://www.instagram.com/p/C${run}${idFrom(seed, ALNUM, 5)}/`;
    case "linkedin":
      return `https://www.linkedin.com/feed/update/urn:li:activity:7${digits}${idFrom(seed, "0123456789", 8)}/`;
  }
}

/**
 * `n` post URLs of one platform, each a distinct post (its own well-formed
 * post id, drawn from the kit run's id, `label` and its position), so no
 * deployment can read two of them as the same post. The reddit slug carries
 * the label (`slk_<label>_<i>_…`) so a test's proxy can tell the kit's
 * sources apart.
 */
export function postUrls(
  ctx: CheckContext,
  source: PostSource,
  n: number,
  label: string,
): Array<{ source: string; url: string }> {
  return Array.from({ length: n }, (_, i) => ({
    source,
    url: postUrl(source, `${ctx.runId}/${source}/${label}/${i}`, `slk_${label}_${i}_oat_milk_latte_art`),
  }));
}

/** A dataset whose one completed URL run collected these posts (cost: at most one mention per URL). */
export async function sourceDataset(
  ctx: CheckContext,
  label: string,
  urls: Array<{ source: string; url: string }>,
  key: KeyRole = "main",
  /** num_comments_per_post of the URL run (its commenters are people an audience run may profile) */
  comments = 2,
): Promise<SourceDataset> {
  const price = await priceOf(ctx, "mention", key);
  const committed = commitRun(ctx, price, Math.max(urls.length, 20), `source dataset ${label} (${urls.length} URLs)`);
  const ds = await createDataset(ctx, label, key);
  const create = await ctx.req({
    method: "POST",
    path: `/v1/datasets/${encodeURIComponent(ds.id)}/runs`,
    key,
    body: { search_query: { type: "url", source_urls: urls }, count: 20, num_comments_per_post: comments },
  });
  committed(create);
  const runId = dataOf<DatasetsDatasetRun>(create)?.id;
  if (create.status !== 202 || typeof runId !== "string") {
    // refused for the account's balance or plan: the rule the source was for is not exercised, never failed
    const refusal = setupRefusal(create);
    if (refusal) refusedSetup(ctx, refusal, `the URL run of source dataset ${label}`);
    setupNotAccepted(ctx, `the URL run of source dataset ${label}`, create);
  }
  const obs = await pollUntil<DatasetsDatasetRun>(
    ctx,
    `/v1/datasets/${encodeURIComponent(ds.id)}/runs/${encodeURIComponent(runId)}`,
    terminalType,
    key,
  );
  const run = obs.at(-1)!.d;
  if (run?.status?.type !== "completed")
    ctx.skip(`the URL run of source dataset ${label} ended ${run?.status?.type ?? obs.at(-1)!.ex.status}`);
  return { id: ds.id, runId, run };
}

/**
 * Codes the seed lets a deployment refuse a setup step with for reasons of
 * its own (what its data holds, what its plan includes or caps), each with
 * the kind of reason. A setup step is one the kit takes to reach a rule
 * (fill a source dataset, start the run whose billing a check reads); when
 * the deployment refuses it with one of these, the rule is not exercised,
 * never failed. The seed names no status for most of these codes, so any 4xx
 * carrying one counts; 402 (balance) is judged by the status.
 */
export const SETUP_REFUSALS: Readonly<Record<string, "data" | "plan">> = {
  audience_insufficient_source_mentions: "data",
  audience_youtube_only_source: "data",
  source_dataset_has_no_completed_run: "data",
  nothing_to_analyze: "data",
  dataset_has_no_queries: "data",
  custom_parameter_limit_exceeded: "plan",
  tracking_agent_limit_reached: "plan",
  date_filter_unavailable: "plan",
};

/** A setup refusal the seed allows: the answer's status and code, and whose reason it is. */
export interface SetupRefusal {
  status: number;
  code: string;
  /** data: the deployment's own data; plan: its plan's features or caps; balance: the account cannot fund it (402) */
  reason: "data" | "plan" | "balance";
}

/** The refusal `ex` is, when it is one a deployment may give a setup step (else undefined: judge it as usual). */
export function setupRefusal(ex: Exchange): SetupRefusal | undefined {
  const code = errorCode(ex);
  if (ex.status === 402) return { status: 402, code: code ?? "(no error_code)", reason: "balance" };
  if (ex.status < 400 || ex.status >= 500 || code === undefined || !(code in SETUP_REFUSALS)) return undefined;
  return { status: ex.status, code, reason: SETUP_REFUSALS[code] };
}

/** The skip reason for a refused setup: the code, whose reason it is, what was refused and what else was tried. */
export function refusedReason(r: SetupRefusal, step: string, tried: string[] = []): string {
  const why = r.reason === "balance" ? "its account's balance" : `its own ${r.reason}`;
  const also = tried.length ? `; also tried: ${tried.join("; ")}` : "";
  return `not exercised: the deployment refused the setup (${r.status} ${r.code}) for ${why} (${step}${also})`;
}

/** A refused setup step ends the check as not exercised, naming the code (never a failure of its rule). */
export function refusedSetup(ctx: CheckContext, r: SetupRefusal, step: string, tried: string[] = []): never {
  return ctx.skip(refusedReason(r, step, tried));
}

/**
 * A dataset filled by keyword runs (one per entry, each polled to its end):
 * a larger or other source for a setup the deployment refused on the kit's
 * small URL dataset. Undefined, with the refusal, when the deployment refuses
 * one of these runs too (its balance or plan); a run that ends failed skips.
 */
export async function keywordSource(
  ctx: CheckContext,
  label: string,
  runs: Array<{ sources: string[]; count: number }>,
): Promise<{ source?: SourceDataset; refusal?: SetupRefusal; what: string }> {
  const what = `a dataset of keyword runs (${runs.map((r) => `${r.count} ${r.sources.join("+")} posts`).join(", ")})`;
  const price = await priceOf(ctx, "mention");
  ctx.charge(price.mul(runs.reduce((n, r) => n + r.count, 0)).toFixed(), `source dataset ${label} (keyword runs)`);
  const ds = await createDataset(ctx, label);
  let last: SourceDataset | undefined;
  for (const r of runs) {
    const create = await ctx.req({
      method: "POST",
      path: `/v1/datasets/${encodeURIComponent(ds.id)}/runs`,
      body: {
        search_query: { type: "prompt", sources: r.sources, search_query: "oat milk latte art" },
        count: r.count,
        num_comments_per_post: 2,
      },
    });
    const refusal = setupRefusal(create);
    if (refusal) return { refusal, what };
    const runId = runIdOf(create);
    if (create.status !== 202 || !runId)
      ctx.skip(`the keyword run of source dataset ${label} answered ${create.status}: ${what} could not be built`);
    const obs = await pollUntil<DatasetsDatasetRun>(
      ctx,
      `/v1/datasets/${encodeURIComponent(ds.id)}/runs/${encodeURIComponent(runId)}`,
      terminalType,
    );
    const run = obs.at(-1)!.d;
    if (run?.status?.type !== "completed")
      ctx.skip(`the keyword run of source dataset ${label} ended ${run?.status?.type ?? obs.at(-1)!.ex.status}`);
    last = { id: ds.id, runId, run };
  }
  return { source: last, what };
}

/**
 * Start a setup run on the first source the deployment accepts: the kit's
 * own (`first`), then each alternative in turn (built only when needed, once
 * per kit run). A refusal the seed allows (setupRefusal) moves on to the next
 * source; any other answer is returned to the caller, which judges it as
 * before. When every source is refused, the check is not exercised, naming
 * the code; a refusal for the balance or the plan ends the search at once
 * (no other source changes it). The accepted source is remembered in `preferred`, so the checks
 * after it start there.
 */
export async function startOnSource(
  ctx: CheckContext,
  o: {
    step: string;
    first: () => Promise<SourceDataset>;
    alternatives: Array<{ what: string; build: () => Promise<{ source?: SourceDataset; refusal?: SetupRefusal }> }>;
    /** shared across the checks of a run: the source last accepted */
    preferred: { source?: SourceDataset; what?: string };
    start: (source: SourceDataset) => Promise<Exchange>;
  },
): Promise<{ ex: Exchange; source: SourceDataset }> {
  const tried: string[] = [];
  let refusal: SetupRefusal | undefined;
  type Candidate = { what: string; build: () => Promise<{ source?: SourceDataset; refusal?: SetupRefusal }> };
  const candidates: Candidate[] = [
    ...(o.preferred.source
      ? [
          {
            what: o.preferred.what ?? "the source accepted before",
            build: async () => ({ source: o.preferred.source }),
          },
        ]
      : []),
    { what: "the kit's own source dataset", build: async () => ({ source: await o.first() }) },
    ...o.alternatives,
  ];
  const triedIds = new Set<string>();
  for (const c of candidates) {
    const built = await c.build();
    if (!built.source) {
      refusal ??= built.refusal;
      tried.push(
        `${c.what} (${built.refusal ? `its own setup refused ${built.refusal.status} ${built.refusal.code}` : "not built"})`,
      );
      continue;
    }
    if (triedIds.has(built.source.id)) continue;
    triedIds.add(built.source.id);
    const ex = await o.start(built.source);
    const r = setupRefusal(ex);
    if (!r) {
      o.preferred.source = built.source;
      o.preferred.what = c.what;
      return { ex, source: built.source };
    }
    // another source answers only what the deployment's data lacks: a balance or plan refusal ends it here
    if (r.reason !== "data") return refusedSetup(ctx, r, o.step, tried);
    refusal ??= r;
    tried.push(`${c.what} (${r.status} ${r.code})`);
  }
  if (!refusal) return ctx.skip(`not exercised: no source for ${o.step} could be built (${tried.join("; ")})`);
  return refusedSetup(ctx, refusal, o.step, tried);
}

/**
 * Two identical requests sent together, once the rate-limit window is empty
 * (the kit's limiter then lets both leave at once), so the second reaches the
 * deployment while the work the first started is as young as it can be: a
 * rule about work "in flight" is exercised even on a deployment whose runs
 * end almost at once. When one is accepted and its twin refused, the refusal
 * can only be about the accepted one (the two requests are the same).
 */
export async function sendTwins(send: () => Promise<Exchange>): Promise<[Exchange, Exchange]> {
  await sleep(1_100);
  return Promise.all([send(), send()]);
}

/** Which of two twin answers was accepted (2xx) and which refused (4xx other than 402 and 429, a reason of the account's own), if that is how they split. */
export function splitTwins(pair: [Exchange, Exchange]): { accepted: Exchange; refused: Exchange } | undefined {
  const ok = (ex: Exchange) => ex.status >= 200 && ex.status < 300;
  const refusedByTwin = (ex: Exchange) => ex.status >= 400 && ex.status < 500 && ex.status !== 402 && ex.status !== 429;
  const [a, b] = pair;
  if (ok(a) && refusedByTwin(b)) return { accepted: a, refused: b };
  if (ok(b) && refusedByTwin(a)) return { accepted: b, refused: a };
  return undefined;
}

/** The run id of a 202 run-create answer (`id` or `run_id`). */
export function runIdOf(ex: Exchange): string | undefined {
  const d = dataOf<{ id: string; run_id: string }>(ex);
  return typeof d?.id === "string" ? d.id : typeof d?.run_id === "string" ? d.run_id : undefined;
}

/**
 * The `error_code` of an error body as text. A deployment may send another
 * type: a number or boolean reads as its text, an object or array as its JSON
 * (so it never equals a code).
 */
export function errorCode(ex: Exchange): string | undefined {
  const code: unknown = bodyOf<{ error_code: CommonErrorCode }>(ex)?.error_code;
  if (code === undefined || code === null) return undefined;
  return typeof code === "object" ? JSON.stringify(code) : String(code);
}

const idOf = (row: unknown): unknown => (isObject(row) ? row.id : undefined);

/** The account's usage history rows in `after` that `before` did not have (by id). */
export function newUsageRows<R>(before: readonly R[], after: readonly R[]): R[] {
  const ids = new Set(before.map(idOf));
  return after.filter((r) => !ids.has(idOf(r)));
}

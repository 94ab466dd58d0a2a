// HAR 1.2 cassettes: the exchanges behind a finding, written so any HAR
// viewer opens them and `sl-conformance replay` can send them again. Types
// come from @types/har-format (the HAR 1.2 spec as TypeScript); secrets are
// replaced by the environment variable that holds them (`${SLK_API_KEY}`),
// and put back from the replaying user's own keys.
import type { Entry, Har, Header, Log } from "har-format";
import { keyEnv, type Exchange, type KeyRole, type TransportError } from "../http.ts";
import type { Profile } from "../types.ts";

/** What the kit adds to a HAR log (a custom `_` field, allowed by HAR 1.2). */
export interface CassetteInfo {
  /** the check whose finding this is, and the finding's title */
  check: string;
  title: string;
  kind: "active" | "response";
  /** index into `entries` of the exchange the finding is about */
  failing: number;
  /** what the failure recorded (received vs documented) */
  received?: unknown;
  expected?: unknown;
  /** the run that recorded it: its id is in resource names (`slk-<runId>-…`) */
  runId: string;
  seed: number;
  baseUrl: string;
  fcPath?: string;
  profile?: Profile;
}

export type CassetteLog = Omit<Log, "entries"> & { entries: CassetteEntry[]; _slConformance: CassetteInfo };
export type Cassette = Omit<Har, "log"> & { log: CassetteLog };

/** Per-entry custom fields: who sent it and with which key role. */
export interface EntryInfo {
  seq: number;
  check: string;
  keyRole: Exchange["keyRole"];
  /** set when the request got no HTTP answer (status 0) */
  noAnswer?: string;
  mcp?: boolean;
}
export type CassetteEntry = Entry & { _slc: EntryInfo };

const BEARER_ENV = "SLK_BEARER_TOKEN";

/** The secrets of a run and the placeholder each becomes in a cassette. */
export function secretsOf(keys: Partial<Record<KeyRole, string>>, bearer?: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [role, value] of Object.entries(keys) as Array<[KeyRole, string | undefined]>)
    if (value) out.push([value, `\${${keyEnv[role]}}`]);
  if (bearer) out.push([bearer, `\${${BEARER_ENV}}`]);
  // longest first, so a key that contains another is replaced whole
  return out.sort((a, b) => b[0].length - a[0].length);
}

/** Every secret replaced by its placeholder, wherever it appears (headers, URL, bodies). */
export function redact<T>(value: T, secrets: Array<[string, string]>): T {
  let text = JSON.stringify(value);
  for (const [secret, placeholder] of secrets) text = text.split(JSON.stringify(secret).slice(1, -1)).join(placeholder);
  // a bearer token we were not told about still never leaves the machine
  text = text.replace(/("name":"authorization","value":"Bearer )(?!\$\{)[^"]*"/gi, `$1\${${BEARER_ENV}}"`);
  return JSON.parse(text) as T;
}

const headersOf = (h: Record<string, string>): Header[] => Object.entries(h).map(([name, value]) => ({ name, value }));

function entryOf(ex: Exchange): CassetteEntry {
  const url = new URL(ex.url);
  const mime = ex.headers["content-type"] ?? "";
  return {
    startedDateTime: new Date(ex.started ?? Date.now()).toISOString(),
    time: ex.ms,
    request: {
      method: ex.method,
      url: ex.url,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: headersOf(ex.requestHeaders),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(ex.requestBody !== undefined
        ? { postData: { mimeType: ex.requestHeaders["content-type"] ?? "application/json", text: ex.requestBody } }
        : {}),
      headersSize: -1,
      bodySize: ex.requestBody !== undefined ? Buffer.byteLength(ex.requestBody) : 0,
    },
    response: {
      status: ex.status,
      statusText: "",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: headersOf(ex.headers),
      content: { size: Buffer.byteLength(ex.text), mimeType: mime, text: ex.text },
      redirectURL: ex.headers.location ?? "",
      headersSize: -1,
      bodySize: Buffer.byteLength(ex.text),
    },
    cache: {},
    timings: { send: 0, wait: ex.ms, receive: 0 },
    _slc: { seq: ex.seq, check: ex.check, keyRole: ex.keyRole, ...(ex.meta.mcp ? { mcp: true } : {}) },
  };
}

/** A request that got no answer: HAR's status 0 (as browsers record an aborted request). */
function noAnswerEntry(e: TransportError, seq: number): CassetteEntry {
  const ex: Exchange = {
    seq,
    check: e.check,
    method: e.method,
    url: e.url,
    path: new URL(e.url).pathname + new URL(e.url).search,
    keyRole: e.sent.keyRole,
    requestHeaders: e.sent.requestHeaders,
    requestBody: e.sent.requestBody,
    status: 0,
    headers: {},
    text: "",
    json: undefined,
    meta: {},
    ms: 0,
  };
  const entry = entryOf(ex);
  entry._slc.noAnswer = e.detail;
  entry.response.statusText = e.detail;
  return entry;
}

export function cassetteOf(
  exchanges: Exchange[],
  failing: Exchange | TransportError | undefined,
  info: Omit<CassetteInfo, "failing">,
  secrets: Array<[string, string]>,
  version: string,
): Cassette {
  const entries = exchanges.map(entryOf);
  let index = entries.length - 1;
  if (failing && "seq" in failing) index = exchanges.findIndex((x) => x.seq === failing.seq);
  else if (failing) {
    entries.push(noAnswerEntry(failing, (exchanges.at(-1)?.seq ?? 0) + 0.5));
    index = entries.length - 1;
  }
  const har: Cassette = {
    log: {
      version: "1.2",
      creator: { name: "sl-conformance", version },
      comment: `${info.title} — replay: sl-conformance replay <this file> --base-url <url> --api-key … (keys are the ones of your run; placeholders \${SLK_…} stand for them)`,
      entries,
      _slConformance: { ...info, failing: index },
    },
  };
  return redact(har, secrets);
}

/** Read a cassette back; throws a one-line Error when it is not one. */
export function parseCassette(text: string, file: string): Cassette {
  let har: Cassette;
  try {
    har = JSON.parse(text) as Cassette;
  } catch (e) {
    throw new Error(`${file} is not JSON: ${(e as Error).message}`);
  }
  if (har?.log?.version !== "1.2" || !Array.isArray(har.log.entries))
    throw new Error(`${file} is not a HAR 1.2 file (log.version "1.2" and log.entries expected)`);
  const info = har.log._slConformance;
  if (!info?.check || typeof info.failing !== "number" || !har.log.entries[info.failing])
    throw new Error(
      `${file} is a HAR file but not an sl-conformance cassette (log._slConformance with check and failing entry expected)`,
    );
  return har;
}

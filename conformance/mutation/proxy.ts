// A fault-injecting proxy: forwards every request to an upstream deployment
// and lets one fault rewrite the request or response. The upstream is a base
// URL (any deployment, over HTTP) or a fetch handler in this process (the
// reference app's `app.fetch`): the kit still speaks HTTP to the proxy, and
// the fault sees and rewrites exactly the same requests and responses, but
// the second HTTP hop (a client and a server per request, about 40% of a
// whole-kit run's CPU) is gone. The mutation harness uses the in-process form.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ProxyRequest {
  method: string;
  path: string; // with query
  url: URL;
  headers: Record<string, string>;
  body?: string;
  key?: string;
}

/**
 * A decoded JSON body as faults read and rewrite it: the request or response
 * of any operation, or one a fault has already broken on purpose. A fault
 * reaches into the one shape it breaks (`res.json?.data?.usage?.balance`), and
 * so do the kit's tests that write their own faults; no single type describes
 * every body, and a check at every step would bury what each fault does. This
 * is the harness's one open type.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a body of any operation, read by the path a fault breaks
export type Body = any;

export interface ProxyResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** the body decoded, when it is JSON */
  json?: Body;
}

export interface ProxyState {
  /** dataset id → the key that created it */
  owners: Map<string, string>;
  /** anything a fault wants to remember; the fault that stores a key knows its type */
  memo: Map<string, unknown>;
  keys: Record<string, string | undefined>;
  forward(req: ProxyRequest): Promise<ProxyResponse>;
}

export interface Fault {
  id: string;
  /** the single rule the fault breaks */
  breaks: string;
  /** the check that must fail behind this fault */
  expect: string;
  /**
   * The seed-ledger rows (conformance/src/seed-ledger/rules.ts) whose rule the
   * fault breaks: behind it the expected check fails at --level seed, and a
   * check that declares its assertions attributes the failure to one of them.
   */
  rows?: string[];
  /** The D- row the fault breaks instead (a point the seed leaves open): the check fails at --level contract and warns at --level seed. */
  decision?: string;
  /** the checks to run (the expected one plus what it needs); default [expect] */
  only?: string[];
  /** a control: the kit must pass (with a warning), not fail */
  control?: boolean;
  request?(req: ProxyRequest, s: ProxyState): ProxyRequest | ProxyResponse | Promise<ProxyRequest | ProxyResponse>;
  response?(req: ProxyRequest, res: ProxyResponse, s: ProxyState): ProxyResponse | Promise<ProxyResponse>;
}

/** The fault, naming the ledger rows it breaks (for faults a factory builds). */
export function withRows(rows: string[], fault: Fault): Fault {
  return { ...fault, rows };
}

/** A number a fault keeps in the memo (a balance offset, a count, a time): 0 until the fault sets it. */
export function memoNumber(s: ProxyState, key: string): number {
  return (s.memo.get(key) as number | undefined) ?? 0;
}

/** A response a fault keeps in the memo (a resource as it was before it was deleted). */
export function memoResponse(s: ProxyState, key: string): ProxyResponse | undefined {
  return s.memo.get(key) as ProxyResponse | undefined;
}

export function json(res: ProxyResponse, body: unknown, status = res.status): ProxyResponse {
  const text = JSON.stringify(body);
  return { status, headers: { ...res.headers, "content-type": "application/json" }, body: text, json: body };
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return chunks.length ? Buffer.concat(chunks).toString("utf8") : undefined;
}

/** An incoming request as the faults read it (headers lower-cased, body read whole). */
export async function proxyRequestOf(req: IncomingMessage): Promise<ProxyRequest> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k.toLowerCase()] = v;
  return {
    method: req.method ?? "GET",
    path: req.url ?? "/",
    url: new URL(req.url ?? "/", "http://proxy"),
    headers,
    body: await readBody(req),
    key: headers["x-api-key"],
  };
}

export interface RunningProxy {
  baseUrl: string;
  state: ProxyState;
  /** what the proxy's HTTP server does with one request, without the socket (a throw is the proxy's 599) */
  handle(req: ProxyRequest): Promise<ProxyResponse>;
  close(): Promise<void>;
}

/** A deployment in this process: a WHATWG fetch handler such as a Hono app's `app.fetch`. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** The proxy's own failure: status 599 (outside HTTP's range), so no check mistakes it for the app's answer. */
export function proxyError(e: unknown): ProxyResponse {
  return { status: 599, headers: { "content-type": "text/plain" }, body: `proxy error: ${(e as Error).message}` };
}

export async function startProxy(
  upstream: string | FetchHandler,
  fault: Pick<Fault, "request" | "response"> | undefined,
  keys: Record<string, string | undefined>,
  port = 0,
): Promise<RunningProxy> {
  let publicUrl = "";
  const forward = async (r: ProxyRequest): Promise<ProxyResponse> => {
    const headers = { ...r.headers };
    delete headers.host;
    delete headers["content-length"];
    delete headers.connection;
    const body = r.body;
    let res: Response;
    if (typeof upstream === "string") {
      // redirects pass through to the client (the MCP 307 is a checked rule), as any reverse proxy does
      res = await fetch(upstream + r.path, { method: r.method, headers, body, redirect: "manual" });
    } else {
      // the length fetch would send over HTTP (the body guards judge 413 and 415 by it); the app sees
      // the proxy's own URL, so the URLs it builds need no rewriting
      if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
      res = await upstream(new Request(publicUrl + r.path, { method: r.method, headers, body }));
    }
    // absolute URLs an HTTP upstream builds from its own host (metadata document, challenges) name the proxy
    const rewrite = (v: string) => (typeof upstream === "string" && publicUrl ? v.split(upstream).join(publicUrl) : v);
    const text = rewrite(await res.text());
    const h: Record<string, string> = {};
    res.headers.forEach((v, k) => (h[k] = rewrite(v)));
    delete h["content-length"];
    delete h["transfer-encoding"];
    delete h["content-encoding"];
    let parsed: Body;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: h, body: text, json: parsed };
  };
  const state: ProxyState = { owners: new Map(), memo: new Map(), keys, forward };
  // the fault's request hook (which may answer itself), the upstream, the dataset owners every fault
  // can use, the fault's response hook
  const handle = async (req: ProxyRequest): Promise<ProxyResponse> => {
    try {
      let preq = req;
      let out: ProxyResponse | undefined;
      if (fault?.request) {
        const r = await fault.request(preq, state);
        if ("status" in r) out = r;
        else preq = r;
      }
      out ??= await forward(preq);
      // bookkeeping every fault can use: who owns which dataset
      if (
        preq.method === "POST" &&
        preq.url.pathname === "/v1/datasets" &&
        out.status === 201 &&
        out.json?.data?.id &&
        preq.key
      )
        state.owners.set(out.json.data.id, preq.key);
      if (fault?.response) out = await fault.response(preq, out, state);
      return out;
    } catch (e) {
      return proxyError(e);
    }
  };
  const server: Server = createServer(async (req, res) => {
    let out: ProxyResponse;
    try {
      out = await handle(await proxyRequestOf(req));
    } catch (e) {
      out = proxyError(e);
    }
    try {
      res.writeHead(out.status, out.headers);
    } catch (e) {
      // node refuses to write the fault's response (a header it will not send): the proxy's 599
      out = proxyError(e);
      res.writeHead(out.status, out.headers);
    }
    res.end(out.status === 204 || out.status === 304 ? undefined : out.body);
  });
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", () => r()));
  const bound = (server.address() as AddressInfo).port;
  publicUrl = `http://127.0.0.1:${bound}`;
  return {
    baseUrl: `http://127.0.0.1:${bound}`,
    state,
    handle,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

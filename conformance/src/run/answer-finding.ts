// When an active check throws, whose fault is it? The deployment's when its
// answer stopped the check; the kit's otherwise.
import { TransportError, curlOf, type Exchange } from "../http.ts";
import type { Failure } from "../types.ts";
import { titled } from "./result.ts";

/**
 * A check stopped by the deployment's answer rather than by a bug of the kit:
 * no answer at all (timeout, closed or refused connection), or an answer the
 * check could not read (not JSON, e.g. an HTML error page). Either is a
 * finding of that check, with the request to reproduce it; anything else
 * stays an error of the kit (outcome "error", with its stack).
 */
export function answerFinding(e: unknown, last: Exchange | undefined, id: string): Failure | undefined {
  if (e instanceof TransportError) return noAnswer(e, id);
  const ct = last?.headers["content-type"] ?? "";
  // an SSE stream (MCP long poll) is read by the MCP client, not as one JSON body
  if (
    last &&
    !/event-stream/i.test(ct) &&
    (last.jsonError !== undefined || (last.text.length > 0 && !/json/i.test(ct)))
  )
    return unreadable(last, ct, id);
  return undefined;
}

function noAnswer(e: TransportError, id: string): Failure {
  return {
    check: id,
    judges: "(no answer)",
    title: titled(id, `no answer: ${e.method} ${new URL(e.url).pathname} ${e.detail}`),
    received: e.detail,
    expected: "an HTTP answer",
    curl: curlOf({ method: e.method, url: e.url, ...e.sent }),
  };
}

function unreadable(last: Exchange, ct: string, id: string): Failure {
  const head = last.text.replace(/\s+/g, " ").slice(0, 80);
  return {
    check: id,
    judges: "(unreadable answer)",
    title: titled(id, `unreadable answer: ${last.method} ${last.path} → ${last.status} ${ct || "(no content-type)"}`),
    received: head + (last.text.length > 80 ? "…" : ""),
    expected: "a JSON body (application/json)",
    curl: curlOf(last),
    operation: last.op?.operationId,
    status: last.status,
    seq: last.seq,
  };
}

// The RFC 7240 `Prefer` request header, read once per request: a client of
// the development backend asks for one request's delay (`Prefer: delay=800`)
// or fault (`Prefer: fault=429`); several preferences are comma-separated.
import type { Context } from "hono";
import { requestHeader } from "./request-headers.ts";

/** Preference name (lower case) -> value (unquoted), e.g. {fault: "429", delay: "800"}. */
export function preferences(c: Context): Record<string, string> {
  return parsePrefer(requestHeader(c, "prefer"));
}

export function parsePrefer(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(",")) {
    // Parameters after ';' are not used by any preference we honour.
    const [pref] = part.split(";");
    const eq = pref!.indexOf("=");
    const name = (eq < 0 ? pref! : pref!.slice(0, eq)).trim().toLowerCase();
    if (!name || name in out) continue;
    out[name] =
      eq < 0
        ? ""
        : pref!
            .slice(eq + 1)
            .trim()
            .replace(/^"(.*)"$/, "$1");
  }
  return out;
}

// Helpers the MCP checks share: a tool call's payload read as the generated
// result type of its tool, and JSON compared regardless of key order (a tool
// and its REST twin may build the same object in another order).
import { isObject, type Untrusted } from "../../typed.ts";

/** The payload of a tool call (structuredContent, else the JSON of its text) read as `T`, when it is an object. */
export function payloadOf<T>(call: { payload?: unknown }): Untrusted<T> | undefined {
  const payload: unknown = call.payload;
  return isObject(payload) ? (payload as Untrusted<T>) : undefined;
}

/** JSON with sorted keys: two servers may build the same object in another key order. */
export function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    isObject(x)
      ? Object.fromEntries(
          Object.keys(x)
            .sort()
            .map((k) => [k, x[k]]),
        )
      : x,
  );
}

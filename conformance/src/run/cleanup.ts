// The end of every run, also after a failure or Ctrl-C: delete what the kit
// created, newest first so children go before their parents.
import type { HttpClient } from "../http.ts";
import type { Created } from "./session.ts";

export interface Cleanup {
  deleted: number;
  failed: string[];
}

export async function cleanUp(
  client: HttpClient,
  created: Map<string, Created>,
  log: (line: string) => void,
): Promise<Cleanup> {
  client.currentCheck = "(cleanup)";
  client.aborted = false;
  let deleted = 0;
  const failed: string[] = [];
  for (const [path, { key }] of [...created.entries()].reverse()) {
    try {
      const ex = await client.request({ method: "DELETE", path, key });
      // already gone counts as deleted
      if (ex.status < 300 || ex.status === 404) deleted++;
      else failed.push(`${path} → ${ex.status}`);
    } catch (e) {
      failed.push(`${path}: ${(e as Error).message}`);
    }
  }
  if (created.size)
    log(
      `cleanup: deleted ${deleted} of ${created.size} resources the kit created${failed.length ? `; could not delete ${failed.join(", ")}` : ""}`,
    );
  return { deleted, failed };
}

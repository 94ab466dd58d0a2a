// The reference server for --differential. Inside the repository (where the
// kit sits beside reference-impl/) the kit starts it in this process on a free
// 127.0.0.1 port, through the same startServer `npm start` uses, with the demo
// keys of fixtures/. The published package carries only the kit (the
// reference needs its own dependency tree and fixtures), so an installed kit
// is pointed at a running reference with --reference-url and --reference-keys.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type * as ReferenceServer from "../../../reference-impl/src/server.ts";
import type * as ReferenceConfig from "../../../reference-impl/src/config.ts";
import type * as ReferenceLog from "../../../reference-impl/src/platform/request-log.ts";
import type { KeyRole } from "../http.ts";
import { UsageError } from "../preflight.ts";

const repo = new URL("../../../", import.meta.url);
const serverModule = new URL("reference-impl/src/server.ts", repo);
const configModule = new URL("reference-impl/src/config.ts", repo);
const logModule = new URL("reference-impl/src/platform/request-log.ts", repo);
export const repoDemoKeys = fileURLToPath(new URL("fixtures/demo-keys.json", repo));

export interface ReferenceKeys {
  keys: Partial<Record<KeyRole, string>>;
  bearer?: string;
}

export function inProcessAvailable(): boolean {
  return existsSync(fileURLToPath(serverModule));
}

export const HOW_TO_POINT =
  "this installation of the kit does not carry the reference server (the published package holds only the kit); start one in a clone of the repository (npm install && npm start) and pass --reference-url http://127.0.0.1:3000 --reference-keys fixtures/demo-keys.json";

/** fixtures/demo-keys.json of the reference, as far as the kit reads it. */
interface DemoKeys {
  keys?: Array<{ api_key: string; account_id: string; user_id: string }>;
  bearer_tokens?: Array<{ access_token: string; account_id?: string; user_id?: string }>;
}

/** Keys by role from a demo-keys.json file (`{keys: [{api_key, account_id, user_id}], bearer_tokens: [...]}`). */
export function referenceKeysFrom(file: string): ReferenceKeys {
  let doc: DemoKeys;
  try {
    doc = JSON.parse(readFileSync(file, "utf8")) as DemoKeys;
  } catch (e) {
    throw new UsageError(`--reference-keys ${file}: ${(e as Error).message}`);
  }
  const rows = doc.keys ?? [];
  const pick = (account: string, owner: boolean) =>
    rows.find((k) => k.account_id === account && k.user_id.endsWith(owner ? "_owner" : "_member"))?.api_key;
  const keys = {
    main: pick("acc_demoA", true),
    second: pick("acc_demoA", false),
    foreign: pick("acc_demoB", true),
    poor: pick("acc_poor", true),
  };
  if (!keys.main)
    throw new UsageError(
      `--reference-keys ${file} holds no owner key of acc_demoA (the demo keys of the reference's fixtures are expected)`,
    );
  const bearer =
    doc.bearer_tokens?.find(
      (t) => t.user_id === "usr_a_owner" || (t.account_id === "acc_demoA" && /owner/.test(t.user_id ?? "")),
    )?.access_token ?? doc.bearer_tokens?.[0]?.access_token;
  return { keys, bearer };
}

export interface StartedReference {
  baseUrl: string;
  close(): Promise<void>;
}

/** Start the repository's reference server here, on a free loopback port; `env` as `npm start` reads it (RATE_LIMIT_RPS, STEP_DELAY_MS, …). */
export async function startInProcess(env: Record<string, string> = {}): Promise<StartedReference> {
  if (!inProcessAvailable()) throw new UsageError(`--differential: ${HOW_TO_POINT}`);
  // imported by URL, so an installed kit without reference-impl/ never loads them (the types vanish at run time)
  const { startServer } = (await import(serverModule.href)) as typeof ReferenceServer;
  const { readConfig } = (await import(configModule.href)) as typeof ReferenceConfig;
  const { createLogger } = (await import(logModule.href)) as typeof ReferenceLog;
  const read = readConfig({ PORT: "0", HOST: "127.0.0.1", LOG_REQUESTS: "false", ...env });
  if (!read.ok) throw new UsageError(`reference settings: ${read.errors.join("; ")}`);
  const running = await startServer(read.config, createLogger({ level: "silent" }));
  return { baseUrl: running.url.replace(/\/+$/, ""), close: () => running.close() };
}

// One HAR cassette per failing finding, in <report>/cassettes/: the exchanges
// of the check that sent the failing request, up to and including it.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { allChecks } from "../registry.ts";
import type { Exchange } from "../http.ts";
import type { RunReport } from "../runner.ts";
import type { Failure } from "../types.ts";
import { cassetteOf, secretsOf } from "./har.ts";

/** More than this many exchanges before the failing one: keep what changed state, and the last few reads. */
const MAX_ENTRIES = 60;
const KEEP_LAST = 20;

const kitVersion = (() => {
  try {
    return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string })
      .version;
  } catch {
    return "0.0.0";
  }
})();

/** The exchanges behind one failure: the sending check's exchanges up to the failing one. */
export function exchangesBehind(
  report: Pick<RunReport, "exchanges">,
  f: Failure,
): { exchanges: Exchange[]; failing?: Exchange } {
  const failing = f.seq !== undefined ? report.exchanges.find((x) => x.seq === f.seq) : undefined;
  const sender = failing?.check ?? f.check;
  const upTo = failing?.seq ?? Infinity;
  let mine = report.exchanges.filter((x) => x.check === sender && x.seq <= upTo);
  if (mine.length > MAX_ENTRIES) {
    const last = mine.slice(-KEEP_LAST);
    const setup = mine.slice(0, -KEEP_LAST).filter((x) => x.method !== "GET" && x.status >= 200 && x.status < 300);
    mine = [...setup.slice(-(MAX_ENTRIES - KEEP_LAST)), ...last];
  }
  return { exchanges: mine, failing };
}

/** Write the cassettes and note each one's path on its failure; returns the files written. */
export function writeCassettes(dir: string, report: RunReport): string[] {
  const secrets = secretsOf(report.settings.keys, report.settings.bearerToken);
  const kinds = new Map(allChecks.map((c) => [c.id, c.kind]));
  const files: string[] = [];
  for (const r of report.results) {
    r.failures.forEach((f, i) => {
      const { exchanges, failing } = exchangesBehind(report, f);
      const noAnswer =
        !failing && /: no answer: /.test(f.title)
          ? report.transportErrors.filter((e) => e.check === f.check).at(-1)
          : undefined;
      if (!exchanges.length && !noAnswer) return;
      const name = `cassettes/${r.id}-${i + 1}.har`;
      const har = cassetteOf(
        exchanges,
        failing ?? noAnswer,
        {
          check: r.id,
          title: f.title,
          kind: kinds.get(r.id) === "response" ? "response" : "active",
          received: f.received,
          expected: f.expected,
          runId: report.runId,
          seed: report.settings.seed,
          baseUrl: report.settings.baseUrl,
          fcPath: f.path,
          profile: report.settings.profile,
        },
        secrets,
        kitVersion,
      );
      mkdirSync(join(dir, "cassettes"), { recursive: true });
      writeFileSync(join(dir, name), JSON.stringify(har, null, 1) + "\n");
      f.cassette = name;
      files.push(join(dir, name));
    });
  }
  return files;
}

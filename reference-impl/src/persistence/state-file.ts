// `--state FILE`: the state image in an SQLite file, written through Node's
// built-in driver (node:sqlite, no native build). The image is cut into
// sections (directory, ledger, tables, profiles, and each account's mentions
// in chunks), each a V8-serialized BLOB, so no single value nears SQLite's
// 1 GB limit at a million mentions.
//
// A save writes a whole new file next to the old one and renames it over the
// old one: rename is atomic, so a crash or kill mid-write leaves the previous
// state intact (and at worst a stray FILE.tmp, removed on the next save).
import { existsSync, renameSync, rmSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { deserialize, serialize } from "node:v8";
import { IMAGE_FORMAT, type StateImage } from "./image.ts";

/** What the file says about itself; a mismatch is refused with one line. */
const APPLICATION = "social-listening-reference-state";
const MENTIONS_PER_CHUNK = 50_000;

export interface SaveFigures {
  bytes: number;
  ms: number;
}

/** Write `image` to `file` (atomically: a temporary file renamed over it). */
export function writeStateFile(file: string, image: StateImage): SaveFigures {
  const started = performance.now();
  const tmp = `${file}.tmp`;
  rmSync(tmp, { force: true });
  const db = new DatabaseSync(tmp);
  let bytes = 0;
  try {
    db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = NORMAL;");
    db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE sections (name TEXT PRIMARY KEY, data BLOB NOT NULL);");
    const meta = db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
    meta.run("application", APPLICATION);
    meta.run("format", String(IMAGE_FORMAT));
    meta.run("saved_at_ms", String(image.savedAtMs));
    const put = db.prepare("INSERT INTO sections (name, data) VALUES (?, ?)");
    const section = (name: string, value: unknown) => {
      const data = serialize(value);
      bytes += data.length;
      put.run(name, data);
    };
    db.exec("BEGIN");
    section("directory", image.directory);
    section("ledger", image.ledger);
    section("tables", image.tables);
    section("profiles", image.profiles);
    for (const { accountId, records, assignments } of image.mentions) {
      section(`assignments\u0000${accountId}`, assignments);
      for (let i = 0, chunk = 0; i < records.length || chunk === 0; i += MENTIONS_PER_CHUNK, chunk++) {
        section(`mentions\u0000${accountId}\u0000${String(chunk).padStart(6, "0")}`, records.slice(i, i + MENTIONS_PER_CHUNK));
      }
    }
    db.exec("COMMIT");
  } finally {
    db.close();
  }
  renameSync(tmp, file);
  return { bytes, ms: performance.now() - started };
}

/** Read a state file, or throw one line saying what is wrong with it. */
export function readStateFile(file: string): StateImage {
  if (!existsSync(file)) throw new Error(`state file ${file} does not exist`);
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file, { readOnly: true });
  } catch (error) {
    throw new Error(`state file ${file} cannot be opened: ${(error as Error).message}`);
  }
  try {
    let meta: Map<string, string>;
    try {
      meta = new Map((db.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
    } catch (error) {
      throw new Error(`state file ${file} is not a reference-server state file (${(error as Error).message})`);
    }
    if (meta.get("application") !== APPLICATION) throw new Error(`state file ${file} is not a reference-server state file`);
    if (meta.get("format") !== String(IMAGE_FORMAT)) {
      throw new Error(`state file ${file} has format ${meta.get("format")}, this server reads format ${IMAGE_FORMAT}; move it away or start without --state`);
    }
    const rows = db.prepare("SELECT name, data FROM sections ORDER BY name").all() as { name: string; data: Uint8Array }[];
    const sections = new Map<string, unknown>();
    const mentions = new Map<string, StateImage["mentions"][number]["records"]>();
    const assignments = new Map<string, StateImage["mentions"][number]["assignments"]>();
    for (const { name, data } of rows) {
      let value: unknown;
      try {
        value = deserialize(data);
      } catch (error) {
        throw new Error(`state file ${file}: section ${name.split("\u0000").join(" ")} is damaged (${(error as Error).message})`);
      }
      if (name.startsWith("mentions\u0000")) {
        const accountId = name.split("\u0000")[1]!;
        let list = mentions.get(accountId);
        if (!list) mentions.set(accountId, (list = []));
        for (const r of value as typeof list) list.push(r);
      } else if (name.startsWith("assignments\u0000")) assignments.set(name.split("\u0000")[1]!, value as StateImage["mentions"][number]["assignments"]);
      else sections.set(name, value);
    }
    for (const name of ["directory", "ledger", "tables", "profiles"]) {
      if (!sections.has(name)) throw new Error(`state file ${file} has no ${name} section`);
    }
    return {
      format: IMAGE_FORMAT,
      savedAtMs: Number(meta.get("saved_at_ms")),
      directory: sections.get("directory") as StateImage["directory"],
      ledger: sections.get("ledger") as StateImage["ledger"],
      tables: sections.get("tables") as StateImage["tables"],
      profiles: sections.get("profiles") as StateImage["profiles"],
      mentions: [...mentions].map(([accountId, records]) => ({ accountId, records, assignments: assignments.get(accountId) ?? [] })),
    };
  } catch (error) {
    // A file SQLite itself rejects (garbage bytes) surfaces here too.
    const message = (error as Error).message;
    throw new Error(message.startsWith("state file") ? message : `state file ${file} is damaged: ${message}`);
  } finally {
    db.close();
  }
}

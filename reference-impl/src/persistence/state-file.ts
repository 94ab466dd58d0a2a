// `--state FILE`: the state image in an SQLite file through Node's built-in
// driver (node:sqlite: no native build). The image is cut into sections —
// directory, ledger, tables, profiles, pattern assignments, and each
// account's mention pool in chunks of CHUNK records — each a V8-serialized
// BLOB. A save is one SQLite transaction that rewrites the small sections and
// only the mention chunks that changed (changes.ts), so a periodic save of a
// large pool costs what changed since the last one, not the whole pool.
//
// Crash safety comes from SQLite's atomic commit (write-ahead log): a save
// cut short by a crash or kill -9 is rolled back when the file is next
// opened, and the previous save is what comes back (D-REF-STATE).
import { existsSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { deserialize, serialize } from "node:v8";
import { IMAGE_FORMAT, type StateImage } from "./image.ts";

/** What the file says about itself; a mismatch is refused with one line. */
const APPLICATION = "social-listening-reference-state";
/** Records per mention chunk: a run landing rewrites about one chunk (a few tens of ms). */
export const CHUNK = 10_000;

export interface SaveFigures {
  bytes: number;
  ms: number;
  chunksWritten: number;
}

/** Which mention chunks to write, per account: every one, or the listed chunk numbers. */
export type ChunkPlan = Map<string, "all" | Set<number>>;

const SEP = "\u0000";
export const chunkName = (accountId: string, chunk: number) => `mentions${SEP}${accountId}${SEP}${String(chunk).padStart(6, "0")}`;

export class StateFile {
  private constructor(
    readonly file: string,
    private readonly db: DatabaseSync,
  ) {}

  /**
   * Open (or create) the file. An existing file is checked and read: a
   * damaged, foreign or other-format file throws one line and nothing starts.
   */
  static open(file: string): { state: StateFile; image: StateImage | undefined } {
    const existed = existsSync(file);
    let db: DatabaseSync;
    try {
      db = new DatabaseSync(file);
    } catch (error) {
      throw new Error(`state file ${file} cannot be opened: ${(error as Error).message}`);
    }
    try {
      // A file is read (and so checked) before anything is written to it.
      const image = existed ? readImage(file, db) : undefined;
      db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
      if (image) return { state: new StateFile(file, db), image };
      {
        db.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE sections (name TEXT PRIMARY KEY, data BLOB NOT NULL);");
        const meta = db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
        meta.run("application", APPLICATION);
        meta.run("format", String(IMAGE_FORMAT));
        return { state: new StateFile(file, db), image: undefined };
      }
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /**
   * Write the image: small sections always, mention chunks as `plan` says,
   * all in one transaction. `prebuilt` holds sections already serialized from
   * exactly these records (a reset's scenario), written as they are.
   */
  save(image: StateImage, plan: ChunkPlan, prebuilt?: ReadonlyMap<string, Uint8Array>): SaveFigures {
    const started = performance.now();
    let bytes = 0;
    let chunksWritten = 0;
    const put = this.db.prepare("INSERT OR REPLACE INTO sections (name, data) VALUES (?, ?)");
    const section = (name: string, value: unknown) => {
      const data = prebuilt?.get(name) ?? serialize(value);
      bytes += data.length;
      put.run(name, data);
    };
    this.db.exec("BEGIN IMMEDIATE");
    try {
      this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('saved_at_ms', ?)").run(String(image.savedAtMs));
      section("directory", image.directory);
      section("ledger", image.ledger);
      section("tables", image.tables);
      section("profiles", image.profiles);
      const accounts = new Set(image.mentions.map((m) => m.accountId));
      // Pools of accounts no longer loaded (a reset to other fixtures) go.
      for (const { name } of this.db.prepare("SELECT name FROM sections WHERE name LIKE 'mentions%' OR name LIKE 'assignments%'").all() as { name: string }[]) {
        if (!accounts.has(name.split(SEP)[1]!)) this.db.prepare("DELETE FROM sections WHERE name = ?").run(name);
      }
      for (const { accountId, records, assignments } of image.mentions) {
        section(`assignments${SEP}${accountId}`, assignments);
        const count = Math.ceil(records.length / CHUNK);
        const wanted = plan.get(accountId) ?? "all";
        for (let c = 0; c < count; c++) {
          if (wanted !== "all" && !wanted.has(c)) continue;
          section(chunkName(accountId, c), records.slice(c * CHUNK, (c + 1) * CHUNK));
          chunksWritten++;
        }
        this.db.prepare("DELETE FROM sections WHERE name >= ? AND name < ?").run(chunkName(accountId, count), `mentions${SEP}${accountId}${SEP}\uffff`);
      }
      this.db.exec("COMMIT");
    } catch (error) {
      this.db.exec("ROLLBACK");
      throw error;
    }
    return { bytes, ms: performance.now() - started, chunksWritten };
  }

  close(): void {
    this.db.close();
  }
}

/** The image as the file's sections (names in the file's order), each serialized. */
export function toSections(image: StateImage): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  out.set("directory", serialize(image.directory));
  out.set("ledger", serialize(image.ledger));
  out.set("tables", serialize(image.tables));
  out.set("profiles", serialize(image.profiles));
  for (const { accountId, records, assignments } of image.mentions) {
    out.set(`assignments${SEP}${accountId}`, serialize(assignments));
    for (let c = 0; c * CHUNK < records.length; c++) out.set(chunkName(accountId, c), serialize(records.slice(c * CHUNK, (c + 1) * CHUNK)));
  }
  return out;
}

/** An image from sections (in name order, so each pool's chunks come in order); `where` names the source in errors. */
export function fromSections(sectionsIn: Iterable<[string, Uint8Array]>, savedAtMs: number, where: string): StateImage {
  const sections = new Map<string, unknown>();
  const mentions = new Map<string, StateImage["mentions"][number]["records"]>();
  const assignments = new Map<string, StateImage["mentions"][number]["assignments"]>();
  for (const [name, data] of sectionsIn) {
    let value: unknown;
    try {
      value = deserialize(data);
    } catch (error) {
      throw new Error(`${where}: section ${name.split(SEP).join(" ")} is damaged (${(error as Error).message})`);
    }
    const [kind, accountId] = name.split(SEP);
    if (kind === "mentions") {
      let list = mentions.get(accountId!);
      if (!list) mentions.set(accountId!, (list = []));
      for (const r of value as typeof list) list.push(r);
    } else if (kind === "assignments") assignments.set(accountId!, value as StateImage["mentions"][number]["assignments"]);
    else sections.set(name, value);
  }
  for (const name of ["directory", "ledger", "tables", "profiles"]) {
    if (!sections.has(name)) throw new Error(`${where} has no ${name} section`);
  }
  const accounts = new Set([...mentions.keys(), ...assignments.keys()]);
  return {
    format: IMAGE_FORMAT,
    savedAtMs,
    directory: sections.get("directory") as StateImage["directory"],
    ledger: sections.get("ledger") as StateImage["ledger"],
    tables: sections.get("tables") as StateImage["tables"],
    profiles: sections.get("profiles") as StateImage["profiles"],
    mentions: [...accounts].map((accountId) => ({ accountId, records: mentions.get(accountId) ?? [], assignments: assignments.get(accountId) ?? [] })),
  };
}

/** Read a state file without keeping it open (tests, tools). */
export function readStateFile(file: string): StateImage {
  if (!existsSync(file)) throw new Error(`state file ${file} does not exist`);
  const { state, image } = StateFile.open(file);
  state.close();
  return image!;
}

function readImage(file: string, db: DatabaseSync): StateImage {
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
    const rows = db.prepare("SELECT name, data FROM sections ORDER BY name").iterate() as Iterable<{ name: string; data: Uint8Array }>;
    return fromSections((function* () {
      for (const { name, data } of rows) yield [name, data] as [string, Uint8Array];
    })(), Number(meta.get("saved_at_ms")), `state file ${file}`);
  } catch (error) {
    // A file SQLite itself rejects (garbage bytes) surfaces here too.
    const message = (error as Error).message;
    throw new Error(message.startsWith("state file") ? message : `state file ${file} is damaged: ${message}`);
  }
}

// `--state FILE`: the state image in an SQLite file through Node's built-in
// driver (node:sqlite: no native build). The image is cut into sections
// (sections.ts): directory, ledger, tables, profiles, pattern assignments,
// and each account's mention pool in chunks of CHUNK records, each a
// V8-serialized BLOB. A save rewrites the small sections and only the
// mention chunks that changed (changes.ts), so a periodic save of a large
// pool costs what changed since the last one, not the whole pool.
//
// A save is sliced work (`saveSteps` yields after each chunk): the periodic
// save runs it with event-loop turns between pieces, inside the pipeline's
// shared slice budget, so writing a whole pool of a million mentions never
// holds the loop for more than one chunk; a clean stop runs it to its end at
// once. Each chunk becomes a new blob in a piece of its own, and one short
// transaction at the end points at them: that commit is the save. The log is
// copied into the file afterwards (checkpointer.ts).
//
// Crash safety comes from SQLite's atomic commit (write-ahead log): a save
// cut short by a crash or kill -9 is rolled back when the file is next
// opened, and the previous save is what comes back (D-REF-STATE).
import { existsSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { serialize } from "node:v8";
import { drainNow, type Sliced } from "../platform/pipeline.ts";
import { Checkpointer } from "./checkpointer.ts";
import { IMAGE_FORMAT, type StateImage } from "./image.ts";
import { CHUNK, chunkName, fromSections, SEP } from "./sections.ts";

/** Readers of a state file count its chunks in the records the file is cut in. */
export { CHUNK };

/** What the file says about itself; a mismatch is refused with one line. */
const APPLICATION = "social-listening-reference-state";
/** Replaced blobs deleted per piece after a save's commit (each frees about 200 pages). */
const BLOBS_DELETED_PER_PIECE = 8;

/** What a file without a `chunk_records` entry was cut in. */
const FIRST_CHUNK = 10_000;

export interface SaveFigures {
  bytes: number;
  /** From the first piece to the commit (wall time, turns given to others included). */
  ms: number;
  chunksWritten: number;
  /** Pieces the save was cut into, and the longest one (ms): what it held the event loop for at most. */
  pieces: number;
  longestPieceMs: number;
  /** The same piece's CPU time on this thread: on a shared machine wall time also counts time the OS gave to others. */
  longestPieceCpuMs: number;
  /** Taking the image and planning the chunks (the Backend), in the same turn as the first piece. */
  captureMs?: number;
}

/** This thread's CPU time in ms (user + system). */
const threadCpuMs = (): number => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

/** Which mention chunks to write, per account: every one, or the listed chunk numbers. */
export type ChunkPlan = Map<string, "all" | Set<number>>;

export class StateFile {
  private constructor(
    readonly file: string,
    private readonly db: DatabaseSync,
    /** Records per chunk the file holds now; when not CHUNK, the next save must write every chunk. */
    public chunkRecords: number,
  ) {
    this.checkpoints = new Checkpointer(file, db);
  }

  private readonly checkpoints: Checkpointer;
  /** Blobs nothing points at (replaced by a save, or written by one that never committed): deleted by the next save's last pieces. */
  private garbage: number[] = [];

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
      // No automatic checkpoint in the commit's turn: `checkpointAfter` does it (off the loop after a large save).
      // The log keeps the size of the largest save on disk: cutting it back (journal_size_limit) freed
      // the file's pages in the next commit's turn, 34 ms of system CPU after a save of 300k mentions.
      db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0;");
      // Mention chunks: `chunks` names them, `blobs` holds their bytes (see saveSteps). A file of the first layout gets both tables here.
      db.exec(
        "CREATE TABLE IF NOT EXISTS blobs (id INTEGER PRIMARY KEY, data BLOB NOT NULL); CREATE TABLE IF NOT EXISTS chunks (name TEXT PRIMARY KEY, blob INTEGER NOT NULL);",
      );
      if (image) {
        const cut = (
          db.prepare("SELECT value FROM meta WHERE key = 'chunk_records'").get() as { value: string } | undefined
        )?.value;
        const state = new StateFile(file, db, cut === undefined ? FIRST_CHUNK : Number(cut));
        // Blobs of a save cut short (a crash between its pieces and its commit).
        state.garbage = (
          db.prepare("SELECT id FROM blobs WHERE id NOT IN (SELECT blob FROM chunks)").all() as { id: number }[]
        ).map((r) => r.id);
        return { state, image };
      }
      {
        db.exec(
          "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE sections (name TEXT PRIMARY KEY, data BLOB NOT NULL);",
        );
        const meta = db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
        meta.run("application", APPLICATION);
        meta.run("format", String(IMAGE_FORMAT));
        meta.run("chunk_records", String(CHUNK));
        return { state: new StateFile(file, db, CHUNK), image: undefined };
      }
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** After a save at once: the checkpoint in the same turn (nothing is served meanwhile anyway). */
  checkpointNow(): void {
    this.checkpoints.now();
  }

  /** After a sliced save of `bytes`: a small log is checkpointed at once (a few ms), a large one on the worker thread. */
  checkpointAfter(bytes: number): void {
    this.checkpoints.after(bytes);
  }

  /** Write the image at once (see `saveSteps`): before the server listens, and on a clean stop. */
  save(image: StateImage, plan: ChunkPlan, prebuilt?: ReadonlyMap<string, Uint8Array>): SaveFigures {
    const figures = drainNow(this.saveSteps(image, plan, prebuilt));
    this.checkpointNow();
    return figures;
  }

  /**
   * Write the image, yielding between pieces. Mention chunks as `plan` says,
   * each serialized and stored as a new row of `blobs` in a small
   * transaction of its own (one piece each); then ONE short transaction
   * points `chunks` at the new blobs and writes the small sections (taken
   * with the image) — that commit is the save. Then the blobs it replaced
   * are deleted, a few per piece. A large single transaction was tried
   * first: its COMMIT alone took about 0.5 s of CPU at 1M mentions.
   * `prebuilt` holds sections already serialized from exactly these records
   * (a reset's scenario), written as they are.
   *
   * The records are read when their chunk's piece runs: a record that
   * changes after the image was taken may be written with the change (a run
   * moved meanwhile is newer than the image, so changes.ts writes its chunks
   * again next time). A save ended early (`return()`, a crash) leaves only
   * blobs nothing points at; the next save deletes them.
   */
  *saveSteps(image: StateImage, plan: ChunkPlan, prebuilt?: ReadonlyMap<string, Uint8Array>): Sliced<SaveFigures> {
    const started = performance.now();
    let bytes = 0;
    let chunksWritten = 0;
    let pieces = 0;
    let longestPieceMs = 0;
    let longestPieceCpuMs = 0;
    let pieceStart = performance.now();
    let pieceCpuStart = threadCpuMs();
    function* piece(): Generator<void, void, unknown> {
      pieces++;
      longestPieceMs = Math.max(longestPieceMs, performance.now() - pieceStart);
      longestPieceCpuMs = Math.max(longestPieceCpuMs, threadCpuMs() - pieceCpuStart);
      yield;
      pieceStart = performance.now();
      pieceCpuStart = threadCpuMs();
    }
    const serialized = (name: string, value: unknown) => {
      const data = prebuilt?.get(name) ?? serialize(value);
      bytes += data.length;
      return data;
    };
    // The small sections as the image has them, written by the final transaction.
    const small: [string, Uint8Array][] = [
      ["directory", serialized("directory", image.directory)],
      ["ledger", serialized("ledger", image.ledger)],
      ["tables", serialized("tables", image.tables)],
      ["profiles", serialized("profiles", image.profiles)],
      ...image.mentions.map(({ accountId, assignments }): [string, Uint8Array] => [
        `assignments${SEP}${accountId}`,
        serialized(`assignments${SEP}${accountId}`, assignments),
      ]),
    ];
    const written: [string, number][] = [];
    const insertBlob = this.db.prepare("INSERT INTO blobs (data) VALUES (?)");
    let open = false;
    let committed = false;
    try {
      for (const { accountId, records } of image.mentions) {
        const count = Math.ceil(records.length / CHUNK);
        const wanted = plan.get(accountId) ?? "all";
        for (let c = 0; c < count; c++) {
          if (wanted !== "all" && !wanted.has(c)) continue;
          yield* piece();
          const name = chunkName(accountId, c);
          written.push([
            name,
            Number(insertBlob.run(serialized(name, records.slice(c * CHUNK, (c + 1) * CHUNK))).lastInsertRowid),
          ]);
          chunksWritten++;
        }
      }
      yield* piece();
      this.db.exec("BEGIN IMMEDIATE");
      open = true;
      this.point(image, small, written);
      this.db.exec("COMMIT");
      open = false;
      committed = true;
      this.chunkRecords = CHUNK;
    } finally {
      if (open) this.db.exec("ROLLBACK");
      // Not committed (an error, or ended early): the new blobs are pointed at by nothing.
      if (!committed) for (const [, id] of written) this.garbage.push(id);
    }
    while (this.garbage.length > 0) {
      yield* piece();
      const ids = this.garbage.splice(0, BLOBS_DELETED_PER_PIECE);
      this.db.prepare(`DELETE FROM blobs WHERE id IN (${ids.map(() => "?").join(",")})`).run(...ids);
    }
    pieces++;
    longestPieceMs = Math.max(longestPieceMs, performance.now() - pieceStart);
    longestPieceCpuMs = Math.max(longestPieceCpuMs, threadCpuMs() - pieceCpuStart);
    return { bytes, ms: performance.now() - started, chunksWritten, pieces, longestPieceMs, longestPieceCpuMs };
  }

  /** Inside the save's transaction: small sections, `chunks` pointed at the new blobs, the blobs replaced noted as garbage. */
  private point(image: StateImage, small: [string, Uint8Array][], written: [string, number][]): void {
    const meta = this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
    meta.run("saved_at_ms", String(image.savedAtMs));
    meta.run("chunk_records", String(CHUNK));
    const put = this.db.prepare("INSERT OR REPLACE INTO sections (name, data) VALUES (?, ?)");
    for (const [name, data] of small) put.run(name, data);
    // Mention chunks of the first layout (inside `sections`, 10,000 records each) go: this save wrote every chunk.
    this.db.exec("DELETE FROM sections WHERE name LIKE 'mentions%'");
    const accounts = new Set(image.mentions.map((m) => m.accountId));
    // Pools of accounts no longer loaded (a reset to other fixtures) go.
    for (const { name } of this.db.prepare("SELECT name FROM sections WHERE name LIKE 'assignments%'").all() as {
      name: string;
    }[]) {
      if (!accounts.has(name.split(SEP)[1]!)) this.db.prepare("DELETE FROM sections WHERE name = ?").run(name);
    }
    const before = this.db.prepare("SELECT blob FROM chunks WHERE name = ?");
    const point = this.db.prepare("INSERT OR REPLACE INTO chunks (name, blob) VALUES (?, ?)");
    for (const [name, id] of written) {
      const old = before.get(name) as { blob: number } | undefined;
      if (old) this.garbage.push(old.blob);
      point.run(name, id);
    }
    // Chunks past each pool's end, and pools no longer loaded.
    const sizes = new Map(image.mentions.map((m) => [m.accountId, Math.ceil(m.records.length / CHUNK)]));
    const drop = this.db.prepare("DELETE FROM chunks WHERE name = ?");
    for (const { name, blob } of this.db.prepare("SELECT name, blob FROM chunks").all() as {
      name: string;
      blob: number;
    }[]) {
      const [, accountId, chunk] = name.split(SEP);
      const size = sizes.get(accountId!);
      if (size === undefined || Number(chunk) >= size) {
        drop.run(name);
        this.garbage.push(blob);
      }
    }
  }

  /**
   * Close the file. A checkpoint under way is waited for (at once: a clean
   * stop may block), so its connection's locks are gone when this returns
   * and the file can be opened again, by this process too.
   */
  close(): void {
    this.checkpoints.close();
    this.db.close();
  }
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
      meta = new Map(
        (db.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[]).map((r) => [
          r.key,
          r.value,
        ]),
      );
    } catch (error) {
      throw new Error(`state file ${file} is not a reference-server state file (${(error as Error).message})`);
    }
    if (meta.get("application") !== APPLICATION)
      throw new Error(`state file ${file} is not a reference-server state file`);
    if (meta.get("format") !== String(IMAGE_FORMAT)) {
      throw new Error(
        `state file ${file} has format ${meta.get("format")}, this server reads format ${IMAGE_FORMAT}; move it away or start without --state`,
      );
    }
    const rows = db.prepare("SELECT name, data FROM sections ORDER BY name").iterate() as Iterable<{
      name: string;
      data: Uint8Array;
    }>;
    // A file of the first layout has no `chunks` table (its chunks are rows of `sections`).
    const layout2 =
      db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chunks'").get() !== undefined;
    const chunks = layout2
      ? (db
          .prepare(
            "SELECT chunks.name AS name, blobs.data AS data FROM chunks JOIN blobs ON blobs.id = chunks.blob ORDER BY chunks.name",
          )
          .iterate() as Iterable<{ name: string; data: Uint8Array }>)
      : [];
    return fromSections(
      (function* () {
        for (const { name, data } of rows) yield [name, data] as [string, Uint8Array];
        for (const { name, data } of chunks) yield [name, data] as [string, Uint8Array];
      })(),
      Number(meta.get("saved_at_ms")),
      `state file ${file}`,
    );
  } catch (error) {
    // A file SQLite itself rejects (garbage bytes) surfaces here too.
    const message = (error as Error).message;
    throw new Error(message.startsWith("state file") ? message : `state file ${file} is damaged: ${message}`);
  }
}

// Checkpoints of a state file's write-ahead log: copying the log into the
// database file, at once after a small save, on a worker thread after a
// large one so the copy never holds the event loop.
import type { DatabaseSync } from "node:sqlite";
import { Worker } from "node:worker_threads";

/**
 * Copies the write-ahead log into the database file on a worker thread, so a
 * large commit is not followed by its checkpoint in the same turn (SQLite's
 * automatic checkpoint copied 155 MB in 0.3 s at 100k mentions, in the
 * commit's turn). A PASSIVE checkpoint on its own connection: it never
 * blocks the writer, and a checkpoint cut short is redone by SQLite later.
 */
const CHECKPOINTER = `
const { parentPort, workerData } = require("node:worker_threads");
const { DatabaseSync } = require("node:sqlite");
const db = new DatabaseSync(workerData.file);
db.exec("PRAGMA busy_timeout = 5000");
const closed = new Int32Array(workerData.closed);
parentPort.on("message", (message) => {
  if (message === "close") {
    db.close();
    Atomics.store(closed, 0, 1);
    Atomics.notify(closed, 0);
    parentPort.close();
    return;
  }
  try { db.exec("PRAGMA wal_checkpoint(PASSIVE)"); } catch {}
  parentPort.postMessage("done");
});
`;
/** How long a clean stop waits for a checkpoint under way to end (it holds the file's locks until then). */
const CHECKPOINT_CLOSE_WAIT_MS = 120_000;

/** Below this a save's log is copied in the same turn (about what one piece costs). */
const INLINE_CHECKPOINT_BYTES = 4 * 2 ** 20;

export class Checkpointer {
  private checkpointer: Worker | undefined;
  /** Set to 1 by the checkpointer once its connection is closed. */
  private checkpointerClosed: SharedArrayBuffer | undefined;
  /** Checkpoints asked for while one is running fold into one more. */
  private checkpointState: "idle" | "running" | "again" = "idle";

  constructor(
    private readonly file: string,
    private readonly db: DatabaseSync,
  ) {}

  /** After a save at once: the checkpoint in the same turn (nothing is served meanwhile anyway). */
  now(): void {
    if (this.checkpointState !== "idle") return; // the worker is at it
    this.db.exec("PRAGMA wal_checkpoint(PASSIVE)");
  }

  /** After a sliced save of `bytes`: a small log is checkpointed at once (a few ms), a large one on the worker thread. */
  after(bytes: number): void {
    if (bytes < INLINE_CHECKPOINT_BYTES) this.now();
    else this.inBackground();
  }

  private inBackground(): void {
    if (this.checkpointState !== "idle") {
      this.checkpointState = "again";
      return;
    }
    if (!this.checkpointer) {
      this.checkpointerClosed = new SharedArrayBuffer(4);
      this.checkpointer = new Worker(CHECKPOINTER, {
        eval: true,
        workerData: { file: this.file, closed: this.checkpointerClosed },
      });
      this.checkpointer.unref();
      this.checkpointer.on("message", () => {
        const again = this.checkpointState === "again";
        this.checkpointState = "idle";
        if (again) this.inBackground();
      });
      this.checkpointer.on("error", () => {
        // A checkpointer that failed is not fatal: the log just grows until a save at once checkpoints it.
        this.checkpointer = undefined;
        this.checkpointState = "idle";
      });
    }
    this.checkpointState = "running";
    this.checkpointer.postMessage("checkpoint");
  }

  /** Stop the worker, waiting (at once) for a checkpoint under way, so its connection's locks are gone. */
  close(): void {
    if (this.checkpointer && this.checkpointerClosed) {
      this.checkpointer.postMessage("close");
      Atomics.wait(new Int32Array(this.checkpointerClosed), 0, 0, CHECKPOINT_CLOSE_WAIT_MS);
    }
    this.checkpointer = undefined;
  }
}

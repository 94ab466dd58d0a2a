// Where pino's lines go: batches handed to sonic-boom (pino's own
// asynchronous writer, which deals with partial writes, EAGAIN and flushing
// at exit). Handing sonic-boom one line at a time costs about 2 us per line:
// each write measures the byte length of everything it already buffers (up
// to 16 KB) to decide whether the line still fits. Lines are collected here
// and handed over as one string when BATCH_CHARS have gathered or
// BATCH_DELAY_MS after the first one, so a busy server writes once per few
// dozen requests and a quiet one still shows each line within a moment
// (throughput).
import { pino, type DestinationStream } from "pino";

/** Characters collected before a batch is handed over at once. */
const BATCH_CHARS = 8192;
/** Longest a line waits for its batch. */
const BATCH_DELAY_MS = 20;

/** What a batch is handed to: sonic-boom's writing surface (a test may pass its own). */
export interface LineSink {
  write(data: string): unknown;
  flush(cb?: (error?: Error) => void): void;
  flushSync(): void;
}

export class BatchedDestination implements DestinationStream {
  private pending: string[] = [];
  private chars = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly handOverLater = () => {
    this.timer = undefined;
    this.handOver();
  };

  constructor(private readonly sink: LineSink) {
    watchExit(this);
  }

  /** At exit: hand over the pending lines and write the sink out synchronously. */
  flushSync(): void {
    if (this.pending.length === 0) return;
    this.handOver();
    try {
      this.sink.flushSync();
    } catch {
      // stdout already gone: nothing left to write to.
    }
  }

  write(line: string): boolean {
    this.pending.push(line);
    this.chars += line.length;
    if (this.chars >= BATCH_CHARS) this.handOver();
    // Unref'd: a pending batch never keeps the process alive (the exit hook writes it).
    else this.timer ??= setTimeout(this.handOverLater, BATCH_DELAY_MS).unref();
    return true;
  }

  /** pino's `logger.flush(cb)`: hand over what is pending, then let sonic-boom write it out. */
  flush(cb?: (error?: Error) => void): void {
    this.handOver();
    this.sink.flush(cb);
  }

  private handOver(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending.length === 0) return;
    const batch = this.pending.length === 1 ? this.pending[0]! : this.pending.join("");
    this.pending = [];
    this.chars = 0;
    this.sink.write(batch);
  }
}

// One exit hook for every destination (tests make many loggers). sonic-boom's
// own exit hook may already have run by then, so each destination writes its
// sink out again after handing over.
const live = new Set<WeakRef<BatchedDestination>>();
function watchExit(destination: BatchedDestination): void {
  if (live.size === 0) process.once("exit", () => live.forEach((ref) => ref.deref()?.flushSync()));
  live.add(new WeakRef(destination));
}

/**
 * stdout (or `fd`) through sonic-boom, fed in batches. sonic-boom writes each
 * batch at once (minLength 0): with a minimum length it would hold a quiet
 * server's lines until some kilobytes had gathered.
 */
export function batchedStdout(fd: number | string = 1): BatchedDestination {
  return new BatchedDestination(pino.destination({ dest: fd, sync: false, minLength: 0 }));
}

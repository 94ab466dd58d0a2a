// The reference server as a development backend (D-REF-SCENARIOS, D-REF-RESET,
// D-REF-STATE): the app loaded
// with a scenario or a user's fixtures, `POST /_reference/reset` putting that
// data back, and `--state FILE` saving everything periodically and on a clean
// stop, and restoring it at start.
//
// Reset and restore swap in a fresh app (createApp) holding the loaded data,
// rather than clearing stores in place: every store, index and timer of the old
// app goes with it, and no group has to remember to clear itself.
import { createApp, type AppHandle, type AppOptions } from "../app.ts";
import { SystemClock, type Cancel, type Clock } from "../platform/clock.ts";
import { statusWord } from "../platform/errors.ts";
import { nextSliceTurn, sliceBudgetSpent, type Sliced } from "../platform/pipeline.ts";
import { captureImage, restoreImage, type StateImage } from "../persistence/image.ts";
import { everyChunkFromPrebuilt, MentionChanges } from "../persistence/changes.ts";
import { CHUNK, fromSections, toSections } from "../persistence/sections.ts";
import { StateFile, type SaveFigures } from "../persistence/state-file.ts";
import { loadScenario, scenarioLabel, type ScenarioChoice } from "./scenario.ts";

export const RESET_PATH = "/_reference/reset";

export interface BackendOptions {
  app?: AppOptions;
  scenario?: ScenarioChoice;
  /** The only x-api-key reset accepts; unset: any key of the loaded accounts. */
  resetKey?: string;
  stateFile?: string;
  /** Periodic snapshot interval, ms (default 5000). */
  stateIntervalMs?: number;
  /** One line per save problem or notable event (default: stderr). */
  log?: (line: string) => void;
}

/**
 * A clock that notes that a timer fired: everything that changes state
 * outside a request (run steps, assistant replies, agent cycles) runs on the
 * clock, so a snapshot is only taken when something may have changed.
 */
class NotingClock implements Clock {
  constructor(
    private readonly inner: Clock,
    private readonly noted: () => void,
  ) {}
  now(): number {
    return this.inner.now();
  }
  schedule(delayMs: number, task: () => unknown): Cancel {
    return this.inner.schedule(delayMs, () => {
      this.noted();
      return task();
    });
  }
}

/** A save under way: its steps, the image it writes, and the prebuilt sections it used. */
interface SaveInFlight {
  work: Sliced<SaveFigures>;
  image: StateImage;
  prebuilt: Map<string, Uint8Array> | undefined;
  captureMs: number;
  done: Promise<SaveFigures | undefined>;
}

export class Backend {
  private current: AppHandle;
  private readonly clock: Clock;
  /**
   * The loaded scenario as serialized sections (the state file's layout):
   * every reset deserializes a fresh copy, and the save after a reset writes
   * these bytes instead of serializing the same posts again.
   */
  private scenario: Map<string, Uint8Array> | undefined;
  /** Sections the next save may write as they are (set by a reset). */
  private prebuilt: Map<string, Uint8Array> | undefined;
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly log: (line: string) => void;
  private readonly state: StateFile | undefined;
  private readonly changes = new MentionChanges();
  private closed = false;
  /** The periodic save being written in slices, if one is. */
  private inFlight: SaveInFlight | undefined;
  /** Where the data came from at start: the state file or the scenario. */
  readonly origin: string;
  lastSave: SaveFigures | undefined;

  constructor(private readonly options: BackendOptions = {}) {
    this.log = options.log ?? ((line) => console.error(line));
    this.clock = new NotingClock(options.app?.clock ?? new SystemClock(), () => (this.dirty = true));
    const file = options.stateFile;
    // A damaged or foreign file throws one line here: the server refuses to start rather than reset silently.
    const opened = file ? StateFile.open(file) : undefined;
    this.state = opened?.state;
    if (opened?.image) {
      this.current = this.fresh(opened.image);
      // A file cut in chunks of another size is written whole by the first save.
      if (opened.state.chunkRecords === CHUNK) this.changes.markSaved(opened.image);
      this.origin = `state file ${file}`;
    } else {
      this.current = this.fresh();
      loadScenario(this.current.services, options.scenario ?? {});
      this.scenario = toSections(captureImage(this.current.services));
      this.origin = scenarioLabel(options.scenario ?? {});
      if (file) this.save();
    }
    if (file) {
      this.timer = setInterval(() => this.autosave(), options.stateIntervalMs ?? 5000);
      this.timer.unref();
    }
  }

  /** The app serving requests now (a reset replaces it). */
  get handle(): AppHandle {
    return this.current;
  }

  /** What Node's server calls: the reset route, else the current app. */
  readonly fetch = (request: Request, env?: unknown): Response | Promise<Response> => {
    const method = request.method;
    if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS") {
      this.dirty = true;
      if (method === "POST" && request.url.endsWith(RESET_PATH) && new URL(request.url).pathname === RESET_PATH)
        return this.answerReset(request);
    }
    return this.current.app.fetch(request, env);
  };

  /** For tests: a request to the backend without a socket. */
  request(path: string, init?: RequestInit): Promise<Response> {
    return Promise.resolve(this.fetch(new Request(`http://localhost${path}`, init)));
  }

  /** Put the loaded scenario back (fresh app, fresh copy of its data). */
  reset(): void {
    if (!this.scenario) {
      // Started from a state file: build the scenario once, on the first reset.
      const built = this.fresh();
      loadScenario(built.services, this.options.scenario ?? {});
      this.scenario = toSections(captureImage(built.services));
      built.services.trackingAgents.stop();
    }
    const image = fromSections(this.scenario, this.clock.now(), "scenario");
    const next = this.fresh(image);
    this.current.services.trackingAgents.stop();
    // A save of the app being replaced is dropped (rolled back): the next save writes every chunk anyway.
    this.abandonSave();
    this.current = next;
    // The scenario is the baseline: what changes after the reset is known chunk by chunk.
    this.changes.markSaved(image);
    // Only the mention chunks: the small sections are written fresh (the restore moved agents' next runs).
    this.prebuilt = new Map([...this.scenario].filter(([name]) => name.startsWith("mentions")));
    this.dirty = true;
  }

  /**
   * Write the state file now, at once (no-op without --state): a save under
   * way is finished first, then what changed since it began is written.
   */
  save(): SaveFigures | undefined {
    if (!this.state) return undefined;
    if (this.inFlight) this.finishNow(this.inFlight);
    const saving = this.begin();
    if (saving) this.finishNow(saving);
    this.state.checkpointNow();
    return this.lastSave;
  }

  /**
   * Write the state file in slices: the loop serves requests between the
   * pieces (one mention chunk each). Requests and clock tasks during it mark
   * the state dirty, and the pool chunks they change are newer than the
   * image, so the next save writes them (changes.ts). One save at a time: a
   * call while one is under way gets that one.
   */
  saveSliced(): Promise<SaveFigures | undefined> {
    if (!this.state) return Promise.resolve(undefined);
    if (this.inFlight) return this.inFlight.done;
    const saving = this.begin();
    return saving ? saving.done : Promise.resolve(this.lastSave);
  }

  /** Stop the periodic save, save once more, stop the timers (once; later calls do nothing). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.save();
    this.state?.close();
    this.current.services.trackingAgents.stop();
  }

  /** Whether a sliced save is under way (tests, benches). */
  get saving(): boolean {
    return this.inFlight !== undefined;
  }

  private autosave(): void {
    if (this.inFlight) return; // the one under way goes on; what changes meanwhile keeps `dirty` set
    // Runs in flight change state between steps too: keep saving until none is left.
    const busy = this.current.pipeline.running > 0;
    if (!this.dirty && !busy) return;
    this.dirty = busy;
    void this.saveSliced();
  }

  /** Take the image (one turn: consistent) and start its save; the first piece runs now. */
  private begin(): SaveInFlight | undefined {
    const state = this.state!;
    let work: Sliced<SaveFigures>;
    let image: StateImage;
    const prebuilt = this.prebuilt;
    const started = performance.now();
    try {
      image = captureImage(this.current.services);
      const plan = this.changes.plan(this.current.services, image);
      // After a reset every chunk is written, the unchanged ones from the scenario's bytes.
      const after = prebuilt ? everyChunkFromPrebuilt(plan, image, prebuilt) : { plan, prebuilt: undefined };
      work = state.saveSteps(image, after.plan, after.prebuilt);
    } catch (error) {
      this.failed(error);
      return undefined;
    }
    let settle!: (figures: SaveFigures | undefined) => void;
    const saving: SaveInFlight = {
      work,
      image,
      prebuilt,
      captureMs: performance.now() - started,
      done: new Promise((resolve) => (settle = resolve)),
    };
    this.inFlight = saving;
    void this.drive(saving).then(settle, () => settle(undefined));
    return saving;
  }

  /** Run the save's pieces with event-loop turns between them, in the pipeline's shared slice budget. */
  private async drive(saving: SaveInFlight): Promise<SaveFigures | undefined> {
    for (;;) {
      // Finished at once by save() or dropped by a reset meanwhile: nothing left to do here.
      if (this.inFlight !== saving) return this.lastSave;
      let step: IteratorResult<unknown, SaveFigures>;
      try {
        step = saving.work.next();
      } catch (error) {
        this.inFlight = undefined;
        this.failed(error);
        return undefined;
      }
      if (step.done) {
        this.state!.checkpointAfter(step.value.bytes);
        return this.saved(saving, step.value);
      }
      if (sliceBudgetSpent()) await nextSliceTurn();
    }
  }

  /** Run the rest of a save's pieces now (a clean stop, a test's save()). */
  private finishNow(saving: SaveInFlight): void {
    if (this.inFlight !== saving) return; // it ended in its first turn
    try {
      for (;;) {
        const step = saving.work.next();
        if (step.done) {
          this.saved(saving, step.value);
          return;
        }
      }
    } catch (error) {
      this.inFlight = undefined;
      this.failed(error);
    }
  }

  private saved(saving: SaveInFlight, figures: SaveFigures): SaveFigures {
    this.inFlight = undefined;
    this.lastSave = { ...figures, captureMs: saving.captureMs };
    this.changes.markSaved(saving.image);
    if (this.prebuilt === saving.prebuilt) this.prebuilt = undefined;
    return this.lastSave;
  }

  private abandonSave(): void {
    const saving = this.inFlight;
    if (!saving) return;
    this.inFlight = undefined;
    saving.work.return(undefined as never);
  }

  private failed(error: unknown): void {
    // The transaction rolled back: the previous save is intact. Keep serving, try again next time, and say why.
    this.dirty = true;
    this.log(`state: could not save to ${this.state!.file}: ${(error as Error).message}`);
  }

  private fresh(image?: StateImage): AppHandle {
    const handle = createApp({ ...this.options.app, clock: this.clock, accounts: false });
    if (image) restoreImage(handle.services, image);
    return handle;
  }

  private async answerReset(request: Request): Promise<Response> {
    const key = request.headers.get("x-api-key") ?? "";
    const allowed = this.options.resetKey
      ? key === this.options.resetKey
      : key !== "" && this.current.directory.resolve(key) !== undefined;
    if (!allowed) {
      const detail = this.options.resetKey
        ? "Send the server's RESET_KEY as x-api-key."
        : "Send an API key of the loaded accounts as x-api-key.";
      return Response.json(
        { status: statusWord(401), error_code: "unauthorized", detail, transient: false },
        { status: 401 },
      );
    }
    this.reset();
    return Response.json({
      status: "success",
      data: {
        scenario: scenarioLabel(this.options.scenario ?? {}),
        reset_at: new Date(this.clock.now()).toISOString(),
      },
    });
  }
}

// The reference server as a development backend (issue 17): the app loaded
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
import { captureImage, restoreImage, type StateImage } from "../persistence/image.ts";
import { everyChunkFromPrebuilt, MentionChanges } from "../persistence/changes.ts";
import { fromSections, StateFile, toSections, type SaveFigures } from "../persistence/state-file.ts";
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
      this.changes.markSaved(opened.image);
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
      if (method === "POST" && request.url.endsWith(RESET_PATH) && new URL(request.url).pathname === RESET_PATH) return this.answerReset(request);
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
    this.current = next;
    // The scenario is the baseline: what changes after the reset is known chunk by chunk.
    this.changes.markSaved(image);
    // Only the mention chunks: the small sections are written fresh (the restore moved agents' next runs).
    this.prebuilt = new Map([...this.scenario].filter(([name]) => name.startsWith("mentions")));
    this.dirty = true;
  }

  /** Write the state file now (no-op without --state). */
  save(): SaveFigures | undefined {
    if (!this.state) return undefined;
    try {
      const image = captureImage(this.current.services);
      const plan = this.changes.plan(this.current.services, image);
      // After a reset every chunk is written, the unchanged ones from the scenario's bytes.
      const after = this.prebuilt ? everyChunkFromPrebuilt(plan, image, this.prebuilt) : { plan, prebuilt: undefined };
      this.lastSave = this.state.save(image, after.plan, after.prebuilt);
      this.changes.markSaved(image);
      this.prebuilt = undefined;
    } catch (error) {
      // The transaction rolled back: the previous save is intact. Keep serving and say why.
      this.log(`state: could not save to ${this.state.file}: ${(error as Error).message}`);
    }
    return this.lastSave;
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

  private autosave(): void {
    // Runs in flight change state between steps too: keep saving until none is left.
    const busy = this.current.pipeline.running > 0;
    if (!this.dirty && !busy) return;
    this.dirty = busy;
    this.save();
  }

  private fresh(image?: StateImage): AppHandle {
    const handle = createApp({ ...this.options.app, clock: this.clock, accounts: false });
    if (image) restoreImage(handle.services, image);
    return handle;
  }

  private async answerReset(request: Request): Promise<Response> {
    const key = request.headers.get("x-api-key") ?? "";
    const allowed = this.options.resetKey ? key === this.options.resetKey : key !== "" && this.current.directory.resolve(key) !== undefined;
    if (!allowed) {
      const detail = this.options.resetKey ? "Send the server's RESET_KEY as x-api-key." : "Send an API key of the loaded accounts as x-api-key.";
      return Response.json({ status: statusWord(401), error_code: "unauthorized", detail, transient: false }, { status: 401 });
    }
    this.reset();
    return Response.json({ status: "success", data: { scenario: scenarioLabel(this.options.scenario ?? {}), reset_at: new Date(this.clock.now()).toISOString() } });
  }
}

// What the server holds when it starts or is reset: a named scenario
// (`empty`, `demo`, `large`) or a user's own fixture folder (`--fixtures`).
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
import type { ScenarioName } from "../config.ts";
import type { Services } from "../compose.ts";
import { DEMO_FIXTURES, loadAccounts, seedDatasets } from "../fixtures/load.ts";
import { checkFixtureDir } from "../fixtures/check.ts";
import { buildLarge } from "./large.ts";

export interface ScenarioChoice {
  scenario?: ScenarioName;
  /** A folder in the fixture format; when set, `scenario` is not used. */
  fixturesDir?: string;
}

/** The folder URL of a user's fixtures (a path relative to the working directory). */
export function fixturesUrl(dir: string): URL {
  return pathToFileURL(resolve(dir) + "/");
}

/** Load the chosen data into empty services; a bad fixture folder throws one line per problem. */
export function loadScenario(services: Services, choice: ScenarioChoice): void {
  if (choice.fixturesDir) {
    const dir = fixturesUrl(choice.fixturesDir);
    const problems = checkFixtureDir(dir);
    if (problems.length) throw new FixtureError(choice.fixturesDir, problems);
    loadAccounts(services, dir);
    seedDatasets(services, dir);
    return;
  }
  const scenario = choice.scenario ?? "demo";
  loadAccounts(services, DEMO_FIXTURES);
  if (scenario === "large") buildLarge(services);
  if (scenario !== "empty") seedDatasets(services, DEMO_FIXTURES);
}

export class FixtureError extends Error {
  constructor(
    readonly dir: string,
    readonly problems: string[],
  ) {
    super(`fixtures in ${dir}:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.name = "FixtureError";
  }
}

/** Human name of what was loaded (printed at start, answered by reset). */
export function scenarioLabel(choice: ScenarioChoice): string {
  return choice.fixturesDir ? `fixtures ${choice.fixturesDir}` : (choice.scenario ?? "demo");
}

// The settings checked before anything is sent: every problem is a usage
// error (one line, exit 2), so a run never starts half-configured.
import { resolve } from "node:path";
import { Contract } from "../contract.ts";
import { DeviationsError, loadDeviations } from "../deviations.ts";
import { UsageError, checkBaseUrl } from "../preflight.ts";
import { allChecks } from "../registry.ts";
import { selectedIds } from "./selection.ts";
import type { Settings } from "../types.ts";

/** Throws UsageError for the first problem; loads the deviations file into the settings. */
export function validateSettings(settings: Settings, exclude?: string[]): void {
  if (!settings.baseUrl) throw new UsageError("--base-url (or SLK_BASE_URL) is required");
  if (!settings.keys.main) throw new UsageError("--api-key (or SLK_API_KEY) is required");
  checkBaseUrl(settings.baseUrl);
  if (settings.budgetUsd !== undefined && !(settings.budgetUsd >= 0))
    throw new UsageError("--budget must be a non-negative number of US dollars, or none");
  if (!Number.isInteger(settings.seed)) throw new UsageError("--seed must be an integer");
  if (!((settings.requestTimeoutMs ?? 0) > 0))
    throw new UsageError("--request-timeout must be a positive number of seconds");
  if (settings.minCoverage !== undefined && !(settings.minCoverage >= 0 && settings.minCoverage <= 100))
    throw new UsageError("--min-coverage must be a percentage between 0 and 100");
  settings.only = selectedIds(settings.only, exclude);
  if (settings.deviationsFile) settings.deviations = deviationsOf(settings.deviationsFile);
}

function deviationsOf(file: string): Settings["deviations"] {
  try {
    return loadDeviations(
      resolve(file),
      allChecks.map((c) => c.id),
    );
  } catch (e) {
    if (e instanceof DeviationsError) throw new UsageError(e.message);
    throw e;
  }
}

/** The contract the run checks against (scoped by --operations); a usage error when it cannot load or is empty. */
export function loadContract(settings: Settings): Contract {
  let contract: Contract;
  try {
    contract = Contract.load(settings.contractPath, settings.operations);
  } catch (e) {
    throw new UsageError(
      `cannot load the contract ${settings.contractPath ?? "(bundled)"}: ${(e as Error).message.split("\n")[0]}`,
    );
  }
  if (!contract.operations.length)
    throw new UsageError(`--operations ${settings.operations?.join(" ")} matches no operation of the contract`);
  return contract;
}

// The state image as the file's named sections, each V8-serialized:
// directory, ledger, tables, profiles, and per account its pattern
// assignments and its mention pool cut into chunks of CHUNK records. A save
// rewrites only the chunks that changed (changes.ts).
import { deserialize, serialize } from "node:v8";
import { IMAGE_FORMAT, type StateImage } from "./image.ts";

/**
 * Records per mention chunk: one chunk is one piece of a sliced save (about
 * 2-3 ms of serializing on an idle core), and a run landing rewrites one or
 * a few. Kept in the file's meta: a file cut otherwise (the first state files
 * had 10,000) is written whole by its first save.
 */
export const CHUNK = 1_000;
/** Joins the parts of a section name (kind, account id, chunk number). */
export const SEP = "\u0000";
export const chunkName = (accountId: string, chunk: number) =>
  `mentions${SEP}${accountId}${SEP}${String(chunk).padStart(6, "0")}`;

/** The image as the file's sections (names in the file's order), each serialized. */
export function toSections(image: StateImage): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  out.set("directory", serialize(image.directory));
  out.set("ledger", serialize(image.ledger));
  out.set("tables", serialize(image.tables));
  out.set("profiles", serialize(image.profiles));
  for (const { accountId, records, assignments } of image.mentions) {
    out.set(`assignments${SEP}${accountId}`, serialize(assignments));
    for (let c = 0; c * CHUNK < records.length; c++)
      out.set(chunkName(accountId, c), serialize(records.slice(c * CHUNK, (c + 1) * CHUNK)));
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
    } else if (kind === "assignments")
      assignments.set(accountId!, value as StateImage["mentions"][number]["assignments"]);
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
    mentions: [...accounts].map((accountId) => ({
      accountId,
      records: mentions.get(accountId) ?? [],
      assignments: assignments.get(accountId) ?? [],
    })),
  };
}

// The custom parameter extractor: each kind of instruction it understands,
// answered from the post's own text, typed as `value_type` says, and the same
// answer every time for the same instructions and post.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileInstructions, parseAmount } from "../src/domain/custom-parameters/extractor.ts";
import { classify, type ValueType } from "../src/domain/custom-parameters/instructions.ts";
import { searchPosts, SOURCES } from "../src/simulators/provider.ts";

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
console.log(`custom parameter extractor properties: fast-check seed ${SEED} (rerun with FC_SEED=${SEED})`);
const RUNS = { seed: SEED, numRuns: 200 };

const en = (text: string, title = "") => ({ title, text, language: "en" });
const value = (instructions: string, type: ValueType, post: { title: string; text: string; language: string }) => {
  const r = compileInstructions(instructions, type).extract(post);
  if (!r.ok) throw new Error(`extraction failed: ${r.reason}`);
  return r.value;
};

const BOUGHT = "I paid $4.99 for a carton of oat milk from Oatly. Would you switch to Silk?";
const REGRET = "Oat milk was a total disappointment, way too expensive. I will not buy it again.";

describe("custom parameter extractor", () => {
  it("reads prices with wink-nlp MONEY entities and the written forms it misses", () => {
    const price = "If the author states what they paid for a carton, return the price in US dollars.";
    expect(value(price, "number", en(BOUGHT))).toBe(4.99);
    expect(value(price, "number", en("It was 3 dollars at Costco and $5 at Whole Foods."))).toBe(3);
    expect(
      value("What is the highest price quoted?", "number", en("It was 3 dollars at Costco and $5 at Whole Foods.")),
    ).toBe(5);
    expect(value(price, "number", en("Hier kostet es 4,50 € im Laden."))).toBe(4.5);
    expect(value(price, "number", en(REGRET))).toBeNull();
    expect(value(price, "string", en(BOUGHT))).toBe("$4.99");
    expect(value("Does the author complain that it is too expensive?", "boolean", en(REGRET))).toBe(true);
    expect(value("Does the author complain that it is too expensive?", "boolean", en(BOUGHT))).toBe(false);
    expect(parseAmount("4,50 €")).toBe(4.5);
  });

  it("names brands, leaving out the brand the instructions compare against", () => {
    const competing = "Name the competing brand the author compares against Oatly, if any.";
    expect(value(competing, "string", en(BOUGHT))).toBe("Silk");
    expect(value("Which brands are mentioned?", "string", en(BOUGHT))).toBe("Oatly, Silk");
    expect(value("How many brands are mentioned?", "number", en(BOUGHT))).toBe(2);
    expect(value("Does the post mention Oatly?", "boolean", en(BOUGHT))).toBe(true);
    expect(value("Does the post mention Oatly?", "boolean", en(REGRET))).toBe(false);
    expect(value("Which brands are mentioned?", "string", en(REGRET))).toBeNull();
  });

  it("answers yes/no criteria from lemmas, with their negation", () => {
    const intent =
      "Answer true when the author says they bought, plan to buy or are about to switch to the oat milk brand being discussed; otherwise false.";
    expect(classify(intent, "boolean")).toBe("criteria");
    expect(value(intent, "boolean", en("I bought two cartons yesterday."))).toBe(true);
    expect(value(intent, "boolean", en(REGRET))).toBe(false);
    expect(value(intent, "boolean", en("Here is what it looks like after a month."))).toBe(false);
  });

  it("reports sentiment overall and toward a named brand", () => {
    expect(value("What is the overall sentiment of the post?", "string", en(REGRET))).toBe("negative");
    expect(value("What is the overall sentiment of the post?", "string", en("I love it, amazing quality."))).toBe(
      "positive",
    );
    expect(value("Sentiment score of the post", "number", en(REGRET))).toBeLessThan(0);
    const aboutOatly = "Is the author negative about Oatly?";
    expect(value(aboutOatly, "boolean", en("Oatly ruined it, so frustrating. Silk is amazing."))).toBe(true);
    expect(value(aboutOatly, "boolean", en("Silk is awful."))).toBeNull();
  });

  it("finds questions, language, products and emotions", () => {
    expect(value("What question does the author ask?", "string", en(BOUGHT))).toBe("Would you switch to Silk?");
    expect(value("How many questions does the author ask?", "number", en(REGRET))).toBe(0);
    expect(
      value("Does the author ask a question?", "boolean", { title: "", text: "¿Vale la pena?", language: "es" }),
    ).toBe(true);
    expect(
      value("Which language is the post written in?", "string", { title: "", text: "Me encanta.", language: "es-MX" }),
    ).toBe("es");
    expect(
      value("Is the post written in English?", "boolean", { title: "", text: "Me encanta.", language: "es" }),
    ).toBe(false);
    expect(
      value(
        "Which product is reviewed?",
        "string",
        en("Tried oat milk this week. The oat milk foams well.", "My honest take on oat milk"),
      ),
    ).toBe("oat milk");
    expect(
      value(
        "What is the dominant emotion?",
        "string",
        en("I hate this, it is the worst scam, terrible and ridiculous."),
      ),
    ).toBe("anger");
  });

  it("reports posts it cannot read as failures, never as values", () => {
    const sentiment = compileInstructions("What is the overall sentiment?", "string");
    expect(sentiment.extract({ title: "", text: "Me encanta, la calidad es excelente.", language: "es" }).ok).toBe(
      false,
    );
    expect(sentiment.extract({ title: "", text: "🙂 🙂 123", language: "en" }).ok).toBe(false);
    // Brands and prices are read in any language.
    expect(
      compileInstructions("Which brands are mentioned?", "string").extract({
        title: "",
        text: "Probé Oatly.",
        language: "es",
      }),
    ).toEqual({ ok: true, value: "Oatly" });
  });

  it("always answers with the value type (or null), deterministically, for provider posts", () => {
    const instructions = [
      "What price does the author quote?",
      "Which brands does the post mention?",
      "Name the competing brand compared against Oatly.",
      "Does the author ask a question?",
      "What is the sentiment of the post?",
      "Which product is discussed?",
      "Does the author recommend it?",
      "Which sentence talks about the quality?",
      "What language is the post in?",
      "What is the dominant emotion?",
      "How many likes does the post have?",
      "A number from the post",
    ];
    const typeOf: Record<ValueType, string> = { string: "string", number: "number", boolean: "boolean" };
    fc.assert(
      fc.property(
        fc.constantFrom(...instructions),
        fc.constantFrom<ValueType>("string", "number", "boolean"),
        fc.constantFrom(...SOURCES),
        fc.constantFrom("oat milk", "running shoes", "notion templates"),
        fc.nat(30),
        (text, type, source, query, i) => {
          const post = searchPosts({
            source,
            query,
            count: 31,
            window: null,
            country: "US",
            language: null,
            numComments: 0,
          })[i];
          fc.pre(post !== undefined);
          const input = { ...post!, metrics: { views: 10, likes: 3, comments: 1, shares: 0 } };
          const first = compileInstructions(text, type).extract(input);
          const again = compileInstructions(text, type).extract(input);
          expect(again).toEqual(first);
          if (first.ok && first.value !== null) expect(typeof first.value).toBe(typeOf[type]);
          if (first.ok && typeof first.value === "number") expect(Number.isFinite(first.value)).toBe(true);
        },
      ),
      RUNS,
    );
  });
});

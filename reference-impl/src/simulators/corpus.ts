// Vocabulary the synthetic provider writes posts from. Sentences carry real
// opinion words, so the sentiment lexicon and the tokenizer have something to
// read; nothing about the analysis is drawn at random.
export const BRANDS = [
  "Oatly",
  "Alpro",
  "Starbucks",
  "Nike",
  "Adidas",
  "Apple",
  "Samsung",
  "Google",
  "Tesla",
  "Sephora",
  "Glossier",
  "Patagonia",
  "Trader Joe's",
  "Costco",
  "Whole Foods",
  "IKEA",
  "Spotify",
  "Netflix",
  "Notion",
  "Figma",
  "Canva",
  "Shopify",
  "Amazon",
  "Lululemon",
  "Dyson",
  "Peloton",
  "Chobani",
  "Silk",
  "Califia",
  "Danone",
];

type Lang = "en" | "es" | "pt" | "de" | "fr";

interface LangCorpus {
  positive: string[];
  negative: string[];
  neutral: string[];
  questions: string[];
  ctas: string[];
  titles: string[];
  comments: string[];
}

// `{q}` is the query, `{b}` a brand.
export const CORPUS: Record<Lang, LangCorpus> = {
  en: {
    positive: [
      "Honestly {q} is amazing and I love how smooth it feels.",
      "Tried {q} from {b} this week and it was a great surprise.",
      "{q} has been a fantastic upgrade to my morning routine.",
      "So happy I switched to {q}, the quality is excellent.",
      "The new {q} from {b} is brilliant, easily the best I have had.",
      "I was skeptical but {q} won me over, really impressive.",
    ],
    negative: [
      "{q} was a total disappointment, way too expensive for what you get.",
      "Terrible experience with {q} from {b}, it broke after two days.",
      "Not impressed with {q}, the taste is awful and the price is ridiculous.",
      "Worst purchase this year: {q}. I want a refund.",
      "{b} ruined {q} with the new formula, so frustrating.",
      "I hate how {q} is marketed, it feels like a scam.",
    ],
    neutral: [
      "Comparing {q} with what {b} sells at the store.",
      "Here is what {q} looks like after a month of use.",
      "{q} is now available in more stores across the country.",
      "Breaking down the ingredients of {q} from {b}.",
      "My notes on {q}: price, availability and packaging.",
      "Three things to know before buying {q}.",
    ],
    questions: [
      "Has anyone else tried {q}?",
      "Is {q} worth the money?",
      "Would you switch to {q} from {b}?",
      "What do you think about {q}?",
    ],
    ctas: [
      "Check out the full review on my channel.",
      "Subscribe for more honest reviews.",
      "Link in bio for the discount code.",
      "Follow for part two.",
      "Comment below with your favourite.",
    ],
    titles: [
      "My honest take on {q}",
      "{q}: worth the hype?",
      "I tried {q} for 30 days",
      "{q} review",
      "Why everyone is talking about {q}",
    ],
    comments: [
      "Totally agree, love it!",
      "Mine broke too, awful.",
      "Where did you buy it?",
      "Great review, thanks!",
      "Not worth the price imo.",
      "This is so helpful.",
      "I prefer the original.",
      "Can you compare it with {b}?",
    ],
  },
  es: {
    positive: ["Me encanta {q}, la calidad es excelente.", "Probé {q} de {b} y fue una gran sorpresa."],
    negative: ["{q} fue una decepción total, demasiado caro.", "Muy mala experiencia con {q} de {b}."],
    neutral: ["Comparando {q} con lo que vende {b}.", "Así se ve {q} después de un mes."],
    questions: ["¿Alguien más ha probado {q}?", "¿Vale la pena {q}?"],
    ctas: ["Sígueme para la segunda parte.", "Enlace en la bio."],
    titles: ["Mi opinión sobre {q}", "{q}: ¿vale la pena?"],
    comments: ["¡Totalmente de acuerdo!", "¿Dónde lo compraste?", "Muy útil, gracias."],
  },
  pt: {
    positive: ["Adorei {q}, a qualidade é ótima.", "Experimentei {q} da {b} e gostei muito."],
    negative: ["{q} foi uma decepção, caro demais.", "Experiência horrível com {q} da {b}."],
    neutral: ["Comparando {q} com o que a {b} vende.", "Assim fica {q} depois de um mês."],
    questions: ["Alguém já testou {q}?", "Vale a pena {q}?"],
    ctas: ["Me segue para a parte dois.", "Link na bio."],
    titles: ["Minha opinião sobre {q}", "{q}: vale a pena?"],
    comments: ["Concordo totalmente!", "Onde você comprou?", "Muito útil, obrigado."],
  },
  de: {
    positive: ["Ich liebe {q}, die Qualität ist super.", "Habe {q} von {b} probiert und war begeistert."],
    negative: ["{q} war eine echte Enttäuschung, viel zu teuer.", "Schlechte Erfahrung mit {q} von {b}."],
    neutral: ["{q} im Vergleich zu {b}.", "So sieht {q} nach einem Monat aus."],
    questions: ["Hat jemand {q} schon probiert?", "Lohnt sich {q}?"],
    ctas: ["Folgt mir für Teil zwei.", "Link in der Bio."],
    titles: ["Meine Meinung zu {q}", "{q}: lohnt es sich?"],
    comments: ["Stimme total zu!", "Wo hast du es gekauft?", "Sehr hilfreich, danke."],
  },
  fr: {
    positive: ["J'adore {q}, la qualité est excellente.", "J'ai testé {q} de {b} et c'était top."],
    negative: ["{q} a été une vraie déception, trop cher.", "Mauvaise expérience avec {q} de {b}."],
    neutral: ["Comparaison entre {q} et {b}.", "Voici {q} après un mois d'utilisation."],
    questions: ["Quelqu'un a déjà essayé {q} ?", "Est-ce que {q} vaut le coup ?"],
    ctas: ["Abonnez-vous pour la suite.", "Lien dans la bio."],
    titles: ["Mon avis sur {q}", "{q} : ça vaut le coup ?"],
    comments: ["Tout à fait d'accord !", "Tu l'as acheté où ?", "Très utile, merci."],
  },
};

export const LANGS: readonly (readonly [Lang, number])[] = [
  ["en", 80],
  ["es", 8],
  ["pt", 5],
  ["de", 4],
  ["fr", 3],
];

export function corpusFor(language: string): { lang: Lang; corpus: LangCorpus } {
  const primary = language.split("-")[0]!.toLowerCase();
  const lang = (primary in CORPUS ? primary : "en") as Lang;
  return { lang, corpus: CORPUS[lang] };
}

export const FIRST_NAMES = [
  "Maya",
  "Leo",
  "Priya",
  "Jonas",
  "Sofia",
  "Omar",
  "Chloe",
  "Kenji",
  "Ava",
  "Mateo",
  "Zara",
  "Noah",
  "Lena",
  "Ethan",
  "Ines",
  "Ravi",
];
export const LAST_NAMES = [
  "Chen",
  "Garcia",
  "Müller",
  "Okafor",
  "Rossi",
  "Kim",
  "Silva",
  "Novak",
  "Patel",
  "Dubois",
  "Larsen",
  "Haddad",
];
export const HEADLINES = [
  "Food blogger",
  "Product reviewer",
  "Barista",
  "Nutrition coach",
  "Marketing lead",
  "Tech enthusiast",
  "Home cook",
  "Founder",
];

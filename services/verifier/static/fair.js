/*
 * sahra-fair-v1 in the browser: an independent implementation of docs/fairness.md
 * (PF-FAIR-1..7, PF-AMB-12, PF-AMB-2, PF-CUT-5, BK-DEAL-6) on top of WebCrypto, plus
 * `rederive`, which re-derives every deal of a deal record and compares it with the
 * events the server recorded, and `rederiveRummy`, the same for a rummy record's rounds
 * (docs/deal-format.md 10.2: the deal only; the play is the server's check), and
 * `rederiveBunco`, a Bunco record's round-1 seating and every die (10.3: the dice only; the
 * scoring and the movement are the server's check), and `rederiveDice`, each roll of the
 * dice tool (10.4: its commitment, the phone's seed and its three dice). It shares no code
 * with the server (engine/fair.py): a player can check a deal without trusting the server.
 *
 * A classic script: in a page it defines `window.SahraFair`; under Node (tests) it is
 * `module.exports`. Everything that hashes is async (WebCrypto is).
 */
(function (root, factory) {
  "use strict";
  const api = factory(root);
  if (typeof module === "object" && module && module.exports) {
    module.exports = api;
  } else {
    root.SahraFair = api;
  }
})(typeof globalThis !== "undefined" ? globalThis : this, function (root) {
  "use strict";

  const ALGORITHM = "sahra-fair-v1";
  const SPAN = 4294967296; // 2^32
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const SUITS = ["C", "D", "H", "S"]; // canonical order ♣ ♦ ♥ ♠
  const HAND = 18; // BK-DEAL-6: 18 each, then the 19th to the starter
  const AUTOCUT_POSITIONS = 105; // PF-AMB-2
  const ASCII = new TextEncoder();

  function subtle() {
    const c = root.crypto;
    if (!c || !c.subtle) {
      throw new Error("WebCrypto (crypto.subtle) is not available in this browser");
    }
    return c.subtle;
  }

  // --- bytes and text ----------------------------------------------------------------

  function toHex(bytes) {
    const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    let out = "";
    for (const b of view) out += b.toString(16).padStart(2, "0");
    return out;
  }

  /** A secret written as 64 hex characters (either case) → its 32 bytes. */
  function parseSecret(text) {
    if (typeof text !== "string" || !/^[0-9a-fA-F]{64}$/.test(text)) {
      throw new Error("a secret is 64 hex characters (32 bytes)");
    }
    const out = new Uint8Array(32);
    for (let i = 0; i < 32; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
    return out;
  }

  function isSeed(seed) {
    return typeof seed === "string" && seed.length <= 64 && /^[\x20-\x7e]*$/.test(seed);
  }

  function ascii(text) {
    if (!/^[\x00-\x7f]*$/.test(text)) throw new Error("not ASCII: " + text);
    return ASCII.encode(text);
  }

  async function sha256Hex(data) {
    const bytes = typeof data === "string" ? ascii(data) : data;
    return toHex(await subtle().digest("SHA-256", bytes));
  }

  /** C = lowercase hex SHA-256(S) (PF-AMB-12 b). */
  async function commitment(secret) {
    return sha256Hex(secret);
  }

  /** E = lowercase hex SHA-256 of the seats' seeds in seat order joined by "\n" (h). */
  async function entropy(seeds) {
    if (!Array.isArray(seeds)) throw new Error("client seeds are a list, one per seat");
    seeds.forEach((seed, i) => {
      if (!isSeed(seed)) {
        throw new Error("the client seed of seat " + (i + 1) + " is not 0-64 printable ASCII");
      }
    });
    return sha256Hex(seeds.join("\n"));
  }

  // --- the word stream (section 3) ----------------------------------------------------

  function blockMessage(label, e, i) {
    return label + ":" + e + ":" + String(i);
  }

  async function hmacKey(secret) {
    return subtle().importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ]);
  }

  /** Block i of a stream as eight unsigned 32-bit big-endian words. */
  async function blockWords(key, label, e, i) {
    const mac = await subtle().sign("HMAC", key, ascii(blockMessage(label, e, i)));
    const view = new DataView(mac);
    const words = [];
    for (let k = 0; k < 8; k++) words.push(view.getUint32(4 * k, false));
    return words;
  }

  class Stream {
    constructor(key, label, e) {
      this.key = key;
      this.label = label;
      this.e = e;
      this.block = 0;
      this.words = [];
    }

    static async open(secret, label, e) {
      return new Stream(await hmacKey(secret), label, e);
    }

    async word() {
      if (this.words.length === 0) {
        this.words = await blockWords(this.key, this.label, this.e, this.block);
        this.block += 1;
      }
      return this.words.shift();
    }

    /** uniform[0, n) by rejection sampling (section 4): a rejected word is lost. */
    async uniform(n) {
      if (!Number.isInteger(n) || n < 1 || n > SPAN) throw new Error("uniform(n): bad n " + n);
      const limit = Math.floor(SPAN / n) * n;
      for (;;) {
        const w = await this.word();
        if (w < limit) return w % n;
      }
    }
  }

  /** Fisher–Yates from the last index down; index 0 is the top (section 5). */
  async function shuffle(items, secret, label, e) {
    const out = items.slice();
    const stream = await Stream.open(secret, label, e);
    for (let i = out.length - 1; i >= 1; i--) {
      const j = await stream.uniform(i + 1);
      const t = out[i];
      out[i] = out[j];
      out[j] = t;
    }
    return out;
  }

  // --- cards ----------------------------------------------------------------------------

  /** The 106 Banakil identities in canonical order (PF-AMB-12 f): "AC#1" … "KS#2", JKs. */
  function canonicalDeck() {
    const deck = [];
    for (const copy of [1, 2]) {
      for (const suit of SUITS) for (const rank of RANKS) deck.push(rank + suit + "#" + copy);
    }
    deck.push("JK#1", "JK#2");
    return deck;
  }

  function face(card) {
    return String(card).split("#")[0];
  }

  /** Faces (top first) → identities: the first "7H" is "7H#1", the second "7H#2". */
  function stackDeck(faces) {
    const seen = {};
    const out = faces.map((text) => {
      const f = face(String(text).trim().toUpperCase());
      seen[f] = (seen[f] || 0) + 1;
      return f + "#" + seen[f];
    });
    const want = canonicalDeck().slice().sort();
    if (JSON.stringify(out.slice().sort()) !== JSON.stringify(want)) {
      throw new Error("a stacked deck must hold the 106 cards exactly once each");
    }
    return out;
  }

  async function dealDeck(secret, e) {
    return shuffle(canonicalDeck(), secret, "deal", e);
  }

  /** The k-th reshuffle: input = the ground without its top card, bottom to top. */
  async function reshuffle(groundBottomToTop, secret, e, k) {
    if (!Number.isInteger(k) || k < 1) throw new Error("reshuffles are numbered from 1");
    return shuffle(groundBottomToTop, secret, "reshuffle:" + k, e);
  }

  async function firstDraw(secret, e, seats) {
    return 1 + (await (await Stream.open(secret, "first", e)).uniform(seats));
  }

  async function autoCut(secret, e) {
    return 1 + (await (await Stream.open(secret, "autocut", e)).uniform(AUTOCUT_POSITIONS));
  }

  async function dice(secret, e, count) {
    const stream = await Stream.open(secret, "dice", e);
    const out = [];
    for (let i = 0; i < count; i++) out.push(1 + (await stream.uniform(6)));
    return out;
  }

  /** PF-CUT-5: the top k cards go under the rest; the cut card ends at the bottom. */
  function cut(deck, k) {
    if (!Number.isInteger(k) || k < 1 || k > deck.length - 1) {
      throw new Error("the cut position must be from 1 to " + (deck.length - 1));
    }
    return deck.slice(k).concat(deck.slice(0, k));
  }

  function cutCount(card) {
    const f = face(card);
    if (f === "JK") return 14;
    return RANKS.indexOf(f.slice(0, -1)) + 1;
  }

  function cutStarter(host, v, seats) {
    return ((host - 1 + (v - 1)) % seats) + 1;
  }

  /** BK-DEAL-6: one card at a time from the top, starting with the starter, 18 each,
   *  then the 19th to the starter; the rest is the stock, top first. */
  function dealHands(deck, starter, seats) {
    const hands = [];
    for (let s = 0; s < seats; s++) hands.push([]);
    for (let k = 0; k < HAND * seats; k++) hands[(starter - 1 + k) % seats].push(deck[k]);
    hands[starter - 1].push(deck[HAND * seats]);
    return { hands: hands, stock: deck.slice(HAND * seats + 1) };
  }

  // --- re-deriving a deal record ------------------------------------------------------------

  function firstDifference(expected, recorded) {
    const n = Math.max(expected.length, recorded.length);
    for (let i = 0; i < n; i++) {
      if (expected[i] !== recorded[i]) {
        return { index: i + 1, expected: expected[i] ?? null, recorded: recorded[i] ?? null };
      }
    }
    return null;
  }

  function seatCount(record) {
    const opts = record.options || {};
    if (Array.isArray(record.seats) && record.seats.length) return record.seats.length;
    return opts.mode === "one_vs_one" ? 2 : 4;
  }

  /** The starter of deal 1 from its commands when the record carries no events. */
  function commandCut(deal) {
    for (const step of deal.commands || []) {
      const c = step.command || {};
      if (c.type === "Cut") return { position: c.position ?? null, seat: step.seat };
    }
    return null;
  }

  function check(name, status, code, params) {
    return { name: name, status: status, code: code, params: params || {} };
  }

  /**
   * Re-derive one deal. `index` is its place in the record (0 = first deal, at a new
   * table). Returns what the browser computed and its checks:
   *   commitment, seeds (E), start (cut or first dealer), deal (hands + stock), reshuffles.
   */
  async function rederiveDeal(record, deal, index) {
    const seats = seatCount(record);
    const host = record.host || 1;
    const events = Array.isArray(deal.events) ? deal.events : null;
    const of = (type) => (events || []).filter((e) => e && e.type === type);
    const dealt = of("CardsDealt")[0] || null;
    const cutEvent = of("DeckCut")[0] || null;
    const committed = of("SeedCommitted")[0] || null;
    const revealed = of("SeedRevealed")[0] || null;
    const out = {
      deal: index + 1,
      seeded: !!deal.seed,
      secret: deal.seed ? deal.seed.secret : null,
      commitmentRecorded: committed ? committed.commitment : null,
      commitmentComputed: null,
      seeds: null,
      entropy: null,
      entropyRecorded: dealt ? dealt.entropy : null,
      deck: null,
      cut: null,
      dealer: null,
      starter: null,
      hands: null,
      stock: null,
      reshuffles: [],
      checks: [],
    };
    let secret = null;

    // 1. the commitment: SHA-256(S) == C
    if (!deal.seed) {
      out.checks.push(check("commitment", "unchecked", "stacked"));
    } else {
      try {
        secret = parseSecret(deal.seed.secret);
      } catch (err) {
        out.checks.push(check("commitment", "fail", "bad_secret"));
      }
      if (secret) {
        const digest = await commitment(secret);
        out.commitmentComputed = digest;
        const revealedDiffers =
          revealed && String(revealed.secret).toLowerCase() !== deal.seed.secret.toLowerCase();
        if (committed && committed.commitment !== digest) {
          out.checks.push(
            check("commitment", "fail", "mismatch", {
              digest: digest,
              recorded: committed.commitment,
            })
          );
        } else if (revealedDiffers) {
          out.checks.push(
            check("commitment", "fail", "revealed_differs", {
              secret: deal.seed.secret,
              revealed: revealed.secret,
            })
          );
        } else if (!committed) {
          out.checks.push(check("commitment", "unchecked", "no_commitment", { digest: digest }));
        } else {
          out.checks.push(check("commitment", "pass", "match", { digest: digest }));
        }
      }
    }

    // 2. the client seeds and E: the seeds as the table recorded them, one per seat
    if (deal.seed) {
      const seeds = new Array(seats).fill("");
      if (events) {
        for (const e of of("ClientSeedSent")) {
          if (e.seat >= 1 && e.seat <= seats) seeds[e.seat - 1] = e.seed;
        }
      } else {
        (deal.seed.client_seeds || []).forEach((s, i) => {
          if (i < seats) seeds[i] = s;
        });
      }
      out.seeds = seeds;
      const bad = seeds.findIndex((s) => !isSeed(s));
      if (bad >= 0) {
        out.checks.push(check("seeds", "fail", "bad_seed", { seat: bad + 1 }));
      } else {
        out.entropy = await entropy(seeds);
        if (!dealt) {
          out.checks.push(check("seeds", "unchecked", events ? "no_deal" : "no_events"));
        } else if (dealt.entropy !== out.entropy) {
          out.checks.push(
            check("seeds", "fail", "mismatch", { e: out.entropy, recorded: dealt.entropy })
          );
        } else {
          out.checks.push(check("seeds", "pass", "match", { e: out.entropy }));
        }
      }
    } else {
      out.checks.push(check("seeds", "unchecked", "stacked"));
    }

    // 3. the deck: the "deal" shuffle of the canonical deck (or the stacked order)
    let deck = null;
    if (deal.seed && secret && out.entropy) {
      deck = await dealDeck(secret, out.entropy);
    } else if (deal.deck) {
      try {
        deck = stackDeck(deal.deck);
      } catch (err) {
        deck = null;
      }
    }
    out.deck = deck;

    // 4. who starts: the cut (PF-CUT-5), the fair draw of the first dealer (PF-FAIR-6),
    //    or, in a later deal, the recorded starter (the rotation is the server's check)
    let starter = null;
    let dealDeckOrder = deck;
    const wantCut = cutEvent || (!events && index === 0 ? commandCut(deal) : null);
    const automatic = wantCut ? (cutEvent ? !!cutEvent.automatic : wantCut.position === null) : false;
    let expectedPosition = wantCut ? wantCut.position : null;
    if (deck && wantCut && automatic) {
      expectedPosition = deal.seed ? await autoCut(secret, out.entropy) : deal.cut || 1;
    }
    if (!deck) {
      out.checks.push(check("start", "unchecked", "no_deck"));
    } else if (
      wantCut &&
      !(Number.isInteger(expectedPosition) && expectedPosition >= 1 && expectedPosition < deck.length)
    ) {
      out.checks.push(check("start", "fail", "bad_position", { position: expectedPosition }));
      dealDeckOrder = null;
    } else if (wantCut) {
      const cutDeck = cut(deck, expectedPosition);
      const card = cutDeck[cutDeck.length - 1];
      const v = cutCount(card);
      starter = cutStarter(host, v, seats);
      dealDeckOrder = cutDeck;
      out.cut = {
        position: expectedPosition,
        automatic: automatic,
        card: card,
        count: v,
        starter: starter,
      };
      const p = { position: expectedPosition, card: card, v: v, starter: starter };
      if (!cutEvent) {
        out.checks.push(check("start", "unchecked", "no_events_cut", p));
      } else if (expectedPosition !== cutEvent.position) {
        out.checks.push(
          check("start", "fail", "autocut_mismatch", {
            expected: expectedPosition,
            recorded: cutEvent.position,
          })
        );
      } else if (card !== cutEvent.cut_card) {
        out.checks.push(
          check("start", "fail", "cut_card_mismatch", {
            position: expectedPosition,
            expected: card,
            recorded: cutEvent.cut_card,
          })
        );
      } else if (starter !== cutEvent.starter || (dealt && dealt.starter !== starter)) {
        out.checks.push(
          check("start", "fail", "cut_starter_mismatch", {
            card: card,
            expected: starter,
            recorded: dealt && dealt.starter !== starter ? dealt.starter : cutEvent.starter,
          })
        );
      } else {
        out.checks.push(check("start", "pass", automatic ? "autocut" : "cut", p));
      }
    } else if (index === 0) {
      const dealer = deal.seed
        ? await firstDraw(secret, out.entropy, seats)
        : deal.dealer || seats;
      starter = (dealer % seats) + 1;
      out.dealer = dealer;
      const p = { dealer: dealer, starter: starter };
      const code = deal.seed ? "draw" : "stacked_dealer";
      if (!dealt) {
        out.checks.push(check("start", "unchecked", events ? "no_deal" : "no_events", p));
      } else if (dealt.dealer !== dealer || dealt.starter !== starter) {
        out.checks.push(
          check("start", "fail", code + "_mismatch", {
            expected: dealer,
            recorded: dealt.dealer,
            starter: starter,
          })
        );
      } else {
        out.checks.push(check("start", "pass", code, p));
      }
    } else if (dealt) {
      starter = dealt.starter;
      out.checks.push(check("start", "unchecked", "later_deal", { starter: starter }));
    } else {
      out.checks.push(check("start", "unchecked", events ? "no_deal" : "no_events"));
    }

    // 5. the deal itself (BK-DEAL-6) against the recorded CardsDealt
    if (dealt && Number.isInteger(dealt.starter) && dealt.starter >= 1 && dealt.starter <= seats) {
      starter = dealt.starter; // the starter is taken from the log; step 4 checked it
    }
    out.starter = starter;
    if (starter !== null && out.dealer === null) out.dealer = ((starter + seats - 2) % seats) + 1;
    if (dealDeckOrder && starter !== null) {
      const d = dealHands(dealDeckOrder, starter, seats);
      out.hands = d.hands;
      out.stock = d.stock;
    }
    if (!dealt) {
      out.checks.push(check("deal", "unchecked", events ? "no_deal" : "no_events"));
    } else if (!out.hands) {
      out.checks.push(check("deal", "unchecked", "no_deck"));
    } else {
      let failed = null;
      const recordedHands = Array.isArray(dealt.hands) ? dealt.hands : [];
      for (let s = 0; s < seats && !failed; s++) {
        const diff = firstDifference(out.hands[s], recordedHands[s] || []);
        if (diff) failed = check("deal", "fail", "hand_mismatch", Object.assign({ seat: s + 1 }, diff));
      }
      if (!failed && recordedHands.length !== seats) {
        failed = check("deal", "fail", "seat_count", {
          expected: seats,
          recorded: recordedHands.length,
        });
      }
      if (!failed) {
        const diff = firstDifference(out.stock, Array.isArray(dealt.stock) ? dealt.stock : []);
        if (diff) failed = check("deal", "fail", "stock_mismatch", diff);
      }
      if (!failed && dealt.dealer !== out.dealer) {
        failed = check("deal", "fail", "dealer_mismatch", {
          expected: out.dealer,
          recorded: dealt.dealer,
          starter: starter,
        });
      }
      out.checks.push(
        failed || check("deal", "pass", "match", { seats: seats, stock: out.stock.length })
      );
    }

    // 6. every reshuffle of the ground (PF-FAIR-4), the ground folded from the log:
    //    discards go on top, ground takes come off the top, a reshuffle leaves the top card
    if (!events) {
      out.checks.push(check("reshuffles", "unchecked", "no_events"));
      return out;
    }
    let ground = []; // bottom to top
    let count = 0;
    let failed = null;
    let started = false;
    for (let i = 0; i < events.length && !failed; i++) {
      const e = events[i];
      if (!e) continue;
      if (e.type === "CardsDealt") {
        started = true;
        ground = [];
      } else if (!started) {
        continue;
      } else if (e.type === "CardDiscarded") {
        ground.push(e.card);
      } else if (e.type === "GroundTaken") {
        const cards = Array.isArray(e.cards) ? e.cards : [];
        const top = ground.slice(ground.length - cards.length).reverse(); // top first
        if (cards.length > ground.length || JSON.stringify(top) !== JSON.stringify(cards)) {
          failed = check("reshuffles", "fail", "ground_mismatch", { event: i });
        } else {
          ground = ground.slice(0, ground.length - cards.length);
        }
      } else if (e.type === "GroundReshuffled") {
        count += 1;
        const input = ground.slice(0, -1);
        let expected = input;
        if (deal.seed && secret && out.entropy) {
          expected = await reshuffle(input, secret, out.entropy, count);
        }
        out.reshuffles.push({
          number: count,
          input: input,
          stock: expected,
          top: ground.length ? ground[ground.length - 1] : null,
        });
        if (e.number !== count) {
          failed = check("reshuffles", "fail", "numbering", {
            expected: count,
            recorded: e.number,
          });
        } else {
          const diff = firstDifference(expected, Array.isArray(e.stock) ? e.stock : []);
          if (diff) {
            failed = check("reshuffles", "fail", "mismatch", Object.assign({ number: count }, diff));
          }
        }
        ground = ground.slice(-1);
      }
    }
    if (failed) {
      out.checks.push(failed);
    } else if (!dealt) {
      out.checks.push(check("reshuffles", "unchecked", "no_deal"));
    } else {
      out.checks.push(check("reshuffles", "pass", count ? "match" : "none", { count: count }));
    }
    return out;
  }

  /** Re-derive every deal of a deal record (parsed JSON). */
  async function rederive(record) {
    if (!record || typeof record !== "object" || !Array.isArray(record.deals)) {
      throw new Error("not a deal record: it has no \"deals\" list");
    }
    const deals = [];
    for (let i = 0; i < record.deals.length; i++) {
      deals.push(await rederiveDeal(record, record.deals[i] || {}, i));
    }
    const failed = deals.some((d) => d.checks.some((c) => c.status === "fail"));
    return { passed: !failed, deals: deals };
  }

  // --- rummy (docs/deal-format.md 10.2): engine/rummy/deal.py done again -----------------

  // Each variant's deck (RM-CORE-2; Carousel for two: one deck and one joker, RM-CAR-1),
  // hand, Shanghai's packets (RM-SHA-1) and Tahiti's face-up singletons (RM-TAH-2).
  const RUMMY = {
    manipulation: { deck: 104, deckTwo: 104, hand: 7 },
    machiavelli: { deck: 104, deckTwo: 104, hand: 13 },
    shanghai: { deck: 104, deckTwo: 104, hand: 10, packets: [3, 3, 3, 1] },
    guadeloupe: { deck: 104, deckTwo: 104, hand: 5 },
    carousel: { deck: 106, deckTwo: 53, hand: 10 },
    vatican: { deck: 106, deckTwo: 106, hand: 13 },
    tahiti: { deck: 108, deckTwo: 108, hand: 5, singletons: 4 },
  };
  const RUMMY_SEATS = 4; // RM-CORE-1's default, when a record's options leave it out

  function rummyVariant(name) {
    if (!Object.prototype.hasOwnProperty.call(RUMMY, name)) {
      throw new Error("not a rummy variant: " + JSON.stringify(name));
    }
    return RUMMY[name];
  }

  /** The unshuffled deck: first deck then second, clubs diamonds hearts spades, A to K,
   *  the jokers last ("JK#1" ...). */
  function rummyDeck(variant, seats) {
    const v = rummyVariant(variant);
    const size = seats === 2 ? v.deckTwo : v.deck;
    const copies = size < 104 ? 1 : 2;
    const deck = [];
    for (let c = 1; c <= copies; c++) {
      for (const suit of SUITS) for (const rank of RANKS) deck.push(rank + suit + "#" + c);
    }
    for (let j = 1; j <= size - 52 * copies; j++) deck.push("JK#" + j);
    return deck;
  }

  /** One card at a time (Shanghai: packets) from the top to each seat from `first`; then
   *  Tahiti's singletons; the rest is the stock, top first (RM-CORE-6, RM-AMB-4). */
  function rummyDealHands(variant, deck, first, seats) {
    const v = rummyVariant(variant);
    const packets = v.packets || new Array(v.hand).fill(1);
    const hands = [];
    for (let s = 0; s < seats; s++) hands.push([]);
    let top = 0;
    for (const packet of packets) {
      for (let k = 0; k < seats; k++) {
        hands[(first - 1 + k) % seats].push(...deck.slice(top, top + packet));
        top += packet;
      }
    }
    const singletons = deck.slice(top, top + (v.singletons || 0));
    top += singletons.length;
    return { hands: hands, singletons: singletons, stock: deck.slice(top) };
  }

  /** RM-CORE-7: round 1's first player is the fair draw under "first" (PF-FAIR-6); each
   *  later round's is one seat on from the round before. */
  async function rummyFirst(secret, e, seats, previous) {
    if (!previous) return firstDraw(secret, e, seats);
    return (previous % seats) + 1;
  }

  async function rummyDeal(variant, seats, secret, e, first) {
    const deck = await shuffle(rummyDeck(variant, seats), secret, "deal", e);
    return rummyDealHands(variant, deck, first, seats);
  }

  function rummySeats(record) {
    if (Array.isArray(record.seats) && record.seats.length) return record.seats.length;
    const n = (record.options || {}).seats;
    return Number.isInteger(n) ? n : RUMMY_SEATS;
  }

  /** The first difference of each dealt pile, as a failed "deal" check, or null. */
  function dealDifference(out, dealt, seats) {
    const recordedHands = Array.isArray(dealt.hands) ? dealt.hands : [];
    for (let s = 0; s < seats; s++) {
      const diff = firstDifference(out.hands[s], recordedHands[s] || []);
      if (diff) return check("deal", "fail", "hand_mismatch", Object.assign({ seat: s + 1 }, diff));
    }
    if (recordedHands.length !== seats) {
      return check("deal", "fail", "seat_count", { expected: seats, recorded: recordedHands.length });
    }
    const singles = Array.isArray(dealt.singletons) ? dealt.singletons : [];
    const single = firstDifference(out.singletons, singles);
    if (single) return check("deal", "fail", "singleton_mismatch", single);
    const stock = firstDifference(out.stock, Array.isArray(dealt.stock) ? dealt.stock : []);
    if (stock) return check("deal", "fail", "stock_mismatch", stock);
    return null;
  }

  /**
   * A round's commitment check (SHA-256(S) == C, PF-AMB-12 b), pushed on `out.checks`, with
   * `out.commitmentComputed`; the secret's bytes, or null when it is not a secret.
   */
  async function roundCommitment(out, round, committed, revealed) {
    let secret = null;
    try {
      secret = parseSecret(round.secret);
    } catch (err) {
      out.checks.push(check("commitment", "fail", "bad_secret"));
    }
    if (secret) {
      const digest = await commitment(secret);
      out.commitmentComputed = digest;
      if (!committed) {
        out.checks.push(check("commitment", "fail", "no_commitment", { digest: digest }));
      } else if (committed.commitment !== digest) {
        out.checks.push(
          check("commitment", "fail", "mismatch", { digest: digest, recorded: committed.commitment })
        );
      } else if (revealed && String(revealed.secret).toLowerCase() !== round.secret.toLowerCase()) {
        out.checks.push(
          check("commitment", "fail", "revealed_differs", {
            secret: round.secret,
            revealed: revealed.secret,
          })
        );
      } else {
        out.checks.push(check("commitment", "pass", "match", { digest: digest }));
      }
    }
    return secret;
  }

  /**
   * A round's seeds check: the seeds the seats sent (their ClientSeedSent events), one per
   * seat, "" for none (PF-AMB-12 h), against the record's list; `out.seeds`, `out.entropy`.
   */
  async function roundSeeds(out, round, sent, seats) {
    const seeds = new Array(seats).fill("");
    for (const e of sent) {
      if (Number.isInteger(e.seat) && e.seat >= 1 && e.seat <= seats) seeds[e.seat - 1] = e.seed;
    }
    out.seeds = seeds;
    const listed = Array.isArray(round.client_seeds) ? round.client_seeds : null;
    const bad = seeds.findIndex((s) => !isSeed(s));
    const other = listed ? seeds.findIndex((s, i) => listed[i] !== s) : -1;
    if (bad >= 0) {
      out.checks.push(check("seeds", "fail", "bad_seed", { seat: bad + 1 }));
    } else {
      out.entropy = await entropy(seeds);
      if (listed && (other >= 0 || listed.length !== seats)) {
        out.checks.push(check("seeds", "fail", "listed_differs", { seat: Math.max(other, 0) + 1 }));
      } else {
        out.checks.push(check("seeds", "pass", "match", { e: out.entropy }));
      }
    }
  }

  /**
   * Re-derive one rummy round: its commitment, the seats' seeds and E, its first player
   * (`previous`: the first player the browser derived for the round before, 0 for none)
   * and its deal, each compared with the round's recorded events.
   */
  async function rederiveRound(record, round, index, previous) {
    const variant = (record.options || {}).variant || "manipulation";
    const seats = rummySeats(record);
    const events = Array.isArray(round.events) ? round.events : [];
    const of = (type) => events.filter((e) => e && e.type === type);
    const dealt = of("RoundDealt")[0] || null;
    const committed = of("SeedCommitted")[0] || null;
    const revealed = of("SeedRevealed")[0] || null;
    const out = {
      round: Number.isInteger(round.number) ? round.number : index + 1,
      variant: variant,
      secret: typeof round.secret === "string" ? round.secret : null,
      commitmentRecorded: committed ? committed.commitment : null,
      commitmentComputed: null,
      seeds: null,
      entropy: null,
      first: null,
      firstRecorded: dealt ? dealt.first : null,
      hands: null,
      singletons: null,
      stock: null,
      checks: [],
    };
    const secret = await roundCommitment(out, round, committed, revealed);
    await roundSeeds(out, round, of("ClientSeedSent"), seats);

    // 3. the first player: drawn in round 1, one seat on in each later round (RM-CORE-7)
    if (out.round !== index + 1) {
      out.checks.push(check("first", "fail", "numbering", { expected: index + 1, recorded: out.round }));
    } else if (!secret || !out.entropy) {
      out.checks.push(check("first", "unchecked", "no_deck"));
    } else if (index > 0 && !previous) {
      out.checks.push(check("first", "unchecked", "no_previous"));
    } else {
      out.first = await rummyFirst(secret, out.entropy, seats, index > 0 ? previous : 0);
      const p = { first: out.first, previous: previous || null, seats: seats };
      const code = index > 0 ? "next" : "draw";
      if (!dealt) {
        out.checks.push(check("first", "unchecked", "no_deal", p));
      } else if (dealt.first !== out.first) {
        out.checks.push(
          check("first", "fail", code + "_mismatch", Object.assign({ recorded: dealt.first }, p))
        );
      } else {
        out.checks.push(check("first", "pass", code, p));
      }
    }

    // 4. the deal: the variant's deck shuffled under "deal" with E, dealt from the first
    //    player; hands, Tahiti's singletons and the stock against RoundDealt (RM-AMB-4)
    if (secret && out.entropy && out.first) {
      const d = await rummyDeal(variant, seats, secret, out.entropy, out.first);
      out.hands = d.hands;
      out.singletons = d.singletons;
      out.stock = d.stock;
    }
    if (!dealt) {
      out.checks.push(check("deal", "unchecked", "no_deal"));
    } else if (!out.hands) {
      out.checks.push(check("deal", "unchecked", "no_deck"));
    } else {
      out.checks.push(
        dealDifference(out, dealt, seats) ||
          check("deal", "pass", "match", {
            seats: seats,
            singletons: out.singletons.length,
            stock: out.stock.length,
          })
      );
    }
    return out;
  }

  /** Re-derive every round of a rummy record (parsed JSON), in the record's order. */
  async function rederiveRummy(record) {
    if (!record || typeof record !== "object" || record.game !== "rummy" || !Array.isArray(record.rounds)) {
      throw new Error("not a rummy record: it has no \"rounds\" list");
    }
    rummyVariant((record.options || {}).variant || "manipulation");
    const rounds = [];
    let previous = 0;
    for (let i = 0; i < record.rounds.length; i++) {
      const r = await rederiveRound(record, record.rounds[i] || {}, i, previous);
      rounds.push(r);
      previous = r.first || 0;
    }
    const failed = rounds.some((r) => r.checks.some((c) => c.status === "fail"));
    return { game: "rummy", passed: !failed, rounds: rounds };
  }

  // --- Bunco (docs/deal-format.md 10.3): a round's seating and every die ---------------------

  /** The places of a Bunco evening: the players, and the ghost with 3, 7 or 11 (BU-AMB-1). */
  function buncoPlaces(record) {
    const players = Array.isArray(record.seats) && record.seats.length
      ? record.seats.length
      : (record.options || {}).players;
    const n = Number.isInteger(players) ? players : 12;
    return { players: n, places: n % 4 ? n + 1 : n };
  }

  /** Round 1's drawn seating: the places shuffled under "first", four a table from the
   *  head table, table seats 1 to 4 (BU-SET-7, PF-FAIR-6). */
  async function buncoSeating(secret, e, places) {
    const order = await shuffle(Array.from({ length: places }, (_, i) => i + 1), secret, "first", e);
    const tables = [];
    for (let i = 0; i < order.length; i += 4) tables.push(order.slice(i, i + 4));
    return tables;
  }

  /**
   * Re-derive one Bunco round: its commitment, the seats' seeds and E, round 1's drawn
   * seating, and the dice of every roll in log order (roll k reads dice 3k..3k+2 of the
   * round's "dice" stream, PF-DICE-2), each compared with the round's recorded events.
   */
  async function rederiveBuncoRound(record, round, index) {
    const { players, places } = buncoPlaces(record);
    const events = Array.isArray(round.events) ? round.events : [];
    const of = (type) => events.filter((e) => e && e.type === type);
    const started = of("RoundStarted")[0] || null;
    const rolls = events.filter((e) => e && (e.type === "DiceRolled" || e.type === "RollOffRolled"));
    const out = {
      round: Number.isInteger(round.number) ? round.number : index + 1,
      variant: null,
      secret: typeof round.secret === "string" ? round.secret : null,
      commitmentRecorded: (of("SeedCommitted")[0] || {}).commitment || null,
      commitmentComputed: null,
      seeds: null,
      entropy: null,
      first: null,
      seating: null,
      seatingRecorded: started ? started.tables : null,
      rolls: rolls.map((e) => ({ table: e.table, roll: e.roll, rolloff: e.type === "RollOffRolled", recorded: e.dice })),
      dice: null,
      checks: [],
    };
    const secret = await roundCommitment(out, round, of("SeedCommitted")[0] || null, of("SeedRevealed")[0] || null);
    await roundSeeds(out, round, of("ClientSeedSent"), players);
    const ready = !!secret && !!out.entropy;

    // round 1's seating, when the fair draw made it (the host's own is not drawn)
    if (out.round !== index + 1) {
      out.checks.push(check("seating", "fail", "numbering", { expected: index + 1, recorded: out.round }));
    } else if (out.round === 1 && started && started.drawn) {
      if (!ready) {
        out.checks.push(check("seating", "unchecked", "no_secret"));
      } else {
        out.seating = await buncoSeating(secret, out.entropy, places);
        const expected = out.seating.map((t) => t.join("-"));
        const recorded = (started.tables || []).map((t) => (Array.isArray(t) ? t.join("-") : ""));
        const diff = firstDifference(expected, recorded);
        out.checks.push(
          diff
            ? check("seating", "fail", "draw_mismatch", { table: diff.index, expected: diff.expected || "", recorded: diff.recorded || "" })
            : check("seating", "pass", "draw", { places: places })
        );
      }
    }

    // every roll's three dice, in the order of the log
    if (!ready) {
      out.checks.push(check("dice", "unchecked", "no_secret"));
      return out;
    }
    const drawn = await dice(secret, out.entropy, 3 * rolls.length);
    out.dice = [];
    for (let k = 0; k < rolls.length; k++) out.dice.push(drawn.slice(3 * k, 3 * k + 3));
    const at = out.rolls.findIndex((r, k) => !Array.isArray(r.recorded) || r.recorded.join("-") !== out.dice[k].join("-"));
    if (at >= 0) {
      const r = out.rolls[at];
      out.checks.push(
        check("dice", "fail", "roll_mismatch", {
          table: r.table,
          roll: r.roll,
          expected: out.dice[at].join("-"),
          recorded: Array.isArray(r.recorded) ? r.recorded.join("-") : "",
        })
      );
    } else {
      out.checks.push(check("dice", "pass", "match", { rolls: rolls.length }));
    }
    return out;
  }

  /** Re-derive every round of a Bunco record (parsed JSON), in the record's order. */
  async function rederiveBunco(record) {
    if (!record || typeof record !== "object" || record.game !== "bunco" || !Array.isArray(record.rounds)) {
      throw new Error("not a Bunco record: it has no \"rounds\" list");
    }
    const rounds = [];
    for (let i = 0; i < record.rounds.length; i++) {
      rounds.push(await rederiveBuncoRound(record, record.rounds[i] || {}, i));
    }
    const failed = rounds.some((r) => r.checks.some((c) => c.status === "fail"));
    return { game: "bunco", passed: !failed, rounds: rounds };
  }

  // --- the dice tool (docs/deal-format.md 10.4): each roll's three dice -------------------

  /**
   * Re-derive one roll of the dice tool: its commitment, the phone's seed and E (one seat),
   * and its three dice, the first three of the roll's "dice" stream (PF-DICE-1/2), compared
   * with the roll's DiceThrown. A roll the phone left unrolled when it stopped the table
   * (ToolStopped) has no dice to compare; its commitment and seed are checked all the same.
   */
  async function rederiveDiceRoll(record, roll, index) {
    const events = Array.isArray(roll.events) ? roll.events : [];
    const of = (type) => events.filter((e) => e && e.type === type);
    const thrown = of("DiceThrown");
    const stopped = of("ToolStopped").find((e) => e.roll) || null;
    const out = {
      roll: Number.isInteger(roll.number) ? roll.number : index + 1,
      secret: typeof roll.secret === "string" ? roll.secret : null,
      commitmentRecorded: (of("SeedCommitted")[0] || {}).commitment || null,
      commitmentComputed: null,
      seeds: null,
      entropy: null,
      dice: null,
      recorded: thrown.length && Array.isArray(thrown[0].dice) ? thrown[0].dice : null,
      unrolled: !thrown.length && !!stopped,
      checks: [],
    };
    const secret = await roundCommitment(out, roll, of("SeedCommitted")[0] || null, of("SeedRevealed")[0] || null);
    await roundSeeds(out, roll, of("ClientSeedSent"), 1);
    if (secret && out.entropy) out.dice = await dice(secret, out.entropy, 3);
    const p = { roll: out.roll };
    if (out.roll !== index + 1) {
      out.checks.push(check("dice", "fail", "numbering", { expected: index + 1, recorded: out.roll }));
    } else if (!out.dice) {
      out.checks.push(check("dice", "unchecked", "no_secret", p));
    } else if (thrown.length > 1) {
      out.checks.push(check("dice", "fail", "many", Object.assign({ count: thrown.length }, p)));
    } else if (thrown.length && thrown[0].roll !== out.roll) {
      out.checks.push(check("dice", "fail", "roll_numbering", { expected: out.roll, recorded: thrown[0].roll }));
    } else if (thrown.length) {
      const expected = out.dice.join("-");
      const recorded = out.recorded ? out.recorded.join("-") : "";
      out.checks.push(
        expected === recorded
          ? check("dice", "pass", "match", Object.assign({ dice: expected }, p))
          : check("dice", "fail", "roll_mismatch", Object.assign({ expected: expected, recorded: recorded }, p))
      );
    } else {
      out.checks.push(check("dice", "unchecked", out.unrolled ? "unrolled" : "no_throw", p));
    }
    return out;
  }

  /** Re-derive every roll of a dice-tool record (parsed JSON), in the record's order. */
  async function rederiveDice(record) {
    if (!record || typeof record !== "object" || record.game !== "dice" || !Array.isArray(record.rolls)) {
      throw new Error("not a dice-tool record: it has no \"rolls\" list");
    }
    const rolls = [];
    for (let i = 0; i < record.rolls.length; i++) {
      rolls.push(await rederiveDiceRoll(record, record.rolls[i] || {}, i));
    }
    const failed = rolls.some((r) => r.checks.some((c) => c.status === "fail"));
    return { game: "dice", passed: !failed, rolls: rolls };
  }

  return {
    ALGORITHM: ALGORITHM,
    RANKS: RANKS,
    SUITS: SUITS,
    toHex: toHex,
    parseSecret: parseSecret,
    sha256Hex: sha256Hex,
    commitment: commitment,
    entropy: entropy,
    blockMessage: blockMessage,
    hmacKey: hmacKey,
    blockWords: blockWords,
    Stream: Stream,
    shuffle: shuffle,
    canonicalDeck: canonicalDeck,
    face: face,
    stackDeck: stackDeck,
    dealDeck: dealDeck,
    reshuffle: reshuffle,
    firstDraw: firstDraw,
    autoCut: autoCut,
    dice: dice,
    cut: cut,
    cutCount: cutCount,
    cutStarter: cutStarter,
    dealHands: dealHands,
    rederiveDeal: rederiveDeal,
    rederive: rederive,
    RUMMY: RUMMY,
    rummyDeck: rummyDeck,
    rummyDealHands: rummyDealHands,
    rummyFirst: rummyFirst,
    rummyDeal: rummyDeal,
    rederiveRound: rederiveRound,
    rederiveRummy: rederiveRummy,
    buncoSeating: buncoSeating,
    rederiveBuncoRound: rederiveBuncoRound,
    rederiveBunco: rederiveBunco,
    rederiveDiceRoll: rederiveDiceRoll,
    rederiveDice: rederiveDice,
  };
});

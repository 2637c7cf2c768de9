/*
 * The Verify page (PF-FAIR-5): asks the server for its verdict on a deal (by id, or for a
 * pasted/uploaded deal record), re-derives the same deal in the browser with fair.js, and
 * shows both side by side, saying plainly when they disagree.
 *
 * Server API: GET /verify/{deal_id} and POST /verify (body: a deal record) both answer
 * {"deal_id", "record", "verdict"}; errors are {"code", "rule_id", "message"} with a 4xx.
 * Everything is built with DOM nodes and textContent: nothing from a record is parsed as HTML.
 *
 * A value inside a sentence (a hex string, a card, an id, a name) is its own `bdi`: isolated
 * from the sentence's direction, left to right when it has no Arabic letter, and a hex string
 * or a roll's dice ("2-5-5") never broken across lines (verify.css). A deal id asks for one
 * deal: its record holds every deal of the table up to it, and the earlier ones are shown
 * behind a link. A refusal is said in the page's language; the server's (English) words are
 * only a folded detail in Arabic.
 *
 * A rummy record (docs/deal-format.md 10.2) is shown round by round: the browser re-derives
 * each round's deal (fair.js `rederiveRummy`), and the page says that the play of the round
 * is checked by the server's verdict shown beside it. A Bunco record (10.3) is shown the same
 * way: the browser re-derives round 1's seating and every die (fair.js `rederiveBunco`); the
 * scores, the bell, the movement and the tallies are the server's check. A dice-tool record
 * (10.4) is shown roll by roll: the browser re-derives each roll's commitment, the phone's
 * seed and E and its three dice (fair.js `rederiveDice`), and marks the dice the record
 * changed; that every command was accepted is the server's check.
 */
(function () {
  "use strict";

  const I18N = window.SahraI18n;
  const Fair = window.SahraFair;
  const SERVER_CHECKS = ["commitment", "deck", "reshuffles", "draws", "commands", "scores", "match"];
  // Which of the browser's checks re-do which server check (the fairness part of it).
  const BROWSER_FOR = {
    commitment: ["commitment"],
    deck: ["seeds", "start", "deal"],
    reshuffles: ["reshuffles"],
  };

  const page = {
    lang: "ar",
    view: null, // {kind: "error", ...} or {kind: "result", ...}
    request: 0,
  };

  function t(key, params) {
    return I18N.format(page.lang, key, params);
  }

  const HEX = /^[0-9a-f]{16,}$/i;
  const DICE = /^[1-6](-[1-6])+$/; // a roll's dice in a sentence, "2-5-5"
  const ARABIC = /[\u0600-\u06ff]/;

  /** `key`'s text as nodes, each value in its own bdi (see the header). */
  function tn(key, params) {
    return I18N.parts(page.lang, key, params).map((part) => {
      if (part.text !== undefined) return document.createTextNode(part.text);
      if (HEX.test(part.value)) return el("bdi", { dir: "ltr", class: "hex", text: part.value });
      if (DICE.test(part.value)) return el("bdi", { dir: "ltr", class: "dice-value", text: part.value });
      return el("bdi", { dir: ARABIC.test(part.value) ? null : "ltr", text: part.value });
    });
  }

  function el(tag, attrs) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = String(value);
      else if (key === "class") node.className = value;
      else node.setAttribute(key, String(value));
    }
    for (let i = 2; i < arguments.length; i++) {
      const child = arguments[i];
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  // --- language -------------------------------------------------------------------------

  function applyLanguage() {
    const root = document.documentElement;
    root.lang = page.lang;
    root.dir = I18N.dir[page.lang];
    document.title = t("title");
    for (const node of document.querySelectorAll("[data-i18n]")) {
      node.textContent = t(node.getAttribute("data-i18n"));
    }
    for (const node of document.querySelectorAll("[data-i18n-placeholder]")) {
      node.setAttribute("placeholder", t(node.getAttribute("data-i18n-placeholder")));
    }
    for (const node of document.querySelectorAll("[data-i18n-title]")) {
      node.setAttribute("title", t(node.getAttribute("data-i18n-title")));
    }
    document.getElementById("lang").setAttribute("lang", page.lang === "ar" ? "en" : "ar");
    render();
  }

  // --- talking to the server ------------------------------------------------------------------

  async function answer(response) {
    let body = null;
    try {
      body = await response.json();
    } catch (err) {
      body = null;
    }
    if (!response.ok) {
      const error = body && typeof body === "object" ? body : {};
      return {
        error: {
          status: response.status,
          code: error.code || String(response.status),
          rule_id: error.rule_id || "",
          message: error.message || error.detail || response.statusText || String(response.status),
        },
      };
    }
    if (!body || typeof body !== "object" || !body.verdict) {
      return { error: { code: "bad_answer", rule_id: "", message: "the server's answer has no verdict" } };
    }
    return { body: body };
  }

  async function verifyById(id) {
    const ticket = ++page.request;
    setLoading();
    let result;
    try {
      result = await answer(
        await fetch("/verify/" + encodeURIComponent(id), { headers: { Accept: "application/json" } })
      );
    } catch (err) {
      if (ticket === page.request) show({ kind: "error", key: "network_error", message: err.message });
      return;
    }
    if (ticket !== page.request) return;
    if (result.error) {
      show({ kind: "error", key: "error", error: Object.assign({ id: id }, result.error) });
      return;
    }
    await showResult(ticket, result.body.record, result.body.verdict, null, result.body.deal_id || id);
  }

  async function verifyRecord(text) {
    let local;
    try {
      local = JSON.parse(text);
    } catch (err) {
      show({ kind: "error", key: "bad_json", message: err.message });
      return;
    }
    const ticket = ++page.request;
    setLoading();
    let result;
    try {
      result = await answer(
        await fetch("/verify", {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json" },
          body: text,
        })
      );
    } catch (err) {
      result = { error: { status: 0, code: "network", rule_id: "", message: err.message } };
    }
    if (ticket !== page.request) return;
    if (result.error) {
      // The browser can still re-derive the record the player holds; the error stays on top.
      await showResult(ticket, local, null, result.error, null);
      return;
    }
    // The browser checks the record the player gave, not the copy the server sends back.
    await showResult(ticket, local, result.body.verdict, null, null);
  }

  async function showResult(ticket, record, verdict, serverError, dealId) {
    let browser = null;
    let browserError = null;
    try {
      if (isDice(record)) browser = await Fair.rederiveDice(record);
      else if (isBunco(record)) browser = await Fair.rederiveBunco(record);
      else browser = isRummy(record) ? await Fair.rederiveRummy(record) : await Fair.rederive(record);
    } catch (err) {
      browserError = err && err.message ? err.message : String(err);
    }
    if (ticket !== page.request) return;
    show({
      kind: "result",
      record: record,
      verdict: verdict,
      serverError: serverError,
      browser: browser,
      browserError: browserError,
      dealId: dealId,
    });
  }

  function setLoading() {
    document.body.setAttribute("data-state", "loading");
    const status = document.getElementById("status");
    status.replaceChildren(el("div", { class: "banner note", text: t("loading") }));
    document.getElementById("result").replaceChildren();
  }

  function show(view) {
    page.view = view;
    render();
    document.body.setAttribute("data-state", view.kind === "error" ? "error" : "done");
  }

  // --- comparing the two results ------------------------------------------------------------

  function groupStatus(browserDeal, names) {
    const statuses = browserDeal.checks.filter((c) => names.includes(c.name)).map((c) => c.status);
    if (statuses.includes("fail")) return "fail";
    if (statuses.includes("pass")) return "pass";
    return "unchecked";
  }

  /** Where the browser and the server disagree, and which server failures concern the play. */
  function compare(verdict, browser) {
    const out = { disagree: [], play: [], perDeal: [] };
    if (!verdict || !browser) return out;
    const many = browser.deals.length > 1;
    browser.deals.forEach((bd, i) => {
      const sv = (verdict.deals || []).find((d) => d.deal === bd.deal);
      const dealOut = { disagree: [] };
      out.perDeal.push(dealOut);
      if (!sv) return;
      for (const sc of sv.checks || []) {
        const names = BROWSER_FOR[sc.name];
        if (!names) {
          if (sc.status === "fail") out.play.push(t("sc_" + sc.name));
          continue;
        }
        const mine = groupStatus(bd, names);
        if (sc.status !== "unchecked" && mine !== "unchecked" && mine !== sc.status) {
          const what = t("sc_" + sc.name) + (many ? " (" + t("deal_heading", { n: i + 1 }) + ")" : "");
          out.disagree.push(what);
          dealOut.disagree.push(sc.name);
        }
      }
    });
    if (verdict.passed && !browser.passed && out.disagree.length === 0) {
      out.disagree.push(t("h_browser"));
    }
    return out;
  }

  // --- rendering --------------------------------------------------------------------------------

  function codeParams(error) {
    return { code: error.code || "—", rule_id: error.rule_id || "—" };
  }

  /** The sentence for a refusal of the server: by its code, else by its status. In English
   *  the server's own sentence says it best; in Arabic it is only the folded detail. */
  function refusalKey(error) {
    if (error.code === "network") return "network_error";
    if (I18N.has(page.lang, "e_" + error.code)) return "e_" + error.code;
    const status = error.status || 0;
    if (status >= 500) return "e_status_5xx";
    return I18N.has(page.lang, "e_status_" + status) ? "e_status_" + status : "error";
  }

  /** A red banner: a sentence in the page's language, the code and rule, and (in Arabic)
   *  the English text it came from, folded. */
  function errorBanner(code, sentence, error, detail) {
    const banner = el("div", { class: "banner fail", id: "error", "data-code": code });
    banner.append(el("p", { class: "sentence" }, ...sentence));
    if (error && (error.code || error.rule_id)) {
      banner.append(el("div", { class: "code" }, ...tn("error_code", codeParams(error))));
    }
    if (detail && page.lang !== "en") {
      banner.append(
        el("details", { class: "detail" },
          el("summary", { text: t("details_en") }),
          el("p", { dir: "ltr", lang: "en", class: "mono", text: detail }))
      );
    }
    return banner;
  }

  function refusalBanner(error) {
    const params = { id: error.id, example: "bb9cc40dbe5e4290-3", message: error.message };
    return errorBanner(error.code, tn(refusalKey(error), params), error, error.message);
  }

  function render() {
    const status = document.getElementById("status");
    const result = document.getElementById("result");
    const view = page.view;
    if (!view) return;
    if (view.kind === "error") {
      const banner = view.error
        ? refusalBanner(view.error)
        : errorBanner("local", tn(view.key, { message: view.message, format: "JSON" }), null, view.message);
      status.replaceChildren(banner);
      result.replaceChildren();
      return;
    }
    if (unitsKind(view.record)) {
      renderRummy(view, status, result);
      return;
    }
    const cmp = compare(view.verdict, view.browser);
    const passed =
      !!view.verdict &&
      view.verdict.passed === true &&
      !!view.browser &&
      view.browser.passed &&
      !view.browserError &&
      cmp.disagree.length === 0;
    const banners = [
      el("div", { class: "banner " + (passed ? "pass" : "fail"), id: "summary", "data-verdict": passed ? "pass" : "fail" },
        t(passed ? "summary_pass" : "summary_fail")),
    ];
    if (view.serverError) {
      banners.push(refusalBanner(view.serverError));
    }
    let agree;
    if (view.browserError) {
      agree = el("div", { class: "banner warn", "data-agree": "browser-error" },
        ...tn("agree_browser_error", { message: view.browserError }));
      if (page.lang !== "en") {
        agree.append(
          el("details", { class: "detail" },
            el("summary", { text: t("details_en") }),
            el("p", { dir: "ltr", lang: "en", class: "mono", text: view.browserError }))
        );
      }
    } else if (!view.verdict) {
      agree = el("div", { class: "banner note", "data-agree": "server-missing" }, t("server_missing"));
    } else if (cmp.disagree.length) {
      agree = el("div", { class: "banner fail", "data-agree": "no" },
        t("agree_no", { list: cmp.disagree.join(page.lang === "ar" ? "، " : ", ") }));
    } else if (!view.verdict.passed && view.browser.passed && cmp.play.length) {
      agree = el("div", { class: "banner note", "data-agree": "play" },
        t("agree_play", { list: cmp.play.join(page.lang === "ar" ? "، " : ", ") }));
    } else {
      agree = el("div", { class: "banner note", "data-agree": "yes" }, t("agree_yes"));
    }
    agree.id = "agreement";
    banners.push(agree);
    status.replaceChildren(...banners);

    const record = view.record || {};
    const deals = [];
    const count = view.browser
      ? view.browser.deals.length
      : Math.max(
          Array.isArray(record.deals) ? record.deals.length : 0,
          // Another game's verdict has no "deals" (a rummy verdict has "rounds"): none here.
          view.verdict && Array.isArray(view.verdict.deals) ? view.verdict.deals.length : 0
        );
    for (let i = 0; i < count; i++) {
      const bd = view.browser ? view.browser.deals[i] : null;
      const sv = view.verdict ? (view.verdict.deals || []).find((d) => d.deal === i + 1) : null;
      deals.push(renderDeal(record, i, bd, sv, cmp.perDeal[i] || { disagree: [] }, !!view.verdict));
    }
    namedLast(result, deals, view, "earlier");
  }

  /** A deal id names the last unit of its record: it alone, the earlier ones behind a
   *  link (`keys`: "earlier" for Banakil's deals, "earlier_rounds" for rummy's rounds). */
  function namedLast(result, deals, view, keys) {
    if (!view.dealId || deals.length < 2) {
      result.replaceChildren(...deals);
      return;
    }
    const named = deals.pop();
    const failed = deals.filter((a) => a.dataset.verdict !== "pass").length;
    const earlier = el("div", { id: "earlier", class: "earlier" }, ...deals);
    earlier.hidden = !view.earlierOpen;
    const link = el("a", {
      id: "earlier-link",
      href: "#earlier",
      "aria-controls": "earlier",
      "aria-expanded": view.earlierOpen ? "true" : "false",
      class: failed ? "fail" : "pass",
    });
    const label = () =>
      view.earlierOpen
        ? [document.createTextNode(t(keys + "_hide"))]
        : tn(keys + "_show", {
            count: deals.length,
            state: failed ? t("earlier_some_fail", { failed: failed }) : t("earlier_all_pass"),
          });
    link.append(...label());
    link.addEventListener("click", (event) => {
      event.preventDefault();
      view.earlierOpen = !view.earlierOpen;
      earlier.hidden = !view.earlierOpen;
      link.setAttribute("aria-expanded", view.earlierOpen ? "true" : "false");
      link.replaceChildren(...label());
    });
    result.replaceChildren(named, el("p", { class: "earlier-link" }, link), earlier);
  }

  function renderDeal(record, i, bd, sv, cmpDeal, haveVerdict) {
    const browserOk = !!bd && !bd.checks.some((c) => c.status === "fail");
    const ok = !!sv && sv.passed && browserOk && cmpDeal.disagree.length === 0;
    const article = el("article", {
      class: "deal " + (ok ? "pass" : "fail"),
      "data-deal": i + 1,
      "data-verdict": ok ? "pass" : "fail",
    });
    article.append(
      el("h2", {}, t("deal_heading", { n: i + 1 }), el("span", { class: "tag", text: t(ok ? "deal_pass" : "deal_fail") }))
    );
    article.append(renderFacts(record, i, bd, sv));
    const columns = el("div", { class: "columns" });
    const serverCol = el("section", { class: "server" }, el("h3", { text: t("h_server") }));
    if (sv) serverCol.append(renderServerChecks(sv, bd));
    else if (haveVerdict) serverCol.append(el("p", { class: "banner note", text: t("deal_not_verified_by_server") }));
    else serverCol.append(el("p", { class: "banner note", text: t("server_missing") }));
    const browserCol = el("section", { class: "browser" }, el("h3", { text: t("h_browser") }));
    if (bd) browserCol.append(renderBrowserChecks(bd));
    columns.append(serverCol, browserCol);
    article.append(columns);
    if (bd) article.append(renderRebuilt(record, bd));
    return article;
  }

  function hex(text) {
    return el("span", { class: "hex", dir: "ltr", text: text || t("f_none") });
  }

  function renderFacts(record, i, bd, sv) {
    const deal = (record.deals || [])[i] || {};
    const dl = el("dl", { class: "facts" });
    const row = (key, value, attrs) => {
      dl.append(el("dt", { text: t(key) }), el("dd", attrs || {}, value));
    };
    if (!deal.seed) {
      row("f_secret", t("f_stacked"));
      return dl;
    }
    const recorded = (bd && bd.commitmentRecorded) || (sv && sv.commitment) || null;
    row("f_commitment", hex(recorded), { "data-field": "commitment" });
    const computed = bd ? bd.commitmentComputed : null;
    const same = !!computed && computed === recorded;
    row("f_computed", el("span", {}, hex(computed), " ", el("span", { text: computed ? (same ? "✓" : "✗") : "" })),
      { "data-field": "computed", class: computed ? (same ? "same" : "differs") : "" });
    row("f_secret", hex(deal.seed.secret), { "data-field": "secret" });
    const seeds = el("ul", { class: "seeds", "data-field": "seeds" });
    const list = bd && bd.seeds ? bd.seeds : deal.seed.client_seeds || [];
    list.forEach((seed, s) => {
      const name = (record.seats || [])[s];
      seeds.append(
        el("li", { "data-seat": s + 1 },
          (name ? t("seat_name", { seat: s + 1, name: name }) : t("seat", { seat: s + 1 })) + ": ",
          seed ? el("code", { class: "mono", dir: "ltr", text: JSON.stringify(seed) }) : el("span", { text: t("f_seed_none") }))
      );
    });
    row("f_seeds", seeds);
    row("f_entropy", hex(bd ? bd.entropy : null), { "data-field": "entropy" });
    return dl;
  }

  function stateLabel(status) {
    return t("status_" + status);
  }

  const LONG = 240; // a longer server text (a whole event) is folded away

  function renderCheck(kind, name, status, title, sentence, detail) {
    const li = el("li", { class: "check " + status, "data-check": name, "data-status": status, "data-kind": kind });
    li.append(
      el("div", { class: "head" },
        el("span", { class: "mark", text: status === "pass" ? "✓" : status === "fail" ? "✗" : "–" }),
        el("span", { class: "name", text: title }),
        el("span", { class: "state", text: stateLabel(status) }))
    );
    li.append(el("p", { class: "sentence" }, ...(typeof sentence === "string" ? [sentence] : sentence)));
    if (detail && detail.length > LONG) {
      li.append(
        el("details", { class: "detail" },
          el("summary", { text: t("server_details") }),
          el("p", { dir: "ltr", lang: "en", class: "mono", text: detail }))
      );
    } else if (detail) {
      li.append(el("p", { class: "detail", dir: "ltr", lang: "en" }, t("server_says") + " " + detail));
    }
    return li;
  }

  /** The sentence of a server check in the page's language, and the server's own text
   *  when it says more than the sentence. The engine writes its sentences in English. */
  function serverSentence(check, bd) {
    const detail = check.detail || "";
    const usual = /^not checked: the log differs earlier/.test(detail);
    if (page.lang === "en") {
      if (check.status === "pass" || detail.length <= LONG) return { sentence: detail || t("ss_" + check.status), detail: null };
      const head = detail.split(":")[0]; // e.g. "event 4 differs"
      return { sentence: t("ss_" + check.status) + (head.length < 80 ? " (" + head + ")" : ""), detail: detail };
    }
    if (check.status === "pass") {
      if (check.name === "commitment" && /stacked/i.test(detail)) return { sentence: t("ss_pass_stacked"), detail: null };
      const m = /\((\d+) reshuffle/.exec(detail);
      const count = m ? m[1] : bd ? bd.reshuffles.length : "";
      const key = check.name === "reshuffles" && String(count) === "0" ? "ss_pass_reshuffles_none" : "ss_pass_" + check.name;
      return { sentence: tn(key, { count: count }), detail: null };
    }
    return { sentence: t("ss_" + check.status), detail: usual ? null : detail };
  }

  function renderServerChecks(sv, bd) {
    const ol = el("ol", { class: "checks server-checks" });
    const byName = new Map((sv.checks || []).map((c) => [c.name, c]));
    const names = SERVER_CHECKS.filter((n) => byName.has(n)).concat(
      (sv.checks || []).map((c) => c.name).filter((n) => !SERVER_CHECKS.includes(n))
    );
    for (const name of names) {
      const c = byName.get(name);
      const s = serverSentence(c, bd);
      ol.append(renderCheck("server", name, c.status, t("sc_" + name), s.sentence, s.detail));
    }
    return ol;
  }

  /** Check parameters for a sentence: a differing card by its identity (the copy matters),
   *  the cut card by its face. */
  function browserParams(c) {
    const p = Object.assign({}, c.params);
    const cards =
      ["hand_mismatch", "stock_mismatch", "cut_card_mismatch"].includes(c.code) ||
      (c.name === "reshuffles" && c.code === "mismatch");
    if (cards) {
      for (const key of ["expected", "recorded"]) p[key] = typeof p[key] === "string" ? p[key] : t("nothing");
    }
    if (c.code !== "cut_card_mismatch" && typeof p.card === "string") p.card = Fair.face(p.card);
    return p;
  }

  function renderBrowserChecks(bd) {
    const ol = el("ol", { class: "checks browser-checks" });
    for (const c of bd.checks) {
      ol.append(renderCheck("browser", c.name, c.status, t("bc_" + c.name), tn("b_" + c.name + "_" + c.code, browserParams(c)), null));
    }
    return ol;
  }

  function cardItem(id, note) {
    const f = typeof id === "string" ? Fair.face(id) : "?";
    const suit = f.slice(-1);
    const cls = "card" + (f === "JK" ? " joker" : suit === "H" || suit === "D" ? " red" : "") + (note ? " differs" : "");
    return el("li", { class: cls, title: note ? id + " — " + note : id, "data-card": id }, f);
  }

  function cardList(cards, marks, attrs) {
    const ol = el("ol", Object.assign({ class: "cards numbered" }, attrs || {}));
    cards.forEach((id, k) => ol.append(cardItem(id, marks && marks[k + 1])));
    return ol;
  }

  function renderRebuilt(record, bd) {
    const section = el("section", { class: "rebuilt" }, el("h3", { text: t("h_rebuilt") }));
    if (bd.cut) {
      section.append(
        el("p", { "data-field": "cut" }, ...tn("cut_line", {
          position: bd.cut.position,
          auto: bd.cut.automatic ? t("cut_auto") : "",
          card: Fair.face(bd.cut.card),
          v: bd.cut.count,
          starter: bd.cut.starter,
        }))
      );
    }
    if (bd.starter) {
      section.append(el("p", { "data-field": "dealer" }, ...tn("dealer_line", { dealer: bd.dealer, starter: bd.starter })));
    }
    const failing = bd.checks.find((c) => c.status === "fail");
    const mark = (where) => {
      // the first difference, marked on the card the browser derived
      if (!failing) return null;
      const p = failing.params;
      const note = t("recorded_card", { card: typeof p.recorded === "string" ? p.recorded : t("nothing") });
      if (where.seat && failing.code === "hand_mismatch" && p.seat === where.seat) return { [p.index]: note };
      if (where.stock && failing.code === "stock_mismatch") return { [p.index]: note };
      if (where.reshuffle && failing.code === "mismatch" && failing.name === "reshuffles" && p.number === where.reshuffle) {
        return { [p.index]: note };
      }
      return null;
    };
    if (bd.hands) {
      const hands = el("div", { class: "hands" });
      bd.hands.forEach((hand, s) => {
        const name = (record.seats || [])[s];
        const title = t("hand_title", {
          seat: name ? t("seat_name", { seat: s + 1, name: name }) : t("seat", { seat: s + 1 }),
          count: hand.length,
        });
        const h4 = el("h4", {}, title);
        if (bd.starter === s + 1) h4.append(el("span", { class: "starter", text: t("starter_tag") }));
        hands.append(el("div", { class: "hand", "data-seat": s + 1 }, h4, cardList(hand, mark({ seat: s + 1 }))));
      });
      section.append(hands);
      section.append(
        el("div", { class: "pile", "data-field": "stock" },
          el("h4", { text: t("stock_title", { count: bd.stock.length }) }),
          cardList(bd.stock, mark({ stock: true })))
      );
    } else if (bd.deck) {
      section.append(el("p", { text: t("no_hands") }));
      section.append(
        el("div", { class: "pile", "data-field": "deck" },
          el("h4", { text: t("deck_title", { count: bd.deck.length }) }),
          cardList(bd.deck, null))
      );
    }
    for (const r of bd.reshuffles) {
      section.append(
        el("div", { class: "pile", "data-field": "reshuffle", "data-number": r.number },
          el("h4", { text: t("reshuffle_title", { k: r.number, top: r.top ? Fair.face(r.top) : t("nothing"), count: r.stock.length }) }),
          cardList(r.stock, mark({ reshuffle: r.number })))
      );
    }
    return section;
  }

  // --- a rummy record: its rounds (docs/deal-format.md 10.2) ----------------------------------
  //
  // The browser re-derives each round's deal (fair.js `rederiveRummy`); the play of the round,
  // every move's legality, is the server's check alone, and the page says so.

  const RUMMY_DEAL = ["commitment", "seeds", "first", "deal"];
  // A Bunco round (docs/deal-format.md 10.3): the browser re-derives round 1's seating and
  // every die; the scores, the bell, the movement and the tallies are the server's check.
  const BUNCO_DRAWS = ["commitment", "seeds", "seating", "dice"];
  // A roll of the dice tool (10.4): the browser re-derives its commitment, the phone's seed
  // and its three dice; that every command was accepted is the server's check.
  const DICE_DRAWS = ["commitment", "seeds", "dice"];

  function isRummy(record) {
    return !!record && typeof record === "object" && record.game === "rummy";
  }

  function isBunco(record) {
    return !!record && typeof record === "object" && record.game === "bunco";
  }

  function isDice(record) {
    return !!record && typeof record === "object" && record.game === "dice";
  }

  /** How a record of units (rummy's and Bunco's rounds, the dice tool's rolls) is shown:
   *  `list` names the units in the browser's result and the server's verdict, `key` a
   *  unit's number in the browser's result; `drawn` the events whose difference is the
   *  browser's to find too; `prefix` the game's banners, `checks` its browser sentences. */
  function unitsKind(record) {
    const round = { list: "rounds", key: "round", heading: "round_heading", earlier: "earlier_rounds",
      serverHeading: "h_server_round", pass: "rs_pass", unchecked: "rs_unchecked", checks: "r_" };
    if (isRummy(record)) {
      return Object.assign({}, round, { game: "rummy", prefix: "rummy_", draws: RUMMY_DEAL,
        drawn: /\(RoundDealt\)/, drawsName: "bc_deal" });
    }
    if (isBunco(record)) {
      return Object.assign({}, round, { game: "bunco", prefix: "bunco_", draws: BUNCO_DRAWS,
        drawn: /\((DiceRolled|RollOffRolled|RoundStarted)\)/, drawsName: "bc_dice" });
    }
    if (isDice(record)) {
      return { game: "dice", prefix: "dice_", list: "rolls", key: "roll", heading: "roll_heading",
        earlier: "earlier_rolls", serverHeading: "h_server_roll", pass: "rs_pass_roll",
        unchecked: "rs_unchecked_roll", checks: "d_", draws: DICE_DRAWS, drawn: /\(DiceThrown\)/,
        drawsName: "bc_dice" };
    }
    return null;
  }

  function roundVerdict(verdict, number, kind) {
    const rounds = verdict && Array.isArray(verdict[kind.list]) ? verdict[kind.list] : [];
    return rounds.find((r) => r.number === number) || null;
  }

  /** The server failed this unit on what the browser re-derives: the secret, the
   *  commitment, or the first differing event is a drawn one (the RoundDealt, a die). */
  function dealAtFault(sv, kind) {
    if (sv.passed) return false;
    if (sv.check === "secret" || sv.check === "commitment") return true;
    return sv.check === "events" && kind.drawn.test(sv.detail || "");
  }

  /** Where the browser and the server disagree on a round's deal, and which failures of the
   *  server concern the play (which the browser does not re-check). */
  function compareRummy(verdict, browser, kind) {
    const out = { disagree: [], play: [], perRound: [] };
    if (!verdict || !browser) return out;
    const units = browser[kind.list];
    const many = units.length > 1;
    for (const br of units) {
      const sv = roundVerdict(verdict, br[kind.key], kind);
      const mine = { disagree: false };
      out.perRound.push(mine);
      if (!sv) continue;
      const dealt = groupStatus(br, kind.draws);
      const where = many ? " (" + t(kind.heading, { n: br[kind.key] }) + ")" : "";
      if (sv.passed ? dealt === "fail" : dealAtFault(sv, kind) && dealt === "pass") {
        out.disagree.push(t(kind.drawsName) + where);
        mine.disagree = true;
      } else if (!sv.passed && !dealAtFault(sv, kind) && dealt !== "fail") {
        out.play.push(t("rc_" + (sv.check || "events")) + where);
      }
    }
    if (verdict.passed && !browser.passed && out.disagree.length === 0) {
      out.disagree.push(t("h_browser"));
    }
    return out;
  }

  function renderRummy(view, status, result) {
    const kind = unitsKind(view.record);
    const cmp = compareRummy(view.verdict, view.browser, kind);
    const game = kind.prefix;
    const passed =
      !!view.verdict &&
      view.verdict.passed === true &&
      !!view.browser &&
      view.browser.passed &&
      !view.browserError &&
      cmp.disagree.length === 0;
    const banners = [
      el("div", { class: "banner " + (passed ? "pass" : "fail"), id: "summary", "data-verdict": passed ? "pass" : "fail" },
        t(passed ? game + "summary_pass" : "summary_fail")),
    ];
    if (view.serverError) banners.push(refusalBanner(view.serverError));
    const list = (items) => items.join(page.lang === "ar" ? "، " : ", ");
    let agree;
    if (view.browserError) {
      agree = el("div", { class: "banner warn", "data-agree": "browser-error" },
        ...tn("agree_browser_error", { message: view.browserError }));
    } else if (!view.verdict) {
      agree = el("div", { class: "banner note", "data-agree": "server-missing" }, t("server_missing"));
    } else if (cmp.disagree.length) {
      agree = el("div", { class: "banner fail", "data-agree": "no" }, t("agree_no", { list: list(cmp.disagree) }));
    } else if (!view.verdict.passed && view.browser.passed && cmp.play.length) {
      agree = el("div", { class: "banner note", "data-agree": "play" }, t(game + "agree_play", { list: list(cmp.play) }));
    } else {
      agree = el("div", { class: "banner note", "data-agree": "yes" }, t(game + "agree_yes"));
    }
    agree.id = "agreement";
    banners.push(agree, el("p", { class: "banner note", id: "scope", text: t(game + "scope") }));
    status.replaceChildren(...banners);

    const record = view.record;
    const rounds = (view.browser ? view.browser[kind.list] : []).map((br, i) =>
      renderRound(record, kind, br, roundVerdict(view.verdict, br[kind.key], kind), cmp.perRound[i], !!view.verdict)
    );
    namedLast(result, rounds, view, kind.earlier);
  }

  function seatLabel(record, s) {
    const name = (record.seats || [])[s - 1];
    return name ? t("seat_name", { seat: s, name: name }) : t("seat", { seat: s });
  }

  function renderRound(record, kind, br, sv, cmpRound, haveVerdict) {
    const browserOk = !br.checks.some((c) => c.status === "fail");
    const ok = !!sv && sv.passed && browserOk && !(cmpRound && cmpRound.disagree);
    const number = br[kind.key];
    const article = el("article", {
      class: "deal " + kind.key + " " + (ok ? "pass" : "fail"),
      ["data-" + kind.key]: number,
      "data-verdict": ok ? "pass" : "fail",
    });
    article.append(
      el("h2", {}, t(kind.heading, { n: number }), el("span", { class: "tag", text: t(ok ? "deal_pass" : "deal_fail") }))
    );
    article.append(renderRoundFacts(record, br));
    const serverCol = el("section", { class: "server" }, el("h3", { text: t(kind.serverHeading) }));
    const ol = el("ol", { class: "checks server-checks" });
    if (sv) {
      const name = sv.passed ? kind.key : sv.check || "events";
      const sentence = sv.passed ? t(kind.pass) : t("rs_fail", { check: t("rc_" + name) });
      ol.append(renderCheck("server", name, sv.passed ? "pass" : "fail", t("rc_" + name), sentence, sv.detail || null));
    } else if (haveVerdict) {
      ol.append(renderCheck("server", kind.key, "unchecked", t("rc_" + kind.key), t(kind.unchecked), null));
    }
    serverCol.append(haveVerdict ? ol : el("p", { class: "banner note", text: t("server_missing") }));
    const browserCol = el("section", { class: "browser" }, el("h3", { text: t("h_browser") }));
    const checks = el("ol", { class: "checks browser-checks" });
    for (const c of br.checks) {
      const key = kind.checks + c.name + "_" + c.code + (c.code === "match" && c.params.singletons ? "_singletons" : "");
      checks.append(renderCheck("browser", c.name, c.status, t("bc_" + c.name), tn(key, roundParams(record, c)), null));
    }
    browserCol.append(checks);
    article.append(el("div", { class: "columns" }, serverCol, browserCol));
    if (kind.game === "dice") article.append(renderRollDice(br));
    else article.append(kind.game === "bunco" ? renderRoundDice(br) : renderRoundDeal(record, br));
    return article;
  }

  function renderRoundFacts(record, br) {
    const dl = el("dl", { class: "facts" });
    const row = (key, value, attrs) => dl.append(el("dt", { text: t(key) }), el("dd", attrs || {}, value));
    if (br.variant) row("f_variant", el("bdi", { dir: "ltr", text: br.variant }), { "data-field": "variant" });
    row("f_commitment", hex(br.commitmentRecorded), { "data-field": "commitment" });
    const computed = br.commitmentComputed;
    const same = !!computed && computed === br.commitmentRecorded;
    row("f_computed", el("span", {}, hex(computed), " ", el("span", { text: computed ? (same ? "✓" : "✗") : "" })),
      { "data-field": "computed", class: computed ? (same ? "same" : "differs") : "" });
    row("f_secret", hex(br.secret), { "data-field": "secret" });
    const seeds = el("ul", { class: "seeds", "data-field": "seeds" });
    (br.seeds || []).forEach((seed, i) => {
      seeds.append(
        el("li", { "data-seat": i + 1 }, seatLabel(record, i + 1) + ": ",
          seed ? el("code", { class: "mono", dir: "ltr", text: JSON.stringify(seed) }) : el("span", { text: t("f_seed_none") }))
      );
    });
    row("f_seeds", seeds);
    row("f_entropy", hex(br.entropy), { "data-field": "entropy" });
    if (br.first) row("f_first", seatLabel(record, br.first), { "data-field": "first" });
    return dl;
  }

  /** Check parameters for a sentence: a differing card by its identity, a seat by its name. */
  function roundParams(record, c) {
    const p = Object.assign({}, c.params);
    if (["hand_mismatch", "singleton_mismatch", "stock_mismatch"].includes(c.code)) {
      for (const key of ["expected", "recorded"]) p[key] = typeof p[key] === "string" ? p[key] : t("nothing");
    }
    for (const key of ["seat", "first", "previous"]) {
      if (Number.isInteger(p[key])) p[key] = seatLabel(record, p[key]);
    }
    if (c.code.endsWith("_mismatch") && Number.isInteger(p.recorded)) p.recorded = seatLabel(record, p.recorded);
    return p;
  }

  function renderRoundDeal(record, br) {
    const section = el("section", { class: "rebuilt" }, el("h3", { text: t("h_rebuilt_round") }));
    if (!br.hands) {
      section.append(el("p", { text: t("no_round_hands") }));
      return section;
    }
    const failing = br.checks.find((c) => c.name === "deal" && c.status === "fail");
    const mark = (code, seat) => {
      // the first difference, marked on the card the browser derived
      if (!failing || failing.code !== code || (seat && failing.params.seat !== seat)) return null;
      const p = failing.params;
      return { [p.index]: t("recorded_card", { card: typeof p.recorded === "string" ? p.recorded : t("nothing") }) };
    };
    const hands = el("div", { class: "hands" });
    br.hands.forEach((hand, i) => {
      const h4 = el("h4", {}, t("hand_title", { seat: seatLabel(record, i + 1), count: hand.length }));
      if (br.first === i + 1) h4.append(el("span", { class: "starter", text: t("first_tag") }));
      hands.append(el("div", { class: "hand", "data-seat": i + 1 }, h4, cardList(hand, mark("hand_mismatch", i + 1))));
    });
    section.append(hands);
    if (br.singletons.length) {
      section.append(
        el("div", { class: "pile", "data-field": "singletons" },
          el("h4", { text: t("singletons_title", { count: br.singletons.length }) }),
          cardList(br.singletons, mark("singleton_mismatch")))
      );
    }
    const stockMarks = mark("stock_mismatch");
    const stock = el("details", { class: "pile", "data-field": "stock", "data-count": br.stock.length },
      el("summary", { text: t("stock_title", { count: br.stock.length }) }),
      cardList(br.stock, stockMarks));
    stock.open = !!stockMarks;
    section.append(stock);
    return section;
  }

  /** A Bunco round's dice as the browser drew them, roll by roll in log order, the first
   *  roll whose recorded dice differ marked with what the record says. */
  function renderRoundDice(br) {
    const section = el("section", { class: "rebuilt" }, el("h3", { text: t("h_rebuilt_dice") }));
    if (br.seating) {
      const seating = el("ol", { class: "seating", "data-field": "seating" });
      br.seating.forEach((table, i) =>
        seating.append(el("li", { "data-table": i + 1 }, t("dice_table", { table: i + 1 }) + ": " + table.join(", ")))
      );
      section.append(el("h4", { text: t("seating_title") }), seating);
    }
    if (!br.dice) {
      section.append(el("p", { text: t("no_round_dice") }));
      return section;
    }
    const failing = br.checks.find((c) => c.name === "dice" && c.status === "fail");
    const list = el("ol", { class: "dice", "data-field": "dice", "data-count": br.dice.length });
    br.rolls.forEach((r, k) => {
      const item = el("li", { "data-table": r.table, "data-roll": r.roll },
        t(r.rolloff ? "dice_rolloff" : "dice_roll", { table: r.table, roll: r.roll }) + ": ",
        el("bdi", { dir: "ltr", class: "mono", text: br.dice[k].join(" ") }));
      if (failing && failing.params.table === r.table && failing.params.roll === r.roll) {
        item.classList.add("differs");
        item.append(" ", el("span", { class: "recorded", text: t("recorded_dice", { dice: failing.params.recorded }) }));
      }
      list.append(item);
    });
    const details = el("details", { class: "pile", "data-field": "rolls" },
      el("summary", { text: t("dice_title", { count: br.dice.length }) }), list);
    details.open = !!failing;
    section.append(details);
    return section;
  }

  /** A roll of the dice tool: the three dice the browser drew from the roll's secret and
   *  seed, and, when the record says otherwise, the recorded dice beneath them, the dice
   *  that differ marked. */
  function renderRollDice(br) {
    const section = el("section", { class: "rebuilt" }, el("h3", { text: t("h_rebuilt_roll") }));
    if (br.unrolled) {
      section.append(el("p", { "data-field": "unrolled", text: t("roll_unrolled") }));
      return section;
    }
    if (!br.dice) {
      section.append(el("p", { text: t("no_roll_dice") }));
      return section;
    }
    const failing = br.checks.find((c) => c.name === "dice" && c.status === "fail");
    const recorded = Array.isArray(br.recorded) ? br.recorded : [];
    const differs = (i) => !!failing && recorded[i] !== br.dice[i];
    const row = (field, label, values, note) => {
      const dice = el("ol", { class: "dice-row", dir: "ltr" });
      values.forEach((d, i) =>
        dice.append(el("li", {
          class: "die" + (differs(i) ? " differs" : ""),
          "data-die": i + 1,
          title: differs(i) && note ? note(i) : null,
          text: d,
        }))
      );
      return el("div", { class: "dice-line" + (failing ? " differs" : ""), "data-field": field, "data-dice": values.join(" ") },
        el("span", { class: "label", text: label }), dice);
    };
    section.append(row("dice", t("roll_gives"), br.dice, (i) => t("recorded_dice", { dice: String(recorded[i] ?? t("nothing")) })));
    if (failing && recorded.length) section.append(row("recorded", t("roll_recorded"), recorded, null));
    return section;
  }

  // --- wiring ---------------------------------------------------------------------------------

  function init() {
    const params = new URLSearchParams(window.location.search);
    page.lang = params.get("lang") === "en" ? "en" : "ar";
    document.getElementById("lang").addEventListener("click", () => {
      page.lang = page.lang === "ar" ? "en" : "ar";
      applyLanguage();
    });
    document.getElementById("by-id").addEventListener("submit", (event) => {
      event.preventDefault();
      const id = document.getElementById("deal-id").value.trim();
      if (!id) show({ kind: "error", key: "need_id", message: "" });
      else verifyById(id);
    });
    document.getElementById("by-record").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = document.getElementById("record-text").value.trim();
      if (!text) show({ kind: "error", key: "need_record", message: "" });
      else verifyRecord(text);
    });
    document.getElementById("record-file").addEventListener("change", async (event) => {
      const file = event.target.files && event.target.files[0];
      if (!file) return;
      const text = await file.text();
      document.getElementById("record-text").value = text;
      verifyRecord(text.trim());
    });
    applyLanguage();
    document.body.setAttribute("data-ready", "yes");
    const id = params.get("deal");
    if (id) {
      document.getElementById("deal-id").value = id;
      verifyById(id);
    }
  }

  init();
})();

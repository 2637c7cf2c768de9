/*
 * The Verify page's texts, Arabic (default) and English. Placeholders are {name}.
 * Every key exists in both languages (tests/e2e/test_verify_page.py checks it).
 */
(function (root) {
  "use strict";

  const ar = {
    title: "التحقق من عدالة التوزيع — سهرة",
    heading: "التحقق من عدالة التوزيع",
    intro:
      "بعد انتهاء كل توزيعة يُكشف السرّ الذي خُلطت به أوراقها. تتحقق هذه الصفحة داخل متصفحك " +
      "من أن هذا السرّ يطابق الالتزام المنشور قبل التوزيع، ثم تعيد خلط الأوراق وتوزيعها بنفسها " +
      "وتقارن النتيجة بما سجّله الخادم؛ فلا تحتاج إلى الثقة بالخادم.",
    lang_toggle: "English",
    lang_toggle_title: "Show this page in English",
    deal_id_label: "رقم التوزيعة",
    deal_id_placeholder: "مثلاً: t-42/3",
    verify_id: "تحقّق",
    paste_label: "أو الصق سجلّ التوزيعة (JSON)",
    paste_placeholder: '{"game": "banakil", "seats": [...], "deals": [...]}',
    upload_label: "أو ارفع ملف السجلّ:",
    verify_record: "تحقّق من السجلّ",
    footer:
      "الخوارزمية sahra-fair-v1: ‏SHA-256 و‏HMAC-SHA256 محسوبان في متصفحك (WebCrypto)، " +
      "دون أي مورد خارجي. المواصفة: docs/fairness.md.",
    loading: "جارٍ التحقق…",
    need_id: "اكتب رقم التوزيعة أولاً.",
    need_record: "الصق سجلّ التوزيعة أو ارفع ملفه أولاً.",
    bad_json: "النص ليس {format} صالحاً، فلا يمكن قراءته سجلَّ توزيعة.",
    error: "تعذّر التحقق: رفض الخادم الطلب.",
    error_code: "الرمز {code}، القاعدة {rule_id}",
    network_error: "تعذّر الاتصال بالخادم. تأكّد من الشبكة وحاول مرة أخرى.",
    details_en: "التفاصيل كما وردت (بالإنجليزية)",
    e_bad_deal_id: "رقم التوزيعة {id} ليس بالصيغة الصحيحة: يُكتب رقم الطاولة ثم شرطة ثم رقم التوزيعة، مثلاً {example}.",
    e_no_such_table: "لا توجد على هذا الخادم طاولة للتوزيعة {id}.",
    e_no_such_deal: "لم تبدأ التوزيعة {id} على طاولتها.",
    e_deal_not_finished: "التوزيعة {id} ما زالت تُلعب: يُكشف سرّها ويمكن التحقق منها حين تنتهي.",
    e_commands_not_recorded: "خُزّنت التوزيعة {id} دون أوامر لاعبيها، فلا يمكن إعادة فحص لعبها.",
    e_bad_record: "رفض الخادم السجلّ: ليس سجلّ توزيعة صالحاً.",
    e_unavailable: "الخادم لا يصل الآن إلى قاعدة بياناته؛ حاول بعد قليل.",
    e_status_400: "رفض الخادم الطلب لأنه غير صالح.",
    e_status_404: "لم يجد الخادم ما طلبته.",
    e_status_409: "لا يمكن التحقق من هذا الآن.",
    e_status_5xx: "تعذّر على الخادم إجابة الطلب الآن؛ حاول بعد قليل.",
    earlier_show: "التوزيعات السابقة من هذه الطاولة ({count})، {state}",
    earlier_hide: "إخفاء التوزيعات السابقة",
    earlier_all_pass: "وكلها سليمة",
    earlier_some_fail: "لم يتمّ التحقق من {failed} منها",
    summary_pass: "✓ تمّ التحقق: التوزيعة عادلة، وكل الفحوص ناجحة.",
    summary_fail: "✗ لم يتمّ التحقق: فشل فحص واحد على الأقل (باللون الأحمر أدناه).",
    agree_yes: "متصفحك أعاد حساب كل شيء بنفسه، ونتيجته توافق حكم الخادم.",
    agree_no: "تنبيه: نتيجة متصفحك تخالف حكم الخادم في: {list}.",
    agree_play:
      "متصفحك أكّد الالتزام والخلط والتوزيع؛ أما ما فشل عند الخادم ({list}) فيخصّ اللعب نفسه، " +
      "والمتصفح لا يعيد فحصه.",
    agree_browser_error: "تعذّر على متصفحك إعادة بناء التوزيعة من هذا السجلّ.",
    server_missing: "حكم الخادم غير متاح؛ تظهر فحوص متصفحك وحدها.",
    deal_heading: "التوزيعة {n}",
    deal_pass: "تمّ التحقق",
    deal_fail: "لم يتمّ التحقق",
    deal_not_verified_by_server: "توقّف الخادم قبل هذه التوزيعة لأن توزيعة سابقة فشلت.",
    f_commitment: "الالتزام (المنشور قبل التوزيع)",
    f_computed: "‏SHA-256 للسرّ، محسوباً في متصفحك",
    f_secret: "السرّ المكشوف",
    f_seeds: "بذور اللاعبين",
    f_seed_none: "(لم يُرسل شيئاً)",
    f_entropy: "E (بصمة بذور اللاعبين)",
    f_stacked: "أوراق مرتّبة مسبقاً (للاختبار والدروس): لا سرّ لها",
    f_none: "—",
    seat: "المقعد {seat}",
    seat_name: "المقعد {seat} — {name}",
    h_server: "حكم الخادم خطوة بخطوة",
    h_browser: "فحوص متصفحك",
    h_rebuilt: "التوزيعة كما أعاد متصفحك بناءها",
    cut_line:
      "القطع عند الموضع {position}{auto}: ورقة القطع {card} (قيمتها {v})، فيبدأ المقعد {starter}.",
    cut_auto: " (قطع تلقائي من السرّ)",
    dealer_line: "الموزّع المقعد {dealer}؛ يبدأ المقعد {starter} وله 19 ورقة.",
    hand_title: "{seat} ({count} ورقة)",
    starter_tag: "يبدأ",
    stock_title: "الرزمة، الورقة العليا أولاً ({count} ورقة)",
    reshuffle_title:
      "إعادة الخلط {k}: الأرض تحت ورقتها العليا {top} ({count} ورقة) صارت هذه الرزمة، العليا أولاً",
    no_hands: "لا يمكن إعادة بناء الأيدي بلا المقعد البادئ المسجّل.",
    recorded_card: "في السجلّ: {card}",
    deck_title: "الأوراق بعد الخلط، العليا أولاً ({count} ورقة)",
    status_pass: "ناجح",
    status_fail: "فاشل",
    status_unchecked: "لم يُفحص",
    server_says: "نصّ الخادم:",
    server_details: "نصّ الخادم كاملاً (الحدث المتوقَّع والحدث المسجّل)",
    sc_commitment: "الالتزام",
    sc_deck: "الأوراق الموزّعة",
    sc_reshuffles: "إعادات الخلط",
    sc_draws: "السحب من الرزمة",
    sc_commands: "الأوامر",
    sc_scores: "النقاط",
    sc_match: "المباراة",
    ss_pass_commitment: "السرّ المكشوف يطابق الالتزام المنشور قبل التوزيع.",
    ss_pass_deck: "الأيدي الموزّعة والرزمة ناتجة عن السرّ (وعن القطع).",
    ss_pass_reshuffles: "كل إعادة خلط للأرض ناتجة عن السرّ ({count}).",
    ss_pass_reshuffles_none: "لم تُخلط الأرض من جديد في هذه التوزيعة.",
    ss_pass_draws: "كل ورقة سُحبت كانت الورقة العليا في الرزمة حينها.",
    ss_pass_commands: "كل أمر قانوني وأنتج بالضبط الأحداث المسجّلة.",
    ss_pass_scores: "نقاط التوزيعة هي ما تعطيه القواعد.",
    ss_pass_match: "مجاميع المباراة ونتيجتها هي ما تعطيه القواعد.",
    ss_pass_stacked: "أوراق مرتّبة مسبقاً: لا سرّ لفحصه.",
    ss_fail: "هنا يخالف السجلُّ ما يعطيه السرّ والقواعد.",
    ss_unchecked: "لم يُفحص: اختلف السجلّ في خطوة سابقة.",
    bc_commitment: "الالتزام",
    bc_seeds: "بذور اللاعبين (E)",
    bc_start: "من يبدأ",
    bc_deal: "التوزيع",
    bc_reshuffles: "إعادات الخلط",
    b_commitment_match: "‏SHA-256 للسرّ المكشوف يساوي الالتزام المنشور قبل التوزيع.",
    b_commitment_mismatch:
      "‏SHA-256 للسرّ المكشوف هو {digest}، لكن الالتزام المنشور قبل التوزيع كان {recorded}.",
    b_commitment_revealed_differs:
      "السرّ في السجلّ ({secret}) يختلف عن السرّ المكشوف في الأحداث ({revealed}).",
    b_commitment_no_commitment:
      "لا التزام مسجّلاً لهذه التوزيعة؛ ‏SHA-256 للسرّ هو {digest}: قارنه بالالتزام الذي رأيته على الطاولة.",
    b_commitment_stacked: "أوراق مرتّبة مسبقاً: لا سرّ ولا التزام.",
    b_commitment_bad_secret: "السرّ ليس 64 محرفاً ست عشرياً.",
    b_seeds_match: "‏E المحسوب من بذور اللاعبين يساوي E المسجّل مع التوزيع.",
    b_seeds_mismatch: "‏E المحسوب من بذور اللاعبين هو {e}، لكن المسجّل {recorded}.",
    b_seeds_bad_seed: "بذرة المقعد {seat} ليست من 0 إلى 64 محرفاً مطبوعاً.",
    b_seeds_no_deal: "لم تُوزَّع الأوراق في السجلّ، فلا E مسجّل للمقارنة.",
    b_seeds_no_events: "السجلّ بلا أحداث مسجّلة، فلا E للمقارنة.",
    b_seeds_stacked: "أوراق مرتّبة مسبقاً: لا بذور.",
    b_start_cut:
      "القطع عند الموضع {position} يكشف {card} (قيمتها {v})، فيبدأ المقعد {starter}، كما في السجلّ.",
    b_start_autocut:
      "القطع التلقائي المأخوذ من السرّ عند الموضع {position} يكشف {card} (قيمتها {v})، فيبدأ المقعد {starter}، كما في السجلّ.",
    b_start_no_events_cut:
      "القطع عند الموضع {position} يكشف {card} (قيمتها {v})، فيبدأ المقعد {starter}؛ لا أحداث للمقارنة.",
    b_start_autocut_mismatch: "القطع التلقائي من السرّ عند الموضع {expected}، والسجلّ يقول {recorded}.",
    b_start_cut_card_mismatch: "ورقة القطع عند الموضع {position} هي {expected}، والسجلّ يقول {recorded}.",
    b_start_cut_starter_mismatch: "ورقة القطع {card} تجعل المقعد {expected} يبدأ، والسجلّ يقول {recorded}.",
    b_start_bad_position: "موضع القطع {position} ليس من 1 إلى 105.",
    b_start_draw:
      "السحب العادل من السرّ يختار المقعد {dealer} موزّعاً، فيبدأ المقعد {starter}، كما في السجلّ.",
    b_start_draw_mismatch: "السحب العادل من السرّ يختار المقعد {expected} موزّعاً، والسجلّ يقول {recorded}.",
    b_start_stacked_dealer: "الموزّع المحدّد للأوراق المرتّبة هو المقعد {dealer}، فيبدأ المقعد {starter}، كما في السجلّ.",
    b_start_stacked_dealer_mismatch: "الموزّع المحدّد للأوراق المرتّبة هو المقعد {expected}، والسجلّ يقول {recorded}.",
    b_start_later_deal:
      "في التوزيعات اللاحقة ينتقل البدء حسب القواعد؛ يأخذ المتصفح المقعد المسجّل ({starter}) ويفحصه الخادم.",
    b_start_no_deal: "لم تُوزَّع الأوراق في السجلّ.",
    b_start_no_events: "السجلّ بلا أحداث مسجّلة للمقارنة.",
    b_start_no_deck: "لا يمكن خلط الأوراق بلا سرّ صالح.",
    b_deal_match:
      "أعاد متصفحك الخلط والتوزيع (ورقة ورقة من الأعلى، 18 لكل مقعد ثم الـ19 للبادئ): كل يد والرزمة ({stock} ورقة) تطابق السجلّ.",
    b_deal_hand_mismatch: "يد المقعد {seat}، الورقة {index}: السرّ يعطي {expected}، والسجلّ فيه {recorded}.",
    b_deal_stock_mismatch: "الرزمة، الورقة {index}: السرّ يعطي {expected}، والسجلّ فيه {recorded}.",
    b_deal_seat_count: "في السجلّ {recorded} يد، والمتوقع {expected}.",
    b_deal_dealer_mismatch: "الموزّع المسجّل (المقعد {recorded}) لا يتّفق مع البادئ (المقعد {starter}).",
    b_deal_no_deal: "لم تُوزَّع الأوراق في السجلّ.",
    b_deal_no_events: "السجلّ بلا أحداث: أعاد المتصفح بناء التوزيعة، لكن لا شيء مسجّلاً للمقارنة.",
    b_deal_no_deck: "لا يمكن إعادة بناء الأيدي بلا أوراق مخلوطة ومقعد بادئ.",
    b_reshuffles_match: "كل إعادة خلط للأرض تنتج من السرّ ({count}).",
    b_reshuffles_none: "لم تُخلط الأرض من جديد في هذه التوزيعة.",
    b_reshuffles_mismatch:
      "إعادة الخلط {number}، الورقة {index} من الرزمة الجديدة: السرّ يعطي {expected}، والسجلّ فيه {recorded}.",
    b_reshuffles_numbering: "إعادة الخلط المسجّلة تحمل الرقم {recorded}، والمتوقع {expected}.",
    b_reshuffles_ground_mismatch:
      "الحدث {event}: الأوراق المأخوذة من الأرض ليست أعلى الأرض كما يبنيها السجلّ.",
    b_reshuffles_no_deal: "لم تُوزَّع الأوراق في السجلّ.",
    b_reshuffles_no_events: "السجلّ بلا أحداث مسجّلة للمقارنة.",
    // a rummy record, round by round (the browser re-derives the deal; the server checks the play)
    round_heading: "الجولة {n}",
    rummy_summary_pass: "✓ تمّ التحقق: كل جولة وُزّعت من سرّها، ووجد الخادم كل حركة قانونية.",
    rummy_agree_yes: "أعاد متصفحك بنفسه توزيع كل جولة من سرّها وبذور اللاعبين، ونتيجته توافق حكم الخادم.",
    rummy_agree_play:
      "متصفحك أكّد الالتزام والتوزيع في كل جولة؛ أما ما فشل عند الخادم ({list}) فيخصّ اللعب نفسه، " +
      "والمتصفح لا يعيد فحصه.",
    rummy_scope:
      "يعيد متصفحك بناء توزيع كل جولة من سرّها المكشوف وبذور اللاعبين: الالتزام، والخلط، واللاعب " +
      "الأول، وكل يد موزّعة. أما لعب الجولة (قانونية كل حركة) فيفحصه الخادم، وحكمه معروض بجانبه.",
    earlier_rounds_show: "الجولات السابقة من هذه الطاولة ({count})، {state}",
    earlier_rounds_hide: "إخفاء الجولات السابقة",
    h_server_round: "حكم الخادم على الجولة (التوزيع واللعب)",
    h_rebuilt_round: "توزيع الجولة كما أعاد متصفحك بناءه",
    rc_round: "الجولة كلها",
    rc_options: "خيارات الطاولة",
    rc_secret: "السرّ",
    rc_commitment: "الالتزام",
    rc_commands: "الأوامر",
    rc_events: "الأحداث",
    rs_pass:
      "كل أمر قانوني، والقواعد تعطي من السرّ بالضبط الأحداث المسجّلة: التوزيع وكل سحب وكل طاولة وكل نتيجة.",
    rs_fail: "فشل فحص «{check}»: هنا يخالف السجلُّ ما يعطيه السرّ والقواعد.",
    rs_unchecked: "لم يُفحص: توقّف الخادم عند جولة سابقة فشلت (كل جولة مبنية على ما قبلها).",
    bc_first: "اللاعب الأول",
    f_variant: "النوع",
    f_first: "يلعب أولاً",
    first_tag: "يلعب أولاً",
    singletons_title: "الأوراق المكشوفة المنفردة ({count})",
    no_round_hands: "لا يمكن إعادة بناء الأيدي بلا سرّ صالح ولاعب أول.",
    r_commitment_match: "‏SHA-256 للسرّ المكشوف يساوي الالتزام المنشور قبل الجولة.",
    r_commitment_mismatch:
      "‏SHA-256 للسرّ المكشوف هو {digest}، لكن الالتزام المنشور قبل الجولة كان {recorded}.",
    r_commitment_revealed_differs:
      "السرّ في السجلّ ({secret}) يختلف عن السرّ المكشوف في الأحداث ({revealed}).",
    r_commitment_no_commitment: "لا التزام مسجّلاً لهذه الجولة؛ ‏SHA-256 للسرّ هو {digest}.",
    r_commitment_bad_secret: "السرّ ليس 64 محرفاً ست عشرياً.",
    r_seeds_match: "‏E (المعروض أعلاه) محسوب من البذور التي أرسلها اللاعبون، بترتيب المقاعد.",
    r_seeds_bad_seed: "بذرة {seat} ليست من 0 إلى 64 محرفاً مطبوعاً.",
    r_seeds_listed_differs: "بذرة {seat} في قائمة السجلّ تختلف عن البذرة التي أرسلها.",
    r_first_draw: "السحب العادل من السرّ يختار {first} ليلعب أولاً، كما في السجلّ.",
    r_first_draw_mismatch: "السحب العادل من السرّ يختار {first} ليلعب أولاً، والسجلّ يقول {recorded}.",
    r_first_next: "يلعب {first} أولاً: المقعد التالي لـ{previous} الذي لعب أولاً في الجولة السابقة، كما في السجلّ.",
    r_first_next_mismatch: "المقعد التالي لـ{previous} هو {first}، والسجلّ يقول {recorded}.",
    r_first_numbering: "الجولة في هذا الموضع من السجلّ رقمها {recorded}، والمتوقع {expected}.",
    r_first_no_deck: "لا يمكن السحب بلا سرّ صالح وبذور صالحة.",
    r_first_no_previous: "لا يُعرف اللاعب الأول للجولة السابقة، فلا يُفحص هذا.",
    r_first_no_deal: "لم تُوزَّع الأوراق في السجلّ.",
    r_deal_match:
      "أعاد متصفحك الخلط والتوزيع (من الأعلى، بدءاً باللاعب الأول): كل يد والرزمة ({stock} ورقة) تطابق السجلّ.",
    r_deal_match_singletons:
      "أعاد متصفحك الخلط والتوزيع (من الأعلى، بدءاً باللاعب الأول): كل يد والأوراق المنفردة المكشوفة ({singletons}) والرزمة ({stock} ورقة) تطابق السجلّ.",
    r_deal_hand_mismatch: "يد {seat}، الورقة {index}: السرّ يعطي {expected}، والسجلّ فيه {recorded}.",
    r_deal_singleton_mismatch: "الورقة المنفردة {index}: السرّ يعطي {expected}، والسجلّ فيه {recorded}.",
    r_deal_stock_mismatch: "الرزمة، الورقة {index}: السرّ يعطي {expected}، والسجلّ فيه {recorded}.",
    r_deal_seat_count: "في السجلّ {recorded} يد، والمتوقع {expected}.",
    r_deal_no_deal: "لم تُوزَّع الأوراق في السجلّ.",
    r_deal_no_deck: "لا يمكن إعادة بناء الأيدي بلا سرّ صالح ولاعب أول.",
    // a Bunco record, round by round (the browser re-draws the seating and the dice; the server checks the rest)
    bunco_summary_pass: "✓ تمّ التحقق: كل نردٍ في كل جولة رُمي من سرّها، ووجد الخادم كل نتيجة صحيحة.",
    bunco_agree_yes: "أعاد متصفحك بنفسه رمي كل نرد في كل جولة من سرّها وبذور اللاعبين، ونتيجته توافق حكم الخادم.",
    bunco_agree_play:
      "يؤكّد متصفحك التزام كل جولة ونردها؛ وما فشل عند الخادم ({list}) يخصّ اللعب نفسه (النقاط والجرس والتنقّل)، " +
      "ولا يعيد المتصفح فحصه.",
    bunco_scope:
      "يعيد متصفحك اشتقاق كل جولة من سرّها المكشوف وبذور اللاعبين: الالتزام، وجلوس الجولة الأولى، وكل رمية نرد " +
      "بترتيب السجلّ. أما النقاط والجرس والتنقّل بين الطاولات والحصيلة فيفحصها الخادم، وحكمه معروض بجانبها.",
    bc_seating: "جلوس الجولة الأولى",
    bc_dice: "النرد",
    h_rebuilt_dice: "نرد الجولة كما أعاد متصفحك رميه",
    seating_title: "الجلوس المسحوب من السرّ",
    dice_table: "الطاولة {table}",
    dice_roll: "الطاولة {table}، الرمية {roll}",
    dice_rolloff: "الطاولة {table}، رمية الفصل {roll}",
    dice_title: "الرميات ({count})",
    recorded_dice: "في السجلّ: {dice}",
    no_round_dice: "لا يمكن إعادة رمي النرد بلا سرّ صالح وبذور صالحة.",
    r_seating_draw: "السحب العادل من السرّ يُجلس الأماكن الـ{places} كما في السجلّ.",
    r_seating_draw_mismatch: "الطاولة {table}: السحب من السرّ يعطي {expected}، والسجلّ فيه {recorded}.",
    r_seating_numbering: "الجولة في هذا الموضع من السجلّ رقمها {recorded}، والمتوقع {expected}.",
    r_seating_no_secret: "لا يمكن السحب بلا سرّ صالح وبذور صالحة.",
    r_dice_match: "كل الرميات الـ{rolls} هي ما يعطيه السرّ، بترتيب السجلّ.",
    r_dice_roll_mismatch: "الطاولة {table}، الرمية {roll}: السرّ يعطي {expected}، والسجلّ فيه {recorded}.",
    r_dice_no_secret: "لا يمكن إعادة رمي النرد بلا سرّ صالح وبذور صالحة.",
    // a dice-tool record, roll by roll (the browser re-rolls each roll's three dice; the server checks the commands)
    roll_heading: "الرمية {n}",
    earlier_rolls_show: "الرميات السابقة على هذه الطاولة ({count})، {state}",
    earlier_rolls_hide: "إخفاء الرميات السابقة",
    h_server_roll: "حكم الخادم على الرمية",
    rc_roll: "الرمية كلها",
    rs_pass_roll: "كل أمر مقبول، والقواعد تعطي من السرّ بالضبط الأحداث المسجّلة: أحجار النرد الثلاثة وكشف السرّ.",
    rs_unchecked_roll: "لم يُفحص: توقّف الخادم عند رمية سابقة فشلت (لا يقرأ ما بعدها في سجلّ خالف مرة).",
    dice_summary_pass: "✓ تمّ التحقق: أحجار النرد الثلاثة في كل رمية رُميت من سرّها، ووجد الخادم كل رمية صحيحة.",
    dice_agree_yes: "أعاد متصفحك بنفسه رمي أحجار النرد الثلاثة في كل رمية من سرّها وبذرة الهاتف، ونتيجته توافق حكم الخادم.",
    dice_agree_play:
      "يؤكّد متصفحك التزام كل رمية ونردها؛ وما فشل عند الخادم ({list}) يخصّ أوامر الطاولة (البذرة والرمية والإيقاف)، " +
      "ولا يعيد المتصفح فحصه.",
    dice_scope:
      "يعيد متصفحك اشتقاق كل رمية من سرّها المكشوف وبذرة الهاتف: الالتزام، وE، وأحجار النرد الثلاثة. " +
      "أما قبول كل أمر (البذرة والرمية والإيقاف) وبقية الأحداث فيفحصها الخادم، وحكمه معروض بجانبها.",
    h_rebuilt_roll: "الرمية كما أعاد متصفحك رميها",
    roll_gives: "السرّ يعطي:",
    roll_recorded: "السجلّ يقول:",
    roll_unrolled: "لم تُرمَ هذه الرمية: أوقف الهاتف الطاولة قبلها، وكُشف سرّها مع ذلك.",
    no_roll_dice: "لا يمكن إعادة رمي النرد بلا سرّ صالح وبذرة صالحة.",
    d_commitment_match: "‏SHA-256 للسرّ المكشوف يساوي الالتزام المنشور قبل الرمية.",
    d_commitment_mismatch:
      "‏SHA-256 للسرّ المكشوف هو {digest}، لكن الالتزام المنشور قبل الرمية كان {recorded}.",
    d_commitment_revealed_differs:
      "السرّ في السجلّ ({secret}) يختلف عن السرّ المكشوف في الأحداث ({revealed}).",
    d_commitment_no_commitment: "لا التزام مسجّلاً لهذه الرمية؛ ‏SHA-256 للسرّ هو {digest}.",
    d_commitment_bad_secret: "السرّ ليس 64 محرفاً ست عشرياً.",
    d_seeds_match: "‏E (المعروض أعلاه) هو ‏SHA-256 لبذرة الهاتف (وللبذرة الفارغة إن لم يرسل شيئاً).",
    d_seeds_bad_seed: "بذرة {seat} ليست من 0 إلى 64 محرفاً مطبوعاً.",
    d_seeds_listed_differs: "بذرة {seat} في قائمة السجلّ تختلف عن البذرة التي أرسلها.",
    d_dice_match: "الرمية {roll}: السرّ والبذرة يعطيان {dice}، كما في السجلّ.",
    d_dice_roll_mismatch: "الرمية {roll}: السرّ يعطي {expected}، والسجلّ فيه {recorded}.",
    d_dice_numbering: "الرمية في هذا الموضع من السجلّ رقمها {recorded}، والمتوقع {expected}.",
    d_dice_roll_numbering: "النرد المسجّل هنا للرمية {recorded}، والمتوقع الرمية {expected}.",
    d_dice_many: "في السجلّ {count} رميات للرمية {roll}، والرمية رمية واحدة لثلاثة أحجار نرد.",
    d_dice_no_secret: "لا يمكن إعادة رمي النرد بلا سرّ صالح وبذرة صالحة.",
    d_dice_unrolled: "لم تُرمَ الرمية {roll}: أوقف الهاتف الطاولة قبلها؛ وفُحص التزامها وبذرتها أعلاه.",
    d_dice_no_throw: "لا نرد في السجلّ للرمية {roll}.",
    nothing: "لا شيء",
  };

  const en = {
    title: "Verify a deal — Sahra",
    heading: "Verify that a deal was fair",
    intro:
      "After every deal the secret that shuffled its cards is revealed. This page checks, inside " +
      "your browser, that the secret matches the commitment published before the deal, then " +
      "shuffles and deals the cards again by itself and compares the result with what the " +
      "server recorded, so you do not have to trust the server.",
    lang_toggle: "العربية",
    lang_toggle_title: "اعرض الصفحة بالعربية",
    deal_id_label: "Deal id",
    deal_id_placeholder: "e.g. t-42/3",
    verify_id: "Verify",
    paste_label: "or paste a deal record (JSON)",
    paste_placeholder: '{"game": "banakil", "seats": [...], "deals": [...]}',
    upload_label: "or upload a record file:",
    verify_record: "Verify the record",
    footer:
      "Algorithm sahra-fair-v1: SHA-256 and HMAC-SHA256 computed in your browser (WebCrypto), " +
      "with no external resource. Specification: docs/fairness.md.",
    loading: "Verifying…",
    need_id: "Enter a deal id first.",
    need_record: "Paste a deal record or upload its file first.",
    bad_json: "The text is not valid JSON: {message}",
    error: "Could not verify: {message}",
    error_code: "code {code}, rule {rule_id}",
    network_error: "Could not reach the server: {message}",
    details_en: "Details",
    e_bad_deal_id: "Could not verify: {message}",
    e_no_such_table: "Could not verify: {message}",
    e_no_such_deal: "Could not verify: {message}",
    e_deal_not_finished: "Could not verify: {message}",
    e_commands_not_recorded: "Could not verify: {message}",
    e_bad_record: "The server refused the record: {message}",
    e_unavailable: "Could not verify: {message}",
    e_status_400: "Could not verify: {message}",
    e_status_404: "Could not verify: {message}",
    e_status_409: "Could not verify: {message}",
    e_status_5xx: "Could not verify: {message}",
    earlier_show: "Earlier deals of this table ({count}): {state}",
    earlier_hide: "Hide the earlier deals",
    earlier_all_pass: "all verified",
    earlier_some_fail: "{failed} not verified",
    summary_pass: "✓ Verified: the deal was fair and every check passed.",
    summary_fail: "✗ Not verified: at least one check failed (in red below).",
    agree_yes: "Your browser recomputed everything by itself and agrees with the server's verdict.",
    agree_no: "Warning: your browser's result and the server's verdict disagree on: {list}.",
    agree_play:
      "Your browser confirms the commitment, the shuffle and the deal; what failed on the server " +
      "({list}) concerns the play itself, which the browser does not re-check.",
    agree_browser_error: "Your browser could not rebuild the deal: {message}",
    server_missing: "The server's verdict is unavailable; only your browser's checks are shown.",
    deal_heading: "Deal {n}",
    deal_pass: "verified",
    deal_fail: "not verified",
    deal_not_verified_by_server: "The server stopped before this deal because an earlier deal failed.",
    f_commitment: "Commitment (published before the deal)",
    f_computed: "SHA-256 of the secret, computed in your browser",
    f_secret: "Revealed secret",
    f_seeds: "Client seeds",
    f_seed_none: "(sent none)",
    f_entropy: "E (hash of the client seeds)",
    f_stacked: "A stacked deck (tests and tutorials): it has no secret",
    f_none: "—",
    seat: "Seat {seat}",
    seat_name: "Seat {seat} — {name}",
    h_server: "The server's verdict, step by step",
    h_browser: "Your browser's checks",
    h_rebuilt: "The deal as your browser rebuilt it",
    cut_line: "Cut at position {position}{auto}: the cut card is {card} (count {v}), so seat {starter} starts.",
    cut_auto: " (automatic, drawn from the secret)",
    dealer_line: "Seat {dealer} deals; seat {starter} starts and gets 19 cards.",
    hand_title: "{seat} ({count} cards)",
    starter_tag: "starts",
    stock_title: "Stock, top card first ({count} cards)",
    reshuffle_title:
      "Reshuffle {k}: the ground under its top card {top} ({count} cards) became this stock, top first",
    no_hands: "The hands cannot be rebuilt without the recorded starting seat.",
    recorded_card: "the record has {card}",
    deck_title: "The shuffled deck, top card first ({count} cards)",
    status_pass: "pass",
    status_fail: "fail",
    status_unchecked: "not checked",
    server_says: "The server's words:",
    server_details: "The server's full text (the expected and the recorded event)",
    sc_commitment: "Commitment",
    sc_deck: "Dealt cards",
    sc_reshuffles: "Reshuffles",
    sc_draws: "Draws from the stock",
    sc_commands: "Commands",
    sc_scores: "Scores",
    sc_match: "Match",
    ss_pass_commitment: "The revealed seed hashes to the commitment shown before the deal.",
    ss_pass_deck: "The dealt hands and the stock follow from the seed (and the cut).",
    ss_pass_reshuffles: "Every reshuffle of the ground follows from the seed ({count}).",
    ss_pass_reshuffles_none: "The ground was not reshuffled in this deal.",
    ss_pass_draws: "Every drawn card is the top card of the stock at that moment.",
    ss_pass_commands: "Every command is legal and produced exactly the recorded events.",
    ss_pass_scores: "The deal's scores are what the rules give.",
    ss_pass_match: "The match totals and result are what the rules give.",
    ss_pass_stacked: "A stacked deck: no seed to check.",
    ss_fail: "Here the record differs from what the seed and the rules give.",
    ss_unchecked: "Not checked: the log differs earlier.",
    bc_commitment: "Commitment",
    bc_seeds: "Client seeds (E)",
    bc_start: "Who starts",
    bc_deal: "The deal",
    bc_reshuffles: "Reshuffles",
    b_commitment_match: "SHA-256 of the revealed secret equals the commitment published before the deal.",
    b_commitment_mismatch:
      "SHA-256 of the revealed secret is {digest}, but the commitment published before the deal was {recorded}.",
    b_commitment_revealed_differs:
      "The record's secret ({secret}) differs from the secret revealed in the events ({revealed}).",
    b_commitment_no_commitment:
      "No commitment is recorded for this deal; SHA-256 of the secret is {digest}: compare it with the commitment you saw at the table.",
    b_commitment_stacked: "A stacked deck: no secret and no commitment.",
    b_commitment_bad_secret: "The secret is not 64 hex characters.",
    b_seeds_match: "E computed from the client seeds equals the E recorded with the deal.",
    b_seeds_mismatch: "E computed from the client seeds is {e}, but the deal records {recorded}.",
    b_seeds_bad_seed: "The client seed of seat {seat} is not 0 to 64 printable characters.",
    b_seeds_no_deal: "The record has no dealt cards, so no recorded E to compare.",
    b_seeds_no_events: "The record has no recorded events, so no E to compare.",
    b_seeds_stacked: "A stacked deck: no seeds.",
    b_start_cut: "Cutting at position {position} exposes {card} (count {v}), so seat {starter} starts, as recorded.",
    b_start_autocut:
      "The automatic cut drawn from the secret is at position {position}; it exposes {card} (count {v}), so seat {starter} starts, as recorded.",
    b_start_no_events_cut:
      "Cutting at position {position} exposes {card} (count {v}), so seat {starter} starts; no events to compare.",
    b_start_autocut_mismatch: "The automatic cut drawn from the secret is at position {expected}, the record says {recorded}.",
    b_start_cut_card_mismatch: "The cut card at position {position} is {expected}, the record says {recorded}.",
    b_start_cut_starter_mismatch: "The cut card {card} makes seat {expected} start, the record says {recorded}.",
    b_start_bad_position: "The cut position {position} is not from 1 to 105.",
    b_start_draw: "The fair draw from the secret picks seat {dealer} as dealer, so seat {starter} starts, as recorded.",
    b_start_draw_mismatch: "The fair draw from the secret picks seat {expected} as dealer, the record says {recorded}.",
    b_start_stacked_dealer: "The stacked deck's dealer is seat {dealer}, so seat {starter} starts, as recorded.",
    b_start_stacked_dealer_mismatch: "The stacked deck's dealer is seat {expected}, the record says {recorded}.",
    b_start_later_deal:
      "In later deals the start moves on by the rules; the browser takes the recorded seat ({starter}) and the server checks it.",
    b_start_no_deal: "The record has no dealt cards.",
    b_start_no_events: "The record has no recorded events to compare.",
    b_start_no_deck: "The cards cannot be shuffled without a valid secret.",
    b_deal_match:
      "Your browser shuffled and dealt again (one card at a time from the top, 18 each, then the 19th to the starter): every hand and the stock ({stock} cards) equal the record.",
    b_deal_hand_mismatch: "Seat {seat}'s hand, card {index}: the secret gives {expected}, the record has {recorded}.",
    b_deal_stock_mismatch: "The stock, card {index}: the secret gives {expected}, the record has {recorded}.",
    b_deal_seat_count: "The record has {recorded} hands, expected {expected}.",
    b_deal_dealer_mismatch: "The recorded dealer (seat {recorded}) does not fit the starter (seat {starter}).",
    b_deal_no_deal: "The record has no dealt cards.",
    b_deal_no_events: "The record has no events: the browser rebuilt the deal, but there is nothing recorded to compare.",
    b_deal_no_deck: "The hands cannot be rebuilt without a shuffled deck and a starting seat.",
    b_reshuffles_match: "Every reshuffle of the ground follows from the secret ({count}).",
    b_reshuffles_none: "The ground was not reshuffled in this deal.",
    b_reshuffles_mismatch:
      "Reshuffle {number}, card {index} of the new stock: the secret gives {expected}, the record has {recorded}.",
    b_reshuffles_numbering: "The recorded reshuffle is number {recorded}, expected {expected}.",
    b_reshuffles_ground_mismatch: "Event {event}: the cards taken from the ground are not the top of the ground the log builds.",
    b_reshuffles_no_deal: "The record has no dealt cards.",
    b_reshuffles_no_events: "The record has no recorded events to compare.",
    // a rummy record, round by round (the browser re-derives the deal; the server checks the play)
    round_heading: "Round {n}",
    rummy_summary_pass: "✓ Verified: every round was dealt from its secret, and the server found every move legal.",
    rummy_agree_yes:
      "Your browser dealt every round again by itself, from its secret and the seats' seeds, and agrees with the server's verdict.",
    rummy_agree_play:
      "Your browser confirms each round's commitment and deal; what failed on the server ({list}) " +
      "concerns the play itself, which the browser does not re-check.",
    rummy_scope:
      "Your browser re-derives each round's deal from its revealed secret and the seats' seeds: the " +
      "commitment, the shuffle, the first player and every dealt hand. The play of the round (whether " +
      "every move was legal) is checked by the server, whose verdict is shown beside it.",
    earlier_rounds_show: "Earlier rounds of this table ({count}): {state}",
    earlier_rounds_hide: "Hide the earlier rounds",
    h_server_round: "The server's verdict on the round (deal and play)",
    h_rebuilt_round: "The round's deal as your browser rebuilt it",
    rc_round: "The whole round",
    rc_options: "Table options",
    rc_secret: "Secret",
    rc_commitment: "Commitment",
    rc_commands: "Commands",
    rc_events: "Events",
    rs_pass:
      "Every command is legal, and the rules derive exactly the recorded events from the secret: the deal, every draw, every table and every score.",
    rs_fail: "The \u201c{check}\u201d check failed: here the record differs from what the secret and the rules give.",
    rs_unchecked: "Not checked: the server stopped at an earlier round that failed (each round depends on the ones before it).",
    bc_first: "First player",
    f_variant: "Variant",
    f_first: "Plays first",
    first_tag: "plays first",
    singletons_title: "Face-up singletons ({count})",
    no_round_hands: "The hands cannot be rebuilt without a valid secret and a first player.",
    r_commitment_match: "SHA-256 of the revealed secret equals the commitment published before the round.",
    r_commitment_mismatch:
      "SHA-256 of the revealed secret is {digest}, but the commitment published before the round was {recorded}.",
    r_commitment_revealed_differs:
      "The record's secret ({secret}) differs from the secret revealed in the events ({revealed}).",
    r_commitment_no_commitment: "No commitment is recorded for this round; SHA-256 of the secret is {digest}.",
    r_commitment_bad_secret: "The secret is not 64 hex characters.",
    r_seeds_match: "E (shown above) is computed from the seeds the seats sent, in seat order.",
    r_seeds_bad_seed: "The client seed of {seat} is not 0 to 64 printable characters.",
    r_seeds_listed_differs: "The record lists another client seed for {seat} than the one it sent.",
    r_first_draw: "The fair draw from the secret picks {first} to play first, as recorded.",
    r_first_draw_mismatch: "The fair draw from the secret picks {first} to play first, the record says {recorded}.",
    r_first_next: "{first} plays first: one seat on from {previous}, who played first in the round before, as recorded.",
    r_first_next_mismatch: "One seat on from {previous} is {first}, the record says {recorded}.",
    r_first_numbering: "The round at this place in the record is numbered {recorded}, expected {expected}.",
    r_first_no_deck: "Nothing can be drawn without a valid secret and valid seeds.",
    r_first_no_previous: "The first player of the round before is not known, so this is not checked.",
    r_first_no_deal: "The record has no dealt cards.",
    r_deal_match:
      "Your browser shuffled and dealt again (from the top, the first player first): every hand and the stock ({stock} cards) equal the record.",
    r_deal_match_singletons:
      "Your browser shuffled and dealt again (from the top, the first player first): every hand, the {singletons} face-up singletons and the stock ({stock} cards) equal the record.",
    r_deal_hand_mismatch: "{seat}'s hand, card {index}: the secret gives {expected}, the record has {recorded}.",
    r_deal_singleton_mismatch: "Singleton {index}: the secret gives {expected}, the record has {recorded}.",
    r_deal_stock_mismatch: "The stock, card {index}: the secret gives {expected}, the record has {recorded}.",
    r_deal_seat_count: "The record has {recorded} hands, expected {expected}.",
    r_deal_no_deal: "The record has no dealt cards.",
    r_deal_no_deck: "The hands cannot be rebuilt without a valid secret and a first player.",
    // a Bunco record, round by round (the browser re-draws the seating and the dice; the server checks the rest)
    bunco_summary_pass: "✓ Verified: every die of every round was rolled from its secret, and the server found every result right.",
    bunco_agree_yes:
      "Your browser rolled every die of every round again by itself, from its secret and the seats' seeds, and agrees with the server's verdict.",
    bunco_agree_play:
      "Your browser confirms each round's commitment and dice; what failed on the server ({list}) " +
      "concerns the play itself (the scores, the bell, the movement), which the browser does not re-check.",
    bunco_scope:
      "Your browser re-derives each round from its revealed secret and the seats' seeds: the commitment, round 1's " +
      "seating and every roll's dice in the order of the log. The scores, the bell, the movement between tables and " +
      "the tallies are checked by the server, whose verdict is shown beside it.",
    bc_seating: "Round 1's seating",
    bc_dice: "The dice",
    h_rebuilt_dice: "The round's dice as your browser rolled them again",
    seating_title: "The seating drawn from the secret",
    dice_table: "Table {table}",
    dice_roll: "Table {table}, roll {roll}",
    dice_rolloff: "Table {table}, roll-off roll {roll}",
    dice_title: "Rolls ({count})",
    recorded_dice: "recorded: {dice}",
    no_round_dice: "The dice cannot be rolled again without a valid secret and valid seeds.",
    r_seating_draw: "The fair draw from the secret seats the {places} places as recorded.",
    r_seating_draw_mismatch: "Table {table}: the draw from the secret gives {expected}, the record says {recorded}.",
    r_seating_numbering: "The round at this place of the record is numbered {recorded}, expected {expected}.",
    r_seating_no_secret: "The draw cannot be made without a valid secret and valid seeds.",
    r_dice_match: "All {rolls} rolls are what the secret gives, in the order of the log.",
    r_dice_roll_mismatch: "Table {table}, roll {roll}: the secret gives {expected}, the record says {recorded}.",
    r_dice_no_secret: "The dice cannot be rolled again without a valid secret and valid seeds.",
    // a dice-tool record, roll by roll (the browser re-rolls each roll's three dice; the server checks the commands)
    roll_heading: "Roll {n}",
    earlier_rolls_show: "Earlier rolls of this table ({count}): {state}",
    earlier_rolls_hide: "Hide the earlier rolls",
    h_server_roll: "The server's verdict on the roll",
    rc_roll: "The whole roll",
    rs_pass_roll: "Every command is accepted, and the rules derive exactly the recorded events from the secret: the three dice and the reveal.",
    rs_unchecked_roll: "Not checked: the server stopped at an earlier roll that failed (a record that differed once is not read further).",
    dice_summary_pass: "✓ Verified: every roll's three dice were rolled from its secret, and the server found every roll right.",
    dice_agree_yes:
      "Your browser rolled every roll's three dice again by itself, from its secret and the phone's seed, and agrees with the server's verdict.",
    dice_agree_play:
      "Your browser confirms each roll's commitment and dice; what failed on the server ({list}) " +
      "concerns the table's commands (the seed, the roll, the stop), which the browser does not re-check.",
    dice_scope:
      "Your browser re-derives each roll from its revealed secret and the phone's client seed: the commitment, E " +
      "and the three dice. That every command (the seed, the roll, the stop) was accepted, and the other events, " +
      "are checked by the server, whose verdict is shown beside it.",
    h_rebuilt_roll: "The roll as your browser rolled it again",
    roll_gives: "The secret gives:",
    roll_recorded: "The record says:",
    roll_unrolled: "Not rolled: the phone stopped the table first; its secret is revealed all the same.",
    no_roll_dice: "The dice cannot be rolled again without a valid secret and a valid seed.",
    d_commitment_match: "SHA-256 of the revealed secret equals the commitment published before the roll.",
    d_commitment_mismatch:
      "SHA-256 of the revealed secret is {digest}, but the commitment published before the roll was {recorded}.",
    d_commitment_revealed_differs:
      "The record's secret ({secret}) differs from the secret revealed in the events ({revealed}).",
    d_commitment_no_commitment: "No commitment is recorded for this roll; SHA-256 of the secret is {digest}.",
    d_commitment_bad_secret: "The secret is not 64 hex characters.",
    d_seeds_match: "E (shown above) is SHA-256 of the phone's client seed (of the empty seed when it sent none).",
    d_seeds_bad_seed: "The client seed of {seat} is not 0 to 64 printable characters.",
    d_seeds_listed_differs: "The record lists another client seed for {seat} than the one it sent.",
    d_dice_match: "Roll {roll}: the secret and the seed give {dice}, as recorded.",
    d_dice_roll_mismatch: "Roll {roll}: the secret gives {expected}, the record says {recorded}.",
    d_dice_numbering: "The roll at this place of the record is numbered {recorded}, expected {expected}.",
    d_dice_roll_numbering: "The dice recorded here are roll {recorded}'s, expected roll {expected}'s.",
    d_dice_many: "The record has {count} throws for roll {roll}; a roll is one throw of three dice.",
    d_dice_no_secret: "The dice cannot be rolled again without a valid secret and a valid seed.",
    d_dice_unrolled: "Roll {roll} was not rolled: the phone stopped the table first; its commitment and seed are checked above.",
    d_dice_no_throw: "The record has no dice for roll {roll}.",
    nothing: "nothing",
  };

  const dir = { ar: "rtl", en: "ltr" };

  function has(lang, key) {
    return Object.prototype.hasOwnProperty.call(lang === "en" ? en : ar, key);
  }

  /** The text of `key` as pieces: {text} for the sentence's own words, {param, value} for
   *  each value put in it, so a page can give each value its own element (`bdi`). */
  function parts(lang, key, params) {
    const text = has(lang, key) ? (lang === "en" ? en : ar)[key] : key;
    const out = [];
    let last = 0;
    text.replace(/\{(\w+)\}/g, (whole, name, at) => {
      if (!params || params[name] === undefined || params[name] === null) return whole;
      if (at > last) out.push({ text: text.slice(last, at) });
      out.push({ param: name, value: String(params[name]) });
      last = at + whole.length;
      return whole;
    });
    if (last < text.length) out.push({ text: text.slice(last) });
    return out;
  }

  function format(lang, key, params) {
    const table = lang === "en" ? en : ar;
    const text = Object.prototype.hasOwnProperty.call(table, key) ? table[key] : key;
    // Each value is a bidi isolate (FSI … PDI): a card such as "7H#2", a hex string or a
    // Latin name keeps its own order inside an Arabic sentence, and the reverse.
    return text.replace(/\{(\w+)\}/g, (whole, name) =>
      params && params[name] !== undefined && params[name] !== null
        ? "\u2068" + String(params[name]) + "\u2069"
        : whole
    );
  }

  root.SahraI18n = { ar: ar, en: en, dir: dir, format: format, parts: parts, has: has };
})(globalThis);

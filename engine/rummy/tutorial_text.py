"""What the Manipulation lesson says, in English and Arabic (PF-MODE-3).

Every sentence is built from the lesson's script and the rules' own events (the card
drawn, the reminder's card, the round's points), never typed with a card in it, so a new
secret or script cannot leave a text naming the wrong card. Cards are written as faces
with suit signs ("7♥"), the same in both languages. The texts are short: a client shows
one instruction at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.lessons import Text
from engine.rummy.messages import CardsDrawn, Command, Event, Play, PlayReminded, RoundScored
from engine.rummy.state import State

__all__ = [
    "CLOSING",
    "OVER",
    "SUMMARY",
    "TITLE",
    "WELCOME",
    "instruction",
    "outcome",
    "refusal",
]

_SIGNS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

TITLE = Text(en="Manipulation, step by step", ar="رمي المناورة خطوةً بخطوة")
SUMMARY = Text(
    en="Seven steps against the computer, on the same deal every time: lay a set, add to a "
    "group, draw when you cannot play, rearrange the table, meet the reminder, and go out.",
    ar="سبع خطوات أمام الحاسوب، على التوزيعة نفسها في كل مرة: ضع طقماً، وأضف إلى مجموعة، "
    "واسحب حين لا تستطيع اللعب، وأعد ترتيب الطاولة، وتعرّف على التذكير، ثم أنهِ أوراقك.",
)
WELCOME = Text(
    en="You are seat 1, the computer seat 2; each of you holds 7 cards. A group on the table "
    "is a set (3 or 4 cards of one rank, all suits different) or a run (3 or more cards of "
    "one suit in a row, the ace above the king). This deal comes from a published secret, "
    "so it is the same every time.",
    ar="أنت المقعد 1 والحاسوب المقعد 2، ومع كلٍّ منكما 7 أوراق. المجموعة على الطاولة إمّا "
    "طقم (3 أو 4 أوراق من الرقم نفسه، كلٌّ من نوع مختلف) وإمّا سلسلة (3 أوراق أو أكثر من "
    "النوع نفسه متتالية، والآص فوق الملك). هذه التوزيعة مأخوذة من سرّ منشور، فهي نفسها في "
    "كل مرة.",
)
CLOSING = Text(
    en="The lesson is over: you laid a set, added to a group, drew when you could not play, "
    "rearranged the table, met the reminder and went out. Try a real game against the "
    "computer next.",
    ar="انتهى الدرس: وضعت طقماً، وأضفت إلى مجموعة، وسحبت حين لم تستطع اللعب، وأعدت ترتيب "
    "الطاولة، ورأيت التذكير، وأنهيت أوراقك. جرّب الآن لعبة حقيقية أمام الحاسوب.",
)
OVER = Text(
    en="The lesson is over: there is no step left. Start it again to replay it.",
    ar="انتهى الدرس ولم تبقَ خطوات. ابدأه من جديد لتعيده.",
)


def instruction(topic: str, move: Any, state: State) -> Text:
    """What to do at a step about `topic`, whose move is `move`, at `state`."""
    table = state.table
    match topic:
        case "draw_nothing":
            return Text(
                en="None of your cards can be played: your hand holds no set or run, and "
                "no card of it fits the table, even by rearranging it. Press Draw: you take "
                "one card and your turn goes on.",
                ar="لا يمكن لعب أي ورقة من أوراقك: ليس في يدك طقم ولا سلسلة، ولا تناسب أي "
                "ورقة منها الطاولة ولو أعدت ترتيبها. اضغط «اسحب»: تأخذ ورقة واحدة ويستمر "
                "دورك.",
            )
        case "lay":
            cards = move[0][1]
            en_kind, ar_kind = _kind(cards)
            return Text(
                en=f"Your hand holds the {en_kind} {_show(cards)}. Lay it on the table as a "
                "new group: playing cards ends your turn.",
                ar=f"في يدك {ar_kind} {_show(cards)}. ضعه على الطاولة مجموعةً جديدة: لعب "
                "الأوراق ينهي دورك.",
            )
        case "add":
            _, i, cards = move[0]
            return Text(
                en=f"{_show(cards)} fits the group {_show(table[i])} on the table. Add it "
                "there: your cards may join any group, the computer's too.",
                ar=f"الورقة {_show(cards)} تناسب المجموعة {_show(table[i])} على الطاولة. "
                "أضفها إليها: يمكن لأوراقك أن تنضم إلى أي مجموعة، حتى مجموعات الحاسوب.",
            )
        case "take":
            _, taken, cards = move[0]
            formed = (*(c for _, c in taken), *cards)
            en_kind, ar_kind = _kind(formed)
            en_take, ar_take = _takes(table, taken)
            return Text(
                en=f"Now rearrange the table: {en_take}, and form the {en_kind} "
                f"{_show(formed)} with {_show(cards)} from your hand. You may split and move "
                "groups freely if every group is valid when you are done and you add a card "
                "from your hand.",
                ar=f"أعد الآن ترتيب الطاولة: {ar_take}، وكوّن {ar_kind} {_show(formed)} مع "
                f"{_show(cards)} من يدك. يمكنك تقسيم المجموعات ونقلها بحرية بشرط أن تكون كل "
                "مجموعة صحيحة في النهاية وأن تضيف ورقة من يدك.",
            )
        case "remind":
            return Text(
                en="You can play now. Press Draw anyway, to see what the table does: whoever "
                "can play must play.",
                ar="يمكنك اللعب الآن. اضغط «اسحب» مع ذلك لترى ما تفعله الطاولة: من يستطيع "
                "اللعب عليه أن يلعب.",
            )
        case "play":
            en, ar = _edits(move, table)
            return Text(
                en=f"Play what the reminder showed: {en}.",
                ar=f"العب ما أظهره التذكير: {ar}.",
            )
        case "out":
            en, ar = _edits(move, table)
            return Text(
                en=f"Your last card can be played: {en}. Your hand is then empty, which ends "
                "the round at once.",
                ar=f"يمكن لعب ورقتك الأخيرة: {ar}. تصبح يدك فارغة فتنتهي الجولة فوراً.",
            )
    raise ValueError(f"no text for the topic {topic!r}")


def outcome(
    topic: str,
    move: Any,
    before: State,
    events: Sequence[Event],
    computer: Sequence[Command],
) -> Text:
    """What the step about `topic` did (its `events`), then the computer's turn."""
    table = before.table
    match topic:
        case "draw_nothing":
            drawn = next(e for e in events if isinstance(e, CardsDrawn)).cards
            said = Text(
                en=f"You drew {_show(drawn)}. Drawing never ends your turn here: you draw "
                "until you can play.",
                ar=f"سحبت {_show(drawn)}. السحب لا ينهي دورك هنا: تسحب حتى تستطيع اللعب.",
            )
        case "lay":
            said = Text(
                en=f"You laid {_show(move[0][1])}; your turn is over.",
                ar=f"وضعت {_show(move[0][1])} وانتهى دورك.",
            )
        case "add":
            _, i, cards = move[0]
            said = Text(
                en=f"You added {_show(cards)} to {_show(table[i])}.",
                ar=f"أضفت {_show(cards)} إلى {_show(table[i])}.",
            )
        case "take":
            _, taken, cards = move[0]
            formed = (*(c for _, c in taken), *cards)
            en_take, ar_take = _takes(table, taken, done=True)
            said = Text(
                en=f"You {en_take}, and formed {_show(formed)}.",
                ar=f"{ar_take}، وكوّنت {_show(formed)}.",
            )
        case "remind":
            hint = next(e for e in events if isinstance(e, PlayReminded))
            shown = _show([hint.card])
            where = " | ".join(_show(table[g]) for g in hint.groups)
            en_where, ar_where = (f" on {where}", f" على {where}") if where else ("", "")
            said = Text(
                en=f"Nothing was drawn: the table reminds you that {shown} can be played"
                f"{en_where}. Pressing Draw again would draw all the same.",
                ar=f"لم تُسحب أي ورقة: الطاولة تذكّرك بأن {shown} يمكن لعبها{ar_where}. "
                "الضغط على «اسحب» مرة ثانية يسحب رغم ذلك.",
            )
        case "play":
            en, ar = _edits(move, table, done=True)
            said = Text(en=f"You {en}.", ar=f"{ar}.")
        case "out":
            scored = next(e for e in events if isinstance(e, RoundScored))
            points = sum(scored.points)
            said = Text(
                en=f"You put down your last card and won the round. The computer is charged "
                f"{points} points for the cards left in its hand. The round's secret is now "
                "revealed, so anyone can check this deal.",
                ar=f"وضعت ورقتك الأخيرة وفزت بالجولة. يُحسب على الحاسوب {points} نقطة عن "
                "الأوراق الباقية في يده. كُشف الآن سرّ الجولة، فيمكن لأي أحد التحقق من هذه "
                "التوزيعة.",
            )
        case _:
            raise ValueError(f"no text for the topic {topic!r}")
    if not computer:
        return said
    turn = _computer(computer)
    return Text(en=f"{said.en} {turn.en}", ar=f"{said.ar} {turn.ar}")


def refusal(kind: str, allowed: bool, topic: str, move: Any, state: State) -> Text:
    """Why the lesson refused a command (`kind`: "move" for another Play, "command" for
    another kind of command; `allowed`: the rules would take it), and what to do instead."""
    if kind == "move":
        why = (
            Text(
                en="That move is legal in a real game, but it is not this lesson's.",
                ar="هذه الحركة مسموحة في لعبة حقيقية، لكنها ليست حركة هذا الدرس.",
            )
            if allowed
            else Text(
                en="That move is not this lesson's (and the rules would refuse it too).",
                ar="هذه ليست حركة هذا الدرس (والقواعد ترفضها أيضاً).",
            )
        )
    else:
        why = (
            Text(
                en="The rules would allow that now, but this step asks for something else.",
                ar="القواعد تسمح بذلك الآن، لكن هذه الخطوة تطلب شيئاً آخر.",
            )
            if allowed
            else Text(
                en="That is not what this step asks for.",
                ar="هذا ليس ما تطلبه هذه الخطوة.",
            )
        )
    do = instruction(topic, move, state)
    return Text(en=f"{why.en} {do.en}", ar=f"{why.ar} {do.ar}")


def _computer(commands: Sequence[Command]) -> Text:
    """The computer's turn: how many cards it drew, and what it played."""
    draws = sum(not isinstance(c, Play) for c in commands)
    plays = [c for c in commands if isinstance(c, Play)]
    en: list[str] = []
    ar: list[tuple[str, str]] = []  # (verb, object): the subject follows the first verb
    if draws:
        en.append(f"drew {draws} card{'s' if draws > 1 else ''}")
        ar.append(("سحب", _ar_cards(draws)))
    for play in plays:
        added = set(play.added)
        for group in play.table:
            mine = [c for c in group if c in added]
            if not mine:
                continue
            if len(mine) == len(group):
                en.append(f"laid {_show(group)}")
                ar.append(("وضع", _show(group)))
            else:
                en.append(f"added {_show(mine)} to make {_show(group)}")
                ar.append(("أضاف", f"{_show(mine)} فصارت المجموعة {_show(group)}"))
    (verb, thing), *rest = ar
    more = "".join(f" و{v} {t}" for v, t in rest)
    return Text(
        en=f"Then the computer {' and '.join(en)}. Your turn.",
        ar=f"ثم {verb} الحاسوب {thing}{more}. دورك الآن.",
    )


def _edits(move: Any, table: Sequence[Sequence[str]], *, done: bool = False) -> tuple[str, str]:
    """A move of lays and adds in words: what to do, or (`done`) what was done."""
    en: list[str] = []
    ar: list[str] = []
    for edit in move:
        if edit[0] == "lay":
            en.append(f"{'laid' if done else 'lay'} {_show(edit[1])}")
            ar.append(f"{'وضعت' if done else 'ضع'} {_show(edit[1])}")
        else:
            _, i, cards = edit
            en.append(f"{'added' if done else 'add'} {_show(cards)} to {_show(table[i])}")
            ar.append(f"{'أضفت' if done else 'أضف'} {_show(cards)} إلى {_show(table[i])}")
    return " and ".join(en), " و".join(ar)


def _takes(
    table: Sequence[Sequence[str]], taken: Sequence[tuple[int, str]], *, done: bool = False
) -> tuple[str, str]:
    """Cards taken out of table groups, and what each group is left as."""
    en: list[str] = []
    ar: list[str] = []
    for i, card in taken:
        left = " | ".join(_show(p) for p in _pieces(table[i], card))
        verb_en, verb_ar = ("took", "أخذت") if done else ("take", "خذ")
        en.append(
            f"{verb_en} {_show([card])} out of {_show(table[i])}, which stays valid as {left}"
        )
        ar.append(f"{verb_ar} {_show([card])} من {_show(table[i])} فتبقى {left} مجموعة صحيحة")
    return "; ".join(en), "؛ و".join(ar)


def _pieces(group: Sequence[str], card: str) -> list[list[str]]:
    """A group without `card`: a set as it is; a run cut in two where the card was."""
    rest = [c for c in group if c != card]
    if len({_face(c)[-1] for c in group}) > 1 or len({_face(c)[:-1] for c in group}) == 1:
        return [rest]
    at = list(group).index(card)
    return [p for p in (list(group[:at]), list(group[at + 1 :])) if p]


def _kind(cards: Sequence[str]) -> tuple[str, str]:
    ranks = {_face(c)[:-1] for c in cards}
    return ("set", "الطقم") if len(ranks) == 1 else ("run", "السلسلة")


def _show(cards: Sequence[str]) -> str:
    return " ".join(f"{_face(c)[:-1]}{_SIGNS[_face(c)[-1]]}" for c in cards)


def _face(card: str) -> str:
    return card.split("#", 1)[0]


def _ar_cards(n: int) -> str:
    if n == 1:
        return "ورقة واحدة"
    if n == 2:
        return "ورقتين"
    return f"{n} أوراق"

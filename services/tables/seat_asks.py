"""What one seat asks about its own game without playing: a hint, a staging check, its
hand order (issue 14, "In the game"). None of them appends an event or goes on the bus.

- **Hints** (PF-HINT-1..3, PF-AMB-20): the game's own `Game.hints(state, seat)`, computed
  from the table as this service holds it, for the asking seat alone. A game or rule set
  that has none is refused by the game's `no_hints` (its code, rule and sentence). A hint
  search may run long (a rummy hint on a large table with jokers took 3.5 s in the
  measurements of the issue note), so it runs in a small thread pool, never on the event
  loop, and is given up after `hint_seconds` (`hint_timeout`); the pool takes at most
  `hint_slots` hints at once, a search given up included until it ends (`busy`), so a
  burst of slow hints can hold no more than those threads. The engine is pure and its
  states frozen: a thread reads the same state the loop goes on with.
- **Staging checks** (PF-STAGE-5, PF-AMB-22): the game's `Game.staging`, which calls the
  very validator its `decide` applies when the group (Banakil) or the whole table (rummy's
  private copy) is laid. The proposal is decoded strictly with the game's Struct, whose
  sizes are bounded; the check walks the cards a few times (no search), on the loop.
- **Hand order** (PF-SORT-1..3): by suit, by rank or the seat's own list of its cards
  (engine/hand_order.py). It is presentation, not game state: an event would put it in
  the table's log, its deal records and every fold, and a seat's screen has no place
  there, so it is kept as a seat preference beside the table (`EventStore.save_preference`,
  migrations/003_seat_preferences.sql) and read back when a socket of the seat is seated,
  so it survives a reconnect and a gateway restart. This service keeps the choices of the
  seats it has seen in memory to arrange their views (`shown`); a choice made through
  another gateway reaches this one when the seat's socket here is seated again.

Rate limits are the gateway's (per seat, services/gateway/rates.py).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections import OrderedDict
from typing import Any

import msgspec

from engine import protocol
from engine.errors import RuleViolation
from engine.hand_order import HandOrder, OrderName, arrange, check_manual
from services.store.port import EventStore
from services.tables.games import game_of
from services.tables.service import Loaded, TableService

__all__ = ["Answer", "SeatAsks"]

HAND_ORDER = "hand_order"  # the preference's name in the store
_REMEMBERED = 10_000  # seats whose hand order is kept in memory (the least recent go)
_DECODERS: dict[str, msgspec.json.Decoder[Any]] = {}
_ORDER = msgspec.json.Decoder(HandOrder)


class Answer(msgspec.Struct, frozen=True, kw_only=True):
    """An answer computed on the table as of `version`: the game's own value."""

    version: int
    value: Any


class SeatAsks:
    def __init__(
        self,
        service: TableService,
        store: EventStore,
        *,
        hint_seconds: float = 2.0,
        hint_slots: int = 2,
    ) -> None:
        self._service = service
        self._store = store
        self._hint_seconds = hint_seconds
        self._slots = hint_slots
        self._busy = 0  # hints running in the pool, given up or not
        self._busy_lock = threading.Lock()  # the pool's threads end them
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=hint_slots, thread_name_prefix="hint"
        )
        self._orders: OrderedDict[tuple[str, int], HandOrder] = OrderedDict()

    # --- hints --------------------------------------------------------------------------

    async def hint(self, table_id: str, seat: int) -> Answer:
        loaded = await self._service.load(table_id)
        state = loaded.state.game_state
        game = game_of(loaded.state)
        if game.hints is None or state is None:
            raise RuleViolation("no_hints", "PF-HINT-1", f"{game.name} offers no hints")
        refusal = game.no_hints(state)
        if refusal is not None:
            raise refusal
        with self._busy_lock:
            if self._busy >= self._slots:
                raise RuleViolation(
                    "busy",
                    "PF-HINT-3",
                    "the server is working out other hints: ask again in a moment",
                )
            self._busy += 1
        try:
            running = self._pool.submit(game.hints, state, seat)
        except BaseException:
            self._hint_ended(None)
            raise
        running.add_done_callback(self._hint_ended)
        try:
            value = await asyncio.wait_for(
                asyncio.shield(asyncio.wrap_future(running)), self._hint_seconds
            )
        except TimeoutError:
            raise RuleViolation(
                "hint_timeout",
                "PF-HINT-3",
                f"no hint was found within {self._hint_seconds:g} s: play as you see fit",
            ) from None
        return Answer(version=loaded.version, value=value)

    def _hint_ended(self, _: concurrent.futures.Future[Any] | None) -> None:
        with self._busy_lock:
            self._busy -= 1

    # --- staging --------------------------------------------------------------------------

    async def stage(self, table_id: str, seat: int, proposal: bytes) -> Answer:
        loaded = await self._service.load(table_id)
        state = loaded.state.game_state
        game = game_of(loaded.state)
        if game.staging is None or state is None:
            raise RuleViolation(
                "no_staging", "PF-STAGE-5", f"{game.name} has no melds or tables to prepare"
            )
        try:
            asked = _decoder(game).decode(proposal)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            raise RuleViolation("bad_proposal", "PF-STAGE-5", f"not a proposal: {exc}") from None
        return Answer(version=loaded.version, value=game.staging.check(state, seat, asked))

    # --- hand order -----------------------------------------------------------------------

    async def set_hand_order(
        self, table_id: str, seat: int, order: OrderName, cards: tuple[str, ...]
    ) -> tuple[HandOrder, tuple[str, ...]]:
        """Keep the seat's choice; returns it and the hand as now shown in it."""
        loaded = await self._service.load(table_id)
        hand = _hand(loaded, seat)
        if hand is None:
            raise RuleViolation(
                "no_hand", "PF-SORT-3", "there is no hand to order: no cards are in your hand now"
            )
        if order != "manual" and cards:
            raise RuleViolation(
                "bad_hand_order", "PF-SORT-1", "cards are listed only with the order 'manual'"
            )
        unit = _unit(loaded)
        if order == "manual":
            check_manual(hand, cards)
            chosen = HandOrder(order=order, cards=cards, unit=unit)
        else:
            chosen = HandOrder(order=order)
        await self._store.save_preference(table_id, seat, HAND_ORDER, msgspec.json.encode(chosen))
        self._remember(table_id, seat, chosen)
        return chosen, arrange(hand, chosen, unit)

    async def load_hand_order(self, table_id: str, seat: int) -> HandOrder:
        """The seat's stored choice (read from the store: a seat's socket is being seated),
        remembered to arrange its views."""
        raw = await self._store.preference(table_id, seat, HAND_ORDER)
        chosen = HandOrder() if raw is None else _ORDER.decode(raw)
        self._remember(table_id, seat, chosen)
        return chosen

    def hand_order(self, loaded: Loaded, seat: int) -> tuple[HandOrder, tuple[str, ...]] | None:
        """The seat's remembered choice and its hand as shown in it; None without either."""
        chosen = self._orders.get((loaded.state.table_id, seat))
        hand = _hand(loaded, seat)
        if chosen is None or hand is None:
            return None
        return chosen, arrange(hand, chosen, _unit(loaded))

    def shown(self, loaded: Loaded, seat: int | None, view: Any) -> Any:
        """`view` of `seat` with its hand in the seat's order (the view itself when the seat
        chose none, or the view shows no hand of cards)."""
        if seat is None or view is None:
            return view
        chosen = self._orders.get((loaded.state.table_id, seat))
        if chosen is None or chosen.order == "game":
            return view
        hand = getattr(view, "hand", None)
        if not isinstance(hand, tuple):
            return view
        arranged = arrange(hand, chosen, _unit(loaded))
        return view if arranged == hand else msgspec.structs.replace(view, hand=arranged)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _remember(self, table_id: str, seat: int, chosen: HandOrder) -> None:
        key = (table_id, seat)
        self._orders[key] = chosen
        self._orders.move_to_end(key)
        while len(self._orders) > _REMEMBERED:
            self._orders.popitem(last=False)


def _decoder(game: protocol.Game) -> msgspec.json.Decoder[Any]:
    assert game.staging is not None
    found = _DECODERS.get(game.name)
    if found is None:
        found = _DECODERS[game.name] = msgspec.json.Decoder(game.staging.proposal)
    return found


def _hand(loaded: Loaded, seat: int) -> tuple[str, ...] | None:
    """The seat's hand of cards as its game's view shows it, or None (no game yet, or a
    game whose view shows no hand of cards: Bunco's dice)."""
    state = loaded.state.game_state
    if state is None:
        return None
    hand = getattr(game_of(loaded.state).view(state, seat), "hand", None)
    if not isinstance(hand, tuple) or not all(isinstance(card, str) for card in hand):
        return None
    return hand


def _unit(loaded: Loaded) -> int:
    """The unit of play being played (a manual order belongs to one)."""
    state = loaded.state.game_state
    return 0 if state is None else game_of(loaded.state).unit.lifecycle(state).unit

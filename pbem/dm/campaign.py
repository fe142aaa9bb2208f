"""BotWars and the Geek-o Challenge behind the one game interface (`base.Game`), as a thin adapter over the engine.

One action is one player's orders for the turn, checked against their hand (`engine.campaign.check_orders`,
B4.4–B4.7); a later one replaces an earlier one. The turn is played (`engine.campaign.play_turn`) once every
player who owes orders has sent them, or when the turn's deadline passes, missing orders played as the ruleset
says (B4.6). The deadline is the schedule's (`formats.schedule.due_after`, worked out above this layer and set
with `scheduled`): the engine itself has no clock. Every rule stays in the engine; this only joins the seams.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, ClassVar, Mapping, Sequence

from ..engine import campaign as engine
from ..engine.campaign import GameResult, GameSetup, GameState, Standing, TurnOutcome
from ..engine.cards import Card
from ..engine.orders import Checked, Submission
from ..engine.turn import Snapshot
from .base import Config, Game, Result, Setup
from .clock import Deadline, utc


@dataclass(frozen=True)
class Orders:
    """One player's orders for a turn as sent: the robots' programs as card tokens, reboots, option HP; when they
    arrived."""

    player: str
    turn: int
    submission: Submission
    at: datetime | None = None


@dataclass(frozen=True)
class Campaign:
    """A campaign between two turns: the engine's state, the orders in for the turn, and the turn's deadline."""

    game: GameState
    orders: tuple[tuple[str, Checked], ...] = ()  # player -> their latest accepted orders, in the order first sent
    due: datetime | None = None  # the turn's deadline (None: none set)

    def waiting_for(self) -> list[str]:
        """The players the turn still waits for (B4.6: the others' orders are in)."""
        sent = dict(self.orders)
        return [p for p in self.game.players if p not in sent and self.game.owes_orders(p)]


class CampaignGame(Game[Campaign, Orders]):
    """A campaign of `ruleset`; its set-up (rooms, deck, players) is the game description, the one "puzzle".

    Besides the one game interface it answers the GM's workflow on the engine's own state (`GameState`), each
    method one call of the engine's rule: the workflow reaches a campaign's rules only through this object."""

    ruleset: ClassVar[str]

    def start(self, setup: GameSetup) -> GameState:
        """Turn 1 of a game set up as described (`engine.campaign.new_game`)."""
        return engine.new_game(setup)

    def check_orders(self, state: GameState, player: str, submission: Submission) -> Checked:
        """`player`'s orders checked against their hand this turn (B4.4–B4.7)."""
        return engine.check_orders(state, player, submission)

    def play_turn(self, state: GameState, orders: Mapping[str, Checked], seed: str | int) -> TurnOutcome:
        """The turn played with the checked orders in (player -> orders): the next state and what happened."""
        return engine.play_turn(state, orders, seed)

    def rehearse_orders(self, state: GameState, player: str, checked: Checked) -> list[Snapshot]:
        """`player`'s orders played on their board as it stands, nothing kept (see before you send)."""
        return engine.rehearse_orders(state, player, checked)

    def missing_programs(self, state: GameState, player: str) -> dict[str, list[Card]]:
        """What B4.6 plays for `player` when their orders are missing."""
        return engine.missing_programs(state, player)

    def missed_orders(self, state: GameState, used: Mapping[str, int | None]) -> dict[str, dict[str, list[Card]]]:
        """The players whose orders missed the turn (`used`: player -> order version used), with what B4.6
        played for them."""
        return engine.missed_orders(state, used)

    def example_orders(self, state: GameState, player: str,
                       written: Mapping[str, Sequence[object]] | None = None) -> dict[str, list[Card]]:
        """A legal program per robot of `player` from this turn's hand, keeping what they have `written`."""
        return engine.example_orders(state, player, written)

    def orders_to_change(self, state: GameState, player: str, examples: dict[str, list[Card]],
                         written: Mapping[str, Sequence[object]]) -> list[str]:
        """The robots of `player` whose written program `examples` replaces."""
        return engine.orders_to_change(state, player, examples, written)

    def standings(self, state: GameState) -> list[Standing]:
        """The players' places, ties sharing one (G1 for Geek-o, flags and lives for BotWars)."""
        return engine.standings(state)

    def game_result(self, state: GameState) -> GameResult | None:
        """The engine's result of a game that is over (None while it goes on): winners, ending, standings."""
        return engine.result(state)

    def new_state(self, config: Config) -> Campaign:
        setup = Setup(config, ())
        setup.no_variant(self.title)
        described = config.puzzles[0] if len(config.puzzles) == 1 else None
        if not isinstance(described, GameSetup):
            setup.problem("puzzles", f"{self.title} is set up from one game description")
        elif described.ruleset != self.ruleset:
            setup.problem("puzzles[0]", f"a {described.ruleset} game, not {self.ruleset}")
        elif tuple(p.name for p in described.players) != tuple(config.players):
            setup.problem("players", "must be the description's players, in order")
        setup.done()
        assert isinstance(described, GameSetup)
        return Campaign(self.start(described))

    def scheduled(self, state: Campaign, due: datetime | None) -> Campaign:
        """The state with the turn's deadline set (the schedule's, worked out by the GM's workflow)."""
        return replace(state, due=utc(due))

    def check(self, state: Campaign, action: Orders) -> str | None:
        return self._judge(state, action)[0]

    def apply(self, state: Campaign, action: Orders) -> Campaign:
        reason, checked = self._judge(state, action)
        if checked is None:
            raise ValueError(reason)
        orders = tuple((p, c) for p, c in state.orders if p != action.player) + ((action.player, checked),)
        after = replace(state, orders=orders)
        return self._played(after) if not after.waiting_for() else after

    def _judge(self, state: Campaign, action: Orders) -> tuple[str | None, Checked | None]:
        """(why the orders are refused, None) or (None, the orders checked against the player's hand)."""
        game = state.game
        if game.is_over:
            return "the game is over", None
        if action.player not in game.players:
            return f"{action.player!r} does not play in this game ({', '.join(game.players)})", None
        at = utc(action.at)
        if at is not None and state.due is not None and at > state.due:
            return f"too late: turn {game.turn}'s orders were due by {state.due.isoformat()}", None
        if action.turn != game.turn:
            return f"these orders are for turn {action.turn}, and turn {game.turn} is being played", None
        if not game.owes_orders(action.player):
            return f"no orders are due from {action.player} in turn {game.turn}", None
        if not isinstance(action.submission, Submission):
            return f"orders are a submission of programs, not {type(action.submission).__name__}", None
        checked = self.check_orders(game, action.player, action.submission)
        if checked.problems:
            return "; ".join(problem.message for problem in checked.problems), None
        return None, checked

    def _played(self, state: Campaign) -> Campaign:
        """The turn played with the orders in; the next turn has no deadline until the schedule sets it."""
        return Campaign(self.play_turn(state.game, dict(state.orders), state.game.setup.seed).state)

    def deadline(self, state: Campaign) -> Deadline | None:
        if state.due is None or state.game.is_over:
            return None
        return Deadline(state.due, None, f"turn {state.game.turn} is played; missing orders as the rules say (B4.6)")

    def expire(self, state: Campaign, deadline: Deadline) -> Campaign:
        return self._played(state)

    def extend(self, state: Campaign, seconds: int, at: datetime | None) -> Campaign:
        assert state.due is not None  # the clock extends only a running deadline
        return replace(state, due=state.due + timedelta(seconds=seconds))

    def is_over(self, state: Campaign) -> bool:
        return state.game.is_over

    def result(self, state: Campaign) -> Result:
        ended = self.game_result(state.game)
        if ended is None:
            return Result(False, None)
        places = {row["player"]: row["place"] for row in ended.standings}
        winner = ended.winners[0] if len(ended.winners) == 1 else None  # a shared first place: no sole winner
        return Result(True, winner, termination=ended.termination, places=places)

    def candidates(self, state: Campaign) -> list[Orders]:
        """Orders worth trying for each player the turn waits for: a legal program from the hand (as an
        acknowledgement shows one) with its hand turned round by 0, 1, 2 … cards, so the programs differ."""
        found = []
        for player in state.waiting_for():
            hands = state.game.hands_of(player)
            for by in range(max((len(cards) for cards in hands.values()), default=0)):
                programs = {robot: [card.number for card in cards]
                            for robot, cards in self._turned(state.game, player, by).items()}
                found.append(Orders(player, state.game.turn, Submission(programs)))
        return found

    def _turned(self, game: GameState, player: str, by: int) -> dict[str, list[Card]]:
        """`example_orders` on the player's hands turned round by `by` cards."""
        hands = {key: cards[by % len(cards):] + cards[:by % len(cards)] if cards else cards
                 for key, cards in game.hands.items()}
        return self.example_orders(replace(game, hands=hands), player)

    def render_data(self, state: Campaign) -> Mapping[str, Any]:
        return {"game": state.game.setup.name, "turn": state.game.turn, "waiting": state.waiting_for(),
                "due": state.due.isoformat() if state.due else None}


class BotWars(CampaignGame):
    name = "botwars"
    title = "BotWars"
    ruleset = "botwars"


class Geeko(CampaignGame):
    name = "geeko"
    title = "Geek-o Challenge"
    ruleset = "geeko"


CAMPAIGNS: dict[str, CampaignGame] = {}  # each campaign's rules object, made once when first asked for


def get_campaign(ruleset: str) -> CampaignGame:
    """The rules of a campaign of `ruleset` (a stored game's), as `pbem.games` lists it; KeyError naming the
    known ones. The GM's workflow plays a campaign only through this object, as it plays a match through
    `base.get_game`."""
    from .. import games

    if ruleset not in CAMPAIGNS:
        rules = games.part(games.entry(ruleset, games.Kind.CAMPAIGN).rules)()
        assert isinstance(rules, CampaignGame), f"{ruleset}'s rules are not a campaign's"
        CAMPAIGNS[ruleset] = rules
    return CAMPAIGNS[ruleset]

"""``buttonup play``: a match against the AI in the terminal."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from buttonup import svg
from buttonup._core import STANDARD_TARGET, Match
from buttonup.ai import LEVELS, Bot, bot
from buttonup.cli.board import MARKERS, circle, player_name, tower
from buttonup.cli.hint import hint_lines
from buttonup.cli.review import review_lines
from buttonup.cli.saving import load, save
from buttonup.errors import IllegalMoveError
from buttonup.player import Player
from buttonup.players import bot_factory
from buttonup.text import scoring_lines

HELP = """Commands:
  a pile number   lift that pile (it must hold a white button, marked *)
  a letter        lift the pile at that place of the circle (F or f; H, Q)
  hint            every legal move's exact value, its extra move, your match odds
  moves           the moves of the match so far, in the record notation
  undo            take back your last move (and the AI's replies)
  save FILE       write the match to FILE as a record (docs/notation.md)
  load FILE       go on from the match recorded in FILE (you keep your colour)
  board           draw the board again
  help            this text
  quit            leave the match (Ctrl-D too; Ctrl-C stops at once)
Each pile keeps its place on the circle (its letter) for the whole battle; the
number before ':' follows the notation (h and q are help and quit: type H or Q
for those places). A place marked x was lifted by the last move; one marked .
was emptied earlier in the battle."""


class Quit(Exception):
    """The player leaves; ``midline`` when the prompt's line is still open (the end of
    input at a prompt)."""

    def __init__(self, midline: bool = False) -> None:
        super().__init__()
        self.midline = midline


@dataclass
class Settings:
    level: int = 5
    human: Player = Player.RED
    starter: Player = Player.RED
    seed: int | None = None
    target: int = STANDARD_TARGET
    #: A bot by :func:`buttonup.players.bot_factory`'s text (a policy spec, a named bot) that
    #: plays instead of ``level``.
    opponent: str | None = None


class Game:
    """One match between a person (reading ``ask``) and a bot (writing ``console``)."""

    def __init__(self, settings: Settings, console: Console, ask: Callable[[str], str]) -> None:
        self.settings = settings
        self.console = console
        self.ask = ask
        self.match = Match(settings.starter, seed=settings.seed, target=settings.target)
        if settings.opponent is None:
            self.ai: Bot = bot(settings.level, seed=settings.seed)
        else:
            self.ai = bot_factory(settings.opponent)(settings.seed)
        self.human = settings.human
        self.shown_battle = 0

    def ai_description(self) -> str:
        """``level 5 (...)``, or the name of an opponent given by name."""
        if self.settings.opponent is None:
            return f"level {self.settings.level} ({LEVELS[self.settings.level]})"
        return self.ai.name

    def say(self, *parts: str | Text) -> None:
        line = Text()
        for part in parts:
            line.append_text(part if isinstance(part, Text) else Text(part))
        self.console.print(line)

    def run(self) -> None:
        ai = self.human.other
        self.say(
            "Button Up! You play ",
            player_name(self.human),
            ", the AI plays ",
            player_name(ai),
            f" {'at' if self.settings.opponent is None else 'as'} {self.ai_description()}.",
        )
        self.say(f"First to {self.match.target} victory points wins. Type 'help' for commands.")
        try:
            while not self.match.is_over:
                if self.match.chooser is not None:
                    self.choose_starter()
                    continue
                self.show_battle_start()
                if self.match.to_move is self.human:
                    self.human_turn()
                else:
                    self.ai_turn()
            self.finish()
        except Quit as leaving:
            if leaving.midline:
                self.say()
            self.say("You leave the match. Bye.")

    # --- the board ------------------------------------------------------------------
    def show_battle_start(self) -> None:
        number = len(self.match.battles) + 1
        if number != self.shown_battle:
            self.shown_battle = number
            self.say()
            self.say(f"=== Battle {number}, started by ", player_name(self.match.starter), " ===")

    def show(self) -> None:
        red, black = self.match.scores
        self.say()
        self.console.print(circle(svg.board(self.match)))
        self.say(
            "Score: ",
            player_name(Player.RED),
            f" {red}  ",
            player_name(Player.BLACK),
            f" {black}   (to {self.match.target})",
        )

    # --- turns ----------------------------------------------------------------------
    def human_turn(self) -> None:
        self.show()
        while True:
            try:
                answer = self.ask(f"{self.human} to move> ").strip()
            except EOFError:
                raise Quit(midline=True) from None
            if self.command(answer):
                return

    def command(self, typed: str) -> bool:
        """Carries out one answer; ``True`` once a move has been played (or another
        match loaded)."""
        word, _, argument = typed.partition(" ")
        answer, argument = word.lower(), argument.strip()
        if answer in ("save", "load"):
            if not argument:
                self.say(f"Type '{answer} FILE', for example '{answer} match.txt'.")
                return False
            return self.save(argument) if answer == "save" else self.load(argument)
        if typed.isupper() and (pile := self.pile_at(typed)) is not None:
            return self.play(pile)  # a place's letter as the board shows it (even H or Q)
        answer = typed.lower()
        if answer in ("quit", "exit", "q"):
            raise Quit
        if answer in ("help", "?", "h"):
            self.say(HELP)
        elif answer == "hint":
            for line in hint_lines(self.match, svg.board(self.match), MARKERS):
                self.say(line)
        elif answer in ("moves", "history"):
            self.say(self.match.record().split("\n\n", 1)[1].rstrip())
        elif answer == "undo":
            self.undo()
        elif answer == "board":
            self.show()
        elif answer == "":
            self.say("Type a pile number, or 'help'.")
        elif answer.lstrip("-").isdigit():
            return self.play(int(answer))
        elif (pile := self.pile_at(typed)) is not None:
            return self.play(pile)
        else:
            self.say(
                f"Unknown command '{answer[:20]}'. Type a pile number or a place letter, or 'help'."
            )
        return False

    def pile_at(self, typed: str) -> int | None:
        """The pile at the place whose letter is ``typed`` (as the board shows it, or in
        the other case where that names no other place), if a pile stands there."""
        if len(typed) != 1 or not typed.isalpha():
            return None
        slots = svg.board(self.match).slots
        for letter in (typed, typed.swapcase()):
            if letter in MARKERS and MARKERS.index(letter) in slots:
                return slots.index(MARKERS.index(letter))
        return None

    def save(self, path: str) -> bool:
        name = f"buttonup AI, {self.ai_description()}"
        self.say(save(self.match, path, self.human, name))
        return False

    def load(self, path: str) -> bool:
        loaded = load(path)
        if isinstance(loaded, str):
            self.say(loaded)
            return False
        self.match = loaded
        self.shown_battle = 0
        red, black = loaded.scores
        self.say(
            f"Loaded {path}: battle {len(loaded.battles) + 1 - loaded.is_over}, "
            f"Red {red} Black {black} to {loaded.target}; you still play ",
            player_name(self.human),
            ".",
        )
        return True

    def play(self, move: int) -> bool:
        try:
            self.report(self.human, move)  # the rules engine says why a move is illegal
        except IllegalMoveError as error:
            reason = str(error)
            self.say(f"{reason[0].upper()}{reason[1:]}. Try a pile marked *.")
            return False
        return True

    def ai_turn(self) -> None:
        # Its moves are told, and the board drawn before your next one: once a turn.
        move = self.ai.choose(self.match.position, self.match)
        self.report(self.human.other, move)

    def report(self, mover: Player, move: int) -> None:
        """Plays ``move`` (an illegal one raises before anything is said) and tells it."""
        before, board = self.match.position, svg.board(self.match)
        outcome = self.match.play(move)  # an illegal move raises here
        after, extra = outcome.position, outcome.extra_move
        who = "You" if mover is self.human else "The AI"
        verb = "lift" if mover is self.human else "lifts"
        place = MARKERS[board.slots[move]]
        self.say(
            who,
            " (",
            player_name(mover),
            f") {verb} pile {move} (place {place}, {before.piles[move]}).",
        )
        if after.is_over:
            self.battle_over()
        elif extra:
            self.say(
                "Extra move! ",
                player_name(mover),
                " moves again.",
            )

    def undo(self) -> None:
        movers = self.match.movers()
        if self.human not in movers:
            self.say("Nothing of yours to take back in this battle.")
            return
        replies = 0
        while movers.pop() is not self.human:
            self.match.undo()
            replies += 1
        self.match.undo()
        extra = (
            f" and the AI's {replies} move{'s' if replies > 1 else ''} after it" if replies else ""
        )
        self.say(f"Took back your last move{extra}.")
        self.show()

    # --- between battles ------------------------------------------------------------
    def battle_over(self) -> None:
        battle = self.match.battles[-1]
        scoring = battle.scoring
        self.say()
        self.say("The battle is over. Final pile (strength on the left):")
        self.console.print(tower(scoring))
        for line in scoring_lines(scoring):
            self.say(line)
        for line in review_lines(battle, self.human):
            self.say(line)
        red, black = self.match.scores
        self.say(
            "Match: ", player_name(Player.RED), f" {red}  ", player_name(Player.BLACK), f" {black}"
        )

    def choose_starter(self) -> None:
        chooser = self.match.chooser
        assert chooser is not None
        if chooser is not self.human:
            starter = self.ai.choose_starter(self.match)
            self.say(
                "Scores are level: the AI chooses who starts, and picks ", player_name(starter), "."
            )
            self.match.choose_starter(starter)
            return
        self.say("Scores are level and you lost the last decided battle: you choose who starts.")
        while True:
            try:
                answer = self.ask("Who starts the next battle, 'me' or 'ai'? ").strip().lower()
            except EOFError:
                raise Quit(midline=True) from None
            if answer in ("quit", "q", "exit"):
                raise Quit
            choice = {
                "me": self.human,
                "ai": self.human.other,
                "red": Player.RED,
                "black": Player.BLACK,
            }
            if answer in choice:
                self.match.choose_starter(choice[answer])
                return
            self.say("Please answer 'me' or 'ai'.")

    def finish(self) -> None:
        red, black = self.match.scores
        winner = self.match.winner
        outcome = "You win" if winner is self.human else "The AI wins"
        self.say()
        self.say(
            f"{outcome} the match, ",
            player_name(Player.RED),
            f" {red} to ",
            player_name(Player.BLACK),
            f" {black}.",
        )

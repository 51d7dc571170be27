//! Rules 7 to 9: a match of battles to a target of victory points. [`Match`] plays a
//! whole match on a [`Standing`] (`standing`: what the match rules know between two
//! battles), battle by battle, with the history, the tie-rule choice and undo.

use std::fmt;

use crate::game::error::{wraps, IllegalMove, NotationError};
use crate::game::notation::parse_start;
use crate::game::rng::{random_start, SplitMix64};
use crate::game::rules::{Player, Position, Sowing};
use crate::game::scoring::Scoring;
use crate::game::standing::{Next, Standing, StandingError};
use crate::game::variant::VariantError;

/// One finished battle of a match.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Battle {
    /// 1 for the first battle.
    pub number: usize,
    /// Who started it.
    pub starter: Player,
    /// Its dealt start.
    pub start: Position,
    /// Its moves, in order.
    pub moves: Vec<usize>,
    /// The final pile.
    pub last: Position,
    /// How its final pile scored.
    pub scoring: Scoring,
}

/// Why a match cannot do what it was asked.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MatchError {
    /// The match has a winner.
    Over(Player),
    /// This player must choose the next starter first.
    ChooserDue(Player),
    /// Undo with no move of the current battle to take back.
    NothingToUndo,
    /// An illegal move in the current battle.
    Illegal(IllegalMove),
    /// What the standing's rules refuse: a target, an impossible standing, a choice
    /// when none is due, a battle's odds when none is due.
    Standing(StandingError),
    /// A deal (numbered from 1) that is not a start order.
    BadDeal {
        /// The deal, from 1.
        deal: usize,
        /// What is wrong with its notation.
        error: NotationError,
    },
    /// A deal with other counts of buttons than the match plays.
    DealSize {
        /// The deal, from 1.
        deal: usize,
        /// The buttons of each colour the match plays.
        per_colour: usize,
    },
    /// A count of buttons that a capability does not support.
    Variant(VariantError),
    /// Long work (building a match table) was interrupted.
    Interrupted,
}

impl crate::HasKind for MatchError {
    fn kind(&self) -> crate::ErrorKind {
        use crate::ErrorKind;
        match self {
            // Moves refused.
            MatchError::Over(_) | MatchError::ChooserDue(_) => ErrorKind::IllegalMove,
            MatchError::Illegal(error) => error.kind(),
            // A request to a match, not a move, that the match rules refuse.
            MatchError::NothingToUndo => ErrorKind::MatchState,
            MatchError::Standing(error) => error.kind(),
            MatchError::BadDeal { .. } => ErrorKind::Notation,
            MatchError::DealSize { .. } => ErrorKind::InvalidArgument,
            MatchError::Variant(error) => error.kind(),
            MatchError::Interrupted => ErrorKind::Interrupted,
        }
    }
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Over(winner) => write!(f, "the match is over: {} won", winner.name()),
            MatchError::ChooserDue(chooser) => write!(
                f,
                "{} must first choose who starts the next battle",
                chooser.name()
            ),
            MatchError::NothingToUndo => {
                write!(f, "there is no move of the current battle to take back")
            }
            MatchError::Illegal(error) => error.fmt(f),
            MatchError::Standing(error) => error.fmt(f),
            MatchError::BadDeal { deal, error } => write!(f, "deal {deal}: {error}"),
            MatchError::DealSize { deal, per_colour } => write!(
                f,
                "deal {deal} does not have {per_colour} buttons of each colour"
            ),
            MatchError::Variant(error) => error.fmt(f),
            MatchError::Interrupted => write!(f, "interrupted"),
        }
    }
}

impl std::error::Error for MatchError {}

wraps! {
    MatchError::Illegal(IllegalMove),
    MatchError::Standing(StandingError),
}

/// A match to `target` victory points (rules 7 to 9).
#[derive(Clone, Debug)]
pub struct Match {
    /// The seed the match was made with (its shuffles follow from it).
    seed: u64,
    rng: SplitMix64,
    /// Start orders given up front, used in turn before any shuffle (Red to move).
    deals: Vec<Position>,
    /// The standing before the current battle (after the latest one while a starter is
    /// chosen, or after the match): who chooses, who won and who starts come from it.
    standing: Standing,
    battles: Vec<Battle>,
    /// Who started the current battle (the latest one while a starter is chosen, or
    /// after the match).
    starter: Player,
    /// The start of the current battle (the last position of the latest battle while a
    /// starter is chosen, or after the match).
    start: Position,
    /// The positions after each move of the current battle.
    positions: Vec<Position>,
    moves: Vec<usize>,
}

impl Match {
    /// A match that `starter` begins (rule 7). Starts are taken from `deals` in turn
    /// while they last (each checked now), then shuffled with a generator seeded by
    /// `seed`, so that a seed gives the same match. The target and the count of buttons
    /// are checked.
    pub fn new(
        starter: Player,
        target: u32,
        per_colour: usize,
        seed: u64,
        deals: &[&str],
    ) -> Result<Match, MatchError> {
        let standing = Standing::new(target, per_colour, starter)?;
        let deals = deals
            .iter()
            .enumerate()
            .map(|(i, order)| check_deal(i + 1, order, per_colour))
            .collect::<Result<Vec<_>, _>>()?;
        let mut rng = SplitMix64::new(seed);
        let start = battle_start(&deals, 0, per_colour, &mut rng, starter)?;
        Ok(Match {
            seed,
            rng,
            deals,
            standing,
            battles: Vec::new(),
            starter,
            start,
            positions: Vec::new(),
            moves: Vec::new(),
        })
    }

    /// The seed the match was made with: with the same deals, the same seed gives the
    /// same shuffles.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The start orders given up front (as positions, Red to move), one per battle from
    /// the first; the battles after them are shuffled.
    pub fn deals(&self) -> &[Position] {
        &self.deals
    }

    /// The victory points that win the match.
    pub fn target(&self) -> u32 {
        self.standing.target
    }

    /// The buttons of each colour of every battle.
    pub fn per_colour(&self) -> usize {
        self.standing.per_colour
    }

    /// The standing before the current battle: the scores, the last loser, and the
    /// current battle's starter (`None` while a starter is chosen, or after the match).
    pub fn standing(&self) -> &Standing {
        &self.standing
    }

    /// The current battle's position (the last one of the latest battle while a
    /// starter is chosen, or after the match).
    pub fn position(&self) -> Position {
        self.positions.last().copied().unwrap_or(self.start)
    }

    /// The start of the current battle.
    pub fn start(&self) -> Position {
        self.start
    }

    /// Who started the current battle (the latest one while a starter is chosen, or
    /// after the match).
    pub fn starter(&self) -> Player {
        self.starter
    }

    /// The moves of the current battle so far.
    pub fn moves(&self) -> &[usize] {
        &self.moves
    }

    /// The battles finished so far, in order.
    pub fn battles(&self) -> &[Battle] {
        &self.battles
    }

    /// The player who must now choose who starts the next battle (the tie rule).
    pub fn chooser(&self) -> Option<Player> {
        match self.standing.next() {
            Next::Chooses(player) => Some(player),
            Next::Won(_) | Next::Starts(_) => None,
        }
    }

    /// The winner of the match, once a player has reached the target.
    pub fn winner(&self) -> Option<Player> {
        match self.standing.next() {
            Next::Won(player) => Some(player),
            Next::Chooses(_) | Next::Starts(_) => None,
        }
    }

    /// The position of the battle being played (from its dealt start on): `None` while
    /// a starter is chosen, and after the match.
    pub fn battle_position(&self) -> Option<Position> {
        self.check_playing().is_ok().then(|| self.position())
    }

    /// The legal moves now (none while a starter is due or after the match).
    pub fn legal_moves(&self) -> Vec<usize> {
        if self.check_playing().is_err() {
            return Vec::new();
        }
        self.position().legal_moves().collect()
    }

    /// Who played each move of the current battle.
    pub fn movers(&self) -> Vec<Player> {
        std::iter::once(&self.start)
            .chain(&self.positions)
            .take(self.moves.len())
            .map(Position::to_move)
            .collect()
    }

    /// Plays a move of the current battle and returns what it did (its position is the
    /// final pile when it ends the battle). A battle that ends is scored, and the next
    /// one set up, unless a starter must be chosen or the match is won. Nothing changes
    /// when the move is refused.
    pub fn play(&mut self, mv: usize) -> Result<Sowing, MatchError> {
        self.check_playing()?;
        let sowing = self.position().sowing(mv)?;
        let after = sowing.outcome.position;
        self.positions.push(after);
        self.moves.push(mv);
        if after.is_over() {
            self.end_battle(after)?;
        }
        Ok(sowing)
    }

    /// Takes back the last move of the current battle and returns it. A finished
    /// battle cannot be taken back.
    pub fn undo(&mut self) -> Result<usize, MatchError> {
        if self.check_playing().is_err() {
            return Err(MatchError::NothingToUndo);
        }
        let mv = self.moves.pop().ok_or(MatchError::NothingToUndo)?;
        self.positions.pop();
        Ok(mv)
    }

    /// The tie rule: the chooser names who starts the next battle.
    pub fn choose_starter(&mut self, starter: Player) -> Result<(), MatchError> {
        let standing = self.standing.choose(starter)?;
        self.begin(starter)?;
        self.standing = standing;
        Ok(())
    }

    /// Whether a move may be played now: not after the match, nor while a starter is due.
    pub fn check_playing(&self) -> Result<(), MatchError> {
        match self.standing.next() {
            Next::Won(winner) => Err(MatchError::Over(winner)),
            Next::Chooses(chooser) => Err(MatchError::ChooserDue(chooser)),
            Next::Starts(_) => Ok(()),
        }
    }

    /// Rule 1: sets up a battle that `starter` begins.
    fn begin(&mut self, starter: Player) -> Result<(), MatchError> {
        let number = self.battles.len();
        let per_colour = self.per_colour();
        self.start = battle_start(&self.deals, number, per_colour, &mut self.rng, starter)?;
        self.starter = starter;
        self.positions.clear();
        self.moves.clear();
        Ok(())
    }

    /// Rules 6, 8 and 9: scores the battle and sets up what comes next.
    fn end_battle(&mut self, last: Position) -> Result<(), MatchError> {
        let scoring = last.scoring().unwrap_or_default();
        self.battles.push(Battle {
            number: self.battles.len() + 1,
            starter: self.starter,
            start: self.start,
            moves: std::mem::take(&mut self.moves),
            last,
            scoring,
        });
        self.start = last;
        self.positions.clear();
        self.standing = self.standing.after_battle(scoring.margin());
        if let Next::Starts(player) = self.standing.next() {
            self.begin(player)?;
        }
        Ok(())
    }
}

/// The start of battle `index` (from 0): the deal of that battle, or else a shuffle.
/// Every battle draws one seed from `rng`, dealt or not, so the shuffled battles of a
/// seed are the same whatever was dealt before them.
fn battle_start(
    deals: &[Position],
    index: usize,
    per_colour: usize,
    rng: &mut SplitMix64,
    starter: Player,
) -> Result<Position, MatchError> {
    let seed = rng.next_u64();
    match deals.get(index) {
        Some(deal) => Ok(deal.with_to_move(starter)),
        None => random_start(per_colour, starter, &mut SplitMix64::new(seed)).map_err(|_| {
            MatchError::DealSize {
                deal: index + 1,
                per_colour,
            }
        }),
    }
}

/// A deal of a match: a start order with `per_colour` buttons of each colour.
fn check_deal(deal: usize, order: &str, per_colour: usize) -> Result<Position, MatchError> {
    let start = parse_start(order.trim(), Player::Red)
        .map_err(|error| MatchError::BadDeal { deal, error })?;
    if start.per_colour() != Some(per_colour) {
        return Err(MatchError::DealSize { deal, per_colour });
    }
    Ok(start)
}

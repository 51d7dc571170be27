//! Every error of the core has its kind (given beside each error), and the messages
//! that several doors share.

use buttonup::ai::BotError;
use buttonup::draw::DrawError;
use buttonup::game::error_kind::BattleError;
use buttonup::game::record::RecordError;
use buttonup::game::standing::Next;
use buttonup::run::interrupt::Interrupted;
use buttonup::search::batch::BatchError;
use buttonup::search::{ExactError, TableAllocError};
use buttonup::sim::pool::Panicked;
use buttonup::sim::vecenv::{Failure, MakeError, StepError};
use buttonup::{
    Capability, ErrorKind, HasKind, IllegalMove, MatchError, NotationError, Player, PositionError,
    StandingError, VariantError,
};

fn variant() -> VariantError {
    VariantError {
        capability: Capability::Rules,
        per_colour: "0".into(),
    }
}

#[test]
fn every_game_error_has_its_kind() {
    use ErrorKind as K;
    let notation = NotationError::MissingSide;
    let cases: Vec<(Box<dyn HasKind>, ErrorKind)> = vec![
        (Box::new(PositionError::NoWhite), K::Notation),
        (Box::new(PositionError::EmptyPile { pile: 0 }), K::Notation),
        (Box::new(NotationError::Empty), K::Notation),
        (Box::new(notation.clone()), K::Notation),
        (Box::new(IllegalMove::BattleOver), K::IllegalMove),
        (
            Box::new(IllegalMove::NoSuchPile {
                pile: "9".into(),
                piles: 3,
            }),
            K::IllegalMove,
        ),
        (Box::new(variant()), K::InvalidArgument),
        (
            Box::new(StandingError::BadTarget("0".into())),
            K::InvalidArgument,
        ),
        (
            Box::new(StandingError::Variant(variant())),
            K::InvalidArgument,
        ),
        (
            Box::new(StandingError::Impossible("x".into())),
            K::MatchState,
        ),
        (Box::new(StandingError::NoChoiceDue), K::MatchState),
        (
            Box::new(StandingError::NoBattle(Next::Won(Player::Red))),
            K::MatchState,
        ),
        (Box::new(MatchError::Over(Player::Red)), K::IllegalMove),
        (
            Box::new(MatchError::ChooserDue(Player::Black)),
            K::IllegalMove,
        ),
        (
            Box::new(MatchError::Illegal(IllegalMove::BattleOver)),
            K::IllegalMove,
        ),
        (Box::new(MatchError::NothingToUndo), K::MatchState),
        (
            Box::new(MatchError::Standing(StandingError::NoChoiceDue)),
            K::MatchState,
        ),
        (
            Box::new(MatchError::Standing(StandingError::BadTarget("0".into()))),
            K::InvalidArgument,
        ),
        (
            Box::new(MatchError::BadDeal {
                deal: 2,
                error: notation,
            }),
            K::Notation,
        ),
        (
            Box::new(MatchError::DealSize {
                deal: 1,
                per_colour: 3,
            }),
            K::InvalidArgument,
        ),
        (Box::new(MatchError::Variant(variant())), K::InvalidArgument),
        (Box::new(MatchError::Interrupted), K::Interrupted),
        (Box::new(RecordError::Write("tag".into())), K::Record),
        (Box::new(BattleError::NotOver), K::BattleNotOver),
        (Box::new(BattleError::NoMove), K::IllegalMove),
        (Box::new(BattleError::NoMoveToChoose), K::IllegalMove),
    ];
    for (error, kind) in cases {
        assert_eq!(error.kind(), kind, "{error}");
    }
}

#[test]
fn every_error_above_the_game_has_its_kind() {
    use ErrorKind as K;
    let table = TableAllocError { bytes: 1 << 30 };
    let variant = VariantError {
        capability: Capability::Rules,
        per_colour: "9".into(),
    };
    let step = StepError {
        game: 0,
        pile: 7,
        reason: "no such pile".into(),
    };
    let cases: Vec<(Box<dyn HasKind>, ErrorKind)> = vec![
        (Box::new(Interrupted), K::Interrupted),
        (Box::new(table), K::Memory),
        (
            Box::new(ExactError::NotInTime(std::time::Duration::ZERO)),
            K::SearchStopped,
        ),
        (Box::new(ExactError::Interrupted), K::Interrupted),
        (Box::new(BatchError::Table(table)), K::Memory),
        (Box::new(BatchError::Interrupted), K::Interrupted),
        (Box::new(BotError::Level("11".into())), K::InvalidArgument),
        (Box::new(DrawError::NotOver), K::BattleNotOver),
        (Box::new(DrawError::SlotOrder), K::InvalidArgument),
        (Box::new(DrawError::BadSize(0.0)), K::InvalidArgument),
        (Box::new(MakeError::Variant(variant)), K::InvalidArgument),
        (Box::new(MakeError::Interrupted), K::Interrupted),
        (Box::new(step.clone()), K::InvalidArgument),
        (Box::new(Failure::Illegal(step)), K::InvalidArgument),
        (Box::new(Panicked), K::Internal),
        (Box::new(Failure::Panicked(Panicked)), K::Internal),
    ];
    for (error, kind) in cases {
        assert_eq!(error.kind(), kind, "{error}");
    }
    // A tower asked of a battle that goes on says what scoring says.
    assert_eq!(
        DrawError::NotOver.to_string(),
        "the battle is not over: it has more than one pile"
    );
}

#[test]
fn the_shared_messages() {
    assert_eq!(
        BattleError::NotOver.to_string(),
        "the battle is not over: it has more than one pile"
    );
    assert_eq!(
        BattleError::NoMove.to_string(),
        "the battle is over: there is no move"
    );
    assert_eq!(
        BattleError::NoMoveToChoose.to_string(),
        "the battle is over: there is no move to choose"
    );
}

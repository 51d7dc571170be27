//! The kinds ([`ErrorKind`]) of the errors of the layers above the game: the game's own
//! are in `game::error_kind`, with the kinds themselves. Kept at the top of the crate so
//! that the game depends on nothing above it.

use crate::ai::BotError;
use crate::draw::DrawError;
use crate::game::error_kind::{one_kind, ErrorKind, HasKind};
use crate::run::interrupt::Interrupted;
use crate::search::batch::BatchError;
use crate::search::{ExactError, TableAllocError};
use crate::sim::pool::Panicked;
use crate::sim::vecenv::{Failure, MakeError, StepError};

one_kind! {
    Interrupted => Interrupted,
    TableAllocError => Memory,
    BotError => InvalidArgument,
    // An action refused in a batch of games: a value of the actions array.
    StepError => InvalidArgument,
    Panicked => Internal,
}

/// The kind of an error that is either another error (its kind) or an interruption.
macro_rules! wrapped_or_interrupted {
    ($($error:ident :: $wrapped:ident),* $(,)?) => {$(
        impl HasKind for $error {
            fn kind(&self) -> ErrorKind {
                match self {
                    $error::$wrapped(error) => error.kind(),
                    $error::Interrupted => ErrorKind::Interrupted,
                }
            }
        }
    )*};
}

wrapped_or_interrupted! {
    ExactError::Memory,
    BatchError::Table,
    MakeError::Variant,
}

impl HasKind for DrawError {
    fn kind(&self) -> ErrorKind {
        match self {
            DrawError::NotOver => ErrorKind::BattleNotOver,
            _ => ErrorKind::InvalidArgument,
        }
    }
}

impl HasKind for Failure {
    fn kind(&self) -> ErrorKind {
        match self {
            Failure::Illegal(error) => error.kind(),
            Failure::Panicked(error) => error.kind(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::variant::{Capability, VariantError};

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
            (Box::new(ExactError::Memory(table)), K::Memory),
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
}

//! The pieces: the colours of the buttons and the two players.

/// The colour of a button.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Colour {
    /// A red button: Red's.
    Red = 1,
    /// A black button: Black's.
    Black = 2,
    /// A white button: nobody's; a pile holding one may be lifted.
    White = 3,
}

impl Colour {
    /// The 2-bit code of the colour as stored in a position.
    pub const fn code(self) -> u64 {
        self as u64
    }

    /// The colour of a 2-bit code (`None` for 0, which marks no button).
    pub const fn from_code(code: u64) -> Option<Colour> {
        match code & 3 {
            1 => Some(Colour::Red),
            2 => Some(Colour::Black),
            3 => Some(Colour::White),
            _ => None,
        }
    }

    /// The notation letter: `R`, `B` or `W`.
    pub const fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Black => 'B',
            Colour::White => 'W',
        }
    }

    /// The colour of a notation letter.
    pub const fn from_letter(letter: char) -> Option<Colour> {
        match letter {
            'R' => Some(Colour::Red),
            'B' => Some(Colour::Black),
            'W' => Some(Colour::White),
            _ => None,
        }
    }
}

/// A player: Red (Napoleon Buttonaparte) or Black (Ludwig von Buttonburg).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Player {
    /// Red, player 1.
    Red = 0,
    /// Black, player 2.
    Black = 1,
}

impl Player {
    /// The opponent.
    pub const fn other(self) -> Player {
        match self {
            Player::Red => Player::Black,
            Player::Black => Player::Red,
        }
    }

    /// The name of the player in messages: `Red` or `Black`.
    pub const fn name(self) -> &'static str {
        match self {
            Player::Red => "Red",
            Player::Black => "Black",
        }
    }

    /// The side letter of the notation: `r` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Player::Red => 'r',
            Player::Black => 'b',
        }
    }
}

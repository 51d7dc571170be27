//! What a page shows of a match, made once for every door: a position with
//! its drawing, each ply of a battle with its drops and the slots they go to, the
//! scored battles with their towers, and the match's whole state. The server's pages
//! (Python) and the offline page (WebAssembly) convert the same [`Json`] value, so
//! that they show the same thing; each adds only what is its own (the match's id, the
//! AI's level, the chart's points). A battle is walked once (work proportional to its
//! moves, not to their square).

use crate::draw::svg;
use crate::draw::Board;
use crate::draw::DrawError;
use crate::game::error::IllegalMove;
use crate::game::error_kind::{ErrorKind, HasKind};
use crate::game::match_rules::{Battle, Match};
use crate::game::pieces::Colour;
use crate::game::rules::{Player, Position};
use crate::game::scoring::Scoring;

/// A JSON value, as the doors convert it (a Python value, a JavaScript one).
#[derive(Clone, PartialEq, Debug)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A number that may have a fraction (a chance).
    Float(f64),
    /// A string.
    Str(String),
    /// An array.
    List(Vec<Json>),
    /// An object, its fields in order.
    Object(Vec<(&'static str, Json)>),
    /// An object whose field names are made, not fixed (a move's number), in order.
    Map(Vec<(String, Json)>),
}

impl Json {
    pub(crate) fn letter(player: Player) -> Json {
        Json::Str(player.letter().to_string())
    }

    fn optional_letter(player: Option<Player>) -> Json {
        player.map_or(Json::Null, Json::letter)
    }

    fn ints<T: Into<i64>>(values: impl IntoIterator<Item = T>) -> Json {
        Json::List(values.into_iter().map(|v| Json::Int(v.into())).collect())
    }

    fn indices(values: &[usize]) -> Json {
        Json::List(values.iter().map(|&v| Json::Int(v as i64)).collect())
    }

    /// The field `name` of an object (`None` for another value or no such field).
    pub fn get(&self, name: &str) -> Option<&Json> {
        match self {
            Json::Object(fields) => fields.iter().find(|(key, _)| *key == name).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Adds (or replaces) the field `name` of an object.
    pub fn set(&mut self, name: &'static str, value: Json) {
        if let Json::Object(fields) = self {
            match fields.iter_mut().find(|(key, _)| *key == name) {
                Some(field) => field.1 = value,
                None => fields.push((name, value)),
            }
        }
    }
}

impl Json {
    /// The value as JSON text (compact; a number that is not finite is `null`): what a
    /// door sends as it is, where converting to its own values first and encoding
    /// those would cost more than the view itself (the online server's states).
    pub fn text(&self) -> String {
        let mut out = String::with_capacity(1024);
        self.write(&mut out);
        out
    }

    /// Appends [`text`](Self::text) to `out`.
    pub fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Int(n) => out.push_str(&n.to_string()),
            Json::Float(x) if x.is_finite() => out.push_str(&format!("{x:?}")),
            Json::Float(_) => out.push_str("null"),
            Json::Str(text) => quoted(out, text),
            Json::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Json::Object(fields) => object(out, fields.iter().map(|(name, v)| (*name, v))),
            Json::Map(fields) => object(out, fields.iter().map(|(name, v)| (name.as_str(), v))),
        }
    }
}

/// An object of `fields`, in order.
fn object<'a>(out: &mut String, fields: impl Iterator<Item = (&'a str, &'a Json)>) {
    out.push('{');
    for (i, (name, value)) in fields.enumerate() {
        if i > 0 {
            out.push(',');
        }
        quoted(out, name);
        out.push(':');
        value.write(out);
    }
    out.push('}');
}

/// `text` as a JSON string: quoted, with `"`, `\` and the control characters escaped.
fn quoted(out: &mut String, text: &str) {
    /// The bytes a JSON string escapes (all ASCII: never part of a longer character).
    const ESCAPED: [bool; 256] = {
        let mut table = [false; 256];
        let mut byte = 0;
        while byte < 0x20 {
            table[byte] = true;
            byte += 1;
        }
        table[b'"' as usize] = true;
        table[b'\\' as usize] = true;
        table
    };
    out.reserve(text.len() + 2);
    out.push('"');
    let bytes = text.as_bytes();
    let mut plain = 0;
    for (at, &byte) in bytes.iter().enumerate() {
        if !ESCAPED[byte as usize] {
            continue;
        }
        out.push_str(&text[plain..at]);
        match byte {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            _ => out.push_str(&format!("\\u{byte:04x}")),
        }
        plain = at + 1;
    }
    out.push_str(&text[plain..]);
    out.push('"');
}

/// Why a view cannot be made: a move that is not legal, or a drawing refused.
#[derive(Clone, PartialEq, Debug)]
pub enum ViewError {
    /// A move of the battle is not legal.
    Illegal(IllegalMove),
    /// A picture could not be drawn.
    Draw(DrawError),
    /// A battle the match does not have (`shown`: the last one it has).
    NoBattle {
        /// The battle asked for.
        number: usize,
        /// The battle the match shows, its last.
        shown: usize,
    },
    /// More moves of a battle than it has.
    NoPly {
        /// The battle.
        number: usize,
        /// Its moves so far.
        moves: usize,
        /// The moves asked for.
        ply: usize,
    },
}

impl std::fmt::Display for ViewError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ViewError::Illegal(error) => error.fmt(f),
            ViewError::Draw(error) => error.fmt(f),
            ViewError::NoBattle { number, shown } => {
                write!(f, "no battle {number} in this match (it has {shown})")
            }
            ViewError::NoPly { number, moves, ply } => {
                write!(f, "battle {number} has {moves} moves, not {ply}")
            }
        }
    }
}

impl std::error::Error for ViewError {}

impl HasKind for ViewError {
    fn kind(&self) -> ErrorKind {
        match self {
            ViewError::Illegal(error) => error.kind(),
            ViewError::Draw(error) => error.kind(),
            ViewError::NoBattle { .. } | ViewError::NoPly { .. } => ErrorKind::InvalidArgument,
        }
    }
}

impl From<IllegalMove> for ViewError {
    fn from(error: IllegalMove) -> ViewError {
        ViewError::Illegal(error)
    }
}

impl From<DrawError> for ViewError {
    fn from(error: DrawError) -> ViewError {
        ViewError::Draw(error)
    }
}

/// How a final pile scored (rule 6): the tower's buttons bottom to top, each side's
/// strengths and sum, the winner and the points.
pub fn scoring(last: &Position, scoring: &Scoring) -> Json {
    let tower: String = last.piles().flatten().map(Colour::letter).collect();
    Json::Object(vec![
        ("tower", Json::Str(tower)),
        ("red_strengths", Json::ints(scoring.strengths(Player::Red))),
        (
            "black_strengths",
            Json::ints(scoring.strengths(Player::Black)),
        ),
        ("red", Json::Int(scoring.red.into())),
        ("black", Json::Int(scoring.black.into())),
        ("winner", Json::optional_letter(scoring.winner())),
        ("points", Json::Int(scoring.points().into())),
    ])
}

/// What a front end needs to draw a position: its notation, piles, side to move, legal
/// moves and, once over, its scoring.
pub fn position(position: &Position) -> Json {
    let piles = position
        .piles()
        .map(|pile| Json::Str(pile.map(Colour::letter).collect()))
        .collect();
    let mut data = Json::Object(vec![
        ("position", Json::Str(position.to_string())),
        ("piles", Json::List(piles)),
        ("to_move", Json::letter(position.to_move())),
        ("is_over", Json::Bool(position.is_over())),
        (
            "legal_moves",
            Json::indices(&position.legal_moves().collect::<Vec<_>>()),
        ),
    ]);
    if let Some(scored) = position.scoring() {
        data.set("scoring", scoring(position, &scored));
    }
    data
}

/// The plies of `moves` from a battle's `start`, walked once: each with its mover, its
/// label in the record (`+` for an extra move), its drops, the slot lifted and the slots
/// dropped on, and the positions before and after; and the board they lead to.
pub fn plies(start: &Position, moves: &[usize]) -> Result<(Vec<Json>, Board), IllegalMove> {
    let mut board = Board::new(start);
    let mut plies = Vec::with_capacity(moves.len());
    for (number, &mv) in moves.iter().enumerate() {
        let before = board.position;
        let lifted_slot = board.slots.get(mv).copied();
        let sowing = before.sowing(mv)?;
        board.play(mv)?;
        let drop_slots: Vec<usize> = board
            .last_move
            .as_ref()
            .map(|last| {
                let slot = |pile: &usize| board.slots.get(*pile).copied();
                last.drops.iter().filter_map(slot).collect()
            })
            .unwrap_or_default();
        let extra_move = sowing.outcome.extra_move;
        let label = if extra_move {
            format!("{mv}+")
        } else {
            mv.to_string()
        };
        plies.push(Json::Object(vec![
            ("ply", Json::Int(number as i64 + 1)),
            ("mover", Json::letter(before.to_move())),
            ("move", Json::Int(mv as i64)),
            ("label", Json::Str(label)),
            ("extra_move", Json::Bool(extra_move)),
            ("drops", Json::indices(&sowing.drops)),
            (
                "lifted_slot",
                lifted_slot.map_or(Json::Null, |s| Json::Int(s as i64)),
            ),
            ("drop_slots", Json::indices(&drop_slots)),
            ("from", Json::Str(before.to_string())),
            ("position", Json::Str(board.position.to_string())),
        ]));
    }
    Ok((plies, board))
}

/// `shown` with its drawing: the piles in the slots that `board` (the walk of its
/// battle) keeps, the last move marked.
pub fn board(shown: &Position, board: &Board) -> Result<Json, DrawError> {
    let mut data = position(shown);
    data.set(
        "svg",
        Json::Str(svg::position(&board.position, &board.options())?),
    );
    data.set("slots", Json::indices(&board.slots));
    Ok(data)
}

/// Where `moves` played from `start` lead, drawn with every pile where it was at
/// `start` and the last move marked, with `line`, each ply (the analysis board, a past
/// position of a battle, a review).
pub fn line(start: &Position, moves: &[usize]) -> Result<Json, ViewError> {
    let (plies, drawn) = plies(start, moves)?;
    let mut data = board(&drawn.position, &drawn)?;
    data.set("line", Json::List(plies));
    Ok(data)
}

/// A scored battle as the match's state lists it: its moves with their labels, its
/// final pile, and the tower it scored (the same for the rest of the match).
pub fn finished_battle(battle: &Battle) -> Result<Json, ViewError> {
    let (plies, _) = plies(&battle.start, &battle.moves)?;
    let labels = plies
        .iter()
        .filter_map(|ply| ply.get("label").cloned())
        .collect();
    let mut data = Json::Object(vec![
        ("number", Json::Int(battle.number as i64)),
        ("starter", Json::letter(battle.starter)),
        ("start", Json::Str(battle.start.to_string())),
        ("moves", Json::indices(&battle.moves)),
        ("labels", Json::List(labels)),
    ]);
    if let (Json::Object(fields), Json::Object(last)) = (&mut data, position(&battle.last)) {
        fields.extend(last);
    }
    data.set("tower", Json::Str(svg::tower(&battle.last, TOWER_SIZE)?));
    Ok(data)
}

/// The height of a scored battle's tower in the page, in CSS pixels.
pub const TOWER_SIZE: f64 = 300.0;

/// The battle a page shows: the one being played, or the last one once the match is
/// over or while the tie rule's choice is due (nothing is dealt then).
pub fn battle_number(game: &Match) -> usize {
    let done = game.battles().len();
    if game.winner().is_some() || game.chooser().is_some() {
        done
    } else {
        done + 1
    }
}

/// Battle `number`'s start and its moves so far (`None`: no such battle).
pub fn battle(game: &Match, number: usize) -> Option<(Position, &[usize])> {
    let battles = game.battles();
    if (1..=battles.len()).contains(&number) {
        let done = &battles[number - 1];
        return Some((done.start, done.moves.as_slice()));
    }
    (number == battles.len() + 1 && number == battle_number(game))
        .then(|| (game.start(), game.moves()))
}

/// Battle `number` of `game` and its first `ply` moves (every move so far with `None`):
/// its start and those moves; a battle the match does not have, or more moves than it
/// has, refused in the words every door answers (a page's 404).
pub fn battle_moves(
    game: &Match,
    number: usize,
    ply: Option<usize>,
) -> Result<(Position, &[usize]), ViewError> {
    let shown = battle_number(game);
    let (start, moves) = battle(game, number).ok_or(ViewError::NoBattle { number, shown })?;
    match ply {
        Some(ply) if ply > moves.len() => Err(ViewError::NoPly {
            number,
            moves: moves.len(),
            ply,
        }),
        Some(ply) => Ok((start, &moves[..ply])),
        None => Ok((start, moves)),
    }
}

/// Battle `number` of a match (`None`: no such battle): its start, its plies, and once
/// scored its scoring and the tower it scored (as the match's state lists it: a page
/// that keeps the state lighter may take the tower from here).
pub fn battle_view(game: &Match, number: usize) -> Result<Option<Json>, ViewError> {
    let Some((start, moves)) = battle(game, number) else {
        return Ok(None);
    };
    let (plies, _) = plies(&start, moves)?;
    let mut data = battle_json(game, number, &start, plies);
    if let Some(done) = scored(game, number) {
        data.set("tower", Json::Str(svg::tower(&done.last, TOWER_SIZE)?));
    }
    Ok(Some(data))
}

/// Battle `number` of `game` once it is scored.
fn scored(game: &Match, number: usize) -> Option<&Battle> {
    number.checked_sub(1).and_then(|i| game.battles().get(i))
}

fn battle_json(game: &Match, number: usize, start: &Position, plies: Vec<Json>) -> Json {
    let scored = scored(game, number);
    let mut data = Json::Object(vec![
        ("number", Json::Int(number as i64)),
        ("start", Json::Str(start.to_string())),
        ("starter", Json::letter(start.to_move())),
        ("plies", Json::List(plies)),
        ("over", Json::Bool(scored.is_some())),
    ]);
    if let Some(done) = scored {
        data.set("scoring", scoring(&done.last, &done.scoring));
    }
    data
}

/// A match's whole state, for a page: the position drawn, the scores, the battle shown
/// with its plies (`battle`), the move just made with `played` (`played`: the last
/// ply of its battle, which it may have ended), and with `battles` every scored battle
/// ([`finished_battle`]; a caller that keeps them leaves them out).
pub fn match_state(game: &Match, battles: bool, played: bool) -> Result<Json, ViewError> {
    let number = battle_number(game);
    let (start, moves) = battle(game, number).unwrap_or((game.start(), game.moves()));
    let (plies, drawn) = plies(&start, moves)?;
    let (red, black) = (game.standing().red, game.standing().black);
    let mut data = board(&game.position(), &drawn)?;
    if let Json::Object(fields) = &mut data {
        fields.extend([
            (
                "scores",
                Json::Object(vec![
                    ("r", Json::Int(red.into())),
                    ("b", Json::Int(black.into())),
                ]),
            ),
            ("target", Json::Int(game.target().into())),
            ("per_colour", Json::Int(game.per_colour() as i64)),
            ("starter", Json::letter(game.starter())),
            ("chooser", Json::optional_letter(game.chooser())),
            ("winner", Json::optional_letter(game.winner())),
            ("moves", Json::indices(game.moves())),
            ("legal_moves", Json::indices(&game.legal_moves())),
        ]);
    }
    if played {
        let last = if game.moves().is_empty() {
            game.battles().len()
        } else {
            game.battles().len() + 1
        };
        let ply = if last == number {
            plies.last().cloned()
        } else {
            match battle(game, last) {
                Some((start, moves)) => self::plies(&start, moves)?.0.pop(),
                None => None,
            }
        };
        if let Some(Json::Object(mut fields)) = ply {
            fields.push(("battle", Json::Int(last as i64)));
            fields.push(("ended_battle", Json::Bool(game.moves().is_empty())));
            data.set("played", Json::Object(fields));
        }
    }
    data.set("battle", battle_json(game, number, &start, plies));
    if battles {
        let scored = game
            .battles()
            .iter()
            .map(finished_battle)
            .collect::<Result<_, _>>()?;
        data.set("battles", Json::List(scored));
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::notation::parse;

    #[test]
    fn json_text_is_compact_with_strings_escaped() {
        let value = Json::Object(vec![
            ("svg", Json::Str("<a b=\"c\">\\ é\n\u{1}</a>".into())),
            (
                "n",
                Json::List(vec![
                    Json::Int(-3),
                    Json::Float(0.25),
                    Json::Float(f64::NAN),
                ]),
            ),
            (
                "m",
                Json::Map(vec![
                    ("7".into(), Json::Bool(true)),
                    ("8".into(), Json::Null),
                ]),
            ),
        ]);
        assert_eq!(
            value.text(),
            r#"{"svg":"<a b=\"c\">\\ é\n\u0001</a>","n":[-3,0.25,null],"m":{"7":true,"8":null}}"#
        );
    }

    #[test]
    fn a_ply_says_what_it_did_and_where_its_buttons_went() {
        let start = parse("W/R/B/W/B/R/R/W/B r").unwrap();
        let (plies, board) = plies(&start, &[3]).unwrap();
        assert_eq!(board.position.to_string(), "W/R/B/BW/R/R/W/B b");
        let ply = &plies[0];
        assert_eq!(ply.get("label"), Some(&Json::Str("3".into())));
        assert_eq!(ply.get("lifted_slot"), Some(&Json::Int(3)));
        assert_eq!(ply.get("drops"), Some(&Json::List(vec![Json::Int(4)])));
        assert_eq!(ply.get("drop_slots"), Some(&Json::List(vec![Json::Int(4)])));
        assert_eq!(
            ply.get("from"),
            Some(&Json::Str("W/R/B/W/B/R/R/W/B r".into()))
        );
    }

    #[test]
    fn a_match_s_state_shows_the_battle_being_played_and_those_scored() {
        let mut game = Match::new(Player::Red, 15, 3, 5, &[]).unwrap();
        while game.battles().is_empty() {
            let mv = game.legal_moves()[0];
            game.play(mv).unwrap();
        }
        let state = match_state(&game, true, true).unwrap();
        let Some(Json::List(scored)) = state.get("battles") else {
            panic!("no battles")
        };
        assert_eq!(scored.len(), 1);
        assert!(scored[0].get("tower").is_some());
        let played = state.get("played").unwrap();
        assert_eq!(played.get("battle"), Some(&Json::Int(1)));
        assert_eq!(played.get("ended_battle"), Some(&Json::Bool(true)));
        assert_eq!(battle(&game, 9), None);
        assert!(battle_view(&game, 1)
            .unwrap()
            .unwrap()
            .get("scoring")
            .is_some());
    }
}

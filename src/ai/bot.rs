//! A bot of the level scale: its random stream, its limits and its own tables.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::level::{BotError, Level, ScalePoint};
use crate::game::match_rules::Match;
use crate::game::rng::SplitMix64;
use crate::game::rules::{Player, Position};
use crate::game::variant::Capability;
use crate::odds::MOVE_TABLE_BYTES;
use crate::odds::{lock_odds, move_chances, shared_odds, with_match_searcher, MatchOdds};
use crate::run::parallel::{default_threads, THREADS_AVAILABLE};
use crate::search::Searcher;
use crate::search::{analyze, go, ExactError, Iteration, Limits, On, Payoff, SearchResult};

/// The table a bot searches on unless told otherwise (16 MiB, as the engine's `Hash`).
pub const DEFAULT_TABLE_BYTES: usize = 16 << 20;

/// An AI player of one [`Level`]: [`choose`](Self::choose) gives its move.
///
/// Its perfect moves are the best move of one iterative-deepening search
/// ([`crate::search::go`]) within its [`Limits`], on its own table, which carries over
/// from move to move: exact without limits or when the search reaches the end, the best
/// estimate at its horizon otherwise. Of equally good moves it plays the
/// lowest-numbered, the search's tie rule, so that every door plays the same move for
/// the same level and seed. A bot made [`on_thread_table`](Self::on_thread_table)
/// searches on the calling thread's tables instead (a server with many bots then holds
/// no table per bot).
pub struct Bot {
    level: Level,
    /// The chance of a random move set apart from the scale (`None`: the level's, by the
    /// size of the battle).
    epsilon: Option<f64>,
    /// The point of the scale between two levels that it was asked for by rating.
    point: Option<ScalePoint>,
    seed: u64,
    rng: SplitMix64,
    limits: Limits,
    threads: usize,
    /// Its table, allocated at its first search (so that making a bot costs nothing).
    searcher: Option<Searcher>,
    table_bytes: usize,
    thread_table: bool,
    stop: Arc<AtomicBool>,
    match_searcher: Option<Searcher>,
    last_random: bool,
    last_search: Option<SearchResult>,
}

impl Bot {
    /// The bot of `level` (1 to 10), its random choices fixed by `seed`.
    pub fn new(level: i64, seed: u64) -> Result<Bot, BotError> {
        Ok(Bot::of(Level::new(level)?, seed))
    }

    /// The bot of `level`, its random choices fixed by `seed`.
    pub fn of(level: Level, seed: u64) -> Bot {
        Bot {
            level,
            epsilon: None,
            point: None,
            seed,
            rng: SplitMix64::new(seed),
            limits: Limits::default(),
            threads: default_threads(),
            searcher: None,
            table_bytes: DEFAULT_TABLE_BYTES,
            thread_table: false,
            stop: Arc::new(AtomicBool::new(false)),
            match_searcher: None,
            last_random: false,
            last_search: None,
        }
    }

    /// A bot off the level scale: perfect play for the margin with a chance `epsilon`
    /// (0 to 1) of a uniformly random move instead (1: random moves only), its random
    /// choices fixed by `seed`. It reports level 9 when `epsilon` is 0 and level 1 when
    /// it is 1; otherwise its level is 9's, which only [`epsilon`](Self::epsilon) tells
    /// apart.
    pub fn with_epsilon(epsilon: f64, seed: u64) -> Result<Bot, BotError> {
        if !(0.0..=1.0).contains(&epsilon) {
            return Err(BotError::Epsilon(epsilon));
        }
        let level = if epsilon >= 1.0 {
            Level::RANDOM
        } else {
            Level::PERFECT
        };
        let mut bot = Bot::of(level, seed);
        bot.epsilon = Some(epsilon);
        Ok(bot)
    }

    /// The bot whose rating is `rating` ([`MIN_RATING`](super::level::MIN_RATING) to
    /// [`MAX_RATING`](super::level::MAX_RATING)) on the level scale's ratings: between the
    /// two levels around that rating, its chance of a random move as far between theirs;
    /// its random choices fixed by `seed`. It reports the level nearest, and plays for
    /// the match as level 10 does from halfway between 9 and 10.
    pub fn with_rating(rating: f64, seed: u64) -> Result<Bot, BotError> {
        let point = ScalePoint::of_rating(rating)?;
        let mut bot = Bot::of(point.nearest_level(), seed);
        bot.point = Some(point);
        Ok(bot)
    }

    /// Makes it play at `rating`, as [`with_rating`](Self::with_rating) makes a bot
    /// (its seed, table and limits kept), or leaves it as it is and gives the error.
    pub fn set_rating(&mut self, rating: f64) -> Result<(), BotError> {
        let point = ScalePoint::of_rating(rating)?;
        self.level = point.nearest_level();
        self.epsilon = None;
        self.point = Some(point);
        Ok(())
    }

    /// Its rating: its level's, or the one it was asked for (`None` for a chance of a
    /// random move set apart from the scale).
    pub fn rating(&self) -> Option<f64> {
        match (self.point, self.epsilon) {
            (Some(point), _) => Some(point.rating()),
            (None, Some(_)) => None,
            (None, None) => Some(self.level.rating()),
        }
    }

    /// Its level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// Its chance of a random move in the standard game (a level's is smaller from 5
    /// buttons of each colour: [`epsilon_for`](Self::epsilon_for)).
    pub fn epsilon(&self) -> f64 {
        self.epsilon_for(crate::STANDARD_PER_COLOUR)
    }

    /// Its chance of a random move in a battle of `per_colour` buttons of each colour.
    pub fn epsilon_for(&self, per_colour: usize) -> f64 {
        match (self.epsilon, self.point) {
            (Some(epsilon), _) => epsilon,
            (None, Some(point)) => point.epsilon_for(per_colour),
            (None, None) => self.level.epsilon_for(per_colour),
        }
    }

    /// The seed it was made with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The limits of each of its searches (none: exact play).
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Sets the limits of its next searches.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Sets how many threads it may solve big positions on, or search them on within a
    /// time alone (at least 1; the default is every core).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        // Its own table is made again, at its next search, if its kind no longer fits.
        let shares = self.shares_its_table();
        match self.searcher.as_mut() {
            Some(searcher) if searcher.is_shared() != shares => self.searcher = None,
            Some(searcher) => searcher.set_threads(threads),
            None => {}
        }
    }

    /// Whether its own table is one that helper threads share: only where it has them
    /// (a wide-entry table is a little faster for one thread: 5% at 6 of each colour).
    fn shares_its_table(&self) -> bool {
        THREADS_AVAILABLE && self.threads > 1
    }

    /// Replaces its search table by one of `bytes` bytes.
    pub fn set_table_bytes(&mut self, bytes: usize) -> Result<(), crate::search::TableAllocError> {
        let mut searcher = Searcher::with_threads(bytes, self.threads)?;
        searcher.halt_with(Arc::clone(&self.stop));
        self.searcher = Some(searcher);
        self.table_bytes = bytes;
        self.thread_table = false;
        Ok(())
    }

    /// Makes it search on the table of whichever thread asks it for a move (the one
    /// [`crate::search::solve`] uses), holding none of its own: for a front end that
    /// keeps many bots, as a server does. Its stop flag still stops its searches.
    pub fn on_thread_table(mut self) -> Bot {
        self.thread_table = true;
        self.searcher = None;
        self
    }

    /// The size of the table it searches on, in bytes (its own, or its thread's).
    pub fn table_bytes(&self) -> usize {
        if self.thread_table {
            crate::search::THREAD_TABLE_BYTES
        } else {
            self.table_bytes
        }
    }

    /// Makes it the bot of `level` from `seed` again, as new but for its table, its
    /// limits and its other settings.
    pub fn reset(&mut self, level: Level, seed: u64) {
        self.level = level;
        self.epsilon = None;
        self.point = None;
        self.seed = seed;
        self.rng = SplitMix64::new(seed);
        self.last_random = false;
        self.last_search = None;
    }

    /// Allocates its table now rather than at its first search (an engine's `isready`).
    pub fn prepare(&mut self) {
        if !self.thread_table {
            self.searcher();
        }
    }

    /// Forgets what its table has learned (a new game).
    pub fn clear(&mut self) {
        if let Some(searcher) = self.searcher.as_mut() {
            searcher.clear();
        }
    }

    /// The flag that stops its search from another thread (it then plays the best
    /// move found so far). A stop set while no search runs stops the next one.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Whether its last move was a random one.
    pub fn last_random(&self) -> bool {
        self.last_random
    }

    /// The search behind its last move, when it was chosen by one search.
    pub fn last_search(&self) -> Option<&SearchResult> {
        self.last_search.as_ref()
    }

    /// Its move in `position` (`None` once the battle is over). `game`, when given, is
    /// the match being played, whose current position must be `position` for level 10
    /// to play for the match.
    pub fn choose(&mut self, position: &Position, game: Option<&Match>) -> Option<usize> {
        self.choose_with(position, game, &mut |_| true)
    }

    /// [`choose`](Self::choose), telling `progress` of each finished iteration of its
    /// search (when the move comes from one); the search stops after an iteration for
    /// which `progress` returns `false`.
    pub fn choose_with(
        &mut self,
        position: &Position,
        game: Option<&Match>,
        progress: &mut dyn FnMut(&Iteration) -> bool,
    ) -> Option<usize> {
        let chosen = self.choose_now(position, game, progress);
        // A stop is spent by the search it stopped (or by this move, had it none).
        self.stop.store(false, Ordering::SeqCst);
        chosen
    }

    fn searcher(&mut self) -> &mut Searcher {
        let (bytes, stop, threads) = (self.table_bytes, &self.stop, self.threads);
        self.searcher.get_or_insert_with(|| {
            // A table that cannot be had at its size is one the system can give.
            let mut searcher = Searcher::with_threads(bytes, threads)
                .unwrap_or_else(|_| Searcher::new(Payoff::Margin, 1 << 20));
            searcher.halt_with(Arc::clone(stop));
            searcher
        })
    }

    /// Where its searches run: its own table, or the calling thread's with its stop
    /// flag lent for the while.
    fn on(&mut self) -> On<'_> {
        if self.thread_table {
            On::Thread {
                threads: self.threads,
                stop: Some(Arc::clone(&self.stop)),
            }
        } else {
            On::Searcher(self.searcher())
        }
    }

    fn choose_now(
        &mut self,
        position: &Position,
        game: Option<&Match>,
        progress: &mut dyn FnMut(&Iteration) -> bool,
    ) -> Option<usize> {
        self.last_random = false;
        self.last_search = None;
        let moves: Vec<usize> = position.legal_moves().collect();
        if moves.is_empty() {
            return None;
        }
        // The battle's size: its buttons never leave the board.
        let epsilon = self.epsilon_for(position.button_count() / 3);
        if epsilon >= 1.0 || (epsilon > 0.0 && self.uniform() < epsilon) {
            self.last_random = true;
            return Some(self.pick(&moves));
        }
        if self.level.plays_for_the_match() {
            if let Some(game) = game.filter(|g| plays_odds_of(g, position)) {
                if let Ok(mv) = self.for_the_match(position, game) {
                    return Some(mv);
                }
            }
        }
        Some(self.best(position, progress))
    }

    /// Who starts the next battle when the tie rule lets this bot choose in `game`:
    /// level 10 takes the better chance of winning the match (starting itself when
    /// both are equal); the others start themselves, which is worth more on average.
    pub fn choose_starter(&mut self, game: &Match) -> Player {
        let Some(chooser) = game.chooser() else {
            return game.position().to_move();
        };
        if !self.level.plays_for_the_match() || !Capability::MatchOdds.supports(game.per_colour()) {
            return chooser;
        }
        let Ok(table) = shared_odds(game.target(), game.per_colour()) else {
            return chooser;
        };
        let odds = &mut *lock_odds(&table);
        let chance = |starter: Player, odds: &mut MatchOdds| -> f64 {
            let red = game
                .standing()
                .choose(starter)
                .ok()
                .and_then(|s| odds.win_probability(&s).ok())
                .unwrap_or(0.5);
            if chooser == Player::Red {
                red
            } else {
                1.0 - red
            }
        };
        let other = chooser.other();
        if chance(other, odds) > chance(chooser, odds) {
            other
        } else {
            chooser
        }
    }

    fn uniform(&mut self) -> f64 {
        (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn pick(&mut self, moves: &[usize]) -> usize {
        moves[self.rng.below(moves.len() as u64) as usize]
    }

    /// The best move of one search within its limits (exact without them; of equally
    /// good moves the lowest-numbered).
    fn best(&mut self, position: &Position, progress: &mut dyn FnMut(&Iteration) -> bool) -> usize {
        let limits = self.limits;
        let result = go(position, &limits, self.on(), progress);
        let mv = result
            .best_move
            .or_else(|| position.legal_moves().next())
            .unwrap_or(0);
        self.last_search = Some(result);
        mv
    }

    fn exact_values(&mut self, position: &Position) -> Result<Vec<(usize, f64)>, ExactError> {
        let values = analyze(position, self.on())?;
        Ok(values
            .into_iter()
            .map(|(mv, v)| (mv, f64::from(v)))
            .collect())
    }

    /// Level 10's move: the best chance of winning the match, ties to the better
    /// margin, then to the lowest-numbered move.
    fn for_the_match(&mut self, position: &Position, game: &Match) -> Result<usize, ()> {
        let threads = self.threads;
        let table = shared_odds(game.target(), game.per_colour()).map_err(|_| ())?;
        let payoff = lock_odds(&table).payoff(game.standing()).map_err(|_| ())?;
        let chances = if self.thread_table {
            with_match_searcher(|searcher| move_chances(&payoff, position, threads, searcher))
        } else {
            let searcher = self
                .match_searcher
                .get_or_insert_with(|| Searcher::new(Payoff::Margin, MOVE_TABLE_BYTES));
            move_chances(&payoff, position, threads, searcher)
        }
        .map_err(|_| ())?;
        let candidates = best_of(&chances);
        if candidates.len() == 1 {
            return Ok(candidates[0]);
        }
        let margins = self.exact_values(position).map_err(|_| ())?;
        let margin = |mv: usize| {
            margins
                .iter()
                .find(|&&(m, _)| m == mv)
                .map_or(f64::MIN, |p| p.1)
        };
        let scored: Vec<(usize, f64)> = candidates.into_iter().map(|mv| (mv, margin(mv))).collect();
        best_of(&scored).first().copied().ok_or(())
    }
}

/// The moves of `values` (moves and their values, in legal-move order) whose value is
/// the greatest, in order: never empty for values of at least one move.
fn best_of(values: &[(usize, f64)]) -> Vec<usize> {
    let top = values
        .iter()
        .map(|&(_, v)| v)
        .fold(f64::NEG_INFINITY, f64::max);
    values
        .iter()
        .filter(|&&(_, v)| v == top)
        .map(|&(mv, _)| mv)
        .collect()
}

/// Whether the match odds can be used for `game` at `position`.
fn plays_odds_of(game: &Match, position: &Position) -> bool {
    Capability::MatchOdds.supports(game.per_colour())
        && game.battle_position().as_ref() == Some(position)
}

impl std::fmt::Debug for Bot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bot")
            .field("level", &self.level.number())
            .field("seed", &self.seed)
            .field("limits", &self.limits)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::random_start;
    use std::time::Duration;

    #[test]
    fn its_own_table_is_shared_exactly_when_it_has_helper_threads() {
        let start = random_start(6, Player::Red, &mut SplitMix64::new(2)).unwrap();
        let mut bot = Bot::new(9, 1).unwrap();
        bot.set_limits(Limits {
            time: Some(Duration::from_secs(60)),
            ..Limits::default()
        });
        let mut kinds = Vec::new();
        for threads in [1, 2, 2, 1] {
            bot.set_threads(threads);
            let mv = bot.choose(&start, None).unwrap();
            assert!(start.is_legal(mv) && bot.last_search().unwrap().exact);
            kinds.push(bot.searcher.as_ref().unwrap().is_shared());
        }
        assert_eq!(kinds, [false, THREADS_AVAILABLE, THREADS_AVAILABLE, false]);
    }
}

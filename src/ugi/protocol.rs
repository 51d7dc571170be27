//! The protocol's state machine: options, the position, and the search thread. It runs
//! on the engine's own thread (`super::engine`), which hands it one line at a time;
//! every answer is a line on the shared [`Output`].

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

use super::go::{parse_int, Go, CHECKS, OPTIONS};
use super::lines::{shorten, words, MAX_LINE};
use super::output::Output;
use crate::ai::{Bot, Level};
use crate::game::error_kind::BattleError;
use crate::game::notation;
use crate::game::rng::{random_start, SplitMix64};
use crate::game::rules::{Player, Position};
use crate::game::variant::STANDARD_PER_COLOUR;
use crate::search::Iteration;

/// A flag a thread can wait on: set by `stop` or `quit`, awaited by `go infinite`.
#[derive(Default)]
struct Halt {
    set: Mutex<bool>,
    changed: Condvar,
}

impl Halt {
    fn set(&self, value: bool) {
        *self.set.lock().unwrap_or_else(|p| p.into_inner()) = value;
        self.changed.notify_all();
    }

    fn wait(&self) {
        let mut set = self.set.lock().unwrap_or_else(|p| p.into_inner());
        while !*set {
            set = self.changed.wait(set).unwrap_or_else(|p| p.into_inner());
        }
    }
}

/// What the reading thread needs to stop finite searches at once, without waiting for
/// the commands before `stop` to be carried out. Lines are numbered as they are read;
/// `stop` (and `quit`) stop every finite search of a `go` read before them: the one
/// running, and those still waiting, which then answer as soon as they start. A
/// `go infinite` is stopped in order, by the `stop` itself.
#[derive(Default)]
pub(super) struct Stops {
    /// The bot's stop flag, read by the search without its lock.
    flag: Arc<AtomicBool>,
    /// True from a finite search's start until its `bestmove` is written.
    finite: AtomicBool,
    /// The number of the line of the search running (or of the last one).
    search_line: AtomicU64,
    /// Every finite search of a line numbered below this one is stopped.
    stopped_below: AtomicU64,
}

impl Stops {
    /// Stops every finite search of a line before `line`.
    pub(super) fn stop_before(&self, line: u64) {
        self.stopped_below.fetch_max(line, Ordering::SeqCst);
        if self.finite.load(Ordering::SeqCst) && self.search_line.load(Ordering::SeqCst) < line {
            self.flag.store(true, Ordering::SeqCst);
        }
    }

    fn is_stopped(&self, line: u64) -> bool {
        line < self.stopped_below.load(Ordering::SeqCst)
    }
}

/// The protocol: what it has set, and the search running, if any.
pub(super) struct Protocol {
    out: Output,
    /// What `id name` says, before the version.
    name: String,
    level: u64,
    hash: u64,
    seed: u64,
    /// The `Elo` option, and whether `LimitStrength` makes the bot play at it.
    elo: u64,
    limit_strength: bool,
    /// The bot of the Level option on the Hash table, made again (its table kept) when
    /// options change, so that its random moves repeat from the Seed.
    bot: Arc<Mutex<Bot>>,
    stops: Arc<Stops>,
    /// The number of the line being carried out.
    line: u64,
    position: Option<Position>,
    /// True from `go` until its `bestmove` is written.
    busy: Arc<AtomicBool>,
    halt: Arc<Halt>,
    thread: Option<JoinHandle<()>>,
    /// Whether the last search was `go infinite` (answered only after `stop`).
    infinite: bool,
    running: bool,
}

impl Protocol {
    /// A protocol with the default options, writing to `out`, that calls itself `name`
    /// in its `id name` line.
    pub(super) fn new(out: Output, name: &str) -> Protocol {
        let [level, hash, seed, threads, elo] = OPTIONS.map(|o| o.default);
        let [limit_strength] = CHECKS.map(|c| c.default);
        let mut bot = Bot::of(Level::MATCH, seed);
        bot.set_threads(threads as usize);
        let stops = Arc::new(Stops {
            flag: bot.stop_flag(),
            ..Stops::default()
        });
        Protocol {
            out,
            name: name.to_string(),
            level,
            hash,
            seed,
            elo,
            limit_strength,
            bot: Arc::new(Mutex::new(bot)),
            stops,
            line: 0,
            position: None,
            busy: Arc::new(AtomicBool::new(false)),
            halt: Arc::new(Halt::default()),
            thread: None,
            infinite: false,
            running: true,
        }
    }

    /// Whether it reads on (not after `quit`).
    pub(super) fn running(&self) -> bool {
        self.running
    }

    /// The position that `go` searches: the last `position` command's (none before
    /// one, nor after `uginewgame`).
    pub(super) fn position(&self) -> Option<Position> {
        self.position
    }

    /// What stops its finite searches from the reading thread.
    pub(super) fn stops(&self) -> Arc<Stops> {
        Arc::clone(&self.stops)
    }

    /// Writes `info string error: MESSAGE`.
    pub(super) fn error(&self, message: &str) {
        self.out.send(&format!("info string error: {message}"));
    }

    /// Answers a line longer than [`MAX_LINE`] bytes, which the door skipped.
    pub(super) fn line_too_long(&self) {
        self.error(&format!("line longer than {MAX_LINE} bytes ignored"));
    }

    /// Answers an `isready` while a finite search runs.
    pub(super) fn answer_ready(&self) {
        self.out.send("readyok");
    }

    /// Whether a finite search runs (the commands that wait for one wait).
    pub(super) fn finite_search_running(&self) -> bool {
        self.stops.finite.load(Ordering::SeqCst)
    }

    /// Carries out line number `number`: an answer, or an error line; never a crash.
    pub(super) fn handle(&mut self, number: u64, line: &str) {
        self.line = number;
        let words = words(line);
        let Some((&first, arguments)) = words.split_first() else {
            return;
        };
        let command = first.to_lowercase();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            self.dispatch(&command, first, arguments)
        }));
        match outcome {
            Ok(Ok(())) => {}
            Ok(Err(message)) => self.error(&message),
            Err(_) => self.error(&format!("internal error on '{}'", shorten(line.trim()))),
        }
    }

    fn dispatch(&mut self, command: &str, first: &str, arguments: &[&str]) -> Result<(), String> {
        match command {
            "ugi" => self.ugi(),
            "isready" => {
                // Idle, the engine makes its table now (as UCI engines do), so that the
                // first search does not pay for it; searching, it answers at once.
                if !self.busy.load(Ordering::SeqCst) {
                    self.lock_bot().prepare();
                }
                self.out.send("readyok");
            }
            "debug" => {}
            "setoption" => self.setoption(arguments)?,
            "uginewgame" => {
                self.idle("uginewgame")?;
                self.lock_bot().clear();
                self.reset_bot();
                self.position = None;
            }
            "position" => self.set_position(arguments)?,
            "go" => self.go(arguments),
            "stop" => self.halt_search(),
            "query" => {
                // Asked in order: about the position after any finite search answered.
                self.await_finite_search();
                self.query(arguments)?
            }
            "quit" => {
                self.halt_search();
                self.running = false;
            }
            _ => return Err(format!("unknown command '{}'", shorten(first))),
        }
        Ok(())
    }

    fn ugi(&self) {
        let mut out = self.out.lock();
        out.send(&format!(
            "id name {} {}",
            self.name,
            env!("CARGO_PKG_VERSION")
        ));
        out.send("id author the buttonup developers");
        for option in &OPTIONS {
            out.send(&option.declaration());
        }
        for option in &CHECKS {
            out.send(&option.declaration());
        }
        out.send("ugiok");
    }

    fn lock_bot(&self) -> std::sync::MutexGuard<'_, Bot> {
        self.bot.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn reset_bot(&mut self) {
        let level = Level::new(self.level as i64).unwrap_or(Level::MATCH);
        let (seed, elo, limit) = (self.seed, self.elo, self.limit_strength);
        let mut bot = self.lock_bot();
        bot.reset(level, seed);
        if limit {
            // Within the option's range, which is the ratings' own.
            let _ = bot.set_rating(elo as f64);
        }
    }

    /// Who plays, as an `info string` names it: the level, or the rating.
    fn player(&self) -> String {
        if self.limit_strength {
            format!("Elo {}", self.elo)
        } else {
            format!("level {}", self.level)
        }
    }

    /// Waits for a finite search to answer, so that commands apply in the order they
    /// came; a `go infinite` is not waited for: it refuses `command`.
    fn idle(&mut self, command: &str) -> Result<(), String> {
        if self.busy.load(Ordering::SeqCst) && self.infinite {
            return Err(format!(
                "a search is running: send 'stop' before '{command}'"
            ));
        }
        self.await_finite_search();
        Ok(())
    }

    /// Waits for the search, if one runs and is not `go infinite`, to write its
    /// `bestmove`.
    pub(super) fn await_finite_search(&mut self) {
        if !self.infinite {
            self.join_search();
        }
    }

    fn setoption(&mut self, arguments: &[&str]) -> Result<(), String> {
        self.idle("setoption")?;
        let text = arguments.join(" ");
        let lowered: Vec<String> = arguments.iter().map(|w| w.to_lowercase()).collect();
        if arguments.len() != 4 || lowered[0] != "name" || lowered[2] != "value" {
            return Err(format!(
                "expected 'setoption name NAME value N', not '{}'",
                shorten(&text)
            ));
        }
        if let Some(check) = CHECKS.iter().find(|c| c.name.to_lowercase() == lowered[1]) {
            self.limit_strength = check.parse(arguments[3])?;
            self.reset_bot();
            return Ok(());
        }
        let Some(option) = OPTIONS.iter().find(|o| o.name.to_lowercase() == lowered[1]) else {
            return Err(format!("unknown option '{}'", shorten(arguments[1])));
        };
        let value = parse_int(
            option.name,
            arguments[3],
            i128::from(option.low),
            i128::from(option.high),
        )? as u64;
        match option.name {
            "Level" => self.level = value,
            "Hash" => {
                let bytes = (value as usize) << 20;
                if let Err(error) = self.lock_bot().set_table_bytes(bytes) {
                    return Err(format!("{error}; the table of {} MiB is kept", self.hash));
                }
                self.hash = value;
            }
            "Threads" => self.lock_bot().set_threads(value as usize),
            "Elo" => self.elo = value,
            _ => self.seed = value,
        }
        self.reset_bot();
        Ok(())
    }

    fn set_position(&mut self, arguments: &[&str]) -> Result<(), String> {
        self.idle("position")?;
        let Some(kind) = arguments.first() else {
            return Err("expected 'position startpos' or 'position fen PILES SIDE'".into());
        };
        let (mut position, rest) = match kind.to_lowercase().as_str() {
            "startpos" => {
                let mut rng = SplitMix64::new(self.seed);
                let start = random_start(STANDARD_PER_COLOUR, Player::Red, &mut rng)
                    .map_err(|e| e.to_string())?;
                (start, &arguments[1..])
            }
            "fen" => {
                // The notation's own error names what is missing after the piles.
                let text = match (arguments.get(1), arguments.get(2)) {
                    (None, _) => return Err("expected 'position fen PILES SIDE'".into()),
                    (Some(piles), None) => piles.to_string(),
                    (Some(piles), Some(side)) => format!("{piles} {side}"),
                };
                (
                    notation::parse(&text).map_err(|e| e.to_string())?,
                    &arguments[3.min(arguments.len())..],
                )
            }
            _ => {
                return Err(format!(
                    "expected 'startpos' or 'fen' after position, not '{}'",
                    shorten(kind)
                ))
            }
        };
        if let Some((first, moves)) = rest.split_first() {
            if first.to_lowercase() != "moves" {
                return Err(format!(
                    "expected 'moves' after the position, not '{}'",
                    shorten(first)
                ));
            }
            for (number, text) in (1..).zip(moves) {
                let name = format!("move {number}");
                let mv = parse_int(&name, text, -(1i128 << 63), 1i128 << 63)?;
                let played = match usize::try_from(mv) {
                    Ok(p) if p < position.pile_count() => position.play(p),
                    _ => Err(position.no_such_pile(mv.to_string())),
                };
                position = match played {
                    Ok(outcome) => outcome.position,
                    Err(error) => return Err(format!("{name} ({}): {error}", shorten(text))),
                };
            }
        }
        self.position = Some(position);
        Ok(())
    }

    fn query(&self, arguments: &[&str]) -> Result<(), String> {
        let [question] = arguments else {
            return Err("expected 'query gameover', 'query p1turn' or 'query result'".into());
        };
        let lowered = question.to_lowercase();
        if !["gameover", "p1turn", "result"].contains(&lowered.as_str()) {
            return Err(format!("unknown query '{}'", shorten(question)));
        }
        let Some(position) = self.position else {
            return Err("no position: send 'position' first".into());
        };
        let answer = match lowered.as_str() {
            "gameover" => position.is_over().to_string(),
            "p1turn" => (position.to_move() == Player::Red).to_string(),
            _ => match position.scoring() {
                None => "none".into(),
                Some(scoring) => match scoring.winner() {
                    Some(Player::Red) => "p1win".into(),
                    Some(Player::Black) => "p2win".into(),
                    None => "draw".into(),
                },
            },
        };
        self.out.send(&format!("response {answer}"));
        Ok(())
    }

    fn go(&mut self, arguments: &[&str]) {
        self.await_finite_search();
        if self.busy.load(Ordering::SeqCst) {
            // Every go gets its one bestmove, this one at once.
            let mut out = self.out.lock();
            out.send("info string error: a search is already running: send 'stop' first");
            out.send("bestmove (none)");
            return;
        }
        let checked = Go::parse(arguments).and_then(|go| match self.position {
            None => Err("no position: send 'position' before 'go'".to_string()),
            Some(p) if p.is_over() => Err(BattleError::NoMove.to_string()),
            Some(p) => Ok((go, p)),
        });
        let (go, position) = match checked {
            Ok(pair) => pair,
            Err(message) => {
                let mut out = self.out.lock();
                out.send(&format!("info string error: {message}"));
                out.send("bestmove (none)");
                return;
            }
        };
        self.join_search();
        self.halt.set(false);
        let stops = &self.stops;
        // A finite search that a `stop` read since has already stopped: it starts
        // stopped, and answers at once. Checked again once it runs, for a `stop` read
        // meanwhile (`Stops::stop_before` sees it running, or this sees the stop).
        let finite = !go.infinite;
        stops
            .flag
            .store(finite && stops.is_stopped(self.line), Ordering::SeqCst);
        stops.search_line.store(self.line, Ordering::SeqCst);
        stops.finite.store(finite, Ordering::SeqCst);
        self.busy.store(true, Ordering::SeqCst);
        self.infinite = go.infinite;
        let search = Search {
            out: self.out.clone(),
            bot: Arc::clone(&self.bot),
            busy: Arc::clone(&self.busy),
            stops: Arc::clone(stops),
            halt: Arc::clone(&self.halt),
            player: self.player(),
        };
        self.thread = Some(std::thread::spawn(move || search.run(position, go)));
        if finite && stops.is_stopped(self.line) {
            stops.flag.store(true, Ordering::SeqCst);
        }
    }

    /// Stops the search, if one runs, and waits for its `bestmove` (a stop is never
    /// lost: the flag is checked every few microseconds of search).
    fn halt_search(&mut self) {
        self.halt.set(true);
        if self.thread.is_some() {
            self.stops.flag.store(true, Ordering::SeqCst);
        }
        self.join_search();
    }

    fn join_search(&mut self) {
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// What the search thread needs.
struct Search {
    out: Output,
    bot: Arc<Mutex<Bot>>,
    busy: Arc<AtomicBool>,
    stops: Arc<Stops>,
    halt: Arc<Halt>,
    /// Who plays, as an `info string` names it.
    player: String,
}

impl Search {
    fn run(self, position: Position, go: Go) {
        let outcome = catch_unwind(AssertUnwindSafe(|| self.think(&position, &go)));
        let answer = match outcome {
            Ok(Some(mv)) => mv.to_string(),
            Ok(None) => "(none)".into(),
            Err(_) => {
                self.out.send("info string error: search failed");
                "(none)".into()
            }
        };
        if go.infinite {
            self.halt.wait();
        }
        let mut out = self.out.lock();
        self.busy.store(false, Ordering::SeqCst);
        self.stops.finite.store(false, Ordering::SeqCst);
        out.send(&format!("bestmove {answer}"));
    }

    /// The move of the Level option's bot within the limits of `go`, with an `info`
    /// line for each finished iteration. The engine knows no match, so level 10 plays
    /// as level 9.
    fn think(&self, position: &Position, go: &Go) -> Option<usize> {
        let mut bot = self.bot.lock().unwrap_or_else(|p| p.into_inner());
        bot.set_limits(go.limits(position));
        let out = &self.out;
        let mv = bot.choose_with(position, None, &mut |iteration| {
            out.send(&info(iteration));
            true
        });
        if bot.last_random() {
            out.send(&format!("info string {} plays a random move", self.player));
        }
        mv
    }
}

/// The `info` line of one finished iteration.
fn info(iteration: &Iteration) -> String {
    let seconds = iteration.elapsed.as_secs_f64();
    let nps = if seconds > 0.0 {
        (iteration.nodes as f64 / seconds) as u64
    } else {
        0
    };
    let pv: Vec<String> = iteration.pv.iter().map(usize::to_string).collect();
    format!(
        "info depth {} score cp {} nodes {} nps {} time {} pv {}",
        iteration.depth,
        (iteration.value * 100.0).round() as i64,
        iteration.nodes,
        nps,
        iteration.elapsed.as_millis(),
        pv.join(" ")
    )
}

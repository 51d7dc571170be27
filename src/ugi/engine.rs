//! The engine a door talks to: lines go into a queue that the engine's own thread
//! carries out in order, so the door always reads on. That is what keeps `isready`,
//! `stop` and `quit` answered while commands wait for a finite search (a `go` without
//! limits on a big position can search for hours): they are taken on the door's thread.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::lines::words;
use super::output::Output;
use super::protocol::{Protocol, Stops};
use crate::game::rules::Position;

/// One thing for the engine's thread to carry out.
enum Item {
    /// A line of input.
    Line(String),
    /// An error line of the door's (a line that is not UTF-8).
    Error(String),
    /// A line over the length limit, which the door skipped.
    TooLong,
    /// The end of input: a finite search answers first, then the engine quits.
    End,
}

impl Item {
    /// Whether it waits for a finite search to answer before it is carried out.
    fn waits(&self) -> bool {
        match self {
            Item::Line(line) => words(line).first().is_some_and(|first| {
                let command = first.to_lowercase();
                ["go", "position", "setoption", "uginewgame", "query"].contains(&command.as_str())
            }),
            Item::End => true,
            Item::Error(_) | Item::TooLong => false,
        }
    }

    fn is_isready(&self) -> bool {
        matches!(self, Item::Line(line) if words(line).first().is_some_and(|w| w.eq_ignore_ascii_case("isready")))
    }
}

/// The queue between the door's thread and the engine's.
#[derive(Default)]
struct Queue {
    items: VecDeque<(u64, Item)>,
    /// The number of the last line handed over.
    handed: u64,
    /// Whether the engine's thread is carrying out an item it took.
    carrying: bool,
    /// The number of the last item carried out.
    done: u64,
    /// Whether the engine's thread waits for a finite search (`isready` is then
    /// answered by the door's thread, at once).
    waiting: bool,
    /// The position of the last line carried out.
    position: Option<Position>,
    /// Whether the engine's thread has ended (after `quit` or the end of input).
    ended: bool,
}

struct Shared {
    queue: Mutex<Queue>,
    /// Told of every item handed over and every item carried out.
    changed: Condvar,
    stops: Arc<Stops>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A UGI engine (docs/protocol.md): the door hands it each line it reads, and every
/// answer is a line on its [`Output`]. Commands are carried out in the order they came,
/// on the engine's own thread, each search on a thread of its own: `isready`, `stop`
/// and `quit` are answered whatever waits, and bad input never stops it.
pub struct Engine {
    shared: Arc<Shared>,
    out: Output,
    worker: Option<JoinHandle<()>>,
    /// Whether the door reads on (not after `quit`, the end of input or Ctrl-C).
    reading: bool,
}

impl Engine {
    /// An engine with the default options, writing to `out`, that calls itself `name`
    /// in its `id name` line.
    pub fn new(out: Output, name: &str) -> Engine {
        let protocol = Protocol::new(out.clone(), name);
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            changed: Condvar::new(),
            stops: protocol.stops(),
        });
        let worker = {
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || carry_out(protocol, &shared))
        };
        Engine {
            shared,
            out,
            worker: Some(worker),
            reading: true,
        }
    }

    /// Whether it reads on (not after `quit`).
    pub fn running(&self) -> bool {
        self.reading && !self.shared.lock().ended
    }

    /// The position that `go` searches, as the lines carried out so far have set it:
    /// the last `position` command's (none before one, nor after `uginewgame`). Call
    /// [`settle`](Self::settle) first for the position after every line handed over.
    pub fn position(&self) -> Option<Position> {
        self.shared.lock().position
    }

    /// Waits up to `timeout` for every line handed over to be carried out (a line
    /// behind a finite search waits for it); whether they are.
    pub fn settle(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut queue = self.shared.lock();
        while (queue.carrying || !queue.items.is_empty()) && !queue.ended {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            queue = self.wait(queue, left);
        }
        true
    }

    /// Takes one line: `isready` is answered at once while commands wait for a search;
    /// `stop` stops every search of a `go` before it, at once, and returns once they
    /// have answered; the rest (`quit` included) waits its turn.
    pub fn handle(&mut self, line: &str) {
        let first = words(line).first().map(|w| w.to_lowercase());
        match first.as_deref() {
            Some("isready") => {
                let mut queue = self.shared.lock();
                if queue.waiting {
                    drop(queue);
                    self.out.send("readyok");
                    return;
                }
                Self::push(&mut queue, Item::Line(line.to_string()));
                drop(queue);
                self.shared.changed.notify_all();
            }
            Some("stop") => {
                // Every search before it answers before anything after it: the finite
                // ones stop now, and the lines between them cannot wait long.
                let number = self.hand(Item::Line(line.to_string()));
                self.shared.stops.stop_before(number);
                let mut queue = self.shared.lock();
                while queue.done < number && !queue.ended {
                    queue = self.wait(queue, Duration::from_secs(1));
                }
            }
            Some("quit") => {
                // In its turn, as the end of input: a session piped at once ends as
                // it would line by line.
                self.hand(Item::Line(line.to_string()));
                self.reading = false;
            }
            _ => {
                self.hand(Item::Line(line.to_string()));
            }
        }
    }

    /// Writes `info string error: MESSAGE` in its turn.
    pub fn error(&mut self, message: &str) {
        self.hand(Item::Error(message.to_string()));
    }

    /// Answers, in its turn, a line longer than [`super::MAX_LINE`] bytes, which the
    /// door skipped.
    pub fn line_too_long(&mut self) {
        self.hand(Item::TooLong);
    }

    /// The end of input: every line before it is carried out (a finite search answers
    /// first: a session piped at once gets every answer), then the engine quits as on
    /// `quit`. Returns once it has (see [`end`](Self::end) for a wait with a limit).
    pub fn end_of_input(&mut self) {
        self.begin_end();
        while !self.end(Duration::from_secs(3600)) {}
    }

    /// [`end_of_input`](Self::end_of_input) without the wait: the door then calls
    /// [`end`](Self::end) until it answers `true` (a door that must see Ctrl-C).
    pub fn begin_end(&mut self) {
        if self.reading {
            self.hand(Item::End);
            self.reading = false;
        }
    }

    /// Waits up to `timeout` for the engine's thread to end; whether it has.
    pub fn end(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut queue = self.shared.lock();
        while !queue.ended {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            queue = self.wait(queue, left);
        }
        drop(queue);
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
        true
    }

    /// Ctrl-C at the door: stops every search and waits for them, writing nothing more.
    pub fn interrupt(&mut self) {
        self.out.close();
        self.shared.lock().items.clear();
        self.quit();
    }

    /// The door ends: after `quit` or the end of input, waits for the engine to carry
    /// out every line before them; otherwise stops every search and waits for them.
    pub fn finish(&mut self) {
        self.begin_finish();
        while !self.end(Duration::from_secs(3600)) {}
    }

    /// [`finish`](Self::finish) without the wait (see [`begin_end`](Self::begin_end)).
    pub fn begin_finish(&mut self) {
        if self.reading {
            self.shared.stops.stop_before(u64::MAX);
            self.hand(Item::Line("quit".into()));
            self.reading = false;
        }
    }

    fn quit(&mut self) {
        if !self.shared.lock().ended {
            self.shared.stops.stop_before(u64::MAX);
            self.hand(Item::Line("quit".into()));
        }
        self.reading = false;
        while !self.end(Duration::from_secs(3600)) {}
    }

    fn push(queue: &mut Queue, item: Item) -> u64 {
        queue.handed += 1;
        let number = queue.handed;
        queue.items.push_back((number, item));
        number
    }

    /// Hands `item` over; its number.
    fn hand(&self, item: Item) -> u64 {
        let number = Self::push(&mut self.shared.lock(), item);
        self.shared.changed.notify_all();
        number
    }

    fn wait<'a>(
        &'a self,
        queue: MutexGuard<'a, Queue>,
        timeout: Duration,
    ) -> MutexGuard<'a, Queue> {
        self.shared
            .changed
            .wait_timeout(queue, timeout)
            .unwrap_or_else(|p| p.into_inner())
            .0
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if self.worker.is_some() {
            // Nobody waits for its answers any more.
            self.quit();
        }
    }
}

/// The engine's thread: carries out the items in order until `quit` or the end.
fn carry_out(mut protocol: Protocol, shared: &Shared) {
    while protocol.running() {
        let (number, item) = next(&mut protocol, shared);
        match item {
            Item::Line(line) => protocol.handle(number, &line),
            Item::Error(message) => protocol.error(&message),
            Item::TooLong => protocol.line_too_long(),
            Item::End => protocol.handle(number, "quit"),
        }
        let mut queue = shared.lock();
        queue.carrying = false;
        queue.done = number;
        queue.position = protocol.position();
        drop(queue);
        shared.changed.notify_all();
    }
    shared.lock().ended = true;
    shared.changed.notify_all();
}

/// The next item, once it can be carried out: while the first waits for a finite
/// search, the `isready` lines handed over are answered (and new ones at once, by the
/// door's thread).
fn next(protocol: &mut Protocol, shared: &Shared) -> (u64, Item) {
    let mut queue = shared.lock();
    loop {
        match queue.items.front() {
            None => {
                queue = shared
                    .changed
                    .wait(queue)
                    .unwrap_or_else(|p| p.into_inner());
            }
            Some((_, item)) if item.waits() && protocol.finite_search_running() => {
                queue.waiting = true;
                let before = queue.items.len();
                queue.items.retain(|(_, item)| !item.is_isready());
                let answered = before - queue.items.len();
                drop(queue);
                for _ in 0..answered {
                    protocol.answer_ready();
                }
                protocol.await_finite_search();
                queue = shared.lock();
                queue.waiting = false;
            }
            Some(_) => {
                queue.carrying = true;
                return queue.items.pop_front().expect("an item is there");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn isready_and_stop_are_answered_while_commands_wait_for_a_search() {
        let (send, lines) = mpsc::channel::<String>();
        let sink = Mutex::new(send);
        let out = Output::to_lines(move |line: &str| {
            let _ = sink.lock().unwrap().send(line.to_string());
        });
        let mut engine = Engine::new(out, "test");
        let big = Position::random(10, crate::game::rules::Player::Red, 4).expect("a start");
        let next = |wanted: &str| -> Vec<String> {
            let mut seen = Vec::new();
            loop {
                let line = lines
                    .recv_timeout(Duration::from_secs(10))
                    .unwrap_or_else(|_| panic!("no '{wanted}' after {seen:?}"));
                let found = line.starts_with(wanted);
                seen.push(line);
                if found {
                    return seen;
                }
            }
        };
        engine.handle(&format!("position fen {big}"));
        engine.handle("go");
        next("info depth 1");
        // Behind a search of hours: the position waits, isready does not.
        engine.handle("position fen W/R/B/W/B/R/R/W/B r");
        engine.handle("isready");
        assert!(!next("readyok").iter().any(|l| l.starts_with("bestmove")));
        engine.handle("stop");
        engine.handle("query p1turn");
        let after = next("response");
        assert!(after.iter().any(|l| l.starts_with("bestmove")), "{after:?}");
        assert_eq!(after.last().map(String::as_str), Some("response true"));
        engine.finish();
    }
}

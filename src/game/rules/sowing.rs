//! Rules 3 and 4: lifting a pile and sowing it clockwise, on the packed words.

use super::{MoveOutcome, Position};
use crate::game::bits::{low64, shl64, shr64, Portable, WordOps};

impl Position {
    /// Rules 3 and 4: lifts pile `p` and sows it clockwise. `p` must be legal.
    #[inline]
    pub fn play_unchecked(&self, p: usize) -> MoveOutcome {
        let (start, end) = self.pile_span(p);
        self.sow(start, end)
    }

    /// [`play_unchecked`](Self::play_unchecked) by the given word operations.
    #[inline(always)]
    pub(crate) fn play_unchecked_with<O: WordOps>(&self, ops: O, p: usize) -> MoveOutcome {
        let (start, end) = self.pile_span_with(ops, p);
        self.sow_with(ops, start, end)
    }

    /// [`sow`](Self::sow), without its loop where `ops` deposits in one instruction.
    #[inline(always)]
    pub(crate) fn sow_with<O: WordOps>(&self, ops: O, start: u32, end: u32) -> MoveOutcome {
        if O::FAST_DEPOSIT {
            self.sow_deposited(ops, start, end)
        } else {
            self.sow(start, end)
        }
    }

    /// [`sow`](Self::sow) with no loop: every receiving pile's new top slot found at
    /// once, and the buttons put in place by two deposits; with an overflow, one button
    /// on every other pile so, then the rest put on the last in one shift. For
    /// processors with a `pdep` instruction.
    #[inline(always)]
    pub(crate) fn sow_deposited(&self, ops: impl WordOps, start: u32, end: u32) -> MoveOutcome {
        const EVEN: u64 = 0x5555_5555_5555_5555;
        let (len, piles) = (u32::from(self.len), u32::from(self.piles));
        let k = end - start;
        let others = piles - 1;
        let overflow = k > others;
        // The buttons that fall one a pile: all, or one for each other pile.
        let singles = k.min(others);
        let lifted = low64(self.cells >> (2 * start), 2 * k);
        // Take the pile away, as `sow` does.
        let left = len - k;
        let remaining = low64(self.cells, 2 * start) | shl64(shr64(self.cells, 2 * end), 2 * start);
        let bottoms = low64(self.bottoms, start) | shl64(shr64(self.bottoms, end), start);
        let tops = (bottoms >> 1) | (1u64 << (left - 1));
        // The receivers: `singles` piles from the one that followed the lifted pile
        // (pile `p` now, or pile 0 when the lifted pile was the last), wrapping past the
        // last.
        let p = (self.bottoms & low64(u64::MAX, start)).count_ones();
        let first = if p == others { 0 } else { p };
        let run = low64(u64::MAX, singles) << first;
        let receivers = (run & low64(u64::MAX, others)) | (run >> others);
        let receiving_tops = ops.deposit(receivers, tops);
        // In a word of twice the length, button `i` at bit `2i` and a new slot at
        // `2i + 1` after each receiving top: gathered back, the buttons' new places.
        let slots = (EVEN & low64(u64::MAX, 2 * left)) | ops.deposit(receiving_tops, EVEN) << 1;
        let kept = ops.gather(EVEN, slots);
        let kept_cells = ops.deposit(kept, EVEN) * 3;
        let new_cells = low64(u64::MAX, 2 * (left + singles)) & !kept_cells;
        // The dropped buttons in the order of their slots: those that wrapped to pile 0
        // and on come first.
        let dropped = low64(lifted, 2 * singles);
        let before_wrap = (others - first).min(singles);
        let ordered = shr64(dropped, 2 * before_wrap)
            | shl64(low64(dropped, 2 * before_wrap), 2 * (singles - before_wrap));
        let mut cells = ops.deposit(remaining, kept_cells) | ops.deposit(ordered, new_cells);
        let mut bottoms = ops.deposit(bottoms, kept);
        // The pile that took the last of them.
        let last = (first + singles - 1) % others;
        let extra_move = if overflow {
            // Rule 3: the rest on that pile, above the button it just took.
            let at = if last + 1 == others {
                left + singles
            } else {
                ops.select(bottoms, (last + 1) as usize)
            };
            let rest = k - singles;
            cells = low64(cells, 2 * at)
                | shl64(shr64(lifted, 2 * singles), 2 * at)
                | shl64(shr64(cells, 2 * at), 2 * (at + rest));
            bottoms = low64(bottoms, at) | shl64(shr64(bottoms, at), at + rest);
            false
        } else {
            // Rule 4: the last button on a button of its own colour, more than one pile.
            let last_top = ops.select(tops, last as usize);
            let landed_on = shr64(remaining, 2 * last_top) & 3;
            others > 1 && landed_on == lifted >> (2 * (k - 1)) & 3
        };
        let next = Position {
            cells,
            bottoms,
            len: self.len,
            piles: self.piles - 1,
            to_move: if extra_move {
                self.to_move
            } else {
                self.to_move.other()
            },
        };
        MoveOutcome {
            position: next,
            extra_move,
            overflow,
        }
    }

    /// Lifts the pile made of buttons `start..end` (a whole pile holding a white button)
    /// and sows it clockwise.
    #[inline(always)]
    pub(crate) fn sow(&self, start: u32, end: u32) -> MoveOutcome {
        let piles = self.pile_count();
        let lifted_count = end - start;
        let lifted = low64(self.cells >> (2 * start), 2 * lifted_count);

        // Take the pile away: the buttons after it move down by its height.
        let mut next = Position {
            cells: low64(self.cells, 2 * start) | shl64(shr64(self.cells, 2 * end), 2 * start),
            bottoms: low64(self.bottoms, start) | shl64(shr64(self.bottoms, end), start),
            len: self.len - lifted_count as u8,
            piles: self.piles - 1,
            to_move: self.to_move,
        };
        let others = piles - 1;
        let k = lifted_count as usize;
        let overflow = k > others;
        // Piles receiving one button each; with an overflow the last pile gets the rest.
        let singles = if overflow { others - 1 } else { k };
        // The receivers start with the pile that followed the lifted one (now at the
        // lifted pile's place), wrapping to pile 0: walk them by their bottom button.
        let mut bottom = if end < u32::from(self.len) { start } else { 0 };
        let mut landed_on = 0;
        for j in 0..singles {
            if bottom == u32::from(next.len) {
                bottom = 0;
            }
            let code = (lifted >> (2 * j)) & 3;
            landed_on = next.drop_at(bottom, code, 1);
            bottom = next.pile_end(bottom);
        }
        if overflow {
            if bottom == u32::from(next.len) {
                bottom = 0;
            }
            let rest = shr64(lifted, 2 * singles as u32);
            next.drop_at(bottom, rest, (k - singles) as u32);
        }
        // Rule 4: the last button on its own colour, no overflow, more than one pile.
        let extra_move = !overflow && others > 1 && landed_on == (lifted >> (2 * (k - 1))) & 3;
        if !extra_move {
            next.to_move = self.to_move.other();
        }
        MoveOutcome {
            position: next,
            extra_move,
            overflow,
        }
    }

    /// One past the top button of the pile whose bottom button is `bottom`.
    #[inline]
    fn pile_end(&self, bottom: u32) -> u32 {
        let above = self.bottoms >> (bottom + 1);
        if above == 0 {
            u32::from(self.len)
        } else {
            bottom + 1 + above.trailing_zeros()
        }
    }

    /// Puts `count` buttons (codes in `codes`, lowest first) on top of the pile whose
    /// bottom button is `bottom`, and returns the colour code of its top button before.
    #[inline]
    fn drop_at(&mut self, bottom: u32, codes: u64, count: u32) -> u64 {
        let at = self.pile_end(bottom);
        let top = (self.cells >> (2 * (at - 1))) & 3;
        self.cells = low64(self.cells, 2 * at)
            | shl64(codes, 2 * at)
            | shl64(shr64(self.cells, 2 * at), 2 * (at + count));
        self.bottoms = low64(self.bottoms, at) | shl64(shr64(self.bottoms, at), at + count);
        self.len += count as u8;
        top
    }

    /// Rule 2 by top buttons: bit `t` is set when button `t` is the top of a pile that
    /// holds a white button. Its set bits, lowest first, are the legal moves in order, and
    /// it costs a few word operations whatever the number of piles. Empty when the battle
    /// is over.
    #[inline]
    pub(crate) fn legal_tops(&self) -> u64 {
        self.legal_tops_with(Portable)
    }

    /// [`legal_tops`](Self::legal_tops) by the given word operations.
    #[inline(always)]
    pub(crate) fn legal_tops_with(&self, ops: impl WordOps) -> u64 {
        if self.is_over() {
            return 0;
        }
        let len = u32::from(self.len);
        let all = low64(u64::MAX, len);
        let whites = self.white_buttons_with(ops);
        let tops = (self.bottoms >> 1) | (1u64 << (len - 1));
        let single = self.bottoms & tops;
        // Add each bottom of a pile of two or more to the pile's non-white buttons below
        // its top: the carry reaches the top exactly when no button below it is white.
        let below_top_not_white = all & !tops & !whites;
        let carried = below_top_not_white.wrapping_add(self.bottoms & !single) & tops & !single;
        let no_white = (carried | single) & !whites;
        tops & !no_white
    }

    /// Rule 6 by word operations, for a finished battle (else meaningless): Red's
    /// strength minus Black's, each the sum of its buttons' heights counted from 1.
    #[inline(always)]
    pub(crate) fn final_margin(&self) -> i32 {
        tower_margin(self.cells)
    }

    /// The final margins of the two moves of a position of two piles, lifting pile 0
    /// and pile 1 (`None` for a pile without a white button), with no sowing: the
    /// lifted buttons all land on the other pile in their order (rule 3's overflow), so
    /// the tower reads the circle from pile 1's bottom, or as it is.
    #[inline(always)]
    pub(crate) fn last_move_margins(&self, ops: impl WordOps) -> [Option<i32>; 2] {
        let len = u32::from(self.len);
        // Button 0 is pile 0's bottom; pile 1 starts at the next bottom.
        let split = (self.bottoms & !1).trailing_zeros();
        let whites = self.white_buttons_with(ops);
        let pile_1_first =
            shr64(self.cells, 2 * split) | shl64(low64(self.cells, 2 * split), 2 * (len - split));
        [
            (low64(whites, split) != 0).then(|| tower_margin(pile_1_first)),
            (shr64(whites, split) != 0).then(|| tower_margin(self.cells)),
        ]
    }

    /// The buttons `start..end` of the pile whose top button is `top`.
    #[inline]
    pub(crate) fn span_of_top(&self, top: u32) -> (u32, u32) {
        let below = low64(self.bottoms, top + 1);
        (63 - below.leading_zeros(), top + 1)
    }

    /// A position of one-button piles: button `i` has colour code `cells >> 2i & 3`.
    /// `len` must be 1 to 32 and some button white (not checked).
    #[inline]
    pub(crate) fn singletons(cells: u64, len: u32, to_move: super::Player) -> Position {
        Position {
            cells,
            bottoms: low64(u64::MAX, len),
            len: len as u8,
            piles: len as u8,
            to_move,
        }
    }
}

/// Rule 6 for a tower whose colour codes, bottom first, are `cells`: Red's strength
/// minus Black's, each the sum of its buttons' heights counted from 1.
#[inline(always)]
fn tower_margin(cells: u64) -> i32 {
    /// The sum of `i + 1` over the buttons `i` flagged in `mask` (at bit `2i`, below
    /// 32 buttons): their count plus, for each bit of the index, that bit's weight
    /// times how many of them have it.
    #[inline(always)]
    fn strength(mask: u64) -> i32 {
        // Bit `2i` set when bit `b` of `i` is.
        const INDEX_BITS: [u64; 5] = [
            0x4444_4444_4444_4444,
            0x5050_5050_5050_5050,
            0x5500_5500_5500_5500,
            0x5555_0000_5555_0000,
            0x5555_5555_0000_0000,
        ];
        let mut sum = mask.count_ones() as i32;
        for (b, bits) in INDEX_BITS.iter().enumerate() {
            sum += ((mask & bits).count_ones() as i32) << b;
        }
        sum
    }
    // Red is code 1, Black code 2: flagged at the cell's low bit.
    const EVEN: u64 = 0x5555_5555_5555_5555;
    let red = cells & !(cells >> 1) & EVEN;
    let black = (cells >> 1) & !cells & EVEN;
    strength(red) - strength(black)
}

#[cfg(test)]
mod tests {
    use crate::game::bits::Portable;
    use crate::game::notation::parse;
    use crate::game::rng::{random_start, SplitMix64};
    use crate::game::rules::Player;

    #[test]
    fn sowing_by_deposits_is_sowing_by_the_loop() {
        let mut rng = SplitMix64::new(21);
        #[cfg(target_arch = "x86_64")]
        let fast = crate::game::bits::Bmi2::detect();
        let mut moves = 0;
        for per_colour in 1..=10 {
            for _ in 0..300 {
                let mut position = random_start(per_colour, Player::Red, &mut rng).unwrap();
                while !position.is_over() {
                    let legal: Vec<usize> = position.legal_moves().collect();
                    for &p in &legal {
                        let (start, end) = position.pile_span(p);
                        let want = position.sow(start, end);
                        let text = format!("{position} pile {p}");
                        assert_eq!(position.sow_deposited(Portable, start, end), want, "{text}");
                        #[cfg(target_arch = "x86_64")]
                        if let Some(fast) = fast {
                            assert_eq!(position.sow_deposited(fast, start, end), want, "{text}");
                            assert_eq!(position.play_unchecked_with(fast, p), want, "{text}");
                        }
                        moves += 1;
                    }
                    let pick = legal[rng.below(legal.len() as u64) as usize];
                    position = position.play(pick).unwrap().position;
                }
            }
        }
        assert!(moves > 10_000);
    }

    #[test]
    fn legal_tops_are_the_legal_moves() {
        for text in [
            "RW/B/WWB r",
            "R/B/W r",
            "W r",
            "RB/W b",
            "RBR/B/R/W r",
            "WRB/RRB/B/BRW/W/R r",
            "RRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRW r",
            "WRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRR r",
            "RRRRRRRRRRRRRRRRRRRRRRRRRRRRRR/W/B r",
            "RBWRBWRBWRBWRBWRBWRBWRBWRBWRBWRB r",
            "BBBBBBBBBBWRRRRRRRRRRRRRRRRRRRRR b",
            "WRB r",
        ] {
            let position = parse(text).unwrap();
            let mut tops = position.legal_tops();
            let mut moves = Vec::new();
            for p in 0..position.pile_count() {
                let (start, end) = position.pile_span(p);
                if tops != 0 && tops.trailing_zeros() == end - 1 {
                    assert_eq!(position.span_of_top(end - 1), (start, end), "{text}");
                    moves.push(p);
                    tops &= tops - 1;
                }
            }
            assert_eq!(tops, 0, "{text}");
            if position.is_over() {
                assert_eq!(Some(position.final_margin()), position.margin(), "{text}");
            }
            assert_eq!(moves, position.legal_moves().collect::<Vec<_>>(), "{text}");
        }
    }

    #[test]
    fn last_move_margins_are_those_of_playing_each_last_move() {
        let mut checked = 0;
        crate::sim::playout::each_random_battle(23, [1, 2, 3, 5, 8, 10], 200, |p, _| {
            if p.pile_count() != 2 {
                return;
            }
            // Rule 6 scored button by button (`margin`), against the words'.
            let want: Vec<Option<i32>> = (0..2)
                .map(|pile| p.play(pile).ok().and_then(|o| o.position.margin()))
                .collect();
            assert_eq!(p.last_move_margins(Portable).to_vec(), want, "{p}");
            checked += 1;
        });
        assert!(checked >= 1000, "{checked}");
    }
}

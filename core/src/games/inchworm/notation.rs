//! Text forms (spec §10): record tokens, atomic decision tokens and the position string.
//!
//! Whole-action record tokens (`Dd4`, `Ce3-f3>f3`, `Sb8-a7-b7`, `R`, `Pa1`, `pass`), the atomic
//! decision tokens (`Sb8` = start spreading b8, `-a7` = next path cell), and the position string
//! with its invariants.

use super::moves::{
    MAX_PARTIAL_SETS, Move, WholeCollect, canonical_line, canonical_path, direction_between,
    distribution_completions_within, line_cells,
};
use super::options::InchwormOptions;
pub use super::position::square_name;
use super::position::{CollectRun, MAX_HEIGHT, Position, Spread, Sq, bit, bits};
use crate::games::About;
use crate::rules::{
    Cell, DecisionInfo, DiscardEffects, Effects, ExactCount, FileLetters, LegalTokens, Notation, ParseError, PlayError,
    RecordError, RecordTokens, Rules, Side, group_decisions, parse_cell, split_ranks, strip_comments, write_ranks,
    write_stack,
};

/// With more whole-action tokens than this the referee gets only their count.
pub const MAX_LISTED_TOKENS: u64 = 100_000;

/// Reads `a1` … `h8`.
pub fn parse_square(text: &str) -> Result<Sq, ParseError> {
    let (file, rank) = parse_cell(FileLetters::Lower, text, 8, 8)
        .map_err(|_| ParseError::new(format!("'{text}' is not a cell of the board (a1 to h8)")))?;
    Ok((rank * 8 + file) as Sq)
}

/// `B` for Black, `W` for White: the position text's stack letters, the side letters in upper case.
pub fn piece_char(side: Side) -> char {
    Position::side_char(side).to_ascii_uppercase()
}

/// The side whose stack letter `byte` is.
fn stack_owner(byte: u8) -> Option<Side> {
    Side::BOTH.into_iter().find(|&side| piece_char(side) as u8 == byte)
}

/// Reads `c1-c2-…` (at least one cell).
fn parse_cell_list(text: &str) -> Result<Vec<Sq>, ParseError> {
    text.split('-').map(|t| parse_square(t.trim())).collect()
}

impl Notation for Position {
    const SLUG: &'static str = "inchworm";
    const SIDE_LETTERS: [&'static str; 2] = ["b", "w"];

    fn cell_name(&self, cell: Cell) -> String {
        square_name(cell.min(64) as Sq)
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        if t == "R" {
            return Ok(Move::Rescue);
        }
        let Some(first) = t.chars().next() else {
            return Err(ParseError::new("empty move"));
        };
        let rest = &t[first.len_utf8()..];
        match first {
            'D' => Ok(Move::Drop(parse_square(rest)?)),
            'P' => Ok(Move::Place(parse_square(rest)?)),
            'C' if !rest.contains(['-', '>']) => Ok(Move::CollectFrom(parse_square(rest)?)),
            'C' => Err(ParseError::new(
                "a whole collect is a record token; as decisions write the first stack (Ce3), each next one (-f3), then the target (>f3)",
            )),
            'S' if !rest.contains('-') => Ok(Move::SpreadFrom(parse_square(rest)?)),
            'S' => Err(ParseError::new(
                "a whole path is a record token; as one decision write the source (Sb8), then each cell (-a7)",
            )),
            '-' if self.collect.is_some() => Ok(Move::CollectStep(parse_square(rest)?)),
            '-' => Ok(Move::SpreadStep(parse_square(rest)?)),
            '>' => Ok(Move::CollectOnto(parse_square(rest)?)),
            _ => Err(ParseError::new(format!("cannot read '{t}': expected Dd4, Ce3-f3>f3, Sb8-a7-b7, R, Pa1 or pass"))),
        }
    }

    fn format_move(&self, m: &Move) -> String {
        match *m {
            Move::Drop(c) => format!("D{}", square_name(c)),
            Move::Place(c) => format!("P{}", square_name(c)),
            Move::CollectFrom(c) => format!("C{}", square_name(c)),
            Move::CollectStep(c) => format!("-{}", square_name(c)),
            Move::CollectOnto(c) => format!(">{}", square_name(c)),
            Move::SpreadFrom(c) => format!("S{}", square_name(c)),
            Move::SpreadStep(c) => format!("-{}", square_name(c)),
            Move::Rescue => "R".to_string(),
            Move::Pass => "pass".to_string(),
        }
    }

    fn describe(&self, m: &Move) -> DecisionInfo {
        self.describe_move(m)
    }

    /// A record move is one whole action: its staged decisions written one after the other,
    /// after the cells already chosen when it was under way at the start (`Sd4` + `-d5-d6`).
    fn group_record_tokens(&self, decisions: &[String]) -> Result<RecordTokens, RecordError> {
        group_decisions(
            self,
            decisions,
            |pos, _, _| !pos.action_under_way(),
            |pos, moves| {
                let chosen = pos.chosen_so_far().unwrap_or_default();
                moves.iter().fold(chosen, |token, m| token + &pos.format_move(m))
            },
        )
    }

    /// Reads a position string, checking the spec's invariants.
    fn parse_position(options: &InchwormOptions, text: &str) -> Result<Position, ParseError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [board, side, stock_b, stock_w, held_b, held_w, score_b, score_w, ref optional @ ..] = fields[..] else {
            return Err(ParseError::new(format!(
                "an Inchworm position has the board, the side to move and six numbers (stocks, prisoners, scores); got '{text}'"
            )));
        };
        let mut pos = Position::new(options);
        pos.read_board(board)?;
        pos.side = Position::side_from_letter(side)
            .ok_or_else(|| ParseError::new(format!("the side to move is 'b' or 'w', not '{side}'")))?;
        pos.read_counters([stock_b, stock_w, held_b, held_w, score_b, score_w])?;
        let pending = pos.read_optional_fields(optional)?;
        pos.check_read_position()?;
        if pos.limit_reached() {
            pos.result = Some(pos.outcome_by_score());
        }
        if let Some((is_spread, cells)) = pending {
            if pos.result.is_some() {
                return Err(ParseError::new("the game is over; no action can be under way"));
            }
            if is_spread {
                pos.restore_spread(&cells)?;
            } else {
                pos.restore_collect(&cells)?;
            }
        }
        Ok(pos)
    }

    /// The canonical position string (spec §10.3), with ` S<path>` appended while a
    /// distribution is being chosen.
    fn format_position(&self) -> String {
        let mut s = String::with_capacity(96);
        write_ranks(&mut s, 8, 8, |out, file, rank| {
            write_stack(out, self.stack((rank * 8 + file) as Sq).map(|(side, h)| (piece_char(side), h)));
        });
        let (side, [stock_b, stock_w], [held_b, held_w], [score_b, score_w]) =
            (Position::side_name(self.side), self.stock, self.held, self.score);
        s.push_str(&format!(" {side} {stock_b} {stock_w} {held_b} {held_w} {score_b} {score_w} {}", self.quiet));
        if self.pass_streak {
            s.push_str(" 1");
        }
        if let Some(chosen) = self.chosen_so_far() {
            s.push(' ');
            s.push_str(&chosen);
        }
        s
    }

    /// Applies one whole-action record token (a distribution path = several atomic decisions).
    /// With an action under way, the token is the whole action it finishes (see
    /// [`Position::decisions_finishing`]).
    fn play_record_token(&mut self, token: &str) -> Result<Effects, RecordError> {
        let moves = self.token_moves(token)?;
        let mut next = self.clone();
        let mut effects = Effects::new();
        for m in &moves {
            effects.extend(next.play(m).map_err(|source| RecordError::Illegal { token: token.to_string(), source })?);
        }
        *self = next;
        Ok(effects)
    }

    /// A collect's or a distribution's decisions (as many as its stack is high), read from the
    /// token rather than searched for.
    fn record_token_moves(&self, token: &str) -> Option<Result<Vec<Move>, RecordError>> {
        Some(self.token_moves(token))
    }

    /// The referee's listing: every legal whole-action token, sorted, or only their exact count
    /// when there are more than [`MAX_LISTED_TOKENS`].
    fn legal_record_tokens(&self) -> LegalTokens {
        if self.result.is_some() {
            return LegalTokens::List(Vec::new());
        }
        if let Some(spread) = &self.spread {
            return self.distribution_completion_tokens(spread);
        }
        if let Some(run) = &self.collect {
            return LegalTokens::sorted(self.collect_completions(run).iter().map(|c| self.format_collect(c)));
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let mut tokens: Vec<String> = moves
            .iter()
            .filter(|m| !matches!(m, Move::SpreadFrom(_) | Move::CollectFrom(_)))
            .map(|m| self.format_move(m))
            .collect();
        tokens.extend(self.whole_collects().iter().map(|c| self.format_collect(c)));
        let (spreads, by_source) = if moves.iter().any(|m| matches!(m, Move::SpreadFrom(_))) {
            match self.distribution_sets_by_source(MAX_LISTED_TOKENS) {
                Ok(found) => found,
                Err(found) => {
                    return LegalTokens::Uncounted { counted_before_giving_up: tokens.len() as u64 + found };
                }
            }
        } else {
            (0, Vec::new())
        };
        let total = tokens.len() as u64 + spreads;
        if total > MAX_LISTED_TOKENS {
            return LegalTokens::CountOnly(ExactCount::from(total));
        }
        let geom = self.geometry();
        for (source, sets) in &by_source {
            for &set in sets {
                if let Some(path) = canonical_path(geom, set, *source) {
                    let cells: Vec<String> = path.iter().map(|&c| square_name(c)).collect();
                    tokens.push(format!("S{}", cells.join("-")));
                }
            }
        }
        tokens.sort();
        LegalTokens::List(tokens)
    }
}

/// Why a token cannot finish the action under way.
enum Refusal {
    Parse(ParseError),
    Illegal(PlayError),
}

impl Position {
    /// The atomic decisions of one whole-action record token from here, checked as a whole
    /// (each is checked again as it is played).
    fn token_moves(&self, token: &str) -> Result<Vec<Move>, RecordError> {
        let text = strip_comments(token);
        let parse_err = |source: ParseError| RecordError::Parse { token: token.to_string(), source };
        let illegal = |source: PlayError| RecordError::Illegal { token: token.to_string(), source };
        if self.action_under_way() {
            return self.decisions_finishing(&text).map_err(|e| match e {
                Refusal::Parse(source) => parse_err(source),
                Refusal::Illegal(source) => illegal(source),
            });
        }
        if let Some(body) = text.strip_prefix('C') {
            let collect = self.parse_collect(body).map_err(parse_err)?;
            self.check_whole_collect(&collect).map_err(illegal)?;
            // Chosen in the order written (either way along the line, as the decisions that
            // wrote it were made); the stacks gather the same either way.
            let written = body.split_once('>').map_or(body, |(cells, _)| cells);
            let cells = parse_cell_list(written).map_err(parse_err)?;
            let steps = cells[1..].iter().map(|&c| Move::CollectStep(c));
            let onto = std::iter::once(Move::CollectOnto(collect.target));
            return Ok(std::iter::once(Move::CollectFrom(cells[0])).chain(steps).chain(onto).collect());
        }
        if let Some(body) = text.strip_prefix('S') {
            let path = parse_cell_list(body).map_err(parse_err)?;
            if path.len() < 2 {
                return Err(parse_err(ParseError::new(
                    "a distribution lists its whole path: the source and every cell, e.g. Sb8-a7-b7",
                )));
            }
            self.check_distribution_path(&path).map_err(illegal)?;
            let steps = path[1..].iter().map(|&c| Move::SpreadStep(c));
            return Ok(std::iter::once(Move::SpreadFrom(path[0])).chain(steps).collect());
        }
        if text.starts_with(['-', '>']) {
            return Err(parse_err(ParseError::new(
                "a path cell alone is not an action; write the whole path Sb8-a7-b7",
            )));
        }
        Ok(vec![self.parse_move(&text).map_err(parse_err)?])
    }

    /// The action under way as the position text's trailing field writes it: `S<path so far>` or
    /// `C<stacks so far>`; it is also the start of the token of the whole action.
    fn chosen_so_far(&self) -> Option<String> {
        let (letter, cells) = if let Some(spread) = &self.spread {
            ('S', spread.cells().to_vec())
        } else {
            ('C', self.pending_collect()?)
        };
        let cells: Vec<String> = cells.iter().map(|&c| square_name(c)).collect();
        Some(format!("{letter}{}", cells.join("-")))
    }

    /// The decisions still to make when the whole-action token `text` finishes the action under
    /// way. The spec writes one token per whole action, so a position between decisions takes the
    /// whole action's token: a distribution path that starts with the cells chosen so far
    /// (`Sd4-e5-f6` after `Sd4-e5`), or a collect, written either way along its line, whose line
    /// goes on from the stacks chosen so far in their direction (`Cd3-d4-d5>d4` after `Cd4-d5`).
    fn decisions_finishing(&self, text: &str) -> Result<Vec<Move>, Refusal> {
        let illegal = |m: String| Refusal::Illegal(PlayError::new(m));
        let chosen = self.chosen_so_far().unwrap_or_default();
        if let Some(spread) = &self.spread {
            let Some(body) = text.strip_prefix('S') else {
                return Err(illegal(format!(
                    "the distribution {chosen} is under way; write its whole path, {chosen}-…"
                )));
            };
            let path = parse_cell_list(body).map_err(Refusal::Parse)?;
            if !path.starts_with(spread.cells()) {
                return Err(illegal(format!(
                    "the distribution {chosen} is under way; its whole path starts with those cells, {chosen}-…"
                )));
            }
            // The board does not change while a path is chosen, so the whole path is checked as if
            // nothing were chosen yet.
            let unchosen = Position { spread: None, ..self.clone() };
            unchosen.check_distribution_path(&path).map_err(Refusal::Illegal)?;
            return Ok(path[spread.cells().len()..].iter().map(|&c| Move::SpreadStep(c)).collect());
        }
        let Some(run) = &self.collect else { return Ok(Vec::new()) };
        let Some(body) = text.strip_prefix('C') else {
            return Err(illegal(format!(
                "the collect {chosen} is under way; write the whole collect, e.g. {chosen}>…"
            )));
        };
        let collect = self.parse_collect(body).map_err(Refusal::Parse)?;
        let unchosen = Position { collect: None, ..self.clone() };
        unchosen.check_whole_collect(&collect).map_err(Refusal::Illegal)?;
        let geom = self.geometry();
        let whole = line_cells(geom, collect.start, collect.dir as usize, collect.len as usize)
            .map_or(0, |cells| cells.iter().fold(0, |set, &c| set | bit(c)));
        let line = Self::collect_directions(run)
            .filter(|_| collect.len >= run.len)
            .filter_map(|d| line_cells(geom, run.start, d, collect.len as usize))
            .find(|cells| cells.iter().fold(0, |set, &c| set | bit(c)) == whole)
            .ok_or_else(|| {
                let cells = self.pending_collect().unwrap_or_default();
                let first = square_name(run.start);
                illegal(match cells[..] {
                    [_] => format!("the collect {chosen} is under way; its whole line has {first} at one end"),
                    _ => format!(
                        "the collect {chosen} is under way; its whole line has {first} at one end and goes on past {}",
                        square_name(run.end)
                    ),
                })
            })?;
        let steps = line[run.len as usize..].iter().map(|&c| Move::CollectStep(c));
        Ok(steps.chain(std::iter::once(Move::CollectOnto(collect.target))).collect())
    }

    /// The directions a collect under way can still take: any while one stack is chosen, then
    /// the one the second stack fixed.
    fn collect_directions(run: &CollectRun) -> std::ops::Range<usize> {
        if run.len >= 2 { run.dir as usize..run.dir as usize + 1 } else { 0..8 }
    }

    /// Every whole collect (canonical) that finishes the collect under way.
    fn collect_completions(&self, run: &CollectRun) -> Vec<WholeCollect> {
        let geom = self.geometry();
        let own = self.occupied[self.side.index()];
        let mut out = Vec::new();
        for d in Self::collect_directions(run) {
            for len in (run.len as usize).max(2)..=8 {
                let Some(cells) = line_cells(geom, run.start, d, len) else { break };
                if cells.iter().any(|&c| own & bit(c) == 0) {
                    break;
                }
                let (start, dir) = canonical_line(geom, run.start, d, len);
                out.extend(cells.iter().map(|&target| WholeCollect { start, dir: dir as u8, len: len as u8, target }));
            }
        }
        out
    }

    /// The referee's listing with a distribution under way: one token per cell set it can still
    /// cover, each the smallest path (by cell index) that starts with the cells chosen so far.
    fn distribution_completion_tokens(&self, spread: &Spread) -> LegalTokens {
        let geom = self.geometry();
        let h = self.height[spread.source() as usize] as u32;
        let Some(sets) = distribution_completions_within(geom, self.empty_mask(), spread, h, MAX_PARTIAL_SETS) else {
            return LegalTokens::Uncounted { counted_before_giving_up: 0 };
        };
        if sets.len() as u64 > MAX_LISTED_TOKENS {
            return LegalTokens::CountOnly(ExactCount::from(sets.len() as u64));
        }
        let chosen = self.chosen_so_far().unwrap_or_default();
        LegalTokens::sorted(sets.iter().filter_map(|&set| {
            let rest = canonical_path(geom, (set & !spread.visited) | bit(spread.end()), spread.end())?;
            Some(rest[1..].iter().fold(chosen.clone(), |token, &c| token + "-" + &square_name(c)))
        }))
    }

    /// Puts the stacks of the board field (`B1W3../…`, rank 8 first) on the empty board.
    fn read_board(&mut self, field: &str) -> Result<(), ParseError> {
        for (rank, text) in split_ranks(field, 8)? {
            self.read_rank(rank as u8, text)?;
        }
        Ok(())
    }

    /// One rank: `.` for an empty cell, `B<h>` or `W<h>` for a stack of height 1..=25.
    fn read_rank(&mut self, rank: u8, text: &str) -> Result<(), ParseError> {
        let err = |m: String| ParseError::new(m);
        let bytes = text.as_bytes();
        let mut file = 0u8;
        let mut i = 0;
        while i < bytes.len() {
            if file >= 8 {
                return Err(err(format!("rank {} has more than 8 cells", rank + 1)));
            }
            let c = rank * 8 + file;
            match (bytes[i], stack_owner(bytes[i])) {
                (b'.', _) => i += 1,
                (ch, Some(side)) => {
                    let start = i + 1;
                    let mut j = start;
                    while j < bytes.len() && bytes[j].is_ascii_digit() {
                        j += 1;
                    }
                    let digits = &text[start..j];
                    let h: usize = digits.parse().map_err(|_| {
                        err(format!("the stack on {} needs a height after '{}'", square_name(c), ch as char))
                    })?;
                    if h == 0 || h > MAX_HEIGHT || digits.starts_with('0') {
                        return Err(err(format!(
                            "the stack on {} has a bad height '{digits}' (1 to 25)",
                            square_name(c)
                        )));
                    }
                    self.height[c as usize] = h as u8;
                    self.occupied[side.index()] |= bit(c);
                    i = j;
                }
                (other, None) => {
                    return Err(err(format!(
                        "unexpected '{}' in rank {}; cells are '.', B<height> or W<height>",
                        other as char,
                        rank + 1
                    )));
                }
            }
            file += 1;
        }
        if file != 8 {
            return Err(err(format!("rank {} has {file} cells, not 8", rank + 1)));
        }
        Ok(())
    }

    /// Stocks, prisoners held and scores, Black's first each time.
    fn read_counters(&mut self, fields: [&str; 6]) -> Result<(), ParseError> {
        let err = |m: String| ParseError::new(m);
        let num = |k: usize, what: &str| -> Result<u64, ParseError> {
            fields[k].parse::<u64>().map_err(|_| err(format!("{what} must be a whole number, not '{}'", fields[k])))
        };
        let small = |v: u64, what: &str| -> Result<u8, ParseError> {
            if v > 25 { Err(err(format!("{what} cannot exceed 25 stones, got {v}"))) } else { Ok(v as u8) }
        };
        self.stock =
            [small(num(0, "Black's stock")?, "Black's stock")?, small(num(1, "White's stock")?, "White's stock")?];
        self.held = [
            small(num(2, "Black's prisoners")?, "Black's prisoners")?,
            small(num(3, "White's prisoners")?, "White's prisoners")?,
        ];
        let score = |k: usize, what: &str| -> Result<u32, ParseError> {
            u32::try_from(num(k, what)?).map_err(|_| err(format!("{what} is too large")))
        };
        self.score = [score(4, "Black's score")?, score(5, "White's score")?];
        Ok(())
    }

    /// The optional fields: the quiet counter, the pass streak (`0`/`1`) and an action under
    /// way (`S<path>` or `C<cells>`), which is returned to be re-entered once the rest is checked.
    fn read_optional_fields(&mut self, fields: &[&str]) -> Result<Option<(bool, Vec<Sq>)>, ParseError> {
        let err = |m: String| ParseError::new(m);
        let mut k = 0;
        if let Some(f) = fields.get(k).filter(|f| f.bytes().all(|b| b.is_ascii_digit())) {
            self.quiet = f.parse().map_err(|_| err(format!("the quiet counter '{f}' is too large")))?;
            k += 1;
            if let Some(f) = fields.get(k).filter(|f| f.bytes().all(|b| b.is_ascii_digit())) {
                self.pass_streak = match *f {
                    "0" => false,
                    "1" => true,
                    _ => return Err(err(format!("the pass streak is 0 or 1, not '{f}'"))),
                };
                k += 1;
            }
        }
        let pending = match fields.get(k) {
            Some(f) if f.starts_with(['S', 'C']) => {
                k += 1;
                Some((f.starts_with('S'), parse_cell_list(&f[1..])?))
            }
            _ => None,
        };
        if let Some(extra) = fields.get(k) {
            return Err(err(format!("unexpected '{extra}' after the position")));
        }
        Ok(pending)
    }

    /// The spec's invariants: stones are conserved, no one holds more prisoners than points, no
    /// group lacks a liberty, and a pass leaves the quiet counter at least 1.
    fn check_read_position(&self) -> Result<(), ParseError> {
        for side in Side::BOTH {
            if !self.conserves_stones(side) {
                // The options fix the number; a handicap game's position read without its
                // option (or the other way round) ends up here, so the option is named.
                let [black, white] = self.options.pieces;
                return Err(ParseError::new(format!(
                    "{}'s stones do not add up: {} on the board + {} in stock + {} held by the opponent should be {} \
                     (the options say pieces={black}/{white})",
                    Position::SIDE_NAMES[side.index()],
                    self.stones_on_board(side),
                    self.stock(side),
                    self.held_by(side.opponent()),
                    self.options.pieces_of(side)
                )));
            }
            if self.held_by(side) as u32 > self.score(side) {
                return Err(ParseError::new(
                    "a player holds more prisoners than points; every prisoner was scored when captured",
                ));
            }
        }
        let dead = self.dead_stones();
        if let Some(c) = bits(dead[0] | dead[1]).next() {
            return Err(ParseError::new(format!(
                "the group at {} has no liberty; it would already have been captured",
                square_name(c)
            )));
        }
        if self.pass_streak && self.quiet == 0 {
            return Err(ParseError::new("after a pass the quiet counter is at least 1"));
        }
        Ok(())
    }

    /// Reads a collect token `C<c1>-…-<ck>><t>` (either direction) into its canonical move.
    pub(crate) fn parse_collect(&self, body: &str) -> Result<WholeCollect, ParseError> {
        let (list, target) = body
            .split_once('>')
            .ok_or_else(|| ParseError::new("a collect is written C<cell>-<cell>…><target>, e.g. Ce3-f3>f3"))?;
        let cells = parse_cell_list(list)?;
        let target = parse_square(target.trim())?;
        if cells.len() < 2 {
            return Err(ParseError::new("a collect needs at least two stacks"));
        }
        if cells.len() > 8 {
            return Err(ParseError::new("a collect line has at most 8 cells"));
        }
        let geom = self.geometry();
        let mut seen = 0u64;
        let mut dir = None;
        for (k, &c) in cells.iter().enumerate() {
            if seen & bit(c) != 0 {
                return Err(ParseError::new(format!("{} is listed twice", square_name(c))));
            }
            seen |= bit(c);
            if k == 0 {
                continue;
            }
            let prev = cells[k - 1];
            let Some(d) = direction_between(geom, prev, c) else {
                return Err(ParseError::new(format!(
                    "{} and {} are not adjacent; a collect takes a run of neighbouring stacks without gaps",
                    square_name(prev),
                    square_name(c)
                )));
            };
            if dir.is_some_and(|d0| d0 != d) {
                return Err(ParseError::new("the collected cells are not on one straight line"));
            }
            dir = Some(d);
        }
        if !cells.contains(&target) {
            return Err(ParseError::new(format!(
                "the target {} is not one of the collected cells",
                square_name(target)
            )));
        }
        let dir = dir.unwrap_or(0);
        let (start, dir) = canonical_line(geom, cells[0], dir, cells.len());
        Ok(WholeCollect { start, dir: dir as u8, len: cells.len() as u8, target })
    }

    /// The canonical collect token.
    pub(crate) fn format_collect(&self, collect: &WholeCollect) -> String {
        let WholeCollect { start, dir, len, target } = *collect;
        let geom = self.geometry();
        let mut s = String::from("C");
        let mut c = start;
        for k in 0..len {
            if k > 0 {
                c = geom.step[c as usize][dir as usize];
                s.push('-');
            }
            s.push_str(&square_name(c));
        }
        s.push('>');
        s.push_str(&square_name(target));
        s
    }

    /// Re-enters a partly chosen collect read from a position string.
    fn restore_collect(&mut self, cells: &[Sq]) -> Result<(), ParseError> {
        let bad = |e: PlayError| ParseError::new(format!("bad collect under way: {e}"));
        for m in std::iter::once(Move::CollectFrom(cells[0])).chain(cells[1..].iter().map(|&c| Move::CollectStep(c))) {
            self.check(&m).map_err(bad)?;
            self.place(&m, &mut DiscardEffects);
        }
        Ok(())
    }

    /// Re-enters a partly chosen distribution read from a position string.
    fn restore_spread(&mut self, path: &[Sq]) -> Result<(), ParseError> {
        let source = path[0];
        let h = match self.stack(source) {
            Some((owner, h)) if owner == self.side && h >= 2 => h as usize,
            _ => {
                return Err(ParseError::new(format!(
                    "the distribution under way must start on a stack of two or more of the side to move, not {}",
                    square_name(source)
                )));
            }
        };
        if path.len() >= h {
            return Err(ParseError::new("a distribution under way has fewer cells than its stack has stones"));
        }
        let mut spread = Spread::new(source);
        self.spread = None;
        for &c in &path[1..] {
            let probe = Position { spread: Some(spread), ..self.clone() };
            probe
                .check(&Move::SpreadStep(c))
                .map_err(|e| ParseError::new(format!("bad distribution under way: {e}")))?;
            spread.push(c);
        }
        if path.len() == 1 {
            self.check(&Move::SpreadFrom(source))
                .map_err(|e| ParseError::new(format!("bad distribution under way: {e}")))?;
        }
        self.spread = Some(spread);
        Ok(())
    }
}

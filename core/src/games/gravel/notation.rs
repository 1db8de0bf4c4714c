//! Gravel's texts: square names, atomic action tokens, turn strings (the record tokens, §9.2)
//! and the position string (§9.1).

use super::moves::{Action, Illegal};
use super::options::{GravelOptions, MAX_BUDGET, MAX_SIZE, MIN_BUDGET, MIN_SIZE};
use super::position::{MAX_SPACES, Position, TurnProgress, sign};
use crate::games::About;
use crate::rules::{
    Cell, DecisionInfo, Effects, FileLetters, LegalTokens, Notation, ParseError, PlayError, RecordError, RecordItem,
    RecordPiece, RecordTokens, Rules, Side, cell_name, group_decisions, lex_record, read_cell_name, split_ranks,
    write_ranks, write_stack,
};
use std::fmt;

/// A square as written in a turn string, before it is checked against the board: file 0 = `a`,
/// rank 1 = the bottom rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Square {
    pub file: u8,
    pub rank: u32,
}

/// One action of a turn string, squares not yet checked against the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WrittenAction {
    Place(Square),
    Move(Square, Square),
    Return(Square),
    Remove(Square),
}

/// A parsed turn string: `pass`, or actions each repeated `count` times (`*k`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnString {
    Pass,
    Actions(Vec<(WrittenAction, u32)>),
}

/// Where a turn string was refused: at its `n`-th action (1-based) or at the end-turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnStep {
    Action(usize),
    End,
}

/// Why a whole turn string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnError {
    /// The string does not parse; nothing was tried.
    Parse(ParseError),
    /// The first failing step, the action there as written (empty at the end-turn) and the
    /// reason (§6.6).
    Illegal { at: TurnStep, action: String, reason: Illegal },
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnError::Parse(e) => write!(f, "{e}"),
            TurnError::Illegal { at: TurnStep::Action(i), action, reason } => {
                write!(f, "action {i} ({action}): {reason}")
            }
            TurnError::Illegal { at: TurnStep::End, reason, .. } => write!(f, "end of turn: {reason}"),
        }
    }
}

/// The name of square `cell` on an N-wide board (`c3`).
pub fn square_name(n: usize, cell: Cell) -> String {
    cell_name(FileLetters::Lower, cell as usize % n, cell as usize / n)
}

/// Reads `file rank` (`k10`) without checking it against a board (a square off the board is
/// refused when its action is judged, §6.6).
fn parse_square(text: &str) -> Result<Square, ParseError> {
    let bad = || ParseError::new(format!("'{text}' is not a square: write a file letter then a rank, like c3"));
    // At most five rank digits, so that any rank that reads is a u32.
    if text.len() > 6 {
        return Err(bad());
    }
    let (file, rank) = read_cell_name(FileLetters::Lower, text).ok_or_else(bad)?;
    Ok(Square { file: file as u8, rank: rank as u32 + 1 })
}

/// The cell of a written square on an N×N board, if it is on the board.
fn square_cell(n: usize, sq: Square) -> Option<Cell> {
    let (file, rank) = (sq.file as usize, sq.rank as usize);
    (file < n && (1..=n).contains(&rank)).then(|| ((rank - 1) * n + file) as Cell)
}

/// Reads one action without a repeat (`+c3`, `b2>c2`, `-c2`, `xc3`).
fn parse_written_action(text: &str) -> Result<WrittenAction, ParseError> {
    if let Some(rest) = text.strip_prefix('+') {
        return Ok(WrittenAction::Place(parse_square(rest)?));
    }
    if let Some(rest) = text.strip_prefix('-') {
        return Ok(WrittenAction::Return(parse_square(rest)?));
    }
    if let Some((from, to)) = text.split_once('>') {
        return Ok(WrittenAction::Move(parse_square(from)?, parse_square(to)?));
    }
    if let Some(rest) = text.strip_prefix('x') {
        return Ok(WrittenAction::Remove(parse_square(rest)?));
    }
    Err(ParseError::new(format!(
        "'{text}' is not an action: write +c3 (place), b2>c2 (move), -c2 (return) or xc3 (remove)"
    )))
}

/// Parses a turn string of §9.2 (`+d4*2,+e5,+d5`, `pass`). Upper case is accepted.
pub fn parse_turn(text: &str) -> Result<TurnString, ParseError> {
    let text = text.trim().to_ascii_lowercase();
    if text == "pass" {
        return Ok(TurnString::Pass);
    }
    if text.is_empty() {
        return Err(ParseError::new("empty turn: write actions like +d4,+e5 or pass"));
    }
    let mut actions = Vec::new();
    for part in text.split(',') {
        let part = part.trim();
        let (body, count) = match part.split_once('*') {
            Some((body, k)) => {
                let bad = || ParseError::new(format!("'{part}': a repeat is *k with a whole number k ≥ 2"));
                if k.is_empty() || k.len() > 4 || !k.bytes().all(|b| b.is_ascii_digit()) || k.starts_with('0') {
                    return Err(bad());
                }
                let k: u32 = k.parse().map_err(|_| bad())?;
                if k < 2 {
                    return Err(bad());
                }
                (body, k)
            }
            None => (part, 1),
        };
        actions.push((parse_written_action(body)?, count));
    }
    Ok(TurnString::Actions(actions))
}

/// A written action as the turn string had it (`+z9`), whether or not it is on the board.
fn written_text(w: WrittenAction) -> String {
    let sq = |s: Square| format!("{}{}", (b'a' + s.file) as char, s.rank);
    match w {
        WrittenAction::Place(t) => format!("+{}", sq(t)),
        WrittenAction::Move(a, b) => format!("{}>{}", sq(a), sq(b)),
        WrittenAction::Return(t) => format!("-{}", sq(t)),
        WrittenAction::Remove(t) => format!("x{}", sq(t)),
    }
}

fn written_to_action(n: usize, w: WrittenAction) -> Option<Action> {
    Some(match w {
        WrittenAction::Place(t) => Action::Place(square_cell(n, t)?),
        WrittenAction::Return(t) => Action::Return(square_cell(n, t)?),
        WrittenAction::Remove(t) => Action::Remove(square_cell(n, t)?),
        WrittenAction::Move(s, t) => Action::Move { from: square_cell(n, s)?, to: square_cell(n, t)? },
    })
}

/// One action as a turn string writes it (`+c3`, `b2>c2`, `-c2`, `xc3`, `end`, `pass`).
pub fn action_text(n: usize, action: Action) -> String {
    match action {
        Action::Place(t) => format!("+{}", square_name(n, t)),
        Action::Move { from, to } => format!("{}>{}", square_name(n, from), square_name(n, to)),
        Action::Return(t) => format!("-{}", square_name(n, t)),
        Action::Remove(t) => format!("x{}", square_name(n, t)),
        Action::EndTurn => "end".to_string(),
        Action::Pass => "pass".to_string(),
    }
}

/// The canonical turn string of a sequence of actions (end-turn implied and dropped): in order,
/// runs of equal consecutive actions written `*k`.
pub fn format_turn(n: usize, actions: &[Action]) -> String {
    if actions.contains(&Action::Pass) {
        return "pass".to_string();
    }
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    let actions: Vec<Action> = actions.iter().copied().filter(|&a| a != Action::EndTurn).collect();
    while i < actions.len() {
        let mut j = i + 1;
        while j < actions.len() && actions[j] == actions[i] {
            j += 1;
        }
        let text = action_text(n, actions[i]);
        parts.push(if j - i > 1 { format!("{text}*{}", j - i) } else { text });
        i = j;
    }
    parts.join(",")
}

/// Reads an atomic decision: one action without repeat, `end` or `pass`.
pub fn parse_action(n: usize, text: &str) -> Result<Action, ParseError> {
    let text = text.trim().to_ascii_lowercase();
    match text.as_str() {
        "end" => return Ok(Action::EndTurn),
        "pass" => return Ok(Action::Pass),
        _ => {}
    }
    if text.contains(['*', ',']) {
        return Err(ParseError::new(format!(
            "'{text}' is a turn string; one decision is a single action, end or pass"
        )));
    }
    let w = parse_written_action(&text)?;
    written_to_action(n, w).ok_or_else(|| ParseError::new(format!("'{text}' names a square off this {n}×{n} board")))
}

impl Position {
    /// Judges and applies a whole turn string (§6.6) from the start of a turn; on error nothing
    /// changes. Effects of the k-th action (0-based) are in wave k, the end-of-turn effects in
    /// the wave after the last action.
    pub fn play_turn(&mut self, text: &str) -> Result<Effects, TurnError> {
        let turn = parse_turn(text).map_err(TurnError::Parse)?;
        let mut next = self.clone();
        let effects = next.apply_turn(&turn)?;
        *self = next;
        Ok(effects)
    }

    fn apply_turn(&mut self, turn: &TurnString) -> Result<Effects, TurnError> {
        let first_text = match turn {
            TurnString::Pass => "pass".to_string(),
            TurnString::Actions(list) => list.first().map(|&(w, _)| written_text(w)).unwrap_or_default(),
        };
        let at_first = |reason| TurnError::Illegal { at: TurnStep::Action(1), action: first_text.clone(), reason };
        if self.result.is_some() {
            return Err(at_first(Illegal::GameOver));
        }
        if self.progress.used > 0 || self.turn_ending {
            return Err(at_first(Illegal::TurnInProgress));
        }
        let n = self.size();
        let mut effects = Effects::new();
        let mut wave: u16 = 0;
        match turn {
            TurnString::Pass => {
                self.check_action(Action::Pass).map_err(at_first)?;
                self.apply_action(Action::Pass, 0, &mut effects);
                wave = 1;
            }
            TurnString::Actions(list) => {
                let mut index = 0usize;
                for &(written, count) in list {
                    for _ in 0..count {
                        index += 1;
                        let illegal = |reason| TurnError::Illegal {
                            at: TurnStep::Action(index),
                            action: written_text(written),
                            reason,
                        };
                        let action = written_to_action(n, written).ok_or(illegal(Illegal::OffBoard))?;
                        self.check_action(action).map_err(illegal)?;
                        self.apply_action(action, wave, &mut effects);
                        wave += 1;
                    }
                }
                self.check_action(Action::EndTurn).map_err(|reason| TurnError::Illegal {
                    at: TurnStep::End,
                    action: String::new(),
                    reason,
                })?;
                self.apply_action(Action::EndTurn, wave, &mut effects);
            }
        }
        self.finish_turn(wave, &mut effects);
        Ok(effects)
    }
}

impl Notation for Position {
    const SLUG: &'static str = "gravel";
    const SIDE_LETTERS: [&'static str; 2] = ["L", "D"];

    fn cell_name(&self, cell: Cell) -> String {
        square_name(self.size(), cell)
    }

    fn parse_move(&self, text: &str) -> Result<Action, ParseError> {
        parse_action(self.size(), text)
    }

    fn format_move(&self, m: &Action) -> String {
        action_text(self.size(), *m)
    }

    fn describe(&self, m: &Action) -> DecisionInfo {
        self.describe_action(*m)
    }

    /// A record move is a whole turn (§6.6): its actions up to `end`, or `pass`.
    fn group_record_tokens(&self, decisions: &[String]) -> Result<RecordTokens, RecordError> {
        group_decisions(
            self,
            decisions,
            |_, m, _| matches!(m, Action::EndTurn | Action::Pass),
            |pos, actions| format_turn(pos.size(), actions),
        )
    }

    /// Reads a position string of §9.1 for these options (N and X must match them). Checks
    /// heights and conservation; the game is taken to be in progress, at the start of a turn.
    fn parse_position(options: &GravelOptions, text: &str) -> Result<Self, ParseError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [n, x, ranks, side, pool_l, pool_d, lost_l, lost_d, turn] = fields[..] else {
            return Err(ParseError::new(format!(
                "a Gravel position has 9 fields (N X ranks side poolL poolD lostL lostD turn), this one has {}",
                fields.len()
            )));
        };
        check_size_and_budget(options, whole_number("N", n)?, whole_number("X", x)?)?;
        let mut pos = Position::new(options);
        pos.read_ranks(ranks)?;
        pos.side = Position::side_from_letter(side)
            .ok_or_else(|| ParseError::new(format!("the side to move is L or D, not '{side}'")))?;
        let pools = [whole_number("poolL", pool_l)?, whole_number("poolD", pool_d)?];
        let lost = [whole_number("lostL", lost_l)?, whole_number("lostD", lost_d)?];
        pos.read_piece_counts(pools, lost)?;
        pos.turn = whole_number("turn", turn)?;
        if pos.turn == 0 {
            return Err(ParseError::new("the game turn starts at 1"));
        }
        pos.progress = TurnProgress::default();
        pos.begin_turn();
        Ok(pos)
    }

    /// The position string of §9.1. In the middle of a turn it shows the board as it stands;
    /// the turn's progress is not part of the spec's text.
    fn format_position(&self) -> String {
        let n = self.size();
        let mut s = String::with_capacity(n * n * 2 + 40);
        s.push_str(&format!("{} {} ", self.n, self.x));
        write_ranks(&mut s, n, n, |out, file, rank| {
            let stack = self.stack(self.cell_at(file, rank));
            write_stack(out, stack.map(|(side, h)| (Position::side_char(side), h)));
        });
        let (side, [pool_l, pool_d], [lost_l, lost_d], turn) =
            (Position::side_name(self.side), self.pool, self.lost, self.turn);
        s.push_str(&format!(" {side} {pool_l} {pool_d} {lost_l} {lost_d} {turn}"));
        s
    }

    fn play_record_token(&mut self, token: &str) -> Result<Effects, RecordError> {
        self.play_turn(token).map_err(|e| match e {
            TurnError::Parse(source) => RecordError::Parse { token: token.to_string(), source },
            illegal => RecordError::Illegal { token: token.to_string(), source: PlayError::new(illegal.to_string()) },
        })
    }

    /// A turn's actions (up to X, repeats written `*k` spelled out) and its end, read from the
    /// turn string rather than searched for.
    fn record_token_moves(&self, token: &str) -> Option<Result<Vec<Action>, RecordError>> {
        // Played first, so a repeat count is expanded only once the turn is known to be legal
        // (and so at most X long).
        if let Err(e) = self.clone().play_record_token(token) {
            return Some(Err(e));
        }
        let list = match parse_turn(token) {
            Ok(TurnString::Pass) => return Some(Ok(vec![Action::Pass])),
            Ok(TurnString::Actions(list)) => list,
            Err(source) => return Some(Err(RecordError::Parse { token: token.to_string(), source })),
        };
        let mut actions = Vec::new();
        for (written, count) in list {
            // Every square is on the board: the turn was played.
            if let Some(action) = written_to_action(self.size(), written) {
                actions.extend(std::iter::repeat_n(action, count as usize));
            }
        }
        actions.push(Action::EndTurn);
        Some(Ok(actions))
    }

    /// Every legal action that can start the turn, as a one-action turn string, plus `pass` when
    /// legal (ARCHITECTURE §5).
    fn legal_record_tokens(&self) -> LegalTokens {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        LegalTokens::sorted(moves.iter().filter(|&&m| m != Action::EndTurn).map(|&m| action_text(self.size(), m)))
    }
}

/// A whole number field of a position string (at most nine digits).
fn whole_number(name: &str, field: &str) -> Result<u32, ParseError> {
    let bad = || ParseError::new(format!("{name} must be a whole number, not '{field}'"));
    if field.is_empty() || field.len() > 9 || !field.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    field.parse().map_err(|_| bad())
}

/// N and X of a position string: in range, and those of the options.
fn check_size_and_budget(options: &GravelOptions, n: u32, x: u32) -> Result<(), ParseError> {
    if !(MIN_SIZE as u32..=MAX_SIZE as u32).contains(&n) {
        return Err(ParseError::new(format!("N must be between {MIN_SIZE} and {MAX_SIZE}, not {n}")));
    }
    if !(MIN_BUDGET as u32..=MAX_BUDGET as u32).contains(&x) {
        return Err(ParseError::new(format!("X must be between {MIN_BUDGET} and {MAX_BUDGET}, not {x}")));
    }
    if n != options.size as u32 || x != options.budget as u32 {
        return Err(ParseError::new(format!(
            "the position is for N={n} X={x} but the options say N={} X={}; set the options to match",
            options.size, options.budget
        )));
    }
    Ok(())
}

impl Position {
    /// Puts the stacks of the ranks field (`.L1D2/…`, the top rank first) on the empty board.
    fn read_ranks(&mut self, field: &str) -> Result<(), ParseError> {
        let n = self.size();
        for (rank, text) in split_ranks(field, n)? {
            self.read_rank(rank, text)?;
        }
        debug_assert!(n * n <= MAX_SPACES);
        Ok(())
    }

    /// One rank: `.` for a vacant space, `L<h>` or `D<h>` for a stack of height 1..=X.
    fn read_rank(&mut self, rank: usize, text: &str) -> Result<(), ParseError> {
        let (n, x) = (self.size(), self.x);
        let rank_name = rank + 1;
        let bytes = text.as_bytes();
        let (mut i, mut file) = (0, 0);
        while i < bytes.len() {
            if file >= n {
                return Err(ParseError::new(format!("rank {rank_name} has more than {n} spaces")));
            }
            if bytes[i] == b'.' {
                i += 1;
            } else if let Some(side) =
                bytes[i].is_ascii().then(|| Position::side_from_letter(&text[i..i + 1])).flatten()
            {
                let h = bytes.get(i + 1).filter(|b| b.is_ascii_digit()).map(|b| b - b'0');
                let Some(h) = h.filter(|h| (1..=x).contains(h)) else {
                    return Err(ParseError::new(format!(
                        "rank {rank_name}: a stack is L or D followed by a height from 1 to X={x}"
                    )));
                };
                let cell = rank * n + file;
                self.set_stack(cell, h as i8 * sign(side));
                self.occupied[side.index()] += 1;
                self.on_board[side.index()] += h as u16;
                i += 2;
            } else {
                return Err(ParseError::new(format!(
                    "rank {rank_name}: unexpected '{}'; spaces are '.', L<h> or D<h>",
                    bytes[i] as char
                )));
            }
            file += 1;
        }
        if file != n {
            return Err(ParseError::new(format!("rank {rank_name} has {file} spaces, not {n}")));
        }
        Ok(())
    }

    /// Pools and lost counts, checked by conservation: pool + on board + lost = P for each side.
    fn read_piece_counts(&mut self, pools: [u32; 2], lost: [u32; 2]) -> Result<(), ParseError> {
        let p = self.options.pieces_per_player() as u32;
        for side in Side::BOTH {
            let i = side.index();
            let board = self.on_board[i] as u32;
            if pools[i] + board + lost[i] != p {
                return Err(ParseError::new(format!(
                    "{}'s pieces do not add up: pool {} + on board {board} + lost {} must be P = {p}",
                    Position::SIDE_NAMES[i],
                    pools[i],
                    lost[i]
                )));
            }
            self.pool[i] = pools[i] as u16;
            self.lost[i] = lost[i] as u16;
        }
        Ok(())
    }
}

/// The header line of a game record (§9.3): `[Gravel N=8 X=4 layout=squares turn_limit=200]`.
pub fn record_header(options: &GravelOptions) -> String {
    format!(
        "[Gravel N={} X={} layout={} turn_limit={}]",
        options.size,
        options.budget,
        options.layout.name(),
        options.turn_limit
    )
}

/// A game record (§9.3): the header, then one line per game turn, `<n>. <Light turn> ; <Dark
/// turn>`, from game turn 1. `turns` are turn strings in order, Light's first; a record that stops
/// after Light's turn ends with `<n>. <Light turn>`.
pub fn format_record(options: &GravelOptions, turns: &[String]) -> String {
    let mut out = record_header(options);
    for (k, pair) in turns.chunks(2).enumerate() {
        out.push('\n');
        match pair {
            [light, dark] => out.push_str(&format!("{}. {light} ; {dark}", k + 1)),
            [light] => out.push_str(&format!("{}. {light}", k + 1)),
            _ => {}
        }
    }
    out
}

/// Reads a game record of §9.3 back into its options and turn strings (not yet played).
pub fn parse_record(text: &str) -> Result<(GravelOptions, Vec<String>), ParseError> {
    parse_record_over(text, &GravelOptions::default())
}

/// [`parse_record`] with the options of a setting the header leaves out given (the player's, not
/// the defaults); a record without its header line is its turn lines under `base`.
pub fn parse_record_over(text: &str, base: &GravelOptions) -> Result<(GravelOptions, Vec<String>), ParseError> {
    use crate::rules::GameOptions;
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty()).peekable();
    if lines.peek().is_none() {
        return Err(ParseError::new("empty record"));
    }
    let mut options = base.clone();
    if let Some(header) = lines.next_if(|line| line.starts_with('[')) {
        let not_a_header = || ParseError::new("a Gravel record starts with a header like [Gravel N=8 X=4 ...]");
        let items = lex_record(header).map_err(|_| not_a_header())?;
        let [RecordItem { piece: RecordPiece::Tag { key: "Gravel", value: settings, quoted: false }, .. }] = &items[..]
        else {
            return Err(not_a_header());
        };
        for pair in settings.split_whitespace() {
            let (k, v) = pair
                .split_once('=')
                .ok_or_else(|| ParseError::new(format!("'{pair}' in the header is not key=value")))?;
            options.set(k, v).map_err(|e| ParseError::new(e.to_string()))?;
        }
        options.validate().map_err(|e| ParseError::new(e.to_string()))?;
    }
    let mut turns = Vec::new();
    for (k, line) in lines.enumerate() {
        let (number, rest) =
            line.split_once('.').ok_or_else(|| ParseError::new(format!("record line '{line}' has no turn number")))?;
        if number.trim().parse::<usize>().ok() != Some(k + 1) {
            return Err(ParseError::new(format!("record line '{line}' should be game turn {}", k + 1)));
        }
        let mut parts = rest.split(';').map(str::trim);
        let light = parts.next().filter(|t| !t.is_empty());
        let light = light.ok_or_else(|| ParseError::new(format!("record line '{line}' has no Light turn")))?;
        turns.push(light.to_string());
        if let Some(dark) = parts.next() {
            if dark.is_empty() || parts.next().is_some() {
                return Err(ParseError::new(format!("record line '{line}' is not '<n>. <Light> ; <Dark>'")));
            }
            turns.push(dark.to_string());
        }
    }
    Ok((options, turns))
}

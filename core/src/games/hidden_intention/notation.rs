//! Text forms: commitments (`c3<>f4 Pf6`), staged decisions (`A:P`), the state string (§8.4).

pub use super::figures::square_name;
use super::moves::{Commitment, Move, Staged};
use super::options::HiddenIntentionOptions;
use super::position::{
    Corner, FIGURES_PER_SIDE, FULL_SUPPLY, Figure, FigureChoice, Kind, Position, SQUARES, SWAPS_PER_GAME, Square,
    Stock, Supply, bit,
};
use crate::rules::{
    Cell, DecisionInfo, Effects, FileLetters, LegalTokens, Notation, ParseError, PlayError, RecordError, RecordTokens,
    Rules, Side, group_decisions, parse_cell,
};

/// A side's letter in either case (`A`, `b`).
fn parse_side(text: &str) -> Option<Side> {
    Position::side_from_letter(&text.to_ascii_uppercase())
}

/// Reads `a1` … `h8`.
pub fn parse_square(text: &str) -> Result<Square, ParseError> {
    let (file, rank) = parse_cell(FileLetters::Lower, text, 8, 8)?;
    Ok((rank * 8 + file) as Square)
}

/// A placed figure as the state string and commitments write it: `Qd4`, `Nc4/ne`.
pub fn figure_text(kind: Kind, square: Square) -> String {
    match kind {
        Kind::Knight(c) => format!("N{}/{}", square_name(square), c.code()),
        _ => format!("{}{}", kind.code(), square_name(square)),
    }
}

/// Reads `Qd4`, `Nc4/ne`: a code, a square and, for a knight only, its facing.
pub fn parse_figure(text: &str) -> Result<(Kind, Square), ParseError> {
    let mut chars = text.chars();
    let code = chars.next().ok_or_else(|| ParseError::new("expected a figure such as Qd4 or Nc4/ne, found nothing"))?;
    let choice = FigureChoice::from_code(code)
        .ok_or_else(|| ParseError::new(format!("'{text}': a figure starts with P, X, R, B, N or Q")))?;
    let rest = chars.as_str();
    let (square_text, facing) = match rest.split_once('/') {
        Some((s, f)) => (s, Some(f)),
        None => (rest, None),
    };
    let square = parse_square(square_text).map_err(|e| ParseError::new(format!("'{text}': {e}")))?;
    let kind = match (choice, facing) {
        (FigureChoice::Knight, Some(f)) => Kind::Knight(
            Corner::from_code(f)
                .ok_or_else(|| ParseError::new(format!("'{text}': a knight faces ne, nw, se or sw")))?,
        ),
        (FigureChoice::Knight, None) => {
            return Err(ParseError::new(format!("'{text}': a knight needs its facing, e.g. Nc4/ne")));
        }
        (_, Some(_)) => return Err(ParseError::new(format!("'{text}': only a knight has a facing"))),
        (other, None) => other.kind(None).ok_or_else(|| ParseError::new(format!("'{text}' is not a figure")))?,
    };
    Ok((kind, square))
}

/// Reads a swap `c3<>f4` (either order) as (lower, higher).
fn parse_swap(text: &str) -> Result<(Square, Square), ParseError> {
    let (x, y) = text.split_once("<>").ok_or_else(|| ParseError::new(format!("'{text}' is not a swap like c3<>f4")))?;
    let (x, y) = (parse_square(x.trim())?, parse_square(y.trim())?);
    if x == y {
        return Err(ParseError::new(format!("'{text}': a swap needs two different squares")));
    }
    Ok((x.min(y), x.max(y)))
}

/// Writes a commitment: `Qd4`, `Nc4/ne`, `c3<>f4 Pf6` (lower swap square first).
pub fn format_commitment(c: &Commitment) -> String {
    let placement = figure_text(c.kind, c.target);
    match c.swap {
        Some((a, b)) => format!("{}<>{} {placement}", square_name(a.min(b)), square_name(a.max(b))),
        None => placement,
    }
}

/// Reads a commitment (spec §8.2).
pub fn parse_commitment(text: &str) -> Result<Commitment, ParseError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let (swap, placement) = match words.as_slice() {
        [p] => (None, *p),
        [s, p] => (Some(parse_swap(s)?), *p),
        [] => return Err(ParseError::new("empty commitment: expected e.g. Qd4 or c3<>f4 Pf6")),
        _ => return Err(ParseError::new(format!("'{text}': a commitment is an optional swap and one placement"))),
    };
    let (kind, target) = parse_figure(placement)?;
    Ok(Commitment { swap, kind, target })
}

fn format_supply(s: &Supply) -> String {
    Stock::ALL.iter().map(|&k| format!("{}{}", k.letter(), s.count(k))).collect()
}

fn parse_supply(text: &str) -> Result<Supply, ParseError> {
    let bad = || ParseError::new(format!("'{text}' is not a supply like P8R2B2N1Q1"));
    let mut counts = [0u8; 5];
    let mut rest = text;
    for (i, stock) in Stock::ALL.into_iter().enumerate() {
        rest = rest.strip_prefix(stock.letter()).ok_or_else(bad)?;
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        counts[i] = rest[..digits].parse().map_err(|_| bad())?;
        rest = &rest[digits..];
        let max = FULL_SUPPLY.count(stock);
        if counts[i] > max {
            return Err(ParseError::new(format!(
                "supply {text}: at most {max} of {} (a player owns 8 pawns, 2 rooks, 2 bishops, 1 knight, 1 queen)",
                stock.letter()
            )));
        }
    }
    if !rest.is_empty() {
        return Err(bad());
    }
    Ok(Supply { counts })
}

fn format_squares(set: u64, write: impl Fn(Square) -> String) -> String {
    if set == 0 {
        return "-".to_string();
    }
    let mut words = Vec::new();
    let mut rest = set;
    while rest != 0 {
        let s = rest.trailing_zeros() as Square;
        rest &= rest - 1;
        words.push(write(s));
    }
    words.join(" ")
}

impl Notation for Position {
    const SLUG: &'static str = "hidden-intention";
    /// `A` (White, positive influence) and `B` (Black, negative).
    const SIDE_LETTERS: [&'static str; 2] = ["A", "B"];

    fn cell_name(&self, cell: Cell) -> String {
        if (cell as usize) < SQUARES { square_name(cell as Square) } else { format!("#{cell}") }
    }

    /// Reads a staged decision written by `format_move`.
    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let text = text.trim();
        let bad = || {
            ParseError::new(format!(
                "'{text}' is not a decision; write the side and one choice: A:c3<>f4 (swap), A:P (figure), A:f6 (square), A:/ne (knight facing)"
            ))
        };
        let (side, body) = text.split_once(':').ok_or_else(bad)?;
        let side = parse_side(side.trim()).ok_or_else(bad)?;
        let body = body.trim();
        if body.contains("<>") {
            let (a, b) = parse_swap(body)?;
            return Ok(Move::Swap { side, a, b });
        }
        if let Some(facing) = body.strip_prefix('/') {
            let corner = Corner::from_code(facing).ok_or_else(bad)?;
            return Ok(Move::Facing { side, corner });
        }
        let mut chars = body.chars();
        if let (Some(code), None) = (chars.next(), chars.next()) {
            let choice = FigureChoice::from_code(code).ok_or_else(bad)?;
            return Ok(Move::Figure { side, choice });
        }
        Ok(Move::Target { side, square: parse_square(body)? })
    }

    /// Writes a staged decision: `A:c3<>f4`, `A:P`, `B:f6`, `B:/ne`.
    fn format_move(&self, m: &Move) -> String {
        let side = Position::side_name(m.side());
        match *m {
            Move::Swap { a, b, .. } => format!("{side}:{}<>{}", square_name(a), square_name(b)),
            Move::Figure { choice, .. } => format!("{side}:{}", choice.code()),
            Move::Target { square, .. } => format!("{side}:{}", square_name(square)),
            Move::Facing { corner, .. } => format!("{side}:/{}", corner.code()),
        }
    }

    fn describe(&self, m: &Move) -> DecisionInfo {
        self.describe_move(m)
    }

    /// A record move is one attempt, `<A's commitment>|<B's commitment>`, complete once both
    /// are sealed and revealed (so a sealed commitment never shows in the list).
    fn group_record_tokens(&self, decisions: &[String]) -> Result<RecordTokens, RecordError> {
        group_decisions(
            self,
            decisions,
            |pos, _, _| Side::BOTH.iter().all(|&s| pos.staged(s) == Staged::default()),
            |_, moves| {
                let commitment = |side: Side| {
                    let mut staged = Staged::default();
                    for m in moves.iter().filter(|m| m.side() == side) {
                        match *m {
                            Move::Swap { a, b, .. } => staged.swap = Some((a, b)),
                            Move::Figure { choice, .. } => staged.figure = Some(choice),
                            Move::Target { square, .. } => staged.target = Some(square),
                            Move::Facing { corner, .. } => staged.facing = Some(corner),
                        }
                    }
                    staged.commitment().map(|c| format_commitment(&c)).unwrap_or_default()
                };
                format!("{}|{}", commitment(Side::First), commitment(Side::Second))
            },
        )
    }

    /// Reads a state string (any order of figures and burned squares) and checks the invariants
    /// every reachable position keeps.
    fn parse_position(options: &HiddenIntentionOptions, text: &str) -> Result<Self, ParseError> {
        let parts: Vec<&str> = text.split(';').map(str::trim).collect();
        let [a_figures, b_figures, supplies, swaps, burned, clock] = parts[..] else {
            return Err(ParseError::new(format!(
                "a state has six parts separated by ';' (A figures ; B figures ; supplies ; swaps ; burned ; turn.attempt), found {}",
                parts.len()
            )));
        };
        let mut pos = Position::new(options);
        pos.supply = [Supply { counts: [0; 5] }; 2];
        pos.read_figures(Side::First, a_figures)?;
        pos.read_figures(Side::Second, b_figures)?;
        pos.read_supplies_and_swaps(supplies, swaps)?;
        pos.read_burned(burned)?;
        pos.read_clock(clock)?;
        pos.check_invariants()?;
        pos.settle_status();
        Ok(pos)
    }

    /// The state string of spec §8.4, in canonical order.
    fn format_position(&self) -> String {
        let figures = |side: Side| {
            format_squares(self.occupied[side.index()], |s| match self.board[s as usize] {
                Some(f) => figure_text(f.kind, s),
                None => String::new(),
            })
        };
        format!(
            "{} ; {} ; {} {} ; {} {} ; {} ; {}.{}",
            figures(Side::First),
            figures(Side::Second),
            format_supply(&self.supply[0]),
            format_supply(&self.supply[1]),
            self.swaps_left[0],
            self.swaps_left[1],
            format_squares(self.burned, square_name),
            self.turn,
            self.attempt
        )
    }

    fn play_record_token(&mut self, token: &str) -> Result<Effects, RecordError> {
        let parse_err = |source| RecordError::Parse { token: token.to_string(), source };
        let illegal = |source| RecordError::Illegal { token: token.to_string(), source };
        let words: String = token.split_whitespace().collect();
        if words == "--|--" {
            // The record's closing line after a player ran out of legal commitments (spec §8.3).
            return match self.outcome {
                Some(_) => Ok(Effects::new()),
                None => Err(illegal(PlayError::new(
                    "'-- | --' only closes a record once a player has no legal commitment; the game is still on",
                ))),
            };
        }
        let (a_text, b_text) = token.split_once('|').ok_or_else(|| {
            parse_err(ParseError::new("an attempt is written <A's commitment>|<B's commitment>, e.g. Qd4|Re5"))
        })?;
        let a =
            parse_commitment(a_text.trim()).map_err(|e| parse_err(ParseError::new(format!("A's commitment: {e}"))))?;
        let b =
            parse_commitment(b_text.trim()).map_err(|e| parse_err(ParseError::new(format!("B's commitment: {e}"))))?;
        let mut next = self.clone();
        next.staged = [Staged::default(); 2];
        for (side, c) in [(Side::First, &a), (Side::Second, &b)] {
            next.check_commitment(side, c).map_err(|e| {
                illegal(PlayError::new(format!(
                    "{}'s commitment {}: {}",
                    Position::side_name(side),
                    format_commitment(c),
                    e.reason
                )))
            })?;
        }
        let mut effects = Effects::new();
        for (side, c) in [(Side::First, &a), (Side::Second, &b)] {
            for m in Staged::decisions(side, c) {
                effects.extend(next.play(&m).map_err(illegal)?);
            }
        }
        *self = next;
        Ok(effects)
    }

    fn legal_record_tokens(&self) -> LegalTokens {
        let list = |side: Side| {
            let mut tokens: Vec<String> = self.legal_commitments(side).iter().map(format_commitment).collect();
            tokens.sort();
            tokens
        };
        LegalTokens::PerSide(list(Side::First), list(Side::Second))
    }
}

impl Position {
    /// One side's figures (`Qd4 Nc4/ne`, or `-` for none).
    fn read_figures(&mut self, side: Side, list: &str) -> Result<(), ParseError> {
        if list == "-" {
            return Ok(());
        }
        for word in list.split_whitespace() {
            let (kind, square) = parse_figure(word)?;
            if self.board[square as usize].is_some() {
                return Err(ParseError::new(format!("two figures on {}", square_name(square))));
            }
            self.put(square, Figure { owner: side, kind });
        }
        Ok(())
    }

    /// Both supplies (`P8R2B2N1Q1 P8R2B2N1Q1`) and both counts of swaps left (`2 2`).
    fn read_supplies_and_swaps(&mut self, supplies: &str, swaps: &str) -> Result<(), ParseError> {
        let supply_words: Vec<&str> = supplies.split_whitespace().collect();
        let [sa, sb] = supply_words[..] else {
            return Err(ParseError::new(format!("'{supplies}': expected two supplies like P8R2B2N1Q1 P8R2B2N1Q1")));
        };
        self.supply = [parse_supply(sa)?, parse_supply(sb)?];
        let swap_words: Vec<&str> = swaps.split_whitespace().collect();
        let [wa, wb] = swap_words[..] else {
            return Err(ParseError::new(format!("'{swaps}': expected the swaps left of A and B, like 2 2")));
        };
        for (i, w) in [wa, wb].into_iter().enumerate() {
            let n: u8 = w.parse().map_err(|_| ParseError::new(format!("'{w}' is not a number of swaps")))?;
            if n > SWAPS_PER_GAME {
                return Err(ParseError::new(format!("a player has at most {SWAPS_PER_GAME} swaps, not {n}")));
            }
            self.swaps_left[i] = n;
        }
        Ok(())
    }

    /// The burned squares (`d4 e5`, or `-`): empty, each listed once.
    fn read_burned(&mut self, burned: &str) -> Result<(), ParseError> {
        if burned == "-" {
            return Ok(());
        }
        for word in burned.split_whitespace() {
            let square = parse_square(word)?;
            if self.board[square as usize].is_some() {
                return Err(ParseError::new(format!("burned square {word} holds a figure; burned squares are empty")));
            }
            if self.burned & bit(square) != 0 {
                return Err(ParseError::new(format!("burned square {word} is listed twice")));
            }
            self.burned |= bit(square);
        }
        Ok(())
    }

    /// `turn.attempt`, both from 1.
    fn read_clock(&mut self, clock: &str) -> Result<(), ParseError> {
        let (turn, attempt) =
            clock.split_once('.').ok_or_else(|| ParseError::new(format!("'{clock}' is not turn.attempt like 3.1")))?;
        let number = |t: &str| -> Result<u16, ParseError> {
            t.parse::<u16>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| ParseError::new(format!("'{clock}': turn and attempt count from 1")))
        };
        self.turn = number(turn)?;
        self.attempt = number(attempt)?;
        Ok(())
    }

    /// The invariants of every position reachable by the rules.
    fn check_invariants(&self) -> Result<(), ParseError> {
        for side in Side::BOTH {
            let name = Position::side_name(side);
            let mut on_board = [0u8; 5];
            for f in self.board.iter().flatten().filter(|f| f.owner == side) {
                on_board[f.kind.stock() as usize] += 1;
            }
            for stock in Stock::ALL {
                let have = on_board[stock as usize] + self.supply[side.index()].count(stock);
                if have > FULL_SUPPLY.count(stock) {
                    return Err(ParseError::new(format!(
                        "{name} has {have} figures of kind {} on the board and in supply, more than the {} it owns",
                        stock.letter(),
                        FULL_SUPPLY.count(stock)
                    )));
                }
            }
        }
        let (ta, tb) = (self.supply[0].total(), self.supply[1].total());
        if ta != tb {
            return Err(ParseError::new(format!(
                "the supplies hold {ta} and {tb} figures; every placement takes one from each, so they are always equal"
            )));
        }
        let placed = (FIGURES_PER_SIDE - ta) as u16;
        if self.turn != placed + 1 {
            return Err(ParseError::new(format!(
                "turn {} does not fit the supplies: {placed} figures placed by each side means turn {}",
                self.turn,
                placed + 1
            )));
        }
        let burned = self.burned.count_ones() as u16;
        if burned != self.attempt - 1 {
            return Err(ParseError::new(format!(
                "attempt {} of a turn follows {} burns, but {burned} squares are burned",
                self.attempt,
                self.attempt - 1
            )));
        }
        let unstable = self.unstable();
        if unstable != 0 {
            let s = unstable.trailing_zeros() as Square;
            return Err(ParseError::new(format!(
                "the position is not stable: the figure on {} stands on enemy ground",
                square_name(s)
            )));
        }
        Ok(())
    }

    /// A commitment of `side` in progress, as text (`c3<>f4 P`), for the owner's display.
    pub fn staged_text(&self, side: Side) -> String {
        let s: &Staged = &self.staged[side.index()];
        let mut out = String::new();
        if let Some((a, b)) = s.swap {
            out.push_str(&format!("{}<>{} ", square_name(a), square_name(b)));
        }
        if let Some(f) = s.figure {
            out.push(f.code());
        }
        if let Some(t) = s.target {
            out.push_str(&square_name(t));
        }
        if let Some(c) = s.facing {
            out.push('/');
            out.push_str(c.code());
        }
        out.trim_end().to_string()
    }
}

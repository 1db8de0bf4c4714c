//! Text forms (§5): atomic decision tokens, record tokens (one per move part, pie tokens) and the
//! position string.

use super::board::Board;
use super::moves::Move;
use super::options::{Opening, PassRule, ThrongsOptions};
use super::position::{PartKind, Phase, Position};
use crate::games::About;
use crate::rules::{
    Cell, DecisionInfo, Effects, ExactCount, LegalTokens, Notation, ParseError, PlayError, RecordError, RecordTokens,
    Rules, Side, group_decisions,
};

/// A colour as people name it ("Black").
fn colour_name(side: Side) -> &'static str {
    Position::SIDE_NAMES[side.index()]
}

/// A colour written as its letter or its name, in any case (`B`, `w`, `black`).
fn parse_colour(text: &str) -> Option<Side> {
    Side::BOTH.into_iter().find(|&side| {
        text.eq_ignore_ascii_case(Position::side_name(side)) || text.eq_ignore_ascii_case(colour_name(side))
    })
}

/// What a record token for one move part says (§5).
enum PartToken {
    Pass,
    Start { kind: PartKind, at: Cell, to: Option<Cell> },
}

impl Notation for Position {
    const SLUG: &'static str = "throngs";
    const SIDE_LETTERS: [&'static str; 2] = ["B", "W"];

    fn cell_name(&self, cell: Cell) -> String {
        self.geo.name(cell)
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        if let Some(rest) = t.strip_prefix("choose ").or_else(|| t.strip_prefix("Choose ")) {
            return parse_colour(rest.trim())
                .map(Move::Choose)
                .ok_or_else(|| ParseError::new(format!("'{t}': choose Black or choose White")));
        }
        if let Some((colour, cell)) = t.split_once(':') {
            let colour = parse_colour(colour)
                .ok_or_else(|| ParseError::new(format!("'{t}': an offered stone is written B:<site> or W:<site>")))?;
            let s = self.site(cell)?;
            if self.phase == Phase::PieOffer && colour != self.offer_colour() {
                return Err(ParseError::new(format!(
                    "the next offered stone is {} (Black stones are offered first)",
                    colour_name(self.offer_colour())
                )));
            }
            return Ok(Move::Offer(s));
        }
        if let Some(to) = t.strip_prefix('>') {
            return Ok(Move::To(self.site(to)?));
        }
        if let Some(at) = t.strip_prefix('+') {
            return Ok(Move::Place(self.site(at)?));
        }
        if let Some(at) = t.strip_prefix('x') {
            return Ok(Move::Capture(self.site(at)?));
        }
        if let Some(at) = t.strip_suffix('>') {
            return Ok(Move::Pick(self.site(at)?));
        }
        Err(ParseError::new(format!(
            "'{t}' is not a decision: write pass, +f6 (place), xf6 (capture), f6> (start a move), >g6 (destination)"
        )))
    }

    fn format_move(&self, m: &Move) -> String {
        let name = |s: &Cell| self.geo.name(*s);
        match m {
            Move::Pass => "pass".into(),
            Move::Place(s) => format!("+{}", name(s)),
            Move::Capture(s) => format!("x{}", name(s)),
            Move::Pick(s) => format!("{}>", name(s)),
            Move::To(s) => format!(">{}", name(s)),
            Move::Offer(s) => format!("{}:{}", Position::side_name(self.offer_colour()), name(s)),
            Move::Choose(side) => format!("choose {}", colour_name(*side)),
        }
    }

    fn describe(&self, m: &Move) -> DecisionInfo {
        self.describe_move(m)
    }

    /// A record move is one part (`+k10`, `+j9>i8`, `xf6>g6`, `k9>j9`, `pass`), the whole pie
    /// offer (`pie B:g7 W:e4 W:h9`) or the pie choice.
    fn group_record_tokens(&self, decisions: &[String]) -> Result<RecordTokens, RecordError> {
        group_decisions(
            self,
            decisions,
            |pos, _, _| pos.started().is_none() && pos.phase() != Phase::PieOffer,
            |pos, moves| {
                let name = |s: &Cell| pos.geo.name(*s);
                if let Some(Move::Offer(_)) = moves.first() {
                    // Replay the offer to know each stone's colour (Black ones first).
                    let mut p = pos.clone();
                    let stones: Vec<String> = moves
                        .iter()
                        .map(|m| {
                            let text = p.format_move(m);
                            let _ = p.play(m);
                            text
                        })
                        .collect();
                    return format!("pie {}", stones.join(" "));
                }
                match moves {
                    [Move::Place(a), Move::To(b)] | [Move::Capture(a), Move::To(b)] if a == b => {
                        pos.format_move(&moves[0])
                    }
                    [Move::Place(_) | Move::Capture(_), Move::To(b)] => {
                        format!("{}>{}", pos.format_move(&moves[0]), name(b))
                    }
                    [Move::Pick(a), Move::To(b)] => format!("{}>{}", name(a), name(b)),
                    _ => moves.iter().map(|m| pos.format_move(m)).collect::<Vec<_>>().join(" "),
                }
            },
        )
    }

    /// Reads a position string, checking the invariants of §5.
    fn parse_position(options: &ThrongsOptions, text: &str) -> Result<Position, ParseError> {
        let mut fields = text.split_whitespace();
        let board_text = fields.next().ok_or_else(|| ParseError::new("the position text is empty"))?;
        // The text names its board; it must be the board of the options, as the other games
        // refuse a position of another size than their options'.
        let board = Board::parse(board_text).map_err(ParseError::new)?;
        if board != options.board {
            return Err(ParseError::new(format!(
                "the position is on board {} but the options say board={}; set the option board={} to match",
                board.name(),
                options.board.name(),
                board.name()
            )));
        }
        let mut p = Position::empty_board(options);
        let mover_text = fields.next().ok_or_else(|| ParseError::new("missing the side and part (B1, B2, W1, W2)"))?;
        p.read_mover(mover_text)?;
        let mut read = FieldsRead::default();
        for field in fields {
            p.read_field(field, &mut read)?;
        }
        if read.stones != [true, true] {
            return Err(ParseError::new("the position needs both stone lists, B:<sites> and W:<sites> ('-' for none)"));
        }
        p.read_pass_rule_flags(read.legacy)?;
        match p.phase {
            Phase::PieOffer | Phase::PieChoice => p.check_pie_opening(read.started.is_some())?,
            _ => p.settle_play(read.started)?,
        }
        Ok(p)
    }

    /// The canonical position string (§5, plus `pie`/`choose` phases and `started=` for a part
    /// whose destination is still open).
    fn format_position(&self) -> String {
        let mut out = self.geo.board.name();
        out.push(' ');
        match self.phase {
            Phase::PieOffer => out.push_str("pie"),
            Phase::PieChoice => out.push_str("choose"),
            _ => {
                out.push_str(Position::side_name(self.mover));
                out.push_str(if self.part == 1 { "1" } else { "2" });
            }
        }
        for side in Side::BOTH {
            out.push(' ');
            out.push_str(Position::side_name(side));
            out.push(':');
            let names: Vec<String> = self.sites_of(side).map(|s| self.geo.name(s)).collect();
            out.push_str(if names.is_empty() { "-".into() } else { names.join(",") }.as_str());
        }
        out.push_str(&format!(" idle={},{} passrun={} turn={}", self.idle[0], self.idle[1], self.passrun, self.turn));
        if self.options.pass_rule == PassRule::Legacy {
            out.push_str(&format!(" legacy={}{}", self.legacy_after_passes as u8, self.legacy_done as u8));
        }
        if let Some(st) = self.started {
            let at = self.geo.name(st.at);
            out.push_str(&match st.kind {
                PartKind::Place => format!(" started=+{at}"),
                PartKind::Capture => format!(" started=x{at}"),
                PartKind::Move => format!(" started={at}>"),
            });
        }
        out
    }

    /// The atomic decisions a record token stands for, checked by playing them on `self`.
    fn play_record_token(&mut self, token: &str) -> Result<Effects, RecordError> {
        self.play_token_moves(token).map(|(effects, _)| effects)
    }

    /// A part's one or two decisions, or a pie offer's 2n + 1 (up to 225 on Torus-15), read from
    /// the token rather than searched for.
    fn record_token_moves(&self, token: &str) -> Option<Result<Vec<Move>, RecordError>> {
        Some(self.clone().play_token_moves(token).map(|(_, moves)| moves))
    }

    /// Every legal record token (§5) for the side to move, sorted.
    fn legal_record_tokens(&self) -> LegalTokens {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let mut tokens = Vec::new();
        match self.phase {
            Phase::PieOffer if self.count == [0, 0] => {
                // The offer's Black sites, then its White sites among the rest (§3.2).
                let sites = self.geo.len() as u32;
                let n = self.pie_size() as u32;
                let black = ExactCount::binomial(sites, n);
                return LegalTokens::CountOnly(&black * &ExactCount::binomial(sites.saturating_sub(n), n + 1));
            }
            Phase::Play if self.started.is_none() => {
                for m in &moves {
                    let (kind, at, prefix) = match *m {
                        Move::Place(s) => (PartKind::Place, s, "+"),
                        Move::Capture(s) => (PartKind::Capture, s, "x"),
                        Move::Pick(s) => (PartKind::Move, s, ""),
                        _ => {
                            tokens.push(self.format_move(m));
                            continue;
                        }
                    };
                    let at_name = self.geo.name(at);
                    let range = self.range_of(kind, at);
                    if kind != PartKind::Move {
                        tokens.push(format!("{prefix}{at_name}"));
                    }
                    if kind == PartKind::Move || (range >= 1 && self.can_travel(at, range)) {
                        for (t, _) in self.reach(at, range) {
                            tokens.push(format!("{prefix}{at_name}>{}", self.geo.name(t)));
                        }
                    }
                }
            }
            _ => tokens.extend(moves.iter().map(|m| self.format_move(m))),
        }
        LegalTokens::sorted(tokens)
    }
}

/// What the fields after the side and part said, for the checks that need all of them.
#[derive(Default)]
struct FieldsRead<'a> {
    /// Whether the stone list of each side was given.
    stones: [bool; 2],
    keys: Vec<&'a str>,
    /// `legacy=`: the opponent's previous turn was two passes, the mover placed or captured.
    legacy: (bool, bool),
    started: Option<&'a str>,
}

impl Position {
    /// Plays the atomic decisions a record token stands for (on error nothing changes) and says
    /// which they were.
    fn play_token_moves(&mut self, token: &str) -> Result<(Effects, Vec<Move>), RecordError> {
        let t = token.trim();
        let parse_err = |source: ParseError| RecordError::Parse { token: t.to_string(), source };
        let illegal = |source: PlayError| RecordError::Illegal { token: t.to_string(), source };
        if let Some(rest) = t.strip_prefix("pie ").or_else(|| t.strip_prefix("pie\t")) {
            return self.play_pie_offer(t, rest);
        }
        let moves = if self.phase != Phase::Play || self.started.is_some() {
            // Pie choice, a started part or a finished game: the token is one atomic decision.
            vec![self.parse_move(t).map_err(parse_err)?]
        } else {
            match self.parse_part_token(t).map_err(parse_err)? {
                PartToken::Pass => vec![Move::Pass],
                PartToken::Start { kind, at, to } => {
                    let start = match kind {
                        PartKind::Place => Move::Place(at),
                        PartKind::Capture => Move::Capture(at),
                        PartKind::Move => Move::Pick(at),
                    };
                    // Whether the part goes on to a destination shows only once it has started.
                    let mut started = self.clone();
                    started.play(&start).map_err(illegal)?;
                    match (started.started, to) {
                        (Some(_), to) => vec![start, Move::To(to.unwrap_or(at))],
                        (None, None) => vec![start],
                        (None, Some(_)) => {
                            let p = self.power(at, self.mover);
                            return Err(illegal(PlayError::new(format!(
                                "the stone on {} has no power left to travel or nowhere to land (power {p})",
                                self.geo.name(at)
                            ))));
                        }
                    }
                }
            }
        };
        let effects = self.play_all(&moves).map_err(illegal)?;
        Ok((effects, moves))
    }

    /// Plays `moves` in order, all or (on the first illegal one) none.
    fn play_all(&mut self, moves: &[Move]) -> Result<Effects, PlayError> {
        let mut next = self.clone();
        let mut effects = Effects::new();
        for m in moves {
            effects.extend(next.play(m)?);
        }
        *self = next;
        Ok(effects)
    }

    pub(super) fn site(&self, text: &str) -> Result<Cell, ParseError> {
        self.geo
            .parse_site(text)
            .ok_or_else(|| ParseError::new(format!("'{text}' is not a site of the {} board", self.geo.board.name())))
    }

    fn parse_part_token(&self, t: &str) -> Result<PartToken, ParseError> {
        if t.eq_ignore_ascii_case("pass") {
            return Ok(PartToken::Pass);
        }
        let (kind, body) = if let Some(b) = t.strip_prefix('+') {
            (PartKind::Place, b)
        } else if let Some(b) = t.strip_prefix('x') {
            (PartKind::Capture, b)
        } else {
            (PartKind::Move, t)
        };
        let (at, to) = match body.split_once('>') {
            Some((a, b)) => (self.site(a)?, Some(self.site(b)?)),
            None => (self.site(body)?, None),
        };
        if kind == PartKind::Move && to.is_none() {
            return Err(ParseError::new(format!("'{t}': a friendly move is written <from>><to>, e.g. k9>j9")));
        }
        if to == Some(at) {
            return Err(ParseError::new(format!("'{t}': a stone that stays is written without '>'")));
        }
        Ok(PartToken::Start { kind, at, to })
    }

    /// Plays a whole pie offer (`pie B:g7 W:e4 W:h9`), the stones of `rest`, Black ones first, and
    /// says which decisions it made.
    fn play_pie_offer(&mut self, t: &str, rest: &str) -> Result<(Effects, Vec<Move>), RecordError> {
        let parse_err = |source: ParseError| RecordError::Parse { token: t.to_string(), source };
        let illegal = |source: PlayError| RecordError::Illegal { token: t.to_string(), source };
        if self.phase != Phase::PieOffer || self.count != [0, 0] {
            return Err(illegal(PlayError::new("a pie offer is made only at the start of a pie game")));
        }
        let n = self.pie_size() as usize;
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for item in rest.split_whitespace() {
            let (colour, cells) = item.split_once(':').ok_or_else(|| {
                parse_err(ParseError::new(format!("'{item}': offered stones are written B:<site> or W:<site>")))
            })?;
            let colour = parse_colour(colour)
                .ok_or_else(|| parse_err(ParseError::new(format!("'{item}': the colours are B and W"))))?;
            for cell in cells.split(',') {
                let s = self.site(cell).map_err(parse_err)?;
                if colour == Side::First { black.push(s) } else { white.push(s) }
            }
        }
        if black.len() != n || white.len() != n + 1 {
            return Err(illegal(PlayError::new(format!(
                "the offer must have {n} Black and {} White stones (got {} and {})",
                n + 1,
                black.len(),
                white.len()
            ))));
        }
        let moves: Vec<Move> = black.into_iter().chain(white).map(Move::Offer).collect();
        let effects = self.play_all(&moves).map_err(illegal)?;
        Ok((effects, moves))
    }

    /// The second field: `B1`, `B2`, `W1`, `W2`, or `pie`/`choose` in a pie opening.
    fn read_mover(&mut self, text: &str) -> Result<(), ParseError> {
        match text {
            "pie" | "choose" => {
                if !matches!(self.options.opening, Opening::Pie(_)) {
                    return Err(ParseError::new(format!("'{text}' needs the pie opening (option opening=pie)")));
                }
                self.phase = if text == "pie" { Phase::PieOffer } else { Phase::PieChoice };
                self.mover = if text == "pie" { Side::First } else { Side::Second };
            }
            _ => {
                let side = text.get(..1).and_then(Position::side_from_letter);
                let part = text.get(1..).filter(|p| matches!(*p, "1" | "2"));
                let (Some(side), Some(part)) = (side, part) else {
                    return Err(ParseError::new(format!("'{text}' is not a side and part (B1, B2, W1 or W2)")));
                };
                self.mover = side;
                self.part = part.as_bytes()[0] - b'0';
            }
        }
        Ok(())
    }

    /// One later field: a stone list `B:e5,e6` / `W:-`, or a counter `key=value`.
    fn read_field<'a>(&mut self, field: &'a str, read: &mut FieldsRead<'a>) -> Result<(), ParseError> {
        let err = |m: String| ParseError::new(m);
        if let Some((side, list)) =
            field.split_once(':').and_then(|(c, list)| Position::side_from_letter(c).map(|side| (side, list)))
        {
            if std::mem::replace(&mut read.stones[side.index()], true) {
                return Err(err(format!("the stones of {} are given twice", colour_name(side))));
            }
            return if list == "-" { Ok(()) } else { self.read_stones(side, list) };
        }
        let (key, value) =
            field.split_once('=').ok_or_else(|| err(format!("'{field}' is neither B:/W: stones nor key=value")))?;
        if read.keys.contains(&key) {
            return Err(err(format!("'{key}' is given twice")));
        }
        read.keys.push(key);
        let number = |v: &str| v.parse::<u32>().map_err(|_| err(format!("{key}={v}: not a whole number")));
        match key {
            "idle" => {
                let (b, w) = value.split_once(',').ok_or_else(|| err(format!("idle={value}: write idle=<B>,<W>")))?;
                for (i, v) in [b, w].into_iter().enumerate() {
                    let n = number(v)?;
                    self.idle[i] = u16::try_from(n).map_err(|_| err(format!("idle={value}: counter out of range")))?;
                }
            }
            "passrun" => {
                let n = number(value)?;
                if n > 4 {
                    return Err(err(format!("passrun={n}: it counts no higher than 4")));
                }
                self.passrun = n as u8;
            }
            "turn" => {
                let n = number(value)?;
                if n == 0 {
                    return Err(err("turn=0: turns are numbered from 1".into()));
                }
                self.turn = n;
            }
            "legacy" => {
                let b = value.as_bytes();
                if b.len() != 2 || !b.iter().all(|c| matches!(c, b'0' | b'1')) {
                    return Err(err(format!("legacy={value}: write two digits 0/1, e.g. legacy=10")));
                }
                read.legacy = (b[0] == b'1', b[1] == b'1');
            }
            "started" => read.started = Some(value),
            _ => return Err(err(format!("unknown key '{key}' (the keys are idle, passrun, turn, legacy)"))),
        }
        Ok(())
    }

    /// Puts `side`'s stones of a comma-separated site list on the board.
    fn read_stones(&mut self, side: Side, list: &str) -> Result<(), ParseError> {
        for name in list.split(',') {
            let s = self.geo.parse_site(name).ok_or_else(|| {
                ParseError::new(format!("'{name}' is not a site of the {} board", self.geo.board.name()))
            })?;
            if !self.is_empty_site(s) {
                return Err(ParseError::new(format!("site {name} is given twice")));
            }
            self.put(s, side);
        }
        Ok(())
    }

    /// The pass rule's counters and flags, against the rule that gives them meaning.
    fn read_pass_rule_flags(&mut self, legacy: (bool, bool)) -> Result<(), ParseError> {
        match self.options.pass_rule {
            PassRule::Progress => {
                if legacy != (false, false) {
                    return Err(ParseError::new(
                        "legacy=… exists only with the legacy pass rule (option pass_rule=legacy)",
                    ));
                }
            }
            PassRule::Legacy => {
                if self.idle != [0, 0] {
                    return Err(ParseError::new("the legacy pass rule has no placement counters: write idle=0,0"));
                }
                let (after_passes, done) = legacy;
                let consistent = if self.part == 1 {
                    !done && after_passes == (self.passrun >= 2)
                } else if self.passrun >= 1 {
                    // Part 1 of this turn was a pass.
                    !done && after_passes == (self.passrun >= 3)
                } else {
                    true
                };
                if !consistent {
                    return Err(ParseError::new(format!(
                        "legacy={}{} does not fit passrun={} in part {}",
                        after_passes as u8, done as u8, self.passrun, self.part
                    )));
                }
                self.legacy_after_passes = after_passes;
                self.legacy_done = done;
            }
        }
        Ok(())
    }

    /// During the pie opening: fresh counters and an offer that is under way or complete.
    fn check_pie_opening(&self, started: bool) -> Result<(), ParseError> {
        if self.idle != [0, 0] || self.passrun != 0 || self.turn != 1 || started {
            return Err(ParseError::new("during the pie opening the counters are idle=0,0 passrun=0 turn=1"));
        }
        let n = self.pie_size() as u16;
        let ok = if self.phase == Phase::PieChoice {
            self.count == [n, n + 1]
        } else {
            self.count[0] <= n
                && self.count[1] <= n + 1
                && (self.count[1] == 0 || self.count[0] == n)
                && self.count != [n, n + 1]
        };
        if !ok {
            return Err(ParseError::new(format!(
                "a pie offer has {n} Black and {} White stones, Black ones placed first",
                n + 1
            )));
        }
        Ok(())
    }

    /// In the turns phase: re-enters a started part, and ends a game that is over (two fully
    /// passed turns, §6.1, or the estimate of Appendix A).
    fn settle_play(&mut self, started: Option<&str>) -> Result<(), ParseError> {
        let err = |m: String| ParseError::new(m);
        if let Some(st) = started {
            let m = self.parse_move(st).map_err(|e| err(format!("started={st}: {e}")))?;
            if !matches!(m, Move::Place(_) | Move::Capture(_) | Move::Pick(_)) {
                return Err(err(format!("started={st}: write +<site>, x<site> or <site>>")));
            }
            self.check(&m).map_err(|e| err(format!("started={st}: {e}")))?;
            let mut next = self.clone();
            next.play_unchecked(&m);
            match next.started {
                Some(s) => self.started = Some(s),
                None => return Err(err(format!("started={st}: that part has no destination to choose"))),
            }
        } else if self.part == 1 && self.passrun == 4 {
            // Two fully passed turns in a row: the game is over (§6.1).
            self.phase = Phase::Over(self.count_outcome());
        }
        if let Some(o) = self.adjudicated() {
            self.phase = Phase::Over(o);
        }
        if self.started.is_some() && matches!(self.phase, Phase::Over(_)) {
            return Err(err("a finished game has no started part".into()));
        }
        Ok(())
    }
}

/// The record's header line (§5), e.g. `[Game "Throngs"] [Board "T93"] [Opening "standard"] …`.
pub fn record_header(options: &ThrongsOptions) -> String {
    use crate::rules::GameOptions;
    let opening = options.get("opening").unwrap_or_default();
    let pass = options.get("pass_rule").unwrap_or_default();
    format!("[Game \"Throngs\"] [Board \"{}\"] [Opening \"{opening}\"] [PassRule \"{pass}\"]", options.board.name())
}

impl Position {
    /// Whether the game is in the turns phase and no part is half chosen.
    pub fn at_part_start(&self) -> bool {
        self.phase == Phase::Play && self.started.is_none() && Rules::status(self).outcome().is_none()
    }
}

//! Text forms (§5): atomic decision tokens, record tokens (one per move part, pie tokens) and the
//! position string.

use super::board::Board;
use super::moves::Move;
use super::options::{Opening, PassRule, ThrongsOptions};
use super::position::{PartKind, Phase, Position};
use crate::rules::{Cell, Effects, LegalTokens, ParseError, PlayError, RecordError, Rules, Side};

fn colour_name(side: Side) -> &'static str {
    match side {
        Side::First => "Black",
        Side::Second => "White",
    }
}

fn colour_letter(side: Side) -> &'static str {
    match side {
        Side::First => "B",
        Side::Second => "W",
    }
}

fn parse_colour(text: &str) -> Option<Side> {
    match text.to_ascii_lowercase().as_str() {
        "black" | "b" => Some(Side::First),
        "white" | "w" => Some(Side::Second),
        _ => None,
    }
}

/// What a record token for one move part says (§5).
enum PartToken {
    Pass,
    Start { kind: PartKind, at: Cell, to: Option<Cell> },
}

impl Position {
    pub(super) fn site(&self, text: &str) -> Result<Cell, ParseError> {
        self.geo
            .parse_site(text)
            .ok_or_else(|| ParseError::new(format!("'{text}' is not a site of the {} board", self.geo.board.name())))
    }

    pub(super) fn parse_atomic(&self, text: &str) -> Result<Move, ParseError> {
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

    pub(super) fn format_atomic(&self, m: &Move) -> String {
        let name = |s: &Cell| self.geo.name(*s);
        match m {
            Move::Pass => "pass".into(),
            Move::Place(s) => format!("+{}", name(s)),
            Move::Capture(s) => format!("x{}", name(s)),
            Move::Pick(s) => format!("{}>", name(s)),
            Move::To(s) => format!(">{}", name(s)),
            Move::Offer(s) => format!("{}:{}", colour_letter(self.offer_colour()), name(s)),
            Move::Choose(side) => format!("choose {}", colour_name(*side)),
        }
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

    /// The atomic decisions a record token stands for, checked by playing them on `self`.
    pub(super) fn play_token(&mut self, token: &str) -> Result<Effects, RecordError> {
        let t = token.trim();
        let parse_err = |source: ParseError| RecordError::Parse { token: t.to_string(), source };
        let illegal = |source: PlayError| RecordError::Illegal { token: t.to_string(), source };
        let mut next = self.clone();
        let mut effects = Effects::new();
        if let Some(rest) = t.strip_prefix("pie ").or_else(|| t.strip_prefix("pie\t")) {
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
            for s in black.into_iter().chain(white) {
                effects.extend(next.play(&Move::Offer(s)).map_err(illegal)?);
            }
            *self = next;
            return Ok(effects);
        }
        if self.phase != Phase::Play || self.started.is_some() {
            // Pie choice, a started part or a finished game: the token is one atomic decision.
            let m = self.parse_atomic(t).map_err(parse_err)?;
            effects = next.play(&m).map_err(illegal)?;
            *self = next;
            return Ok(effects);
        }
        match self.parse_part_token(t).map_err(parse_err)? {
            PartToken::Pass => effects.extend(next.play(&Move::Pass).map_err(illegal)?),
            PartToken::Start { kind, at, to } => {
                let start = match kind {
                    PartKind::Place => Move::Place(at),
                    PartKind::Capture => Move::Capture(at),
                    PartKind::Move => Move::Pick(at),
                };
                effects.extend(next.play(&start).map_err(illegal)?);
                match (next.started, to) {
                    (Some(_), Some(to)) => effects.extend(next.play(&Move::To(to)).map_err(illegal)?),
                    (Some(_), None) => effects.extend(next.play(&Move::To(at)).map_err(illegal)?),
                    (None, None) => {}
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
        *self = next;
        Ok(effects)
    }

    /// Every legal record token (§5) for the side to move, sorted.
    pub(super) fn record_tokens(&self) -> LegalTokens {
        let mut moves = Vec::new();
        self.generate(&mut moves);
        let mut tokens = Vec::new();
        match self.phase {
            Phase::PieOffer if self.count == [0, 0] => {
                let sites = self.geo.len() as u64;
                let n = self.pie_size() as u64;
                return LegalTokens::CountOnly(binomial(sites, n).saturating_mul(binomial(sites - n, n + 1)));
            }
            Phase::Play if self.started.is_none() => {
                for m in &moves {
                    let (kind, at, prefix) = match *m {
                        Move::Place(s) => (PartKind::Place, s, "+"),
                        Move::Capture(s) => (PartKind::Capture, s, "x"),
                        Move::Pick(s) => (PartKind::Move, s, ""),
                        _ => {
                            tokens.push(self.format_atomic(m));
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
            _ => tokens.extend(moves.iter().map(|m| self.format_atomic(m))),
        }
        tokens.sort();
        tokens.dedup();
        LegalTokens::List(tokens)
    }

    /// The canonical position string (§5, plus `pie`/`choose` phases and `started=` for a part
    /// whose destination is still open).
    pub(super) fn position_text(&self) -> String {
        let mut out = self.geo.board.name();
        out.push(' ');
        match self.phase {
            Phase::PieOffer => out.push_str("pie"),
            Phase::PieChoice => out.push_str("choose"),
            _ => {
                out.push_str(colour_letter(self.mover));
                out.push_str(if self.part == 1 { "1" } else { "2" });
            }
        }
        for side in Side::BOTH {
            out.push(' ');
            out.push_str(colour_letter(side));
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

    /// Reads a position string, checking the invariants of §5.
    pub(super) fn from_text(options: &ThrongsOptions, text: &str) -> Result<Position, ParseError> {
        let err = |m: String| ParseError::new(m);
        let mut fields = text.split_whitespace();
        let board_text = fields.next().ok_or_else(|| err("the position text is empty".into()))?;
        let board = Board::parse(board_text).map_err(err)?;
        let mut options = *options;
        // The text names its board; it wins over the board option.
        options.board = board;
        let mut p = Position::empty_board(&options);
        let mover_text = fields.next().ok_or_else(|| err("missing the side and part (B1, B2, W1, W2)".into()))?;
        match mover_text {
            "pie" | "choose" => {
                if !matches!(options.opening, Opening::Pie(_)) {
                    return Err(err(format!("'{mover_text}' needs the pie opening (option opening=pie)")));
                }
                p.phase = if mover_text == "pie" { Phase::PieOffer } else { Phase::PieChoice };
                p.mover = if mover_text == "pie" { Side::First } else { Side::Second };
            }
            _ => {
                let b = mover_text.as_bytes();
                if b.len() != 2 || !matches!(b[0], b'B' | b'W') || !matches!(b[1], b'1' | b'2') {
                    return Err(err(format!("'{mover_text}' is not a side and part (B1, B2, W1 or W2)")));
                }
                p.mover = if b[0] == b'B' { Side::First } else { Side::Second };
                p.part = b[1] - b'0';
            }
        }
        let mut seen = [false; 2];
        let mut keys: Vec<&str> = Vec::new();
        let mut legacy = (false, false);
        let mut started_text: Option<&str> = None;
        for field in fields {
            if let Some((colour, list)) = field.split_once(':').filter(|(c, _)| matches!(*c, "B" | "W")) {
                let side = if colour == "B" { Side::First } else { Side::Second };
                if std::mem::replace(&mut seen[side.index()], true) {
                    return Err(err(format!("the stones of {} are given twice", colour_name(side))));
                }
                if list == "-" {
                    continue;
                }
                for name in list.split(',') {
                    let s = p
                        .geo
                        .parse_site(name)
                        .ok_or_else(|| err(format!("'{name}' is not a site of the {} board", board.name())))?;
                    if !p.is_empty_site(s) {
                        return Err(err(format!("site {name} is given twice")));
                    }
                    p.put(s, side);
                }
                continue;
            }
            let (key, value) =
                field.split_once('=').ok_or_else(|| err(format!("'{field}' is neither B:/W: stones nor key=value")))?;
            if keys.contains(&key) {
                return Err(err(format!("'{key}' is given twice")));
            }
            keys.push(key);
            let number = |v: &str| v.parse::<u32>().map_err(|_| err(format!("{key}={v}: not a whole number")));
            match key {
                "idle" => {
                    let (b, w) =
                        value.split_once(',').ok_or_else(|| err(format!("idle={value}: write idle=<B>,<W>")))?;
                    for (i, v) in [b, w].into_iter().enumerate() {
                        let n = number(v)?;
                        p.idle[i] = u16::try_from(n).map_err(|_| err(format!("idle={value}: counter out of range")))?;
                    }
                }
                "passrun" => {
                    let n = number(value)?;
                    if n > 4 {
                        return Err(err(format!("passrun={n}: it counts no higher than 4")));
                    }
                    p.passrun = n as u8;
                }
                "turn" => {
                    let n = number(value)?;
                    if n == 0 {
                        return Err(err("turn=0: turns are numbered from 1".into()));
                    }
                    p.turn = n;
                }
                "legacy" => {
                    let b = value.as_bytes();
                    if b.len() != 2 || !b.iter().all(|c| matches!(c, b'0' | b'1')) {
                        return Err(err(format!("legacy={value}: write two digits 0/1, e.g. legacy=10")));
                    }
                    legacy = (b[0] == b'1', b[1] == b'1');
                }
                "started" => started_text = Some(value),
                _ => return Err(err(format!("unknown key '{key}' (the keys are idle, passrun, turn, legacy)"))),
            }
        }
        if !(seen[0] && seen[1]) {
            return Err(err("the position needs both stone lists, B:<sites> and W:<sites> ('-' for none)".into()));
        }
        // Counters and flags against the rules that give them meaning.
        match options.pass_rule {
            PassRule::Progress => {
                if legacy != (false, false) {
                    return Err(err("legacy=… exists only with the legacy pass rule (option pass_rule=legacy)".into()));
                }
            }
            PassRule::Legacy => {
                if p.idle != [0, 0] {
                    return Err(err("the legacy pass rule has no placement counters: write idle=0,0".into()));
                }
                let (after_passes, done) = legacy;
                let consistent = if p.part == 1 {
                    !done && after_passes == (p.passrun >= 2)
                } else if p.passrun >= 1 {
                    // Part 1 of this turn was a pass.
                    !done && after_passes == (p.passrun >= 3)
                } else {
                    true
                };
                if !consistent {
                    return Err(err(format!(
                        "legacy={}{} does not fit passrun={} in part {}",
                        after_passes as u8, done as u8, p.passrun, p.part
                    )));
                }
                p.legacy_after_passes = after_passes;
                p.legacy_done = done;
            }
        }
        match p.phase {
            Phase::PieOffer | Phase::PieChoice => {
                if p.idle != [0, 0] || p.passrun != 0 || p.turn != 1 || started_text.is_some() {
                    return Err(err("during the pie opening the counters are idle=0,0 passrun=0 turn=1".into()));
                }
                let n = p.pie_size() as u16;
                let ok = if p.phase == Phase::PieChoice {
                    p.count == [n, n + 1]
                } else {
                    p.count[0] <= n
                        && p.count[1] <= n + 1
                        && (p.count[1] == 0 || p.count[0] == n)
                        && p.count != [n, n + 1]
                };
                if !ok {
                    return Err(err(format!(
                        "a pie offer has {n} Black and {} White stones, Black ones placed first",
                        n + 1
                    )));
                }
            }
            _ => {
                if let Some(st) = started_text {
                    let m = p.parse_atomic(st).map_err(|e| err(format!("started={st}: {e}")))?;
                    if !matches!(m, Move::Place(_) | Move::Capture(_) | Move::Pick(_)) {
                        return Err(err(format!("started={st}: write +<site>, x<site> or <site>>")));
                    }
                    let mut legal = Vec::new();
                    p.generate(&mut legal);
                    if !legal.contains(&m) {
                        return Err(err(format!("started={st}: {}", p.explain_illegal(&m))));
                    }
                    let mut next = p.clone();
                    next.play_unchecked(&m);
                    match next.started {
                        Some(s) => p.started = Some(s),
                        None => return Err(err(format!("started={st}: that part has no destination to choose"))),
                    }
                } else if p.part == 1 && p.passrun == 4 {
                    // Two fully passed turns in a row: the game is over (§6.1).
                    p.phase = Phase::Over(p.count_outcome());
                }
                if let Some(o) = p.adjudicated() {
                    p.phase = Phase::Over(o);
                }
                if p.started.is_some() && matches!(p.phase, Phase::Over(_)) {
                    return Err(err("a finished game has no started part".into()));
                }
            }
        }
        Ok(p)
    }
}

/// `C(n, k)`, saturating.
fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let mut r: u64 = 1;
    for i in 0..k {
        r = r.saturating_mul(n - i) / (i + 1);
    }
    r
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

//! The lexer every game's record reader shares: a record text split into tags, move numbers,
//! tokens, comments and result markers, each with its line. What a game makes of them (which tags
//! it knows, where numbers go, whether comments are allowed) stays with the game's reader.

use super::ParseError;
use std::ops::Range;

/// One piece of a record text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordPiece<'a> {
    /// `[Key "value"]` (quoted, with `\"` and `\\` escapes) or `[Key value words]` (unquoted, as in
    /// Gravel's header `[Gravel N=8 X=4]`); `quoted` says which.
    Tag { key: &'a str, value: String, quoted: bool },
    /// A move number: `12.`, `3...` (`dots` counts the dots) or a turn and attempt `3.1`.
    MoveNumber { number: u32, dots: usize, attempt: Option<u32> },
    /// The text of a `{comment}`, braces removed.
    Comment(&'a str),
    /// A game result marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    Result(&'a str),
    /// Anything else, up to white space or a brace or bracket: a move or a separator.
    Token(&'a str),
}

/// A piece and where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordItem<'a> {
    /// The line it starts on, from 1.
    pub line: usize,
    /// Its bytes in the text (braces and brackets included), to quote or cut the text around it.
    pub span: Range<usize>,
    /// Whether it follows the previous piece without white space (`3.Dd4`, `Dd4{B+1}`).
    pub glued: bool,
    pub piece: RecordPiece<'a>,
}

/// The result markers of PGN-like records.
pub const RESULT_MARKERS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Splits a record text into its pieces. Fails on a comment left open or holding `{`, a stray
/// `}`, and a tag without a key or its closing `]`.
pub fn lex_record(text: &str) -> Result<Vec<RecordItem<'_>>, ParseError> {
    let mut lexer = Lexer { text, at: 0, line: 1, items: Vec::new() };
    lexer.run()?;
    Ok(lexer.items)
}

/// `text` without its `{comments}`, trimmed; lenient, for one record token (an unclosed comment
/// runs to the end, a stray `}` stays and makes the token unreadable).
pub fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for ch in text.chars() {
        match ch {
            '{' => depth += 1,
            '}' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(ch),
            _ => {}
        }
    }
    out.trim().to_string()
}

struct Lexer<'a> {
    text: &'a str,
    at: usize,
    line: usize,
    items: Vec<RecordItem<'a>>,
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let ch = self.peek()?;
        self.at += ch.len_utf8();
        if ch == '\n' {
            self.line += 1;
        }
        Some(ch)
    }

    fn skip_while(&mut self, keep: impl Fn(char) -> bool) -> &'a str {
        let start = self.at;
        while self.peek().is_some_and(&keep) {
            self.bump();
        }
        &self.text[start..self.at]
    }

    /// Adds a piece that starts at byte `start` and ends where the lexer stands.
    fn push(&mut self, start: usize, line: usize, glued: bool, piece: RecordPiece<'a>) {
        self.items.push(RecordItem { line, span: start..self.at, glued, piece });
    }

    fn run(&mut self) -> Result<(), ParseError> {
        let mut glued = false;
        while let Some(ch) = self.peek() {
            let (start, line) = (self.at, self.line);
            match ch {
                _ if ch.is_whitespace() => {
                    self.bump();
                    glued = false;
                    continue;
                }
                '{' => {
                    let comment = self.comment()?;
                    self.push(start, line, glued, RecordPiece::Comment(comment));
                }
                '}' => return Err(ParseError::new("'}' without an opening '{'")),
                '[' => {
                    let tag = self.tag()?;
                    self.push(start, line, glued, tag);
                }
                _ => {
                    let word = self.skip_while(|c| !c.is_whitespace() && !matches!(c, '{' | '}' | '['));
                    self.word(start, line, glued, word);
                }
            }
            glued = true;
        }
        Ok(())
    }

    fn comment(&mut self) -> Result<&'a str, ParseError> {
        self.bump();
        let start = self.at;
        loop {
            match self.bump() {
                Some('}') => return Ok(&self.text[start..self.at - 1]),
                Some('{') => return Err(ParseError::new("a comment may not contain '{'")),
                Some(_) => {}
                None => return Err(ParseError::new("a comment '{' is never closed with '}'")),
            }
        }
    }

    fn tag(&mut self) -> Result<RecordPiece<'a>, ParseError> {
        self.bump();
        let key = self.skip_while(|c| c.is_ascii_alphanumeric() || c == '_');
        let bad = || ParseError::new(format!("tag [{key} …] is not written [Key \"value\"]"));
        self.skip_while(char::is_whitespace);
        if key.is_empty() {
            return Err(bad());
        }
        let (value, quoted) = if self.peek() == Some('"') {
            self.bump();
            let mut value = String::new();
            loop {
                match self.bump() {
                    Some('"') => break,
                    Some('\\') => value.push(self.bump().ok_or_else(bad)?),
                    Some(c) => value.push(c),
                    None => return Err(bad()),
                }
            }
            self.skip_while(char::is_whitespace);
            (value, true)
        } else {
            (self.skip_while(|c| c != ']' && c != '\n').trim_end().to_string(), false)
        };
        match self.bump() {
            Some(']') => Ok(RecordPiece::Tag { key, value, quoted }),
            None | Some('\n') => Err(ParseError::new(format!("tag [{key} …] has no ']'"))),
            Some(_) => Err(bad()),
        }
    }

    /// A word: a result marker, a move number (with the move glued to it, if any) or a token.
    fn word(&mut self, start: usize, line: usize, glued: bool, word: &'a str) {
        if RESULT_MARKERS.contains(&word) {
            return self.push(start, line, glued, RecordPiece::Result(word));
        }
        match move_number(word) {
            Some((number, rest)) if !rest.is_empty() => {
                let number_end = self.at - rest.len();
                self.items.push(RecordItem { line, span: start..number_end, glued, piece: number });
                self.push(number_end, line, true, RecordPiece::Token(rest));
            }
            Some((number, _)) => self.push(start, line, glued, number),
            None => self.push(start, line, glued, RecordPiece::Token(word)),
        }
    }
}

/// A move number at the start of `word` (`3.`, `3...`, `3.1`) and what follows it.
fn move_number(word: &str) -> Option<(RecordPiece<'_>, &str)> {
    let digits = word.find(|c: char| !c.is_ascii_digit()).unwrap_or(word.len());
    let number: u32 = word[..digits].parse().ok()?;
    let rest = &word[digits..];
    let dots = rest.find(|c: char| c != '.').unwrap_or(rest.len());
    if dots == 0 {
        return None;
    }
    let rest = &rest[dots..];
    let attempt_digits = if dots == 1 { rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len()) } else { 0 };
    let attempt = match attempt_digits {
        0 => None,
        n => Some(rest[..n].parse().ok()?),
    };
    Some((RecordPiece::MoveNumber { number, dots, attempt }, &rest[attempt_digits..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use RecordPiece::*;

    fn pieces(text: &str) -> Vec<RecordPiece<'_>> {
        lex_record(text).unwrap().into_iter().map(|i| i.piece).collect()
    }

    #[test]
    fn a_pgn_like_record_splits_into_its_pieces() {
        let text = "[Game \"Inchworm\"] [Target \"60\"]\n1. Da1 Db1 2.Dh8 Da2 {W+1} 2... R *";
        assert_eq!(
            pieces(text),
            vec![
                Tag { key: "Game", value: "Inchworm".into(), quoted: true },
                Tag { key: "Target", value: "60".into(), quoted: true },
                MoveNumber { number: 1, dots: 1, attempt: None },
                Token("Da1"),
                Token("Db1"),
                MoveNumber { number: 2, dots: 1, attempt: None },
                Token("Dh8"),
                Token("Da2"),
                Comment("W+1"),
                MoveNumber { number: 2, dots: 3, attempt: None },
                Token("R"),
                Result("*"),
            ]
        );
        let items = lex_record(text).unwrap();
        assert_eq!((items[2].line, items[2].glued), (2, false));
        assert!(items[6].glued, "the move glued to its number");
        assert!(!items[8].glued);
        assert_eq!(&text[items[5].span.clone()], "2.");
        assert_eq!(&text[items[6].span.clone()], "Dh8");
        assert_eq!(&text[items[8].span.clone()], "{W+1}");
        assert_eq!(&text[items[1].span.clone()], "[Target \"60\"]");
    }

    #[test]
    fn turns_with_attempts_unquoted_headers_and_escapes() {
        assert_eq!(
            pieces("3.1 Pe5 | d6<>h1 Pe6 {burn c6}"),
            vec![
                MoveNumber { number: 3, dots: 1, attempt: Some(1) },
                Token("Pe5"),
                Token("|"),
                Token("d6<>h1"),
                Token("Pe6"),
                Comment("burn c6")
            ]
        );
        assert_eq!(pieces("[Gravel N=8 X=4]"), vec![Tag { key: "Gravel", value: "N=8 X=4".into(), quoted: false }]);
        assert_eq!(
            pieces(r#"[White "A \"B\" \\ C"]"#),
            vec![Tag { key: "White", value: r#"A "B" \ C"#.into(), quoted: true }]
        );
        assert_eq!(pieces("1B +k10 12 1-0"), vec![Token("1B"), Token("+k10"), Token("12"), Result("1-0")]);
    }

    #[test]
    fn broken_comments_and_tags_are_refused_with_a_reason() {
        for (text, why) in [
            ("Da1 {W+1", "never closed"),
            ("Da1 {a {b}}", "may not contain"),
            ("Da1 }", "without an opening"),
            ("[\"x\"]", "[Key \"value\"]"),
            ("[Game \"x\"", "no ']'"),
            ("[Game x", "no ']'"),
            ("[Game \"x\" y]", "[Key \"value\"]"),
        ] {
            let err = lex_record(text).unwrap_err();
            assert!(err.reason.contains(why), "{text}: {err}");
        }
    }

    #[test]
    fn comments_leave_one_token() {
        assert_eq!(strip_comments(" Dh8 {W+2} "), "Dh8");
        assert_eq!(strip_comments("Dh8 {open"), "Dh8");
        assert_eq!(strip_comments("Dh8}"), "Dh8}");
    }
}

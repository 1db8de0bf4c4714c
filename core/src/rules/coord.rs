//! Cell names, `a1` style (files a, b, c, …) and Go style (A, B, …, skipping I), and the ranks
//! field of a square board's position text (`.L1/D2./…`, the top rank first).

use super::ParseError;

/// How a game writes file letters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileLetters {
    /// `a b c … z`, lower case (Gravel, Inchworm, Hidden Intention).
    Lower,
    /// `A B … H J …`, upper case without `I` (Go style; Red Stone).
    GoUpper,
}

impl FileLetters {
    fn letter(self, file: usize) -> Option<char> {
        match self {
            FileLetters::Lower => (file < 26).then(|| (b'a' + file as u8) as char),
            FileLetters::GoUpper => {
                if file >= 25 {
                    return None;
                }
                let skip = if file >= 8 { 1 } else { 0 };
                Some((b'A' + (file + skip) as u8) as char)
            }
        }
    }

    fn file(self, letter: char) -> Option<usize> {
        match self {
            FileLetters::Lower => letter.is_ascii_lowercase().then(|| (letter as u8 - b'a') as usize),
            FileLetters::GoUpper => {
                if !letter.is_ascii_uppercase() || letter == 'I' {
                    return None;
                }
                let i = (letter as u8 - b'A') as usize;
                Some(if i > 8 { i - 1 } else { i })
            }
        }
    }
}

/// Writes `(file, rank)` (both 0-based, rank 0 = row "1") as `a1` / `A1`.
pub fn cell_name(letters: FileLetters, file: usize, rank: usize) -> String {
    let mut s = String::with_capacity(3);
    s.push(letters.letter(file).unwrap_or('?'));
    s.push_str(&(rank + 1).to_string());
    s
}

/// Reads a cell name, `a1` / `A1`, into `(file, rank)` 0-based, whatever the board: one file
/// letter, then a rank from 1 without leading zeros.
pub fn read_cell_name(letters: FileLetters, text: &str) -> Option<(usize, usize)> {
    let mut chars = text.chars();
    let file = letters.file(chars.next()?)?;
    let digits = chars.as_str();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
        return None;
    }
    let rank = digits.parse::<usize>().ok()?.checked_sub(1)?;
    Some((file, rank))
}

/// Reads `a1` / `A1` into `(file, rank)` 0-based, checked against a `width` × `height` board.
pub fn parse_cell(letters: FileLetters, text: &str, width: usize, height: usize) -> Result<(usize, usize), ParseError> {
    read_cell_name(letters, text)
        .filter(|&(file, rank)| file < width && rank < height)
        .ok_or_else(|| ParseError::new(format!("'{text}' is not a square of this {width}×{height} board")))
}

/// Writes the ranks field of a `width` × `height` board: the ranks from the top one down,
/// separated by `/`, each its cells from file a as `cell(out, file, rank)` writes them.
pub fn write_ranks(out: &mut String, width: usize, height: usize, mut cell: impl FnMut(&mut String, usize, usize)) {
    for rank in (0..height).rev() {
        for file in 0..width {
            cell(out, file, rank);
        }
        if rank > 0 {
            out.push('/');
        }
    }
}

/// One cell of a stacking game's ranks field: `.` when it is empty, else the owner's letter and
/// the height (`L2`, `W13`).
pub fn write_stack(out: &mut String, stack: Option<(char, u8)>) {
    match stack {
        None => out.push('.'),
        Some((owner, height)) => {
            out.push(owner);
            out.push_str(&height.to_string());
        }
    }
}

/// Splits the ranks field of a board `height` ranks high into `(rank, text)`, the top rank
/// (`height - 1`) first.
pub fn split_ranks(field: &str, height: usize) -> Result<Vec<(usize, &str)>, ParseError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != height {
        return Err(ParseError::new(format!("the board needs {height} ranks separated by '/', found {}", ranks.len())));
    }
    Ok(ranks.into_iter().enumerate().map(|(k, text)| (height - 1 - k, text)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_names_round_trip() {
        assert_eq!(cell_name(FileLetters::Lower, 0, 0), "a1");
        assert_eq!(cell_name(FileLetters::Lower, 7, 7), "h8");
        assert_eq!(parse_cell(FileLetters::Lower, "h8", 8, 8), Ok((7, 7)));
        assert!(parse_cell(FileLetters::Lower, "i1", 8, 8).is_err());
        assert!(parse_cell(FileLetters::Lower, "a9", 8, 8).is_err());
        assert!(parse_cell(FileLetters::Lower, "a0", 8, 8).is_err());
        assert!(parse_cell(FileLetters::Lower, "a01", 8, 8).is_err());
        assert!(parse_cell(FileLetters::Lower, "", 8, 8).is_err());
        assert_eq!(read_cell_name(FileLetters::Lower, "z99"), Some((25, 98)));
        assert_eq!(read_cell_name(FileLetters::Lower, "Z9"), None);
    }

    #[test]
    fn ranks_are_written_and_split_from_the_top() {
        let mut text = String::new();
        write_ranks(&mut text, 3, 2, |out, file, rank| out.push_str(&cell_name(FileLetters::Lower, file, rank)));
        assert_eq!(text, "a2b2c2/a1b1c1");
        assert_eq!(split_ranks(&text, 2), Ok(vec![(1, "a2b2c2"), (0, "a1b1c1")]));
        assert!(split_ranks(&text, 3).unwrap_err().reason.contains("3 ranks"));
        let mut stacks = String::new();
        write_ranks(&mut stacks, 2, 1, |out, file, _| write_stack(out, (file == 1).then_some(('W', 13))));
        assert_eq!(stacks, ".W13");
    }

    #[test]
    fn go_names_skip_i() {
        assert_eq!(cell_name(FileLetters::GoUpper, 7, 0), "H1");
        assert_eq!(cell_name(FileLetters::GoUpper, 8, 0), "J1");
        assert_eq!(cell_name(FileLetters::GoUpper, 18, 18), "T19");
        assert_eq!(parse_cell(FileLetters::GoUpper, "J1", 19, 19), Ok((8, 0)));
        assert!(parse_cell(FileLetters::GoUpper, "I1", 19, 19).is_err());
        for f in 0..19 {
            let name = cell_name(FileLetters::GoUpper, f, 3);
            assert_eq!(parse_cell(FileLetters::GoUpper, &name, 19, 19), Ok((f, 3)));
        }
    }
}

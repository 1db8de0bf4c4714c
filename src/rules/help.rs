//! A game's rules in brief, as plain data: sections in words and illustrations taken from the
//! worked examples of its spec (the app draws each illustration before and after its move).

/// The rules summary of one game.
#[derive(Clone, Copy, Debug)]
pub struct RulesHelp {
    /// (heading, text), starting with "Goal" and ending with "Here" (how to play in Stoneyard).
    pub sections: &'static [(&'static str, &'static str)],
    pub illustrations: &'static [Illustration],
}

/// A rule at work: a position from a worked example of the game's spec and the move the example
/// plays there.
#[derive(Clone, Copy, Debug)]
pub struct Illustration {
    pub caption: &'static str,
    /// Options as the setup screen and the command line write them.
    pub options: &'static [(&'static str, &'static str)],
    /// The position text of the spec.
    pub position: &'static str,
    /// One record token of the spec's notation.
    pub play: &'static str,
}
